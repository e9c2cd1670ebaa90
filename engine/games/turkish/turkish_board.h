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

/* gen plus the squares its rays reach through empty squares in one direction: Kogge-Stone
 * fills, three doubling steps cover a line of 8 (no loop over the squares of a ray). */
static inline Bitboard fill_north(Bitboard gen, Bitboard empty)
{
    gen |= empty & (gen << 8);
    empty &= empty << 8;
    gen |= empty & (gen << 16);
    empty &= empty << 16;
    return gen | (empty & (gen << 32));
}

static inline Bitboard fill_south(Bitboard gen, Bitboard empty)
{
    gen |= empty & (gen >> 8);
    empty &= empty >> 8;
    gen |= empty & (gen >> 16);
    empty &= empty >> 16;
    return gen | (empty & (gen >> 32));
}

static inline Bitboard fill_east(Bitboard gen, Bitboard empty)
{
    empty &= ~FILE_A_BB; /* nothing wraps from file h to file a */
    gen |= empty & (gen << 1);
    empty &= empty << 1;
    gen |= empty & (gen << 2);
    empty &= empty << 2;
    return gen | (empty & (gen << 4));
}

static inline Bitboard fill_west(Bitboard gen, Bitboard empty)
{
    empty &= ~FILE_H_BB;
    gen |= empty & (gen >> 1);
    empty &= empty >> 1;
    gen |= empty & (gen >> 2);
    empty &= empty >> 2;
    return gen | (empty & (gen >> 4));
}

static inline Bitboard fill(Bitboard gen, Bitboard empty, int dir)
{
    switch (dir) {
    case NORTH: return fill_north(gen, empty);
    case EAST:  return fill_east(gen, empty);
    case SOUTH: return fill_south(gen, empty);
    default:    return fill_west(gen, empty);
    }
}

/* Squares reachable by sliding from the pieces of gen through empty squares in dir
 * (the pieces' own squares excluded).  Rays of different pieces in one direction never
 * overlap, because a ray stops at the first piece. */
static inline Bitboard slide(Bitboard gen, Bitboard empty, int dir)
{
    return fill(gen, empty, dir) & empty;
}

/* One piece's lines: the squares beyond sq in dir up to the edge.  North and east go up
 * the square numbers, south and west down, so the square nearest sq of a set on the ray
 * is its lowest or its highest bit. */
static inline Bitboard ray(int sq, int dir)
{
    Bitboard above = ~(Bitboard)1 << sq, below = square_bb(sq) - 1;
    switch (dir) {
    case NORTH: return (FILE_A_BB << (sq & 7)) & above;
    case EAST:  return (RANK_1_BB << (sq & 56)) & above;
    case SOUTH: return (FILE_A_BB << (sq & 7)) & below;
    default:    return (RANK_1_BB << (sq & 56)) & below;
    }
}

static inline bool ray_ascends(int dir) { return dir == NORTH || dir == EAST; }

/* The square of b (not empty, on a ray in dir) nearest the ray's start. */
static inline int nearest(Bitboard b, int dir) { return ray_ascends(dir) ? lsb(b) : msb(b); }

/* nearest, taken out of b: a ray's squares one by one, outward. */
static inline int pop_nearest(Bitboard *b, int dir) { return ray_ascends(dir) ? pop_lsb(b) : pop_msb(b); }

/* The squares of r (a ray in dir) before the first square of blockers (a subset of r; all
 * of r when there is none): where a king on the ray's start can slide. */
static inline Bitboard ray_until(Bitboard r, Bitboard blockers, int dir)
{
    if (ray_ascends(dir))
        return r & ((blockers & (0 - blockers)) - 1);
    return blockers ? r & (~(Bitboard)1 << msb(blockers)) : r;
}

static inline Bitboard promotion_rank_bb(int color) { return color == WHITE ? RANK_8_BB : RANK_1_BB; }

#endif
