/* The pattern evaluation of Turkish draughts: the linear features of turkish_eval.c plus
 * weight tables indexed by the men in small windows of the board.
 *
 * A window is 4 files x 2 ranks (8 squares); each square is 0 (empty or a king: kings stay
 * in the linear features), 1 (a man of the side whose view is read) or 2 (a man of the
 * other side), and the state is sum(digit * 3^k) over the squares in reading order: the
 * lower rank first, each rank from the window's first file (k = 0 .. 3 on the lower rank,
 * 4 .. 7 on the upper one).  Windows start on files a..e (offsets 0..4) and on ranks 1..7
 * (pairs 0..6): 35 of them.  Every rank pair has its own tables (the crown is near or far);
 * offsets c and 4 - c share one table, offset 4 - c read with its files reversed, so a
 * position and its left-right mirror score the same; the window of offset 2 is its own
 * mirror and is read as the smaller of its two readings.  That makes 7 x 3 tables of 3^8
 * states: table 3 * pair + min(offset, 4 - offset).
 *
 * Each window is read from the side to move's view (ranks as that side sees them, its men
 * 1; occurrence +1) and from the opponent's view (occurrence -1), so the evaluation is
 * exactly colour-symmetric and every table learns from both sides. */
#ifndef DAMA_TURKISH_PATTERNS_H
#define DAMA_TURKISH_PATTERNS_H

#include "eval_spec.h"

#define TURKISH_PATTERN_FILES 4        /* window width */
#define TURKISH_PATTERN_OFFSETS 5      /* window starts on files a..e */
#define TURKISH_PATTERN_PAIRS 7        /* window starts on ranks 1..7 */
#define TURKISH_PATTERN_CLASSES 3      /* offsets {0, 4}, {1, 3}, {2} */
#define TURKISH_PATTERN_STATES 6561    /* 3^8 states of one table */
#define TURKISH_PATTERN_TABLES (TURKISH_PATTERN_PAIRS * TURKISH_PATTERN_CLASSES)
#define TURKISH_PATTERN_WINDOWS (TURKISH_PATTERN_PAIRS * TURKISH_PATTERN_OFFSETS)

extern const EvalSpec turkish_pattern_eval_spec;

/* Table of the window starting on rank pair 0..6 and file offset 0..4. */
static inline int turkish_pattern_table(int pair, int offset)
{
    int mirrored = TURKISH_PATTERN_OFFSETS - 1 - offset;
    return TURKISH_PATTERN_CLASSES * pair + (offset < mirrored ? offset : mirrored);
}

#endif
