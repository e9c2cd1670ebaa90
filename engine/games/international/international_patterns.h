/* The pattern evaluation of International draughts: the linear features of
 * international_eval.c followed by regions of 12 dark squares (4 columns x 6 rows) whose
 * men index weight tables (eval_spec.h).  See international_patterns.c for the regions. */
#ifndef DAMA_INTERNATIONAL_PATTERNS_H
#define DAMA_INTERNATIONAL_PATTERNS_H

#include "eval_spec.h"

/* Regions, in a frame where the own men move up (towards square 1): rows 4 .. 9 (the own
 * half and the two middle rows) by columns 2j .. 2j + 3, j = 0..3; region j. */
#define INTL_PATTERN_COLS 4
#define INTL_PATTERN_REGIONS INTL_PATTERN_COLS
#define INTL_PATTERN_FIRST_ROW 4
#define INTL_PATTERN_REGION_ROWS 6
#define INTL_PATTERN_SQUARES 12
/* 3^12: each square empty (or a king), own man, opponent man. */
#define INTL_PATTERN_STATES 531441
/* Occurrences of one position: every region read in each side's frame. */
#define INTL_PATTERN_TERMS (2 * INTL_PATTERN_REGIONS)

extern const EvalSpec international_pattern_eval_spec;

/* The state (0 .. INTL_PATTERN_STATES - 1) of region `region` in a frame where the men
 * `own` move up (towards square 1) and `opp` are the opponent's: sum over the region's
 * squares k of digit(k) 3^k, digit 1 for an own man, 2 for an opponent man, 0 otherwise.
 * Square k = 0..11 of region j is, in row order, the two squares of rows 4 .. 9 at places
 * j and j + 1 of the row (squares 20 + j + 1, 20 + j + 2, then +5, +10, ... +25 of those).
 * For the tests and the tools; the evaluation inlines the same computation. */
int intl_pattern_region_state(Bitboard own, Bitboard opp, int region);

#endif
