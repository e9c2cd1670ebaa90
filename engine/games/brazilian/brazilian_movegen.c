/* The move generator of Brazilian draughts: International's (majority capture, men capture
 * backwards, flying kings, pieces removed after the move, no crowning in passing),
 * compiled for the 8x8 board of brazilian_board.h. */
#include "brazilian_board.h"
#include "international_movegen.c"
