/* The values of one endgame class in memory: two bits a position. */
#ifndef DAMA_EGDB_TABLE_H
#define DAMA_EGDB_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "egdb_index.h"

/* A position's value for the side to move.  EGDB_DRAW is 0, so a fresh table reads as all
 * draws (the builder's "not decided yet"); EGDB_NONE marks an index that is no position. */
enum EgdbValue { EGDB_DRAW = 0, EGDB_WIN = 1, EGDB_LOSS = 2, EGDB_NONE = 3 };

typedef struct EgdbTable {
    EgdbIndexer ix;
    uint8_t *bits;     /* four values a byte, the lowest two bits first */
    uint64_t nbytes;
} EgdbTable;

/* A table of class cls, every value EGDB_DRAW; false when out of memory. */
bool egdb_table_alloc(EgdbTable *t, const Variant *v, EgdbClass cls);
void egdb_table_free(EgdbTable *t);

static inline int egdb_table_get(const EgdbTable *t, uint64_t i)
{
    return (t->bits[i >> 2] >> ((i & 3) * 2)) & 3;
}
static inline void egdb_table_set(EgdbTable *t, uint64_t i, int value)
{
    uint8_t *b = &t->bits[i >> 2];
    int shift = (int)(i & 3) * 2;
    *b = (uint8_t)((*b & ~(3 << shift)) | (value << shift));
}

/* The same for a table several threads read and write at once (the builder's): the byte
 * holding the field is loaded and exchanged atomically, so a neighbour's field written by
 * another thread is never lost and no read races a write.  Relaxed order is enough: a
 * field only changes once, from EGDB_DRAW to its final value, and the builder's passes are
 * separated by barriers. */
static inline int egdb_table_get_shared(const EgdbTable *t, uint64_t i)
{
    return (__atomic_load_n(&t->bits[i >> 2], __ATOMIC_RELAXED) >> ((i & 3) * 2)) & 3;
}
static inline void egdb_table_set_shared(EgdbTable *t, uint64_t i, int value)
{
    uint8_t *b = &t->bits[i >> 2];
    int shift = (int)(i & 3) * 2;
    uint8_t old = __atomic_load_n(b, __ATOMIC_RELAXED), want;
    do
        want = (uint8_t)((old & ~(3 << shift)) | (value << shift));
    while (!__atomic_compare_exchange_n(b, &old, want, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/* "win", "draw", "loss" ("none" for EGDB_NONE). */
const char *egdb_value_name(int value);

#endif
