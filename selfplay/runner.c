/* Parallel game pairs with one batching writer.
 *
 * Workers take game indices from a shared counter, so game i is always played from the
 * same opening with the same seed whatever the thread timing, and is stored with its
 * index: (run, index) is the game's identity.  Finished games wait in a batch that the
 * thread holding the writer lock commits in one transaction: a killed run loses only the
 * games in flight and the batch not yet committed, and a resumed run plays just those.
 * Pairs are counted in pair order, so an SPRT stops at the same pair on any thread count. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "egdb_search.h"
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
    const char *white_name, *black_name;
} Finished;

typedef struct Writer {
    const RunnerConfig *cfg;
    RunnerTotals *totals;
    Finished *batch;
    int count, cap;
    int played;                   /* games finished by this call, committed or not */
    double last_flush, start;
    double last_progress;         /* when the progress line was last written */
    double (*pair_points)[2];     /* A's points in each game of a pair */
    int *pair_games_done;
    Position *pair_opening;       /* random openings drawn so far, shared by a pair's games */
    bool *pair_opening_known;
    int next_pair;                /* the first pair not yet given to on_pair */
    int first_game, end_game;     /* the game indices of this call (runner_shard_range) */
} Writer;

/* Books the committed games by colour: what the totals report is what is stored. */
static void count_committed(RunnerTotals *t, const Finished *batch, int n)
{
    for (int i = 0; i < n; i++) {
        const PlayedGame *g = &batch[i].game;
        t->games++;
        t->positions += g->npositions;
        t->white_wins += g->result == RESULT_WHITE_WINS;
        t->black_wins += g->result == RESULT_BLACK_WINS;
        t->draws += g->result == RESULT_DRAW;
        t->mars += g->mars;
    }
}

/* Commits the batch: openings, then all games and positions in one transaction. */
static bool writer_flush(Writer *w)
{
    const RunnerConfig *cfg = w->cfg;
    if (w->count == 0 || !cfg->store || w->totals->failed) {
        if (!w->totals->failed) /* after a failed write, games are dropped: none is counted */
            count_committed(w->totals, w->batch, w->count);
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
        int64_t opening_id = store_opening_put(cfg->store, cfg->setup.variant->name, fen, cfg->book ? "file" : "random");
        if (opening_id < 0) {
            ok = false;
            break;
        }
        recs[i] = (GameRecord){
            .variant = cfg->setup.variant->name,
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
            .white_name = f->white_name,
            .black_name = f->black_name,
        };
    }
    if (ok)
        ok = store_games_write(cfg->store, recs, w->count);
    if (ok) {
        count_committed(w->totals, w->batch, w->count);
    } else if (!w->totals->failed) {
        w->totals->failed = true;
        snprintf(w->totals->error, sizeof w->totals->error, "%s",
                 recs ? store_error(cfg->store) : "out of memory");
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
    const RunnerConfig *cfg = w->cfg;
    const RunnerTotals *t = w->totals;
    double elapsed = now_seconds() - w->start;
    double rate = elapsed > 0 ? w->played / elapsed : 0;
    int total = w->end_game - w->first_game;
    int left = total - t->resumed - w->played;
    double eta = rate > 0 ? left / rate : 0;
    char view[160] = "", extra[160] = "";
    if (cfg->on_pair) /* a match: the score from A's side, over the pairs counted so far */
        snprintf(view, sizeof view, "A +%d =%d -%d", t->a_wins, t->a_draws, t->a_losses);
    else
        snprintf(view, sizeof view, "white %d draws %d black %d", t->white_wins, t->draws,
                 t->black_wins);
    if (cfg->describe)
        cfg->describe(cfg->ctx, extra, sizeof extra);
    fprintf(stderr, "%s%s: games %d/%d  %.1f games/s  %s%s%s  ETA %dm%02ds%s",
            cfg->progress_lines ? "" : "\r", cfg->label ? cfg->label : "games", t->resumed + w->played,
            total, rate, view, extra[0] ? "  " : "", extra, (int)eta / 60, (int)eta % 60,
            cfg->progress_lines ? "\n" : final ? "   \n" : "   ");
    fflush(stderr);
}

static double a_points_of(int index, int result)
{
    bool a_white = index % 2 == 0; /* A has White in the pair's first game */
    return result == RESULT_DRAW ? 0.5 : (result == RESULT_WHITE_WINS) == a_white ? 1.0 : 0.0;
}

/* Gives on_pair every pair now complete, in pair order (writer lock held).  The lone last
 * game of an odd total is no pair: it is stored but not counted. */
static void deliver_pairs(Writer *w)
{
    RunnerTotals *t = w->totals;
    int whole_pairs = w->end_game / 2; /* a block ends on a pair unless it holds the lone game */
    while (!t->decided && w->next_pair < whole_pairs && w->pair_games_done[w->next_pair] == 2) {
        int k = w->next_pair++;
        const double *p = w->pair_points[k];
        for (int i = 0; i < 2; i++) {
            t->a_wins += p[i] == 1.0;
            t->a_draws += p[i] == 0.5;
            t->a_losses += p[i] == 0.0;
        }
        t->pairs++;
        t->pentanomial[(int)lround((p[0] + p[1]) * 2)]++;
        if (w->cfg->on_pair && !w->cfg->on_pair(w->cfg->ctx, k, p))
            t->decided = true;
    }
}

/* Books a game's result in its pair (writer lock held). */
static void book_result(Writer *w, int index, int result)
{
    int pair = index / 2;
    w->pair_points[pair][index % 2] = a_points_of(index, result);
    w->pair_games_done[pair]++;
}

/* Books a finished game (writer lock held). */
static void writer_add(Writer *w, Finished *f)
{
    w->played++;
    w->batch[w->count++] = *f;
    book_result(w, f->index, f->game.result);
    deliver_pairs(w);
    if (w->count >= w->cap || now_seconds() - w->last_flush > 2.0)
        writer_flush(w);
}

void runner_shard_range(int games, int shard, int shards, int *first, int *end)
{
    if (shards <= 0) {
        *first = 0;
        *end = games;
        return;
    }
    long long pairs = (games + 1) / 2;
    *first = (int)(2 * ((shard - 1) * pairs / shards));
    *end = (int)(2 * (shard * pairs / shards));
    if (*end > games)
        *end = games;
}

/* Allocates the batch and the per-pair tables; false (and the error set) when out of memory. */
static bool writer_alloc(Writer *w, int pairs)
{
    w->batch = calloc((size_t)w->cap, sizeof *w->batch);
    w->pair_points = calloc((size_t)pairs, sizeof *w->pair_points);
    w->pair_games_done = calloc((size_t)pairs, sizeof *w->pair_games_done);
    w->pair_opening = calloc((size_t)pairs, sizeof *w->pair_opening);
    w->pair_opening_known = calloc((size_t)pairs, sizeof *w->pair_opening_known);
    if (!w->batch || !w->pair_points || !w->pair_games_done || !w->pair_opening || !w->pair_opening_known) {
        snprintf(w->totals->error, sizeof w->totals->error, "out of memory");
        w->totals->failed = true;
        return false;
    }
    return true;
}

static void writer_free(Writer *w)
{
    free(w->batch);
    free(w->pair_points);
    free(w->pair_games_done);
    free(w->pair_opening);
    free(w->pair_opening_known);
}

/* Books the results an earlier, interrupted call stored, so their pairs count again. */
static void book_stored_games(Writer *w)
{
    const RunnerConfig *cfg = w->cfg;
    for (int i = w->first_game; cfg->stored && i < w->end_game; i++) {
        if (cfg->stored[i] != RESULT_NONE) {
            w->totals->resumed++;
            book_result(w, i, cfg->stored[i]);
        }
    }
    deliver_pairs(w);
}

/* Player i of the pair: the configured engine, or a searcher with weights i. */
static Player *new_player(const RunnerConfig *cfg, int i)
{
    return cfg->engine[i] ? cfg->engine[i]->new_player(cfg->engine[i])
                          : searcher_player_new(cfg->setup.variant, &cfg->setup.rules, cfg->weights[i],
                                                cfg->hash_mb, cfg->stop);
}

/* Takes the next game index still to play (writer lock taken here).  False when there is
 * none or the run must stop; *known tells whether f->opening holds the pair's opening. */
static bool claim_game(Writer *w, int *next_game, int *index, bool *known, Finished *f)
{
    const RunnerConfig *cfg = w->cfg;
    bool go;
#pragma omp critical(dama_writer)
    {
        while (cfg->stored && *next_game < w->end_game && cfg->stored[*next_game] != RESULT_NONE)
            (*next_game)++; /* stored by an earlier, interrupted call */
        *index = (*next_game)++;
        go = *index < w->end_game && !w->totals->decided && !w->totals->failed
             && !(cfg->stop && atomic_load(cfg->stop));
        if (go && (*known = w->pair_opening_known[*index / 2]))
            f->opening = w->pair_opening[*index / 2];
    }
    return go;
}

/* Sets the game's opening: the book's, the pair's known one, or a new random one that the
 * pair's twin then reuses. */
static void choose_opening(Writer *w, int pair, bool known, Searcher *probe, Finished *f)
{
    const RunnerConfig *cfg = w->cfg;
    if (cfg->book) {
        f->opening = cfg->book->positions[pair % cfg->book->count];
    } else if (!known) {
        /* The pair's twin reuses it; if both draw it at once they get the same. */
        opening_random(cfg->setup.variant, &cfg->setup.rules, cfg->random_plies,
                       cfg->seed + 2 * (uint64_t)pair, probe, cfg->opening_balance,
                       &f->opening);
#pragma omp critical(dama_writer)
        {
            w->pair_opening[pair] = f->opening;
            w->pair_opening_known[pair] = true;
        }
    }
}

/* Hands a played game to the writer and reports it (writer lock taken here). */
static void finish_game(Writer *w, Finished *f)
{
    const RunnerConfig *cfg = w->cfg;
    int index = f->index;
    bool redrawn = cfg->progress && !cfg->progress_lines; /* a terminal's line, drawn over */
#pragma omp critical(dama_writer)
    {
        if (f->game.failure[0]) /* an engine lost by failing: said, and the run goes on */
            fprintf(stderr, "%sgame %d: %s (%s)\n", redrawn ? "\n" : "", index,
                    f->game.failure, reason_name(f->game.reason));
        int result = f->game.result, reason = f->game.reason, plies = f->game.plies;
        writer_add(w, f); /* the game's own memory is the batch's now */
        if (cfg->progress && cfg->on_game) {
            cfg->on_game(cfg->ctx, index, result, reason, plies);
            if (redrawn)
                w->last_progress = 0; /* the line it wrote over is drawn again at once */
        }
        double every = cfg->progress_lines ? RUNNER_LOG_SECONDS : 0.5;
        if (cfg->progress && now_seconds() - w->last_progress > every) {
            print_progress(w, false);
            w->last_progress = now_seconds();
        }
    }
}

/* One thread's share: its own players, then games claimed one by one until none is left. */
static void play_worker(Writer *w, int *next_game)
{
    const RunnerConfig *cfg = w->cfg;
    RunnerTotals *totals = w->totals;
    Player *player[2];
    for (int i = 0; i < 2; i++)
        player[i] = new_player(cfg, i);
    for (int i = 0; i < 2; i++)
        if (player_searcher(player[i]))
            egdb_search_attach(player_searcher(player[i]), cfg->egdb_search[i]);
    /* Random openings are probed by A's searcher, or one of its weights when A is an engine. */
    Player *own_probe = player_searcher(player[0]) ? NULL
                        : searcher_player_new(cfg->setup.variant, &cfg->setup.rules, cfg->weights[0], 1, cfg->stop);
    Searcher *probe = player_searcher(own_probe ? own_probe : player[0]);
    bool have_searchers = player[0] && player[1] && probe;
    while (have_searchers) {
        int index;
        bool known = false;
        Finished f = { 0 }; /* zeroed: the copy below reads .opening before a path sets it */
        if (!claim_game(w, next_game, &index, &known, &f))
            break;
        int pair = index / 2;
        f = (Finished){ .index = index, .opening = f.opening };
        choose_opening(w, pair, known, probe, &f);
        int w_player = index % 2; /* A (0) is White in the pair's first game */
        Player *white = player[w_player], *black = player[!w_player];
        f.white_weights_id = cfg->weights_id[w_player];
        f.black_weights_id = cfg->weights_id[!w_player];
        f.white_name = cfg->names[w_player];
        f.black_name = cfg->names[!w_player];
        if (!play_game(&cfg->setup, white, black, &f.opening, cfg->seed + (uint64_t)index, cfg->stop,
                       &f.game))
            continue; /* interrupted (or out of memory): this game is lost, no other */
        finish_game(w, &f);
    }
    if (!have_searchers) {
#pragma omp critical(dama_writer)
        {
            totals->failed = true;
            snprintf(totals->error, sizeof totals->error, "out of memory for the search tables");
        }
    }
    player_free(player[0]);
    player_free(player[1]);
    player_free(own_probe);
}

bool runner_play(const RunnerConfig *cfg, RunnerTotals *totals)
{
    memset(totals, 0, sizeof *totals);
    int pairs = (cfg->games + 1) / 2;
    Writer w = { .cfg = cfg, .totals = totals, .cap = cfg->batch_games > 0 ? cfg->batch_games : 64 };
    if (!writer_alloc(&w, pairs))
        goto done;
    runner_shard_range(cfg->games, cfg->shard, cfg->shards, &w.first_game, &w.end_game);
    w.next_pair = w.first_game / 2;
    w.start = w.last_flush = w.last_progress = now_seconds();
    book_stored_games(&w);
    int next_game = w.first_game;
    int threads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();

#pragma omp parallel num_threads(threads)
    play_worker(&w, &next_game);

    writer_flush(&w);
    totals->interrupted = cfg->stop && atomic_load(cfg->stop);
    if (cfg->progress)
        print_progress(&w, true);
done:
    totals->seconds = now_seconds() - w.start;
    writer_free(&w);
    return !totals->failed;
}
