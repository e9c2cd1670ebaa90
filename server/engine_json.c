/* Search results as JSON (engine_json.h). */
#include "engine_json.h"
#include "notation.h"

static json_t *pv_json(const Variant *v, const Move *pv, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        char text[256];
        json_array_append_new(a, json_string(move_to_text(v, &pv[i], text, sizeof text)));
    }
    return a;
}

json_t *engine_result_json(const Variant *v, const Position *pos, const SearchInfo *info)
{
    char move[256], score[32];
    bool has_move = info->pv_length > 0;
    if (has_move)
        move_to_text(v, &info->pv[0], move, sizeof move);
    score_to_text(info->score, score, sizeof score);
    int white = pos->side == WHITE ? info->score : -info->score;
    return json_pack("{s:o,s:i,s:i,s:s,s:o,s:i,s:I}", "move",
                     has_move ? json_string(move) : json_null(), "eval", info->score,
                     "eval_white", white, "score", score, "pv",
                     pv_json(v, info->pv, info->pv_length), "depth", info->depth,
                     "nodes", (json_int_t)info->nodes);
}
