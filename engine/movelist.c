/* Filling a MoveList and making its moves. */
#include <stdio.h>
#include <stdlib.h>

#include "movelist.h"
#include "bitboard.h"
#include "position.h"

/* More distinct capture moves than MAX_MOVES: none is ever dropped in silence (a search that
 * missed one, or a perft that undercounts, would be wrong without a sign).  No position
 * known comes near; if one does, MAX_MOVES must grow. */
_Noreturn void movelist_overflow(const Position *pos, const Variant *v)
{
    char fen[512];
    position_to_fen(pos, v, fen, sizeof fen);
    fprintf(stderr, "dama: %s: more than %d legal moves (the generator's limit MAX_MOVES)\n",
            fen, MAX_MOVES);
    exit(1);
}

bool movelist_visit_quiet(const MoveList *list, void (*visit)(void *ctx, const Move *move), void *ctx)
{
    if (list->count > 0 && list->moves[0].njumps > 0)
        return false;
    for (int i = 0; i < list->count; i++)
        visit(ctx, &list->moves[i]);
    return true;
}

