/* A set of positions seen (men, kings, side to move), for dropping repeated positions as
 * the tuner loads them: open addressing over a 64-bit hash of the position, 8 bytes a slot,
 * at most half full.  Only the hash is kept, so two different positions share a hash with
 * probability about n^2 / 2^65 over a whole load (2e-5 for 30 M positions): the cost of
 * such a collision is one position left out. */
#ifndef DAMA_POSITION_SET_H
#define DAMA_POSITION_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

typedef struct PositionSet {
    uint64_t *slot; /* 0 = empty */
    size_t cap;     /* a power of two */
    size_t count;
} PositionSet;

/* An empty set with room for `expected` positions before it grows.  False when out of memory. */
bool position_set_init(PositionSet *set, size_t expected);

/* 1 when pos was new (now added), 0 when it was there already, -1 when out of memory. */
int position_set_add(PositionSet *set, const Position *pos);

void position_set_free(PositionSet *set);

#endif
