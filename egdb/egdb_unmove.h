/* Quiet moves backwards, for the solver: which positions of a class may lead to a given one
 * by a move that keeps the material (no capture, no promotion).  The solver re-rates those
 * positions forward with the move generator, so a superset is enough: a candidate whose
 * move was not legal there (a capture was compulsory) is merely rated once more. */
#ifndef DAMA_EGDB_UNMOVE_H
#define DAMA_EGDB_UNMOVE_H

#include "types.h"

/* pos is normalized (WHITE to move).  Calls visit with every position, BLACK to move, from
 * which a quiet non-promoting move of BLACK gives pos. */
void egdb_for_each_unmove(const Variant *v, const Position *pos,
                          void (*visit)(void *ctx, const Position *pred), void *ctx);

#endif
