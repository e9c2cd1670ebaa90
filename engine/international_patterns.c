/* The pattern evaluation of International draughts: international_eval.c's linear features,
 * then 16 windows of 8 dark squares, each a table of 3^8 states (men only: a king counts as
 * an empty square, the linear KING_* features value kings).
 *
 * Why these windows.  A window of 4 columns by 4 rows holds 8 dark squares, two a row;
 * 3^8 = 6561 states keep the tables learnable from the one or two million positions a
 * session's self-play gives (Scan 3.1's 3^12 regions, 4.25 M weights, would be mostly
 * unseen).  Windows at rows 0, 2, 4, 6 by columns 0, 2, 4, 6 overlap by two rows and two
 * columns, so any three consecutive rows by three consecutive columns lie inside one
 * window: every capture shape (man, victim, landing square), every chain of three men on a
 * diagonal and every man with the two squares in front of it is seen whole by some table.
 * 16 windows: 104976 states, 209952 pattern weights with both phases.  Moving the grid by one
 * row (28 windows) would cost 1.75x the weights and the time for shapes these already
 * hold.
 *
 * Weight sharing: none between windows.  Left-right mirroring maps dark squares to light
 * squares on 10x10 and the transpose turns the direction the men move, so the only
 * symmetry the board really has for a game is the half turn with colours exchanged; that is
 * the one used: each window is read from the side to move's view (sign +1) and, with the
 * board turned half a turn and colours exchanged, from the opponent's (sign -1), against
 * the same table, so the evaluation is exactly colour-symmetric and every table learns from
 * both sides.  The window grid is closed under the half turn (window 4i + j <-> 4(3 - i) +
 * 3 - j), so the opponent's reading of window W is the side to move's reading of W's image.
 *
 * Speed: in the bitboard layout of international_board.h a window's squares are bits
 * b, b + 1, b + 5, b + 6, b + 11, b + 12, b + 16, b + 17 with b = 11i + j: four shifts and
 * masks gather them into a byte, and a 256-entry table turns a byte of men into base 3. */
#include "international_patterns.h"
#include "evaluate.h"
#include "international_board.h"
#include "international_eval.h"
#include "weights.h"

/* Bumped whenever the meaning of a state changes: windows, square order or digits. */
#define INTL_PATTERN_FEATURE_SET 1

/* A byte of squares read in base 3 with digits 0/1: bit k adds 3^k.  An own man adds
 * base3[own], an opponent man 2 base3[opp]. */
#define BASE3(m)                                                                            \
    (((m) & 1) + ((m) >> 1 & 1) * 3 + ((m) >> 2 & 1) * 9 + ((m) >> 3 & 1) * 27             \
     + ((m) >> 4 & 1) * 81 + ((m) >> 5 & 1) * 243 + ((m) >> 6 & 1) * 729 + ((m) >> 7 & 1) * 2187)
#define BASE3_4(m) BASE3(m), BASE3((m) + 1), BASE3((m) + 2), BASE3((m) + 3)
#define BASE3_16(m) BASE3_4(m), BASE3_4((m) + 4), BASE3_4((m) + 8), BASE3_4((m) + 12)
#define BASE3_64(m) BASE3_16(m), BASE3_16((m) + 16), BASE3_16((m) + 32), BASE3_16((m) + 48)
static const uint16_t base3[256] = { BASE3_64(0), BASE3_64(64), BASE3_64(128), BASE3_64(192) };
_Static_assert(BASE3(255) == INTL_PATTERN_STATES / 2, "3^8 - 1 = 2 * (all digits 1)");

/* The 8 squares of the window at bit `base` gathered into bits 0..7 in square order. */
static inline unsigned window_byte(Bitboard b, int base)
{
    Bitboard x = b >> base;
    return (unsigned)((x & 0x3) | (x >> 3 & 0xC) | (x >> 7 & 0x30) | (x >> 10 & 0xC0));
}

static inline int window_state(Bitboard own, Bitboard opp, int i, int j)
{
    int base = 11 * i + j;
    return base3[window_byte(own, base)] + 2 * base3[window_byte(opp, base)];
}

int intl_pattern_window_state(Bitboard own, Bitboard opp, int window)
{
    return window_state(own & INTL_BOARD_BB, opp & INTL_BOARD_BB, window / INTL_PATTERN_COLS,
                        window % INTL_PATTERN_COLS);
}

/* Writes the 16 pattern states of the frame (own, opp) (window w's table starts at
 * w * INTL_PATTERN_STATES). */
static inline void frame_states(Bitboard own, Bitboard opp, int32_t *state)
{
    for (int i = 0; i < INTL_PATTERN_ROWS; i++)
        for (int j = 0; j < INTL_PATTERN_COLS; j++)
            state[INTL_PATTERN_COLS * i + j] =
                (INTL_PATTERN_COLS * i + j) * INTL_PATTERN_STATES + window_state(own, opp, i, j);
}

/* The states of pos from the side to move's view (state[0..15]) and the opponent's
 * (state[16..31]): each side's men in the frame where they move up. */
static inline void position_states(const Position *pos, int32_t *state)
{
    Bitboard stm = pos->men[pos->side] & INTL_BOARD_BB, other = pos->men[!pos->side] & INTL_BOARD_BB;
    if (pos->side == WHITE) {
        frame_states(stm, other, state);
        frame_states(intl_half_turn(other), intl_half_turn(stm), state + INTL_PATTERN_WINDOWS);
    } else {
        frame_states(intl_half_turn(stm), intl_half_turn(other), state);
        frame_states(other, stm, state + INTL_PATTERN_WINDOWS);
    }
}

static int intl_patterns(const Position *pos, int32_t *state, int8_t *sign)
{
    position_states(pos, state);
    for (int k = 0; k < INTL_PATTERN_TERMS; k++)
        sign[k] = k < INTL_PATTERN_WINDOWS ? 1 : -1;
    return INTL_PATTERN_TERMS;
}

/* evaluate_generic without writing the occurrences' signs: the same sums, the side to
 * move's windows added and the opponent's subtracted. */
static int intl_pattern_evaluate(const Position *pos, const Weights *w)
{
    int32_t v[EVAL_MAX_FEATURES + 1], state[INTL_PATTERN_TERMS];
    int mg = international_features(pos, v);
    position_states(pos, state);
    int64_t sum_mg = 0, sum_eg = 0;
    for (int i = 0; i < INTL_EVAL_NUM_FEATURES; i++) {
        sum_mg += (int64_t)v[i] * w->w[2 * i];
        sum_eg += (int64_t)v[i] * w->w[2 * i + 1];
    }
    const int32_t *table = w->w + 2 * INTL_EVAL_NUM_FEATURES;
    int32_t own_mg = 0, own_eg = 0, opp_mg = 0, opp_eg = 0;
    for (int k = 0; k < INTL_PATTERN_WINDOWS; k++) {
        own_mg += table[2 * state[k]];
        own_eg += table[2 * state[k] + 1];
        opp_mg += table[2 * state[INTL_PATTERN_WINDOWS + k]];
        opp_eg += table[2 * state[INTL_PATTERN_WINDOWS + k] + 1];
    }
    sum_mg += (int64_t)own_mg - opp_mg;
    sum_eg += (int64_t)own_eg - opp_eg;
    return eval_scale_score(mg * sum_mg + (INTL_PHASE_MAX - mg) * sum_eg, INTL_PHASE_MAX);
}

const EvalSpec international_pattern_eval_spec = {
    .variant = "international",
    .nfeatures = INTL_EVAL_NUM_FEATURES,
    .weight_names = intl_weight_names,
    .feature_why = intl_feature_why,
    .defaults = intl_defaults,
    .material_only = intl_material_only,
    .phase_max = INTL_PHASE_MAX,
    .features = international_features,
    .eval_name = "pattern",
    .npattern_states = INTL_PATTERN_WINDOWS * INTL_PATTERN_STATES,
    .max_pattern_terms = INTL_PATTERN_TERMS,
    .feature_set_version = INTL_PATTERN_FEATURE_SET,
    .patterns = intl_patterns,
    .evaluate = intl_pattern_evaluate,
};
