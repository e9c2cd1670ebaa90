/* The pattern evaluation of Brazilian draughts: brazilian_eval.c's linear features, then 9
 * windows of 8 dark squares, each a table of 3^8 states (men only; kings are valued by
 * the linear KING_* features).
 *
 * Why these windows: 4 columns by 4 rows hold 8 dark squares, two a row, on any diagonal
 * board; at rows 0, 2, 4 by columns 0, 2, 4 they overlap by two rows and two columns, so
 * every 3x3 block of the board (a capture's man, victim and landing square; a man and the
 * two squares in front of it) lies whole in one window.  9 x 6561 = 59049 states, about a
 * quarter of International's 16 windows, learnable from a few hundred thousand positions.
 *
 * Symmetry: as in International, each window is read from the side to move's view (+1)
 * and, with the board turned half a turn and the colours exchanged, from the opponent's
 * (-1) against the same table, so the evaluation is colour-symmetric and every table
 * learns from both sides.  The generic evaluation (evaluate.c) does the dot product. */
#include "brazilian_board.h"
#include "brazilian_eval.h"
#include "brazilian_patterns.h"

/* Bumped whenever the meaning of a state changes: windows, square order or digits. */
#define BR_PATTERN_FEATURE_SET 1

/* Bit of square n (1..32). */
#define SQ_BIT(n) ((n) - 1 + ((n) - 1) / 8)
/* Square k of window w (see brazilian_patterns.h). */
static inline int window_bit(int w, int k)
{
    int i = w / BR_PATTERN_GRID, j = w % BR_PATTERN_GRID;
    return SQ_BIT(8 * i + j + 1 + (k & 1) + 4 * (k >> 1));
}

int br_pattern_window_state(Bitboard own, Bitboard opp, int window)
{
    int state = 0;
    for (int k = BR_PATTERN_SQUARES - 1; k >= 0; k--) {
        int bit = window_bit(window, k);
        state = 3 * state + (int)(own >> bit & 1) + 2 * (int)(opp >> bit & 1);
    }
    return state;
}

/* The window states of the frame where own moves up, each offset to its window's table. */
static void frame_states(Bitboard own, Bitboard opp, int32_t *state)
{
    for (int w = 0; w < BR_PATTERN_WINDOWS; w++)
        state[w] = w * BR_PATTERN_STATES + br_pattern_window_state(own, opp, w);
}

static int br_patterns(const Position *pos, int32_t *state, int8_t *sign)
{
    Bitboard stm = pos->men[pos->side] & INTL_BOARD_BB, other = pos->men[!pos->side] & INTL_BOARD_BB;
    if (pos->side == WHITE) {
        frame_states(stm, other, state);
        frame_states(intl_half_turn(other), intl_half_turn(stm), state + BR_PATTERN_WINDOWS);
    } else {
        frame_states(intl_half_turn(stm), intl_half_turn(other), state);
        frame_states(other, stm, state + BR_PATTERN_WINDOWS);
    }
    for (int k = 0; k < BR_PATTERN_TERMS; k++)
        sign[k] = k < BR_PATTERN_WINDOWS ? 1 : -1;
    return BR_PATTERN_TERMS;
}

const EvalSpec brazilian_pattern_eval_spec = {
    BR_LINEAR_EVAL_FIELDS,
    .eval_name = "pattern",
    .npattern_states = BR_PATTERN_WINDOWS * BR_PATTERN_STATES,
    .max_pattern_terms = BR_PATTERN_TERMS,
    .feature_set_version = BR_PATTERN_FEATURE_SET,
    .patterns = br_patterns,
};
