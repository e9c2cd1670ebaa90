/* Brazilian draughts' board as International's code is compiled for it: 8x8, 32 squares
 * numbered 1..32 from Black's side (square 1 = b8, 4 = h8, 29 = a1, 32 = g1), in the
 * 64-bit layout of international_board.h (a ghost bit after every pair of rows), and the
 * name its functions get (diagonal_game.h: brazilian_generate, ...).  Every file of this
 * folder includes this header first. */
#ifndef DAMA_BRAZILIAN_BOARD_H
#define DAMA_BRAZILIAN_BOARD_H

#define INTL_ROWS 8
#define INTL_COLUMNS 8
#define DIAGONAL_GAME brazilian

#include "international_board.h"

_Static_assert(INTL_SQUARES == 32, "Brazilian draughts has 32 squares");

#endif
