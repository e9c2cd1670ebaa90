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
 * pieces only on real squares) is all the edge handling there is.
 *
 * Every figure below follows from INTL_ROWS and INTL_COLUMNS (even, at most 10 columns and
 * 11 rows so that squares and ghosts fit in 64 bits): a diagonal game on another board
 * (Brazilian, 8x8) defines them before including this header and compiles the same
 * generator with its own geometry; International takes 10x10.  They are compile-time
 * constants, so the shifts stay literal. */
#ifndef DAMA_INTERNATIONAL_BOARD_H
#define DAMA_INTERNATIONAL_BOARD_H

#include "bitboard.h"

#ifndef INTL_ROWS
#define INTL_ROWS 10
#endif
#ifndef INTL_COLUMNS
#define INTL_COLUMNS 10
#endif
#define INTL_HALF (INTL_COLUMNS / 2) /* squares a row */
#define INTL_SQUARES (INTL_ROWS * INTL_HALF)
/* Bits of squares and ghosts: one ghost after every pair of rows but the last. */
#define INTL_BITS (INTL_SQUARES + (INTL_ROWS + 1) / 2 - 1)
/* The ghost after pair k (1, 2, ...) of rows, when the board has a row after it. */
#define INTL_GHOST(k) (2 * (k) < INTL_ROWS ? 1ULL << (((k) * (INTL_COLUMNS + 1) - 1) & 63) : 0)
#define INTL_GHOSTS_BB (INTL_GHOST(1) | INTL_GHOST(2) | INTL_GHOST(3) | INTL_GHOST(4) | INTL_GHOST(5))
/* The real squares: bits 0..INTL_BITS-1 without the ghosts. */
#define INTL_BOARD_BB (((1ULL << INTL_BITS) - 1) & ~INTL_GHOSTS_BB)
/* Crowning rows: the top row (squares 1..5) for White, the bottom row (46..50) for Black. */
#define INTL_ROW_TOP_BB ((1ULL << INTL_HALF) - 1)
#define INTL_ROW_BOTTOM_BB (INTL_ROW_TOP_BB << (INTL_BITS - INTL_HALF))
_Static_assert(INTL_COLUMNS % 2 == 0 && INTL_BITS <= 64, "the board must fit in 64 bits");

enum IntlDirection { UP_LEFT = 0, UP_RIGHT = 1, DOWN_LEFT = 2, DOWN_RIGHT = 3 };

/* Bit shift of one step in each direction. */
static const int intl_step_delta[4] = { -(INTL_HALF + 1), -INTL_HALF, INTL_HALF, INTL_HALF + 1 };

static inline int intl_bit_of_number(int n) { return (n - 1) + (n - 1) / INTL_COLUMNS; }
static inline int intl_number_of_bit(int bit) { return bit - bit / (INTL_COLUMNS + 1) + 1; }

/* The bits of b moved one step in dir that land in onto, a set of real squares: a step off
 * the board lands on a ghost or off-board bit, which onto does not hold, so onto is all
 * the mask needed.  A switch of literal shifts, not intl_step_delta, so that a constant
 * dir folds to one shift and one AND. */
static inline Bitboard intl_step_onto(Bitboard b, int dir, Bitboard onto)
{
    switch (dir) {
    case UP_LEFT: return (b >> (INTL_HALF + 1)) & onto;
    case UP_RIGHT: return (b >> INTL_HALF) & onto;
    case DOWN_LEFT: return (b << INTL_HALF) & onto;
    default: return (b << (INTL_HALF + 1)) & onto;
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
static inline Bitboard intl_half_turn(Bitboard b) { return intl_reverse_bits(b) >> (64 - INTL_BITS); }

static inline Bitboard intl_promotion_bb(int color) { return color == WHITE ? INTL_ROW_TOP_BB : INTL_ROW_BOTTOM_BB; }

#endif
