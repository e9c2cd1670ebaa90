/* A game: the position plus what the end-of-game rules need. */
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
    game->keys[0] = position_key(start);
}

bool game_play(Game *game, const Move *move)
{
    if (game->ply >= MAX_GAME_PLIES)
        return false;
    uint64_t key = key_after_move(&game->pos, game->keys[game->ply], move);
    game->variant->make(&game->pos, move);
    game->keys[++game->ply] = key;
    game->since_capture = move->captured ? 0 : game->since_capture + 1;
    return true;
}

GameEnd game_end(const Position *pos, const Rules *rules, bool can_move, int since_capture,
                 int repetitions)
{
    if (!can_move) /* no passing: checked first, it ends the game outright */
        return (GameEnd){ pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, REASON_NO_MOVES };
    if (popcount(position_pieces(pos, WHITE)) == 1 && popcount(position_pieces(pos, BLACK)) == 1) {
        int result = RESULT_DRAW;
        if (rules->kvm == KVM_WIN && pos->kings[WHITE] && pos->men[BLACK])
            result = RESULT_WHITE_WINS;
        else if (rules->kvm == KVM_WIN && pos->kings[BLACK] && pos->men[WHITE])
            result = RESULT_BLACK_WINS;
        return (GameEnd){ result, REASON_ONE_EACH };
    }
    if (repetitions >= REPETITIONS_FOR_DRAW)
        return (GameEnd){ RESULT_DRAW, REASON_REPETITION };
    if (rules->noprogress_plies > 0 && since_capture >= rules->noprogress_plies)
        return (GameEnd){ RESULT_DRAW, REASON_NOPROGRESS };
    return (GameEnd){ RESULT_NONE, REASON_NONE };
}

int result_for_side(int result, int side)
{
    if (result == RESULT_WHITE_WINS)
        return side == WHITE ? 1 : -1;
    if (result == RESULT_BLACK_WINS)
        return side == BLACK ? 1 : -1;
    return 0;
}

int game_result(const Game *game, int *reason)
{
    /* Only a capture is irreversible (men may step sideways back and forth). */
    int repetitions = 0;
    uint64_t now = game->keys[game->ply];
    for (int back = 2; back <= game->since_capture && back <= game->ply; back += 2)
        repetitions += game->keys[game->ply - back] == now;
    bool can_move = game->variant->count(&game->pos, &game->rules, false) > 0;
    GameEnd end = game_end(&game->pos, &game->rules, can_move, game->since_capture, repetitions);
    *reason = end.reason;
    return end.result;
}

const char *result_name(int result)
{
    static const char *const names[] = { "none", "white", "black", "draw" };
    return result >= 0 && result <= RESULT_DRAW ? names[result] : "none";
}

const char *reason_name(int reason)
{
    static const char *const names[REASON_COUNT] = {
        "none", "no-moves", "repetition", "no-progress", "one-each",
        "move-cap", "resign", "time", "adjudication",
    };
    return reason >= 0 && reason < REASON_COUNT ? names[reason] : "none";
}
