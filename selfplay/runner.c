/* Parallel game pairs with one batching writer.
 *
 * Workers take game indices from a shared counter, so game i is always played from the
 * same opening with the same seed whatever the thread timing.  Finished games wait in a
 * batch that the thread holding the writer lock commits in one transaction: a killed run
 * loses only the games in flight and the batch not yet committed. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "position.h"
#include "runner.h"
#include "variant.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct Finished {
    PlayedGame game;
    int index;
    Position opening;
    int64_t white_weights_id, black_weights_id;
} Finished;

typedef struct Writer {
    const RunnerConfig *cfg;
    RunnerTotals *totals;
    Finished *batch;
    int count, cap;
    double last_flush, start;
    double *pair_points;          /* A's points per pair, NAN until the game is done */
    int *pair_games_done;
    Position *pair_opening;       /* random openings drawn so far, shared by a pair's games */
    bool *pair_opening_known;
    int pairs_done, games_started;
} Writer;

/* Commits the batch: openings, then all games and positions in one transaction. */
static bool writer_flush(Writer *w)
{
    const RunnerConfig *cfg = w->cfg;
    if (w->count == 0 || !cfg->store) {
        for (int i = 0; i < w->count; i++)
            played_game_free(&w->batch[i].game);
        w->count = 0;
        return true;
    }
    double t0 = now_seconds();
    GameRecord *recs = calloc((size_t)w->count, sizeof *recs);
    bool ok = recs != NULL;
    for (int i = 0; ok && i < w->count; i++) {
        Finished *f = &w->batch[i];
        char fen[256];
        position_to_fen(&f->opening, cfg->setup.variant, fen, sizeof fen);
        int64_t opening_id = store_opening_put(cfg->store, fen, cfg->book ? "file" : "random");
        if (opening_id < 0) {
            ok = false;
            break;
        }
        recs[i] = (GameRecord){
            .run_id = cfg->run_id,
            .pair_id = f->index / 2 + 1, /* ids start at 1 */
            .opening_id = opening_id,
            .white_weights_id = f->white_weights_id,
            .black_weights_id = f->black_weights_id,
            .result = f->game.result,
            .reason = reason_name(f->game.reason),
            .plies = f->game.plies,
            .mars = f->game.mars,
            .moves = f->game.moves,
            .seed = cfg->seed + (uint64_t)f->index,
            .has_index = true,
            .game_index = f->index,
            .positions = f->game.positions,
            .npositions = f->game.npositions,
        };
    }
    if (ok)
        ok = store_games_write(cfg->store, recs, w->count);
    if (!ok) {
        w->totals->failed = true;
        snprintf(w->totals->error, sizeof w->totals->error, "%s", store_error(cfg->store));
    }
    free(recs);
    for (int i = 0; i < w->count; i++)
        played_game_free(&w->batch[i].game);
    w->count = 0;
    w->totals->db_seconds += now_seconds() - t0;
    w->last_flush = now_seconds();
    return ok;
}

static void print_progress(const Writer *w, bool final)
{
    const RunnerTotals *t = w->totals;
    double elapsed = now_seconds() - w->start;
    double rate = elapsed > 0 ? t->games / elapsed : 0;
    int left = w->cfg->games - t->games;
    double eta = rate > 0 ? left / rate : 0;
    fprintf(stderr, "\r%s: games %d/%d  %.1f games/s  W %d D %d L %d  ETA %dm%02ds   %s",
            w->cfg->label ? w->cfg->label : "games", t->games, w->cfg->games, rate,
            t->white_wins, t->draws, t->black_wins, (int)eta / 60, (int)eta % 60,
            final ? "\n" : "");
    fflush(stderr);
}

/* Books a finished game (writer lock held). */
static void writer_add(Writer *w, Finished *f)
{
    RunnerTotals *t = w->totals;
    const PlayedGame *g = &f->game;
    bool a_white = f->index % 2 == 0;
    double a_points = g->result == RESULT_DRAW ? 0.5
                    : (g->result == RESULT_WHITE_WINS) == a_white ? 1.0 : 0.0;
    t->games++;
    t->positions += g->npositions;
    t->white_wins += g->result == RESULT_WHITE_WINS;
    t->black_wins += g->result == RESULT_BLACK_WINS;
    t->draws += g->result == RESULT_DRAW;
    t->a_wins += a_points == 1.0;
    t->b_wins += a_points == 0.0;
    t->mars += g->mars;
    w->batch[w->count++] = *f;

    int pair = f->index / 2;
    w->pair_points[pair] += a_points;
    if (++w->pair_games_done[pair] == 2) {
        t->pentanomial[(int)lround(w->pair_points[pair] * 2)]++;
        w->pairs_done++;
        const double both[2] = { w->pair_points[pair] - a_points, a_points };
        if (w->cfg->on_pair && !w->cfg->on_pair(w->cfg->ctx, pair, both))
            t->decided = true;
    }
    if (w->count >= w->cap || now_seconds() - w->last_flush > 2.0)
        writer_flush(w);
}

bool runner_play(const RunnerConfig *cfg, RunnerTotals *totals)
{
    memset(totals, 0, sizeof *totals);
    int pairs = (cfg->games + 1) / 2;
    Writer w = { .cfg = cfg, .totals = totals, .cap = cfg->batch_games > 0 ? cfg->batch_games : 64 };
    w.batch = calloc((size_t)w.cap, sizeof *w.batch);
    w.pair_points = calloc((size_t)pairs, sizeof *w.pair_points);
    w.pair_games_done = calloc((size_t)pairs, sizeof *w.pair_games_done);
    w.pair_opening = calloc((size_t)pairs, sizeof *w.pair_opening);
    w.pair_opening_known = calloc((size_t)pairs, sizeof *w.pair_opening_known);
    if (!w.batch || !w.pair_points || !w.pair_games_done || !w.pair_opening || !w.pair_opening_known) {
        snprintf(totals->error, sizeof totals->error, "out of memory");
        totals->failed = true;
        goto done;
    }
    w.start = w.last_flush = now_seconds();
    int next_game = 0;
    int threads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();

#pragma omp parallel num_threads(threads)
    {
        Searcher *player[2] = {
            searcher_new(cfg->setup.variant, &cfg->setup.rules, cfg->weights[0], cfg->hash_mb),
            searcher_new(cfg->setup.variant, &cfg->setup.rules, cfg->weights[1], cfg->hash_mb),
        };
        bool have_searchers = player[0] && player[1];
        if (have_searchers)
            player[0]->stop_request = player[1]->stop_request = cfg->stop;
        double last_progress = 0;
        while (have_searchers) {
            int index;
            bool go, known = false;
            Finished f;
#pragma omp critical(dama_writer)
            {
                index = next_game++;
                go = index < cfg->games && !totals->decided && !totals->failed
                     && !(cfg->stop && atomic_load(cfg->stop));
                if (go && (known = w.pair_opening_known[index / 2]))
                    f.opening = w.pair_opening[index / 2];
            }
            if (!go)
                break;
            int pair = index / 2;
            f = (Finished){ .index = index, .opening = f.opening };
            if (cfg->book) {
                f.opening = cfg->book->positions[pair % cfg->book->count];
            } else if (!known) {
                /* The pair's twin reuses it; if both draw it at once they get the same. */
                opening_random(cfg->setup.variant, &cfg->setup.rules, cfg->random_plies,
                               cfg->seed + 2 * (uint64_t)pair, player[0], cfg->opening_balance,
                               &f.opening);
#pragma omp critical(dama_writer)
                {
                    w.pair_opening[pair] = f.opening;
                    w.pair_opening_known[pair] = true;
                }
            }
            int w_player = index % 2; /* A (0) is White in the pair's first game */
            Searcher *white = player[w_player], *black = player[!w_player];
            f.white_weights_id = cfg->weights_id[w_player];
            f.black_weights_id = cfg->weights_id[!w_player];
            if (!play_game(&cfg->setup, white, black, &f.opening, cfg->seed + (uint64_t)index, cfg->stop,
                           &f.game))
                continue; /* interrupted (or out of memory): this game is lost, no other */
#pragma omp critical(dama_writer)
            {
                writer_add(&w, &f);
                if (cfg->progress && now_seconds() - last_progress > 0.5) {
                    print_progress(&w, false);
                    last_progress = now_seconds();
                }
            }
        }
        if (!have_searchers) {
#pragma omp critical(dama_writer)
            {
                totals->failed = true;
                snprintf(totals->error, sizeof totals->error, "out of memory for the search tables");
            }
        }
        searcher_free(player[0]);
        searcher_free(player[1]);
    }
    writer_flush(&w);
    totals->interrupted = cfg->stop && atomic_load(cfg->stop);
    if (cfg->progress)
        print_progress(&w, true);
done:
    totals->seconds = now_seconds() - w.start;
    free(w.batch);
    free(w.pair_points);
    free(w.pair_games_done);
    free(w.pair_opening);
    free(w.pair_opening_known);
    return !totals->failed;
}
