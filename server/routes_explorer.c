/* GET /api/explorer?fen=FEN&variant=V: the opening explorer on the page (docs/book.md):
 * the moves the stored games played from a position, with their games, results and
 * average search score.  The file is opened read-only for each request, as the other
 * database views do. */
#include <stdio.h>

#include "api_json.h"
#include "explorer.h"
#include "position.h"
#include "server.h"
#include "variant.h"

void route_explorer(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    const Variant *v = request_variant(srv, http_query(req, "variant"), reply);
    Position pos;
    if (!v || !request_position(v, http_query(req, "fen"), &pos, reply))
        return;
    char err[512];
    Store *s = store_open_readonly(srv->db_path, err, sizeof err);
    if (!s) {
        reply_error(reply, 500, "%s", err);
        return;
    }
    Rules rules = v->rules_default();
    Explorer e;
    bool ok = explorer_query(s, v, &rules, &pos, &e, err, sizeof err);
    store_close(s);
    if (!ok) {
        reply_error(reply, 500, "database: %s", err);
        return;
    }
    char fen[512];
    json_t *moves = json_array();
    for (int i = 0; i < e.nmoves; i++) {
        const MoveStats *m = &e.moves[i];
        Position next = pos;
        v->make(&next, &m->move);
        position_to_fen(&next, v, fen, sizeof fen);
        json_array_append_new(moves, json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:o,s:i}", "move", m->text, "fen", fen,
                                               "games", m->games, "white_wins", explorer_white_wins(&pos, m),
                                               "draws", m->draws, "black_wins", explorer_black_wins(&pos, m),
                                               "score", m->nscores ? json_integer(m->score) : json_null(),
                                               "scored_games", m->nscores));
    }
    position_to_fen(&pos, v, fen, sizeof fen);
    reply_json(reply, 200, json_pack("{s:s,s:s,s:i,s:o}", "variant", v->name, "fen", fen, "games", e.games,
                                     "moves", moves));
    explorer_free(&e);
}
