/* Filling a MoveList and making its moves, shared by the variants' generators.  The
 * functions a generator calls for every move are inline here: perft makes hundreds of
 * millions of them a second, and a call apiece would cost a good part of that. */
#ifndef DAMA_MOVELIST_H
#define DAMA_MOVELIST_H

#include "bitboard.h"
#include "types.h"

/* Stops the program (exit 1, naming the position) when a position has more than MAX_MOVES
 * distinct captures, rather than drop one. */
_Noreturn void movelist_overflow(const Position *pos, const Variant *v);

/* Adds a complete capture sequence: merged into the move with the same (from, to, captured)
 * when there is one (its path count grows), else appended.  Stops the program rather than
 * drop a move past MAX_MOVES. */
static inline void movelist_add_capture(MoveList *list, const Move *m, const Position *pos,
                                        const Variant *v)
{
    for (int i = 0; i < list->count; i++) {
        const Move *o = &list->moves[i];
        if (o->captured == m->captured && o->from == m->from && o->to == m->to) {
            list->npaths[i]++;
            return;
        }
    }
    if (list->count == MAX_MOVES)
        movelist_overflow(pos, v);
    list->moves[list->count] = *m;
    list->npaths[list->count++] = 1;
}

/* Where a capture search puts each complete sequence: the longest ones merged into list
 * (best is the most pieces taken so far), or, when visit is set, every sequence of exactly
 * want captures handed to visit with its own path.  any_length (International majority=off)
 * keeps every complete sequence whatever its length, and visits them all.  pos and variant
 * name the position when the list overflows. */
typedef struct CaptureSink {
    const Position *pos;
    const Variant *variant;
    MoveList *list;
    int best;
    void (*visit)(void *ctx, const Move *move);
    void *ctx;
    int want;
    bool any_length;
} CaptureSink;

/* Takes one complete sequence (m->njumps captures). */
static inline void capture_sink_take(CaptureSink *sink, const Move *m)
{
    int depth = m->njumps;
    if (sink->visit) {
        if (depth == sink->want || sink->any_length)
            sink->visit(sink->ctx, m);
        return;
    }
    if (!sink->any_length) {
        if (depth < sink->best)
            return;
        if (depth > sink->best) {
            sink->best = depth;
            sink->list->count = 0;
        }
    }
    movelist_add_capture(sink->list, m, sink->pos, sink->variant);
}

/* Appends a quiet move (the caller proves the list has room). */
static inline void movelist_add_quiet(MoveList *list, int from, int to, bool promotes)
{
    Move *m = &list->moves[list->count];
    m->captured = 0;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->njumps = 0;
    m->promotes = promotes;
    list->npaths[list->count++] = 1;
}

/* for_each_path's easy case: when list holds no capture, visits each move and returns
 * true; false when the paths of its captures must be searched. */
bool movelist_visit_quiet(const MoveList *list, void (*visit)(void *ctx, const Move *move), void *ctx);

/* Applies a legal move to the bitboards (the same for every variant: the captured pieces
 * leave, a crowned man becomes a king) and flips the side to move. */
static inline void movelist_make(Position *pos, const Move *move)
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

/* The list's moves, or its capture paths when count_paths. */
static inline uint64_t movelist_total(const MoveList *list, bool count_paths)
{
    if (!count_paths)
        return (uint64_t)list->count;
    uint64_t n = 0;
    for (int i = 0; i < list->count; i++)
        n += list->npaths[i];
    return n;
}

#endif
