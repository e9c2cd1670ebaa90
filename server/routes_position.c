/* The routes about a position, with no game or database behind them: what the server is
 * (/api/info), a board's squares (/api/board), a position's pieces and a move's squares
 * (/api/position), the legal moves (/api/legal) and the engine's view of a position
 * (/api/analyze). */
#include <stdlib.h>

#include "api_json.h"
#include "board_json.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "server.h"
#include "variant.h"
#include "version.h"

#define ANALYZE_NODES_DEFAULT 200000
#define ANALYZE_NODES_MAX 5000000

void route_info(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req, (void)args;
    json_t *variants = json_array(), *games = json_array();
    for (int i = 0; i < SERVER_MAX_VARIANTS && variant_at(i); i++)
        if (srv->weights[i]) {
            json_array_append_new(variants, json_string(variant_at(i)->name));
            json_array_append_new(games, game_json(variant_at(i)));
        }
    reply_json(reply, 200,
               json_pack("{s:s,s:s,s:o,s:o,s:s,s:s}", "version", dama_version(), "commit",
                         dama_commit(), "variants", variants, "games", games,
                         "default_variant", srv->default_variant->name, "db", srv->db_path));
}

void route_board(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    const char *name = http_query(req, "variant");
    if (name && !name[0]) {
        char games[256];
        reply_error(reply, 400, "parameter variant is empty (%s, or leave it out)",
                    variant_names(" or ", games, sizeof games));
        return;
    }
    const Variant *v = request_variant(srv, name, reply);
    if (!v)
        return;
    Position start;
    v->start(&start);
    reply_json(reply, 200,
               json_pack("{s:s,s:i,s:i,s:i,s:s,s:o,s:o}", "variant", v->name, "size",
                         board_size(v), "rows", v->rows, "columns", v->columns,
                         "labels", board_labels(v), "squares", board_squares_json(v), "start",
                         pieces_json(v, &start)));
}

/* {"fen","side","pieces"} of a position: what a board draws, so the page never reads FEN. */
static json_t *position_json(const Variant *v, const Position *pos)
{
    char fen[512];
    position_to_fen(pos, v, fen, sizeof fen);
    return json_pack("{s:s,s:s,s:o}", "fen", fen, "side", pos->side == WHITE ? "white" : "black",
                     "pieces", pieces_json(v, pos));
}

/* GET /api/position?variant=V&fen=F&move=M: the position of F (empty or absent: the start)
 * and, with M, that move (move_json) and the position after it; 422 when M is not a legal
 * move there. */
void route_position(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    const char *fen = http_query(req, "fen"), *text = http_query(req, "move");
    const Variant *v = request_variant(srv, http_query(req, "variant"), reply);
    Position pos;
    if (!v || !request_position(v, fen && fen[0] ? fen : NULL, &pos, reply))
        return;
    json_t *answer = position_json(v, &pos);
    if (text) {
        Rules rules = rules_default(v);
        Move move;
        char err[256];
        if (!move_from_text(v, &pos, &rules, text, &move, err, sizeof err)) {
            json_decref(answer);
            reply_error(reply, 422, "parameter move \"%s\": %s", text, err);
            return;
        }
        Position after = pos;
        v->make(&after, &move);
        json_object_set_new(answer, "move", move_json(v, &move));
        json_object_set_new(answer, "after", position_json(v, &after));
    }
    json_object_set_new(answer, "variant", json_string(v->name));
    reply_json(reply, 200, answer);
}

/* The variant and position a request body names ("variant", "fen"); false after a 400. */
static bool body_position(Server *srv, json_t *body, const Variant **v, Position *pos,
                          HttpReply *reply)
{
    const char *variant = NULL, *fen = NULL;
    if (!field_string(body, "variant", false, &variant, reply) ||
        !field_string(body, "fen", false, &fen, reply))
        return false;
    *v = request_variant(srv, variant, reply);
    return *v && request_position(*v, fen, pos, reply);
}

void route_legal(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    json_t *body = request_object(req, true, reply);
    const Variant *v;
    Position pos;
    if (body && body_position(srv, body, &v, &pos, reply)) {
        Rules rules = rules_default(v);
        Bitboard movable;
        json_t *legal = legal_moves_json(v, &rules, &pos, &movable);
        reply_json(reply, 200,
                   json_pack("{s:o,s:b,s:o,s:s,s:o}", "legal", legal, "capture_compulsory",
                             v->capture_pending(&pos), "movable", square_names_json(v, movable),
                             "side", pos.side == WHITE ? "white" : "black", "pieces",
                             pieces_json(v, &pos)));
    }
    json_decref(body);
}

void route_analyze(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    json_t *body = request_object(req, true, reply);
    const Variant *v;
    Position pos;
    int64_t nodes = ANALYZE_NODES_DEFAULT;
    if (body && body_position(srv, body, &v, &pos, reply) &&
        field_int(body, "nodes", false, 1, ANALYZE_NODES_MAX, &nodes, reply))
        search_analyze(srv, v, &pos, (uint64_t)nodes, reply);
    json_decref(body);
}
