/* Geometry of the International 10x10 board: 50 squares in 64 bits with ghost squares (the
 * layout Scan uses), so that the four diagonal steps are fixed shifts.
 *
 * Squares are numbered 1..50 from Black's side (square 1 top, 46..50 White's back row), five
 * a row.  Square n lives at bit (n - 1) + (n - 1) / 10: after every pair of rows one bit is
 * left out, a ghost square:
 *
 *   bits  0.. 4  squares  1.. 5   (row 0: columns b d f h j)
 *   bits  5.. 9  squares  6..10   (row 1: columns a c e g i)
 *   bit  10      ghost
 *   bits 11..20  squares 11..20,  bit 21 ghost,  bits 22..31  squares 21..30,  bit 32 ghost,
 *   bits 33..42  squares 31..40,  bit 43 ghost,  bits 44..53  squares 41..50;
 *   bits 54..63  off the board.
 *
 * With this layout a diagonal step is the same shift from every square: up-left -6, up-right
 * -5, down-left +5, down-right +6 ("up" = towards square 1, White's forward direction).  A
 * step off the left or right edge lands on a ghost bit, off the top below bit 0, off the
 * bottom on bits 54..63: none of them is in INTL_BOARD_BB, so masking with it (and keeping
 * pieces only on real squares) is all the edge handling there is. */
#ifndef DAMA_INTERNATIONAL_BOARD_H
#define DAMA_INTERNATIONAL_BOARD_H

#include "bitboard.h"

#define INTL_SQUARES 50
/* Bits 0..53 without the ghosts 10, 21, 32, 43. */
#define INTL_BOARD_BB (((1ULL << 54) - 1) & ~((1ULL << 10) | (1ULL << 21) | (1ULL << 32) | (1ULL << 43)))
/* Crowning rows: squares 1..5 for White, 46..50 for Black. */
#define INTL_ROW_TOP_BB 0x000000000000001FULL
#define INTL_ROW_BOTTOM_BB (0x1FULL << 49)

enum IntlDirection { UP_LEFT = 0, UP_RIGHT = 1, DOWN_LEFT = 2, DOWN_RIGHT = 3 };

/* Bit shift of one step in each direction. */
static const int intl_step_delta[4] = { -6, -5, 5, 6 };

static inline int intl_bit_of_number(int n) { return (n - 1) + (n - 1) / 10; }
static inline int intl_number_of_bit(int bit) { return bit - bit / 11 + 1; }

/* The bits of b moved one step in dir that land in onto, a set of real squares: a step off
 * the board lands on a ghost or off-board bit, which onto does not hold, so onto is all
 * the mask needed.  A switch of literal shifts, not intl_step_delta, so that a constant
 * dir folds to one shift and one AND. */
static inline Bitboard intl_step_onto(Bitboard b, int dir, Bitboard onto)
{
    switch (dir) {
    case UP_LEFT: return (b >> 6) & onto;
    case UP_RIGHT: return (b >> 5) & onto;
    case DOWN_LEFT: return (b << 5) & onto;
    default: return (b << 6) & onto;
    }
}

/* Every bit of b moved one step in dir; what leaves the board vanishes. */
static inline Bitboard intl_shift(Bitboard b, int dir) { return intl_step_onto(b, dir, INTL_BOARD_BB); }

/* The square one step from sq in dir, or -1 off the board. */
static inline int intl_step(int sq, int dir)
{
    int t = sq + intl_step_delta[dir];
    return t >= 0 && t < 64 && (INTL_BOARD_BB & square_bb(t)) ? t : -1;
}

/* Squares reachable by sliding from the pieces of gen through empty squares in dir. */
static inline Bitboard intl_slide(Bitboard gen, Bitboard empty, int dir)
{
    Bitboard flood = 0;
    for (gen = intl_step_onto(gen, dir, empty); gen; gen = intl_step_onto(gen, dir, empty))
        flood |= gen;
    return flood;
}

static inline Bitboard intl_reverse_bits(Bitboard x)
{
    x = __builtin_bswap64(x);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    return ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
}

/* The board turned half a turn, as the other side sees it: bit b -> bit 53 - b, square
 * n -> square 51 - n (the ghosts map onto ghosts). */
static inline Bitboard intl_half_turn(Bitboard b) { return intl_reverse_bits(b) >> 10; }

static inline Bitboard intl_promotion_bb(int color) { return color == WHITE ? INTL_ROW_TOP_BB : INTL_ROW_BOTTOM_BB; }

#endif
