/* The engine's searches of `dama serve` (server.h): each on a worker thread while its
 * connection waits, bounded by the server's caps, stopped when its client goes away or the
 * server stops.  A game's search holds the game (it stays in the table) but not its lock:
 * its state is read meanwhile, and a move or a second search is refused (s->searching). */
#include <stdlib.h>
#include <time.h>

#include "api_json.h"
#include "egdb_search.h"
#include "engine_json.h"
#include "game_state.h"
#include "game_table.h"
#include "server.h"
#include "variant.h"

#define CANCELLED "the search was stopped: its client went away, or the server stops"

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The smaller of a limit asked (0: none) and the cap (0: none). */
static uint64_t capped(uint64_t asked, uint64_t cap)
{
    return asked == 0 || (cap != 0 && asked > cap) ? cap : asked;
}

SearchLimits server_search_limits(const Server *srv, SearchLimits asked)
{
    asked.nodes = capped(asked.nodes, srv->search_cap.nodes);
    asked.movetime_ms = (int)capped((uint64_t)asked.movetime_ms, (uint64_t)srv->search_cap.movetime_ms);
    return asked;
}

/* ---- /api/analyze ---- */

typedef struct AnalyzeJob {
    Server *srv;
    const Variant *v;
    Position pos;
    SearchLimits limits;
} AnalyzeJob;

static void analyze_work(void *arg, const atomic_bool *cancel, HttpReply *reply)
{
    AnalyzeJob *job = arg;
    Rules rules = rules_default(job->v);
    Searcher *s = searcher_new(job->v, &rules, server_weights(job->srv, job->v), job->srv->hash_mb);
    if (!s) {
        reply_error(reply, 503, "out of memory for the search");
        return;
    }
    s->stop_request = cancel;
    egdb_search_attach(s, server_egdb(job->srv, job->v));
    SearchInfo info = search(s, &job->pos, NULL, 0, &job->limits, NULL, NULL);
    searcher_free(s);
    if (atomic_load(cancel))
        reply_error(reply, 503, CANCELLED);
    else
        reply_json(reply, 200, engine_result_json(job->v, &job->pos, &info));
}

void search_analyze(Server *srv, const Variant *v, const Position *pos, uint64_t nodes,
                    HttpReply *reply)
{
    AnalyzeJob *job = malloc(sizeof *job);
    if (!job) {
        reply_error(reply, 503, "out of memory for the search");
        return;
    }
    *job = (AnalyzeJob){ .srv = srv, .v = v, .pos = *pos,
                         .limits = server_search_limits(srv, (SearchLimits){ .nodes = nodes }) };
    http_reply_defer(reply, analyze_work, job, free);
}

/* ---- a game's engine move ---- */

typedef struct EngineMoveJob {
    Server *srv;
    GameSession *session;
    SearchLimits limits;
} EngineMoveJob;

static void engine_move_work(void *arg, const atomic_bool *cancel, HttpReply *reply)
{
    EngineMoveJob *job = arg;
    GameSession *s = job->session;
    /* the searcher is this job's alone while s->searching */
    s->game.searcher->stop_request = cancel;
    egdb_search_attach(s->game.searcher, server_egdb(job->srv, s->game.variant)); /* if the rules match */
    SearchInfo info = human_game_engine_search(&s->game, &job->limits);
    s->game.searcher->stop_request = job->srv->stop;
    pthread_mutex_lock(&s->lock);
    int64_t now = now_ms();
    if (atomic_load(cancel))
        reply_error(reply, 503, CANCELLED);
    else if (human_game_over(&s->game))
        reply_error(reply, 409, "the game ended while the engine thought");
    else if (!human_game_engine_play(&s->game, &info, now))
        reply_error(reply, 503, "out of memory for the engine's move");
    else {
        server_save_if_over(job->srv, s);
        reply_json(reply, 200, game_state_json(s, now));
    }
    pthread_mutex_unlock(&s->lock);
}

static void engine_move_release(void *arg)
{
    EngineMoveJob *job = arg;
    GameSession *s = job->session;
    pthread_mutex_lock(&s->lock);
    s->searching = false;
    game_table_release(job->srv->games, s);
    free(job);
}

void search_engine_move(Server *srv, GameSession *s, HttpReply *reply)
{
    EngineMoveJob *job = malloc(sizeof *job);
    if (!job) {
        reply_error(reply, 503, "out of memory for the engine's move");
        game_table_release(srv->games, s);
        return;
    }
    *job = (EngineMoveJob){ .srv = srv, .session = s,
                            .limits = server_search_limits(srv, s->game.level) };
    s->searching = true;
    pthread_mutex_unlock(&s->lock); /* the game stays held (its reference) but not locked */
    http_reply_defer(reply, engine_move_work, job, engine_move_release);
}
