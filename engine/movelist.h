/* Filling a MoveList and making its moves, shared by the variants' generators. */
#ifndef DAMA_MOVELIST_H
#define DAMA_MOVELIST_H

#include "bitboard.h"
#include "types.h"

/* Adds a complete capture sequence: merged into the move with the same (from, to, captured)
 * when there is one (its path count grows), else appended.  Aborts (abort(), after a
 * message naming the position) rather than drop a move past MAX_MOVES: no game reaches
 * it, so it is a broken invariant, not an error to return. */
void movelist_add_capture(MoveList *list, const Move *m, const Position *pos, const Variant *v);
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
void capture_sink_take(CaptureSink *sink, const Move *m);

/* Writes the quiet move from -> to into m: movelist_add_quiet's move, for a generator that
 * fills its list in its own loop. */
static inline void move_set_quiet(Move *m, int from, int to, bool promotes)
{
    m->captured = 0;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->njumps = 0;
    m->promotes = promotes;
}
/* Appends a quiet move (the caller proves the list has room).  Inline: a generator's
 * innermost loop. */
static inline void movelist_add_quiet(MoveList *list, int from, int to, bool promotes)
{
    move_set_quiet(&list->moves[list->count], from, to, promotes);
    list->npaths[list->count++] = 1;
}
/* for_each_path's easy case: when list holds no capture, visits each move and returns
 * true; false when the paths of its captures must be searched. */
bool movelist_visit_quiet(const MoveList *list, void (*visit)(void *ctx, const Move *move), void *ctx);
/* Applies a legal move to the bitboards (the same for every variant: the captured pieces
 * leave, a crowned man becomes a king) and flips the side to move. */
void movelist_make(Position *pos, const Move *move);
/* Writes into child what movelist_make does to a copy of pos, for a perft that keeps the
 * child in registers (International's last plies): every field of pos is read first, and
 * there is no branch and no index by the side, which would send child through memory and
 * make each of its loads wait for a store.  movelist_play_known takes the move as values
 * (side: pos->side; from, to: one bit each; man: the moving piece is a man), so that a
 * caller that knows some of them as constants gets the few operations left. */
static inline void movelist_play_known(Position *child, const Position *pos, int side, Bitboard from,
                                       Bitboard to, Bitboard captured, bool promotes, bool man)
{
    Bitboard black = (Bitboard)0 - (Bitboard)(side != WHITE); /* all ones when Black moves */
    /* The captured pieces leave first (only the opponent has pieces there): in Turkish the
     * moving piece may end on the square of a piece it took. */
    Bitboard keep = ~captured;
    /* The moving piece as two toggles (from == to: a capture may end where it began). */
    Bitboard crowned = promotes ? to : 0;
    Bitboard men_toggle = man ? from ^ to ^ crowned : 0;
    Bitboard kings_toggle = man ? crowned : from ^ to;
    child->men[0] = (pos->men[0] & keep) ^ (men_toggle & ~black);
    child->men[1] = (pos->men[1] & keep) ^ (men_toggle & black);
    child->kings[0] = (pos->kings[0] & keep) ^ (kings_toggle & ~black);
    child->kings[1] = (pos->kings[1] & keep) ^ (kings_toggle & black);
    child->side = !side;
}

static inline void movelist_play(Position *child, const Position *pos, const Move *move)
{
    Bitboard from = square_bb(move->from);
    bool man = ((pos->men[0] | pos->men[1]) & from) != 0;
    movelist_play_known(child, pos, pos->side, from, square_bb(move->to), move->captured,
                        move->promotes, man);
}

/* The list's moves, or its capture paths when count_paths. */
uint64_t movelist_total(const MoveList *list, bool count_paths);

#endif
