/* What every part of `dama serve` shares: the settings, the weights of each variant
 * (server_state.c), the games in play, and the request handler that routes to the parts
 * (router.c). */
#ifndef DAMA_SERVER_H
#define DAMA_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "http.h"
#include "search.h"
#include "types.h"
#include "weights.h"

#define SERVER_MAX_VARIANTS 4

typedef struct GameTable GameTable;

typedef struct Server {
    const char *db_path;            /* the database: games saved, runs read */
    const char *web_dir;            /* the page's files (index.html, ...) */
    const char *dygraphs_dir;       /* libjs-dygraphs' files */
    const Variant *default_variant; /* --variant: what a request naming none gets */
    /* The evaluation of each variant (variant_at order); NULL for one without. */
    const Weights *weights[SERVER_MAX_VARIANTS];
    size_t hash_mb;                 /* transposition table of each engine search */
    /* --max-movetime, --max-nodes: the bound of every search the server runs, whatever a
     * request asks (searches.c) */
    SearchLimits search_cap;
    int search_workers;             /* --max-searches: searches at once */
    const atomic_bool *stop;        /* Ctrl-C or SIGTERM: the clock's searches stop at once */
    GameTable *games;
    /* Saving finished games (game_saver.c): one save at a time, into one run of kind
     * 'play' per variant for the whole process, with the engine's weights stored once. */
    pthread_mutex_t save_lock;
    int64_t play_run[SERVER_MAX_VARIANTS];
    int64_t weights_id[SERVER_MAX_VARIANTS];
} Server;

struct GameSession;
/* Saves the session's game when it is over and not saved yet (s->saved_game gets its id,
 * or s->save_error why not): a game is saved once, whole. */
void server_save_if_over(Server *srv, struct GameSession *s);

/* searches.c: every engine search of a request runs on a worker (http_reply_defer) under
 * srv->search_cap, and stops when its client goes away or the server stops. */
SearchLimits server_search_limits(const Server *srv, SearchLimits asked);
/* Replies with the engine's view of pos in v after at most nodes nodes (/api/analyze). */
void search_analyze(Server *srv, const Variant *v, const Position *pos, uint64_t nodes,
                    HttpReply *reply);
/* Replies with the state of s after the engine's move.  s is locked and used by the caller,
 * who hands both over: the engine is to move, and no search runs on s.  The game's lock is
 * let go while the engine thinks, so its state can be read meanwhile. */
void search_engine_move(Server *srv, struct GameSession *s, HttpReply *reply);

/* The HttpHandler of the server: ctx is the Server. */
void server_handle(void *ctx, const HttpRequest *req, HttpReply *reply);

/* server_state.c: the weights of v (NULL when the server has none for it). */
const Weights *server_weights(const Server *srv, const Variant *v);
/* v's place in variant_at order, the index of the per-variant arrays; -1 for none. */
int server_variant_index(const Variant *v);

/* Handlers, one family a file.  id: the number in the path (0 when none); rest: what
 * follows the route's prefix (static files). */
typedef struct RouteArgs {
    int64_t id;
    const char *rest;
} RouteArgs;
typedef void (*RouteFn)(Server *srv, const HttpRequest *req, const RouteArgs *args,
                        HttpReply *reply);

/* static_files.c */
void route_index(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_static(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_dygraphs(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
/* routes_position.c */
void route_info(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_board(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_position(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_legal(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_analyze(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
/* routes_play.c */
void route_game_new(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_game_get(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_game_move(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_game_engine(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_game_resign(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_game_pdn(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
/* routes_db.c */
void route_db_games(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_db_game(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_runs(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_run(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_training(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);
void route_explorer(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply);

#endif
