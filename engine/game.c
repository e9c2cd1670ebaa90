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

/* One piece against one piece: a draw, or with kvm=win a win for a king against a man. */
static int one_each_result(const Game *game)
{
    const Position *p = &game->pos;
    if (game->rules.kvm == KVM_WIN) {
        if (p->kings[WHITE] && p->men[BLACK])
            return RESULT_WHITE_WINS;
        if (p->kings[BLACK] && p->men[WHITE])
            return RESULT_BLACK_WINS;
    }
    return RESULT_DRAW;
}

int game_result(const Game *game, int *reason)
{
    const Position *p = &game->pos;
    *reason = REASON_NONE;
    /* A side without a legal move loses: checked first, it ends the game outright. */
    MoveList list;
    game->variant->generate(p, &game->rules, &list);
    if (list.count == 0) {
        *reason = REASON_NO_MOVES;
        return p->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    }
    if (popcount(position_pieces(p, WHITE)) == 1 && popcount(position_pieces(p, BLACK)) == 1) {
        *reason = REASON_ONE_EACH;
        return one_each_result(game);
    }
    /* Only a capture is irreversible (men may step sideways back and forth). */
    int repeats = 0;
    uint64_t now = game->keys[game->ply];
    for (int back = 2; back <= game->since_capture && back <= game->ply; back += 2)
        if (game->keys[game->ply - back] == now && ++repeats == 2) {
            *reason = REASON_REPETITION;
            return RESULT_DRAW;
        }
    if (game->rules.noprogress_plies > 0 && game->since_capture >= game->rules.noprogress_plies) {
        *reason = REASON_NOPROGRESS;
        return RESULT_DRAW;
    }
    return RESULT_NONE;
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
