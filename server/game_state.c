/* A game in play as the API shows it (the "game state" of README.md, JSON API). */
#include "game_state.h"

#include "board_json.h"
#include "variant.h"

static const char *api_result_name(int result)
{
    switch (result) {
    case RESULT_WHITE_WINS: return "white-wins";
    case RESULT_BLACK_WINS: return "black-wins";
    case RESULT_DRAW: return "draw";
    default: return NULL;
    }
}

static json_t *string_or_null(const char *s) { return s ? json_string(s) : json_null(); }

/* The last ply: its move, who played it, and the search behind it when there was one. */
static json_t *last_json(const HumanGame *g)
{
    int n = human_game_plies(g);
    if (n == 0)
        return json_null();
    const HumanPly *p = &g->plies[n - 1];
    json_t *last = move_json(g->variant, &p->move);
    json_object_set_new(last, "move", json_string(p->text));
    json_object_set_new(last, "by", json_string(human_mover_name(p->by)));
    const EngineReply *r = g->last_search_ply == n ? &g->last_search : NULL;
    json_t *pv = json_array();
    for (int i = 0; r && i < r->pv_length; i++)
        json_array_append_new(pv, json_string(r->pv[i]));
    json_object_set_new(last, "eval", r ? json_integer(r->eval) : json_null());
    json_object_set_new(last, "eval_white", r ? json_integer(r->eval_white) : json_null());
    json_object_set_new(last, "score", r ? json_string(r->eval_text) : json_null());
    json_object_set_new(last, "pv", pv);
    json_object_set_new(last, "depth", r ? json_integer(r->depth) : json_null());
    json_object_set_new(last, "nodes", r ? json_integer((json_int_t)r->nodes) : json_null());
    return last;
}

static json_t *clock_json(const HumanGame *g, int64_t now_ms)
{
    if (g->clock.turn_ms <= 0)
        return json_null();
    return json_pack("{s:I,s:I,s:{s:i,s:i}}", "turn_ms", (json_int_t)g->clock.turn_ms, "left_ms",
                     (json_int_t)human_game_time_left(g, now_ms), "timeouts", "white",
                     g->clock.timeouts_in_row[WHITE], "black", g->clock.timeouts_in_row[BLACK]);
}

static json_t *moves_json(const HumanGame *g)
{
    json_t *a = json_array();
    for (int i = 0; i < human_game_plies(g); i++)
        json_array_append_new(a, json_string(g->plies[i].text));
    return a;
}

json_t *game_state_json(const GameSession *s, int64_t now_ms)
{
    const HumanGame *g = &s->game;
    const Variant *v = g->variant;
    const Position *pos = human_game_position(g);
    bool over = human_game_over(g);
    char fen[HUMAN_FEN_TEXT];
    human_game_fen(g, human_game_plies(g), fen, sizeof fen);
    Bitboard movable = 0;
    json_t *legal = over ? json_array() : legal_moves_json(v, &g->rules, pos, &movable);
    const char *to_move = over ? NULL : human_game_human_to_move(g) ? "human" : "engine";
    json_t *state = json_pack(
        "{s:I,s:s,s:s,s:s,s:s,s:o,s:o,s:b,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "id",
        (json_int_t)s->id, "variant", v->name, "fen", fen, "side", human_side_name(pos->side),
        "human", g->human_side == HUMAN_BOTH ? "both" : human_side_name(g->human_side), "pieces",
        pieces_json(v, pos), "legal", legal, "capture_compulsory",
        !over && v->capture_pending(pos), "movable", square_names_json(v, movable), "moves",
        moves_json(g), "last", last_json(g), "clock", clock_json(g, now_ms), "result",
        string_or_null(api_result_name(g->result)), "reason",
        string_or_null(over ? reason_name(g->reason) : NULL), "saved_game",
        s->saved_game > 0 ? json_integer(s->saved_game) : json_null(), "to_move",
        string_or_null(to_move));
    if (state && s->save_error[0])
        json_object_set_new(state, "save_error", json_string(s->save_error));
    return state;
}
