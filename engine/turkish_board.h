/* Geometry of the Turkish 8x8 board: the four straight directions as square steps and as
 * bitboard shifts.  Shared by the move generator and make-move. */
#ifndef DAMA_TURKISH_BOARD_H
#define DAMA_TURKISH_BOARD_H

#include "bitboard.h"

enum Direction { NORTH = 0, EAST = 1, SOUTH = 2, WEST = 3 };

static inline int opposite(int dir) { return dir ^ 2; }

/* White men go north, Black men south. */
static inline int forward_dir(int color) { return color == WHITE ? NORTH : SOUTH; }

/* The square one step from sq in dir, or -1 off the board. */
static inline int step(int sq, int dir)
{
    switch (dir) {
    case NORTH: return sq < 56 ? sq + 8 : -1;
    case EAST:  return (sq & 7) != 7 ? sq + 1 : -1;
    case SOUTH: return sq >= 8 ? sq - 8 : -1;
    default:    return (sq & 7) != 0 ? sq - 1 : -1;
    }
}

/* Every bit of b moved one step in dir; bits leaving the board vanish. */
static inline Bitboard shift(Bitboard b, int dir)
{
    switch (dir) {
    case NORTH: return b << 8;
    case EAST:  return (b & ~FILE_H_BB) << 1;
    case SOUTH: return b >> 8;
    default:    return (b & ~FILE_A_BB) >> 1;
    }
}

/* Squares reachable by sliding from the pieces of gen through empty squares in dir
 * (the pieces' own squares excluded).  Rays of different pieces in one direction never
 * overlap, because a ray stops at the first piece. */
static inline Bitboard slide(Bitboard gen, Bitboard empty, int dir)
{
    Bitboard flood = 0;
    for (gen = shift(gen, dir) & empty; gen; gen = shift(gen, dir) & empty)
        flood |= gen;
    return flood;
}

static inline Bitboard promotion_rank_bb(int color) { return color == WHITE ? RANK_8_BB : RANK_1_BB; }

#endif
