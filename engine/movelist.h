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

/* Writes into child the position after the legal move of pos (child may be pos): the
 * same for every variant, the captured pieces leave, a crowned man becomes a king, the
 * side to move flips.  Every field of pos is read before child is written, and there is
 * no branch and no index by the side: in perft each leaf costs little more than this,
 * and a load that waits for the side, or a branch guessed wrong, would cost more than the
 * rest of the move. */
static inline void movelist_play(Position *child, const Position *pos, const Move *move)
{
    int side = pos->side;
    Bitboard black = (Bitboard)0 - (Bitboard)(side != WHITE); /* all ones when Black moves */
    Bitboard from = square_bb(move->from), to = square_bb(move->to);
    /* The captured pieces leave first (only the opponent has pieces there): in Turkish the
     * moving piece may end on the square of a piece it took. */
    Bitboard keep = ~move->captured;
    Bitboard men0 = pos->men[0] & keep, men1 = pos->men[1] & keep;
    Bitboard kings0 = pos->kings[0] & keep, kings1 = pos->kings[1] & keep;
    /* The moving piece as two toggles (from == to: a capture may end where it began). */
    Bitboard crowned = move->promotes ? to : 0;
    bool man = ((men0 | men1) & from) != 0;
    Bitboard men_toggle = man ? from ^ to ^ crowned : 0;
    Bitboard kings_toggle = man ? crowned : from ^ to;
    child->men[0] = men0 ^ (men_toggle & ~black);
    child->men[1] = men1 ^ (men_toggle & black);
    child->kings[0] = kings0 ^ (kings_toggle & ~black);
    child->kings[1] = kings1 ^ (kings_toggle & black);
    child->side = !side;
}

/* Applies a legal move to pos (see movelist_play). */
static inline void movelist_make(Position *pos, const Move *move) { movelist_play(pos, pos, move); }

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
