/* The pattern evaluation of Russian draughts: russian_eval.c's linear features, then 9
 * windows of 8 dark squares, each a table of 3^8 states (men only: a king counts as an
 * empty square, the linear KING_* features value kings).
 *
 * Why these windows: the 8x8 board cut as International's 10x10 is (international_
 * patterns.c): 4x4 windows at rows 0, 2, 4 by columns 0, 2, 4 overlap by two rows and two
 * columns, so every 3x3 block of the board (a capture's man, victim and landing square, a
 * man with the squares in front of it) lies whole inside one window.  9 windows: 59049
 * states, 118098 weights with both phases.  Each window is read from the side to move's
 * view (+1) and, the board turned half a turn and colours exchanged, from the opponent's
 * (-1), against the same table: the evaluation is exactly colour-symmetric.  The grid is
 * closed under the half turn (window 3i + j <-> 3(2 - i) + 2 - j).
 *
 * No fast path: the generic loop (evaluate.c) reads the 18 states; 8x8 has few pieces. */
#include "russian_patterns.h"
#include "russian.h"
#include "international_board.h"
#include "russian_eval.h"

/* Bumped whenever the meaning of a state changes: windows, square order or digits. */
#define RUSSIAN_PATTERN_FEATURE_SET 1

/* The bit of square k (0..7) of window 3i + j: row 2i + k / 2 from the top, the two dark
 * squares of columns 2j .. 2j + 3 in it (even rows have them on b, d, ...; odd on a, c). */
static int window_bit(int window, int k)
{
    int row = 2 * (window / RUSSIAN_PATTERN_COLS) + k / 2;
    int col = 2 * (window % RUSSIAN_PATTERN_COLS) + (row % 2 == 0) + 2 * (k % 2);
    int index = row * INTL_HALF + col / 2;
    return intl_bit_of_number(index + 1);
}

int russian_pattern_window_state(Bitboard own, Bitboard opp, int window)
{
    int state = 0;
    for (int k = RUSSIAN_PATTERN_SQUARES - 1; k >= 0; k--) {
        Bitboard b = square_bb(window_bit(window, k));
        state = 3 * state + ((own & b) ? 1 : (opp & b) ? 2 : 0);
    }
    return state;
}

/* The states of one frame: window w's table starts at w * RUSSIAN_PATTERN_STATES. */
static void frame_states(Bitboard own, Bitboard opp, int32_t *state)
{
    for (int w = 0; w < RUSSIAN_PATTERN_WINDOWS; w++)
        state[w] = w * RUSSIAN_PATTERN_STATES + russian_pattern_window_state(own, opp, w);
}

static int russian_patterns(const Position *pos, int32_t *state, int8_t *sign)
{
    Bitboard stm = pos->men[pos->side] & INTL_BOARD_BB, other = pos->men[!pos->side] & INTL_BOARD_BB;
    if (pos->side == WHITE) {
        frame_states(stm, other, state);
        frame_states(intl_half_turn(other), intl_half_turn(stm), state + RUSSIAN_PATTERN_WINDOWS);
    } else {
        frame_states(intl_half_turn(stm), intl_half_turn(other), state);
        frame_states(other, stm, state + RUSSIAN_PATTERN_WINDOWS);
    }
    for (int k = 0; k < RUSSIAN_PATTERN_TERMS; k++)
        sign[k] = k < RUSSIAN_PATTERN_WINDOWS ? 1 : -1;
    return RUSSIAN_PATTERN_TERMS;
}

const EvalSpec russian_pattern_eval_spec = {
    RUSSIAN_LINEAR_EVAL_FIELDS,
    .eval_name = "pattern",
    .npattern_states = RUSSIAN_PATTERN_WINDOWS * RUSSIAN_PATTERN_STATES,
    .max_pattern_terms = RUSSIAN_PATTERN_TERMS,
    .feature_set_version = RUSSIAN_PATTERN_FEATURE_SET,
    .patterns = russian_patterns,
};
