/* The move generator of Russian draughts: International's (international_movegen.c)
 * compiled for the 8x8 board, with a man crowned in the middle of a capture going on as a
 * king (DIAGONAL_CROWN_IN_CAPTURE) and no majority rule: any complete capture may be
 * chosen.  Captured pieces stay on the board until the move ends and cannot be jumped
 * twice, as in International. */
#include "russian.h"

#define DIAGONAL_GAME russian
#define DIAGONAL_CROWN_IN_CAPTURE
#define DIAGONAL_MAJORITY(rules) ((void)(rules), false)
#include "international_movegen.c"

Bitboard russian_half_turn(Bitboard b) { return intl_half_turn(b); }
