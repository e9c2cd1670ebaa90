/* Bit tricks shared by every file that walks bitboards. */
#ifndef DAMA_BITBOARD_H
#define DAMA_BITBOARD_H

#include "types.h"

static inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
static inline int lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline int pop_lsb(Bitboard *b)
{
    int sq = lsb(*b);
    *b &= *b - 1;
    return sq;
}
/* The highest square of b (b not empty). */
static inline int msb(Bitboard b) { return 63 - __builtin_clzll(b); }
static inline int pop_msb(Bitboard *b)
{
    int sq = msb(*b);
    *b ^= (Bitboard)1 << sq;
    return sq;
}
static inline Bitboard square_bb(int sq) { return (Bitboard)1 << sq; }

#define FILE_A_BB 0x0101010101010101ULL
#define FILE_H_BB 0x8080808080808080ULL
#define RANK_1_BB 0x00000000000000FFULL
#define RANK_8_BB 0xFF00000000000000ULL

static inline int square_file(int sq) { return sq & 7; }
static inline int square_rank(int sq) { return sq >> 3; }
static inline int make_square(int file, int rank) { return rank * 8 + file; }

#endif
