/* Move identity, inline for the search's hot paths. */
#ifndef DAMA_MOVE_H
#define DAMA_MOVE_H

#include "types.h"

/* Same (from, to, captured): the identity of a move; the path is only how it is written. */
static inline bool move_same(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured;
}

#endif
