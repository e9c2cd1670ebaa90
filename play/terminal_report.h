/* What the terminal says about a game a person plays, besides the board: the plies played
 * (who played what; the engine's evaluation, depth, nodes and line), a refused move with
 * the reason and the pieces that may move, the prompt with the time left, the game's PDN
 * and the help text.  Everything goes to standard output. */
#ifndef DAMA_TERMINAL_REPORT_H
#define DAMA_TERMINAL_REPORT_H

#include <stdint.h>

#include "human_game.h"
#include "move_check.h"
#include "variant.h"

/* Prints the plies played since *shown plies were reported, and sets *shown to all. */
void terminal_report_plies(const HumanGame *g, int *shown);
void terminal_report_refusal(const HumanGame *g, const MoveCheck *check);
/* "white to move> ", with the seconds left at now_ms when there is a clock; flushed. */
void terminal_report_prompt(const HumanGame *g, int64_t now_ms);
/* The game so far as PDN, or why there is none. */
void terminal_report_pdn(const HumanGame *g);
/* The moves and commands a person may type, with examples in v's notation. */
void terminal_report_help(const Variant *v);

#endif
