/* The board of a game a person plays, drawn as text for the terminal: no escape codes, so
 * a transcript reads the same.  White pieces ○ (kings ◎), black ● (kings ◉), empty dark
 * squares ·; with ascii w W b B and '.'.  The last move's squares are in [brackets]. */
#ifndef DAMA_TERMINAL_BOARD_H
#define DAMA_TERMINAL_BOARD_H

#include <stdbool.h>

#include "human_game.h"

/* Draws g's position on standard output, black at the bottom when flipped, with the
 * coordinates (Turkish files and ranks; International the first and last square number of
 * each row) and the last move's text. */
void terminal_board_draw(const HumanGame *g, bool flipped, bool ascii);

#endif
