/* The pattern evaluation of Brazilian draughts: the linear features of brazilian_eval.c
 * followed by windows of 8 dark squares (4 columns x 4 rows) whose men index weight tables
 * (eval_spec.h).  See brazilian_patterns.c for the windows. */
#ifndef DAMA_BRAZILIAN_PATTERNS_H
#define DAMA_BRAZILIAN_PATTERNS_H

#include "eval_spec.h"

/* Windows: rows 2i .. 2i + 3 by columns 2j .. 2j + 3 for i, j = 0..2; window 3i + j. */
#define BR_PATTERN_GRID 3
#define BR_PATTERN_WINDOWS (BR_PATTERN_GRID * BR_PATTERN_GRID)
#define BR_PATTERN_SQUARES 8
#define BR_PATTERN_STATES 6561 /* 3^8: empty (or a king), own man, opponent man */
#define BR_PATTERN_TERMS (2 * BR_PATTERN_WINDOWS)

/* The state of window `window` where the men `own` move up (towards square 1) and `opp`
 * are the opponent's: sum over the window's squares k of digit(k) 3^k, digit 1 for an own
 * man, 2 for an opponent man.  Square k = 0..7 of window 3i + j is, row by row, the two
 * squares 8i + j + 1 and 8i + j + 2, then +4, +8 and +12 of those. */
int br_pattern_window_state(Bitboard own, Bitboard opp, int window);

#endif
