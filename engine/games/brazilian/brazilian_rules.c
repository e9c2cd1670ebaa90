/* The rule options and the end of a game of Brazilian draughts: International's (FMJD
 * article 6) with the Brazilian count of king moves, 20 moves each instead of 25 (the
 * CBD's official rules, docs/rules-brazilian.md). */
#include "brazilian_board.h"

#define DIAGONAL_KINGMOVES 20
#include "international_rules.c"
