/* Filling a MoveList with capture moves. */
#include <stdio.h>
#include <stdlib.h>

#include "movelist.h"
#include "position.h"

/* More distinct capture moves than MAX_MOVES: none is ever dropped in silence (a search that
 * missed one, or a perft that undercounts, would be wrong without a sign).  No position
 * known comes near; if one does, MAX_MOVES must grow. */
static _Noreturn void too_many_moves(const Position *pos, const Variant *v)
{
    char fen[512];
    position_to_fen(pos, v, fen, sizeof fen);
    fprintf(stderr, "dama: %s: more than %d legal moves (the generator's limit MAX_MOVES)\n",
            fen, MAX_MOVES);
    exit(1);
}

void movelist_add_capture(MoveList *list, const Move *m, const Position *pos, const Variant *v)
{
    for (int i = 0; i < list->count; i++) {
        const Move *o = &list->moves[i];
        if (o->from == m->from && o->to == m->to && o->captured == m->captured) {
            list->npaths[i]++;
            return;
        }
    }
    if (list->count == MAX_MOVES)
        too_many_moves(pos, v);
    list->moves[list->count] = *m;
    list->npaths[list->count++] = 1;
}

uint64_t movelist_total(const MoveList *list, bool count_paths)
{
    if (!count_paths)
        return (uint64_t)list->count;
    uint64_t n = 0;
    for (int i = 0; i < list->count; i++)
        n += list->npaths[i];
    return n;
}
