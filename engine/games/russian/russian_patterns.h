/* The pattern evaluation of Russian draughts: the linear features of russian_eval.c
 * followed by windows of 8 dark squares (4 columns x 4 rows) whose men index weight tables
 * (eval_spec.h).  See russian_patterns.c for the windows. */
#ifndef DAMA_RUSSIAN_PATTERNS_H
#define DAMA_RUSSIAN_PATTERNS_H

#include "eval_spec.h"

/* Windows: rows 2i .. 2i + 3 by columns 2j .. 2j + 3 for i, j = 0..2; window 3i + j. */
#define RUSSIAN_PATTERN_ROWS 3
#define RUSSIAN_PATTERN_COLS 3
#define RUSSIAN_PATTERN_WINDOWS (RUSSIAN_PATTERN_ROWS * RUSSIAN_PATTERN_COLS)
#define RUSSIAN_PATTERN_SQUARES 8
/* 3^8: each square empty (or a king), own man, opponent man. */
#define RUSSIAN_PATTERN_STATES 6561
/* Occurrences of one position: every window read from each side's view. */
#define RUSSIAN_PATTERN_TERMS (2 * RUSSIAN_PATTERN_WINDOWS)

extern const EvalSpec russian_pattern_eval_spec;

/* The state of window `window` in the frame where the men `own` move up (towards rank 8)
 * and `opp` are the opponent's: sum over the window's squares k (row by row from the top,
 * left to right) of digit(k) 3^k, digit 1 for an own man, 2 for an opponent man. */
int russian_pattern_window_state(Bitboard own, Bitboard opp, int window);

#endif
