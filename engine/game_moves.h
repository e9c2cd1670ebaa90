/* A list of moves as text played on a game: what `--moves "32-28 18-23"` gives the
 * commands, and a script's moves as well. */
#ifndef DAMA_GAME_MOVES_H
#define DAMA_GAME_MOVES_H

#include <stddef.h>

#include "game.h"

/* Plays the moves of text (separated by blanks; move numbers like "12." are skipped) on
 * game, each checked against the rules and refused once the game is over; false with err
 * saying which move is wrong and why ("move 3 '18-22': ..."), the moves before it played. */
bool game_play_text(Game *game, const char *text, char *err, size_t errlen);

#endif
