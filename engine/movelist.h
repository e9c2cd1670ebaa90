/* Filling a MoveList with capture moves, shared by the variants' generators. */
#ifndef DAMA_MOVELIST_H
#define DAMA_MOVELIST_H

#include "types.h"

/* Adds a complete capture sequence: merged into the move with the same (from, to, captured)
 * when there is one (its path count grows), else appended.  Stops the program (exit 1,
 * naming the position) rather than drop a move past MAX_MOVES. */
void movelist_add_capture(MoveList *list, const Move *m, const Position *pos, const Variant *v);
/* The list's moves, or its capture paths when count_paths. */
uint64_t movelist_total(const MoveList *list, bool count_paths);

#endif
