/* The games people play in the browser: /api/games and /api/games/N/...  Each request works
 * on its game under the game's lock; a game that ends is saved at once (game_saver.c). */
#include <string.h>
#include <time.h>

#include "api_json.h"
#include "board_json.h"
#include "game_state.h"
#include "game_table.h"
#include "server.h"
#include "variant.h"

#define LEVEL_NODES_MAX 5000000
#define LEVEL_MOVETIME_MAX 60000
#define TURN_SECONDS_MAX 86400

/* The clock every game's times are read from. */
static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void reply_state(HttpReply *reply, int status, const GameSession *s)
{
    reply_json(reply, status, game_state_json(s, now_ms()));
}

/* "level": {"nodes": N} | {"depth": D} | {"movetime": MS}; absent: the game's default. */
static bool read_level(json_t *body, SearchLimits *level, HttpReply *reply)
{
    *level = (SearchLimits){ 0 };
    json_t *obj = json_object_get(body, "level");
    if (!obj || json_is_null(obj))
        return true;
    if (!json_is_object(obj)) {
        reply_error(reply, 400, "field \"level\" must be an object: {\"nodes\": N}, {\"depth\": D}"
                    " or {\"movetime\": MS}");
        return false;
    }
    int64_t nodes = 0, depth = 0, movetime = 0;
    if (!field_int(obj, "nodes", false, 1, LEVEL_NODES_MAX, &nodes, reply) ||
        !field_int(obj, "depth", false, 1, SEARCH_DEPTH_MAX, &depth, reply) ||
        !field_int(obj, "movetime", false, 1, LEVEL_MOVETIME_MAX, &movetime, reply))
        return false;
    *level = (SearchLimits){ .nodes = (uint64_t)nodes, .depth = (int)depth, .movetime_ms = (int)movetime };
    return true;
}

/* "human": "white" | "black" | "both" (absent: white). */
static bool read_human(json_t *body, int *side, HttpReply *reply)
{
    const char *human = "white";
    if (!field_string(body, "human", false, &human, reply))
        return false;
    if (strcmp(human, "white") == 0)
        *side = WHITE;
    else if (strcmp(human, "black") == 0)
        *side = BLACK;
    else if (strcmp(human, "both") == 0)
        *side = HUMAN_BOTH;
    else {
        reply_error(reply, 400, "field \"human\" must be \"white\", \"black\" or \"both\"");
        return false;
    }
    return true;
}

void route_game_new(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    json_t *body = request_object(req, true, reply);
    const char *variant = NULL, *fen = NULL;
    int side;
    int64_t turn_seconds = 0;
    SearchLimits level;
    const Variant *v = NULL;
    Position start;
    if (!body || !field_string(body, "variant", false, &variant, reply) ||
        !field_string(body, "fen", false, &fen, reply) || !read_human(body, &side, reply) ||
        !read_level(body, &level, reply) ||
        !field_int(body, "turn_seconds", false, 0, TURN_SECONDS_MAX, &turn_seconds, reply) ||
        !(v = request_variant(srv, variant, reply)) || !request_position(v, fen, &start, reply)) {
        json_decref(body);
        return;
    }
    json_decref(body);
    Rules rules = rules_default(v);
    HumanGame game;
    if (!human_game_start(&game, v, &rules, &start, side, level, turn_seconds * 1000,
                          server_weights(srv, v), now_ms())) {
        reply_error(reply, 503, "out of memory for a new game");
        return;
    }
    if (game.searcher)
        game.searcher->stop_request = srv->stop; /* Ctrl-C stops a search at once */
    int64_t id = game_table_add(srv->games, &game, now_ms());
    GameSession *s = id > 0 ? game_table_acquire(srv->games, id, now_ms()) : NULL;
    if (!s) {
        reply_error(reply, 503, "the table of games is full: %d games are in play, none of them "
                    "finished or left alone for %d minutes; try again later", GAME_TABLE_MAX,
                    GAME_IDLE_RECLAIM_MS / 60000);
        return;
    }
    reply_state(reply, 201, s);
    game_table_release(srv->games, s);
}

/* The game of the path, locked, or NULL after a 404. */
static GameSession *game_of(Server *srv, const RouteArgs *args, HttpReply *reply)
{
    GameSession *s = game_table_acquire(srv->games, args->id, now_ms());
    if (!s)
        reply_error(reply, 404, "no game %lld in play", (long long)args->id);
    return s;
}

/* Ends a request on game s: saves it if it ended (the clock may have ended it even when
 * the request is refused), answers with its state unless an error is the answer, and
 * unlocks it. */
static void end_request(Server *srv, GameSession *s, HttpReply *reply, bool answer_state)
{
    if (human_game_plies(&s->game) > 0) /* a start position already over is no game played */
        server_save_if_over(srv, s);
    if (answer_state)
        reply_state(reply, 200, s);
    game_table_release(srv->games, s);
}

void route_game_get(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req;
    GameSession *s = game_of(srv, args, reply);
    if (!s)
        return;
    human_game_tick(&s->game, now_ms());
    end_request(srv, s, reply, true);
}

/* The move a body names: "move" (its text), or "from" and "to" (a piece taken from one
 * square to another on the page), written here as a capture when one is legal, so that
 * the check says why it is refused.  False after a 400. */
static bool body_move_text(json_t *body, const GameSession *s, char *text, size_t len,
                           HttpReply *reply)
{
    const char *move = NULL, *from = NULL, *to = NULL;
    if (!field_string(body, "move", false, &move, reply) ||
        !field_string(body, "from", false, &from, reply) ||
        !field_string(body, "to", false, &to, reply))
        return false;
    if (move)
        snprintf(text, len, "%s", move);
    else if (from && to)
        snprintf(text, len, "%.8s%c%.8s", from,
                 s->game.variant->capture_pending(human_game_position(&s->game)) ? 'x' : '-', to);
    else {
        reply_error(reply, 400, "missing field \"move\" (or \"from\" and \"to\")");
        return false;
    }
    return true;
}

void route_game_move(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    json_t *body = request_object(req, true, reply);
    char text[256];
    GameSession *s = body ? game_of(srv, args, reply) : NULL;
    if (s && !body_move_text(body, s, text, sizeof text, reply)) {
        game_table_release(srv->games, s);
    } else if (s) {
        MoveCheck check;
        bool played = human_game_try(&s->game, text, now_ms(), &check);
        if (!played && check.refusal != REFUSAL_NONE)
            reply_error_fields(reply, 422,
                               json_pack("{s:s,s:o,s:i}", "refusal", move_refusal_name(check.refusal),
                                         "squares", square_names_json(s->game.variant, check.movable),
                                         "capture_count", check.capture_count),
                               "%s", check.reason);
        else if (!played) /* not looked at: the game is over or it is the engine's turn */
            reply_error(reply, 409, "%s", check.reason);
        end_request(srv, s, reply, played);
    }
    json_decref(body);
}

void route_game_engine(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req;
    GameSession *s = game_of(srv, args, reply);
    if (!s)
        return;
    human_game_tick(&s->game, now_ms());
    if (human_game_engine_to_move(&s->game) && !s->searching) {
        search_engine_move(srv, s, reply); /* it has the game from here */
        return;
    }
    reply_error(reply, 409, "%s", s->searching ? "the engine is thinking about this game already"
                                  : human_game_over(&s->game) ? "the game is over"
                                  : "it is not the engine's turn: a person is to move");
    end_request(srv, s, reply, false);
}

/* "side" of a resignation: WHITE, BLACK, or -1 when absent; false after a 400. */
static bool read_resigning_side(json_t *body, int *side, HttpReply *reply)
{
    const char *name = NULL;
    *side = -1;
    if (!field_string(body, "side", false, &name, reply) || !name)
        return name == NULL;
    *side = strcmp(name, "white") == 0 ? WHITE : strcmp(name, "black") == 0 ? BLACK : -1;
    if (*side < 0)
        reply_error(reply, 400, "field \"side\" must be \"white\" or \"black\"");
    return *side >= 0;
}

void route_game_resign(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    json_t *body = request_object(req, false, reply);
    int side;
    GameSession *s = NULL;
    if (body && read_resigning_side(body, &side, reply) && (s = game_of(srv, args, reply))) {
        HumanGame *g = &s->game;
        /* absent: the person's side, or (two people) the side to move */
        if (side < 0)
            side = g->human_side != HUMAN_BOTH ? g->human_side : human_game_position(g)->side;
        bool resigned = human_game_resign(g, side);
        if (!resigned && human_game_over(g))
            reply_error(reply, 409, "the game is over");
        else if (!resigned)
            reply_error(reply, 409, "%s is the engine's side: it does not resign", human_side_name(side));
        end_request(srv, s, reply, resigned);
    }
    json_decref(body);
}

void route_game_pdn(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req;
    GameSession *s = game_of(srv, args, reply);
    if (!s)
        return;
    char *text = NULL, err[256];
    if (human_game_pdn(&s->game, &text, err, sizeof err))
        http_reply_take(reply, 200, "text/plain; charset=utf-8", text, strlen(text));
    else
        reply_error(reply, 500, "%s", err);
    game_table_release(srv->games, s);
}
