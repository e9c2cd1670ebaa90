/* Reproducible random pieces for tests and benchmarks: xorshift64 and a dropper. */
#ifndef DAMA_RANDOM_PIECES_H
#define DAMA_RANDOM_PIECES_H

#include "bitboard.h"

/* xorshift64: state must start non-zero. */
static inline uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Puts up to n pieces on random empty squares of allowed; marks them in *occupied. */
static inline Bitboard drop(uint64_t *rng, Bitboard *occupied, Bitboard allowed, int n)
{
    Bitboard set = 0;
    while (n > 0 && (allowed & ~*occupied)) {
        Bitboard sq = square_bb((int)(next_random(rng) & 63));
        if (sq & allowed & ~*occupied) {
            set |= sq;
            *occupied |= sq;
            n--;
        }
    }
    return set;
}

#endif
