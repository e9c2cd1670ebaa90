/* The pattern evaluation of International draughts: the linear features of
 * international_eval.c followed by windows of 8 dark squares (4 columns x 4 rows) whose
 * men index weight tables (eval_spec.h).  See international_patterns.c for the windows. */
#ifndef DAMA_INTERNATIONAL_PATTERNS_H
#define DAMA_INTERNATIONAL_PATTERNS_H

#include "eval_spec.h"

/* Windows: rows 2i .. 2i + 3 by columns 2j .. 2j + 3 for i, j = 0..3; window 4i + j. */
#define INTL_PATTERN_ROWS 4
#define INTL_PATTERN_COLS 4
#define INTL_PATTERN_WINDOWS (INTL_PATTERN_ROWS * INTL_PATTERN_COLS)
#define INTL_PATTERN_SQUARES 8
/* 3^8: each square empty (or a king), own man, opponent man. */
#define INTL_PATTERN_STATES 6561
/* Occurrences of one position: every window read from each side's view. */
#define INTL_PATTERN_TERMS (2 * INTL_PATTERN_WINDOWS)

extern const EvalSpec international_pattern_eval_spec;

/* The state (0 .. INTL_PATTERN_STATES - 1) of window `window` in a frame where the men
 * `own` move up (towards square 1) and `opp` are the opponent's: sum over the window's
 * squares k of digit(k) 3^k, digit 1 for an own man, 2 for an opponent man, 0 otherwise.
 * Square k = 0..7 of window 4i + j is, in row order, the two squares of rows 2i, 2i + 1,
 * 2i + 2, 2i + 3 (squares 10i + j + 1, 10i + j + 2, then +5, +10, +15 of those).  For the
 * tests and the tools; the evaluation inlines the same computation. */
int intl_pattern_window_state(Bitboard own, Bitboard opp, int window);

#endif
