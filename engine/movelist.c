/* Filling a MoveList and making its moves. */
#include <stdio.h>
#include <stdlib.h>

#include "movelist.h"
#include "bitboard.h"
#include "position.h"

/* More distinct capture moves than MAX_MOVES: none is ever dropped in silence (a search that
 * missed one, or a perft that undercounts, would be wrong without a sign).  No position
 * known comes near; if one does, MAX_MOVES must grow.  An invariant of the engine broken,
 * not an input to refuse: abort() after the message (library code never exit()s, and
 * abort leaves a core and a signal no caller mistakes for an ordinary failure), rather than
 * an error return that every generator, search node and perft would carry for a case no
 * game reaches. */
static _Noreturn void too_many_moves(const Position *pos, const Variant *v)
{
    char fen[512];
    position_to_fen(pos, v, fen, sizeof fen);
    fprintf(stderr, "dama: %s: more than %d legal moves (the generator's limit MAX_MOVES)\n",
            fen, MAX_MOVES);
    abort();
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

void capture_sink_take(CaptureSink *sink, const Move *m)
{
    int depth = m->njumps;
    if (sink->visit) {
        if (depth == sink->want || sink->any_length)
            sink->visit(sink->ctx, m);
        return;
    }
    if (sink->any_length) {
        movelist_add_capture(sink->list, m, sink->pos, sink->variant);
        return;
    }
    if (depth < sink->best)
        return;
    if (depth > sink->best) {
        sink->best = depth;
        sink->list->count = 0;
    }
    movelist_add_capture(sink->list, m, sink->pos, sink->variant);
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

bool movelist_visit_quiet(const MoveList *list, void (*visit)(void *ctx, const Move *move), void *ctx)
{
    if (list->count > 0 && list->moves[0].njumps > 0)
        return false;
    for (int i = 0; i < list->count; i++)
        visit(ctx, &list->moves[i]);
    return true;
}

void movelist_make(Position *pos, const Move *move)
{
    int us = pos->side;
    Bitboard from = square_bb(move->from), to = square_bb(move->to);
    /* Clear then set: a capture may end on its own start square. */
    if (pos->men[us] & from) {
        pos->men[us] &= ~from;
        if (move->promotes)
            pos->kings[us] |= to;
        else
            pos->men[us] |= to;
    } else {
        pos->kings[us] = (pos->kings[us] & ~from) | to;
    }
    /* The captured pieces leave only now: International keeps them on the board until the
     * move is over, and Turkish's generator has already taken them out of its search. */
    pos->men[!us] &= ~move->captured;
    pos->kings[!us] &= ~move->captured;
    pos->side = !us;
}
