/* Filling a MoveList and making its moves, shared by the variants' generators. */
#ifndef DAMA_MOVELIST_H
#define DAMA_MOVELIST_H

#include "types.h"

/* Adds a complete capture sequence: merged into the move with the same (from, to, captured)
 * when there is one (its path count grows), else appended.  Stops the program (exit 1,
 * naming the position) rather than drop a move past MAX_MOVES. */
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

/* Appends a quiet move (the caller proves the list has room). */
void movelist_add_quiet(MoveList *list, int from, int to, bool promotes);
/* for_each_path's easy case: when list holds no capture, visits each move and returns
 * true; false when the paths of its captures must be searched. */
bool movelist_visit_quiet(const MoveList *list, void (*visit)(void *ctx, const Move *move), void *ctx);
/* Applies a legal move to the bitboards (the same for every variant: the captured pieces
 * leave, a crowned man becomes a king) and flips the side to move. */
void movelist_make(Position *pos, const Move *move);
/* The list's moves, or its capture paths when count_paths. */
uint64_t movelist_total(const MoveList *list, bool count_paths);

#endif
