/* Open-addressing hash set of positions (64-bit hashes only). */
#include "position_set.h"

#include <stdlib.h>

/* splitmix64 finaliser: every input bit reaches every output bit. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t position_hash(const Position *pos)
{
    uint64_t h = 0x9E3779B97F4A7C15ull * (uint64_t)(pos->side + 1);
    const Bitboard parts[4] = { pos->men[0], pos->men[1], pos->kings[0], pos->kings[1] };
    for (int i = 0; i < 4; i++)
        h = mix(h ^ parts[i]) + 0x9E3779B97F4A7C15ull;
    return h ? h : 1; /* 0 marks an empty slot */
}

static bool set_alloc(PositionSet *set, size_t cap)
{
    set->slot = calloc(cap, sizeof *set->slot);
    set->cap = set->slot ? cap : 0;
    set->count = 0;
    return set->slot != NULL;
}

static void insert(PositionSet *set, uint64_t h)
{
    size_t mask = set->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask)
        if (!set->slot[i]) {
            set->slot[i] = h;
            set->count++;
            return;
        }
}

bool position_set_init(PositionSet *set, size_t expected)
{
    size_t cap = 1024;
    while (cap / 2 < expected && cap < SIZE_MAX / 4 / sizeof *set->slot)
        cap *= 2;
    return set_alloc(set, cap);
}

/* Twice the slots, every hash placed again. */
static bool grow(PositionSet *set)
{
    PositionSet bigger;
    if (set->cap > SIZE_MAX / 2 / sizeof *set->slot || !set_alloc(&bigger, set->cap * 2))
        return false;
    for (size_t i = 0; i < set->cap; i++)
        if (set->slot[i])
            insert(&bigger, set->slot[i]);
    free(set->slot);
    *set = bigger;
    return true;
}

int position_set_add(PositionSet *set, const Position *pos)
{
    uint64_t h = position_hash(pos);
    size_t mask = set->cap - 1;
    for (size_t i = (size_t)h & mask; set->slot[i]; i = (i + 1) & mask)
        if (set->slot[i] == h)
            return 0;
    if ((set->count + 1) * 2 > set->cap && !grow(set))
        return -1;
    insert(set, h);
    return 1;
}

void position_set_free(PositionSet *set)
{
    free(set->slot);
    set->slot = NULL;
    set->cap = set->count = 0;
}
