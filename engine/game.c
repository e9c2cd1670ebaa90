/* A game: the position plus what the end-of-game rules need. */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "game.h"
#include "position.h"
#include "variant.h"

void game_init(Game *game, const Variant *v, const Rules *rules, const Position *start)
{
    game->variant = v;
    game->rules = *rules;
    game->pos = *start;
    game->ply = 0;
    game->since_capture = 0;
    game->endgame_plies = 0;
    game->keys[0] = position_key(start);
}

bool game_play(Game *game, const Move *move)
{
    if (game->ply >= MAX_GAME_PLIES)
        return false;
    const Variant *v = game->variant;
    uint64_t key = key_after_move(&game->pos, game->keys[game->ply], move);
    bool irreversible = move_irreversible(v, &game->pos, move);
    int before = v->endgame_class ? v->endgame_class(&game->pos) : 0;
    v->make(&game->pos, move);
    game->keys[++game->ply] = key;
    game->since_capture = irreversible ? 0 : game->since_capture + 1;
    int after = v->endgame_class ? v->endgame_class(&game->pos) : 0;
    game->endgame_plies = after == before ? game->endgame_plies + 1 : 0;
    return true;
}

GameEnd game_end_no_moves(const Position *pos)
{
    return (GameEnd){ pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, REASON_NO_MOVES };
}

GameEnd game_end(const Variant *v, const Position *pos, const Rules *rules, bool can_move,
                 DrawCounts counts)
{
    return v->game_end(pos, rules, can_move, &counts);
}

int result_for_side(int result, int side)
{
    if (result == RESULT_WHITE_WINS)
        return side == WHITE ? 1 : -1;
    if (result == RESULT_BLACK_WINS)
        return side == BLACK ? 1 : -1;
    return 0;
}

int count_repetitions(const uint64_t *keys, int now, int since_irreversible, int twice_from)
{
    /* Same side to move: every second ply back.  No position before the last irreversible
     * move can come back. */
    int n = 0;
    for (int i = now - 2; i >= 0 && now - i <= since_irreversible && n < REPETITIONS_FOR_DRAW; i -= 2)
        if (keys[i] == keys[now])
            n += i >= twice_from ? 2 : 1;
    return n;
}

int game_result(const Game *game, int *reason)
{
    int repetitions = count_repetitions(game->keys, game->ply, game->since_capture, game->ply + 1);
    bool can_move = game->variant->count(&game->pos, &game->rules, false) > 0;
    DrawCounts counts = { game->since_capture, repetitions, game->endgame_plies };
    GameEnd end = game_end(game->variant, &game->pos, &game->rules, can_move, counts);
    *reason = end.reason;
    return end.result;
}

const char *result_name(int result)
{
    static const char *const names[] = { "none", "white", "black", "draw" };
    return result >= 0 && result <= RESULT_DRAW ? names[result] : "none";
}

int game_reason(const Variant *v, int k)
{
    return REASON_GAME_FIRST + REASON_GAME_SPAN * variant_index(v) + k;
}

const char *reason_name(int reason)
{
    static const char *const names[REASON_COUNT] = {
        "none", "no-moves", "repetition", "move-cap", "resign", "time", "adjudication",
        "engine-crash", "time-forfeit", "illegal-move", "egdb",
    };
    if (reason >= 0 && reason < REASON_COUNT)
        return names[reason];
    if (reason < REASON_GAME_FIRST)
        return "none";
    const Variant *v = variant_at((reason - REASON_GAME_FIRST) / REASON_GAME_SPAN);
    int k = (reason - REASON_GAME_FIRST) % REASON_GAME_SPAN;
    return v && k < v->reason_count ? v->reasons[k] : "none";
}

char *game_end_text(GameEnd end, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s (%s)", result_name(end.result), end.result == RESULT_DRAW ? "" : " wins",
             reason_name(end.reason));
    return buf;
}
