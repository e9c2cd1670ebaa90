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
 * 16 windows: 104976 states, 209952 pattern weights with both phases; 1-2 M positions
 * read 32 times each give some 300-600 occurrences a state on average (Scan 3.1's layout:
 * about 10).  Moving the grid by one row (28 windows) would cost 1.75x the weights and
 * the time for shapes these already hold.  Measured (tests/bench/intl_eval_bench.c): the
 * windows add about 80 ns to an evaluation of about 90 ns; search nodes/s stay within 10%.
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
 * Speed: in the bitboard layout of international_board.h two rows are 10 contiguous bits,
 * so one lookup per colour and pair of rows (pair_base3 below, 8 KB) gives the base-3
 * digits of all four columns of windows at once: 20 lookups and a few adds a position for
 * all 32 states, no pext and no loop over squares. */
#include <string.h>

#include "international_patterns.h"
#include "evaluate.h"
#include "international_board.h"
#include "international_eval.h"
#include "weights.h"

/* Bumped whenever the meaning of a state changes: windows, square order or digits. */
#define INTL_PATTERN_FEATURE_SET 1

/* Two rows of the board, 2p and 2p + 1, are the 10 bits 11p .. 11p + 9 (international_board.h).
 * For one colour's men on them, pair_base3[bits] holds in 16-bit lane j (j = 0..3) the
 * four squares the windows of column j take from those rows in base 3 with digits 0/1:
 * row 2p place j (1), place j + 1 (3), row 2p + 1 place j (9), place j + 1 (27).  An own
 * man adds the lane value, an opponent man twice it; two pairs of rows make a window
 * (the lower pair times 81), and no lane exceeds 6560, so the four columns of a window row
 * are summed at once in one 64-bit word. */
#define BIT(m, k) ((uint64_t)(m) >> (k) & 1)
#define LANE(m, j) ((BIT(m, j) + 3 * BIT(m, (j) + 1) + 9 * BIT(m, (j) + 5) + 27 * BIT(m, (j) + 6)) << (16 * (j)))
#define PAIR(m) (LANE(m, 0) | LANE(m, 1) | LANE(m, 2) | LANE(m, 3))
#define PAIR_4(m) PAIR(m), PAIR((m) + 1), PAIR((m) + 2), PAIR((m) + 3)
#define PAIR_16(m) PAIR_4(m), PAIR_4((m) + 4), PAIR_4((m) + 8), PAIR_4((m) + 12)
#define PAIR_64(m) PAIR_16(m), PAIR_16((m) + 16), PAIR_16((m) + 32), PAIR_16((m) + 48)
#define PAIR_256(m) PAIR_64(m), PAIR_64((m) + 64), PAIR_64((m) + 128), PAIR_64((m) + 192)
static const uint64_t pair_base3[1024] = { PAIR_256(0), PAIR_256(256), PAIR_256(512), PAIR_256(768) };
_Static_assert(PAIR(0x3FF) == 0x0028002800280028ULL, "all four digits 1: 1 + 3 + 9 + 27 = 40 a lane");

/* The window states of one frame: own men move up, opp are the opponent's.  rows[i] holds
 * window 4i + j's state in lane j. */
static inline void frame_rows(Bitboard own, Bitboard opp, uint64_t rows[INTL_PATTERN_ROWS])
{
    uint64_t pair[INTL_PATTERN_ROWS + 1];
    for (int p = 0; p <= INTL_PATTERN_ROWS; p++)
        pair[p] = pair_base3[own >> (11 * p) & 0x3FF] + 2 * pair_base3[opp >> (11 * p) & 0x3FF];
    for (int i = 0; i < INTL_PATTERN_ROWS; i++)
        rows[i] = pair[i] + 81 * pair[i + 1];
}

static inline int lane(uint64_t row, int j) { return (int)(row >> (16 * j) & 0xFFFF); }

int intl_pattern_window_state(Bitboard own, Bitboard opp, int window)
{
    uint64_t rows[INTL_PATTERN_ROWS];
    frame_rows(own & INTL_BOARD_BB, opp & INTL_BOARD_BB, rows);
    return lane(rows[window / INTL_PATTERN_COLS], window % INTL_PATTERN_COLS);
}

/* Writes the 16 pattern states of the frame (own, opp) (window w's table starts at
 * w * INTL_PATTERN_STATES). */
static inline void frame_states(Bitboard own, Bitboard opp, int32_t *state)
{
    uint64_t rows[INTL_PATTERN_ROWS];
    frame_rows(own, opp, rows);
    for (int i = 0; i < INTL_PATTERN_ROWS; i++)
        for (int j = 0; j < INTL_PATTERN_COLS; j++)
            state[INTL_PATTERN_COLS * i + j] =
                (INTL_PATTERN_COLS * i + j) * INTL_PATTERN_STATES + lane(rows[i], j);
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

/* ---- The tuner's key: the side to move's frame, 16 bytes (eval_spec.h) ---- */

enum { KEY_BYTES = 2 * sizeof(Bitboard) };

static void intl_pattern_key(const Position *pos, uint8_t *key)
{
    Bitboard stm = pos->men[pos->side] & INTL_BOARD_BB, other = pos->men[!pos->side] & INTL_BOARD_BB;
    if (pos->side == BLACK) {
        stm = intl_half_turn(stm);
        other = intl_half_turn(other);
    }
    memcpy(key, &stm, sizeof stm);
    memcpy(key + sizeof stm, &other, sizeof other);
}

/* Any 16 bytes read safely: off-board bits are dropped and a square both sides claim is
 * the side to move's.  A window both frames read in the same state (+1 and -1 of one
 * weight: an empty window, most often) is left out, as eval_features merges it away: the
 * tuner's lazy Adam must not count it as touched. */
static int intl_key_patterns(const uint8_t *key, int32_t *state, int8_t *sign)
{
    Bitboard own, opp;
    memcpy(&own, key, sizeof own);
    memcpy(&opp, key + sizeof own, sizeof opp);
    own &= INTL_BOARD_BB;
    opp &= INTL_BOARD_BB & ~own;
    int32_t s[INTL_PATTERN_TERMS];
    frame_states(own, opp, s);
    frame_states(intl_half_turn(opp), intl_half_turn(own), s + INTL_PATTERN_WINDOWS);
    int n = 0;
    for (int k = 0; k < INTL_PATTERN_WINDOWS; k++)
        if (s[k] != s[INTL_PATTERN_WINDOWS + k]) {
            state[n] = s[k];
            sign[n++] = 1;
            state[n] = s[INTL_PATTERN_WINDOWS + k];
            sign[n++] = -1;
        }
    return n;
}

/* The score from the window rows of the side to move's frame (own) and the opponent's
 * (opp): evaluate_generic without writing the occurrences' signs, the side to move's
 * windows added and the opponent's subtracted. */
static inline int evaluate_rows(const Position *pos, const Weights *w, const uint64_t *own,
                                const uint64_t *opp)
{
    int32_t v[EVAL_MAX_FEATURES + 1];
    int mg = international_features(pos, v);
    int64_t sum_mg = 0, sum_eg = 0;
    for (int i = 0; i < INTL_EVAL_NUM_FEATURES; i++) {
        sum_mg += (int64_t)v[i] * w->w[2 * i];
        sum_eg += (int64_t)v[i] * w->w[2 * i + 1];
    }
    const int32_t *table = w->w + 2 * INTL_EVAL_NUM_FEATURES;
    int64_t own_mg = 0, own_eg = 0, opp_mg = 0, opp_eg = 0; /* int32 weights of any size */
    for (int i = 0; i < INTL_PATTERN_ROWS; i++)
        for (int j = 0; j < INTL_PATTERN_COLS; j++) {
            const int32_t *t = table + 2 * (INTL_PATTERN_COLS * i + j) * INTL_PATTERN_STATES;
            /* size_t states: the weight's address is one scaled index from the table's */
            size_t s = (size_t)lane(own[i], j), o = (size_t)lane(opp[i], j);
            own_mg += t[2 * s];
            own_eg += t[2 * s + 1];
            opp_mg += t[2 * o];
            opp_eg += t[2 * o + 1];
        }
    sum_mg += own_mg - opp_mg;
    sum_eg += own_eg - opp_eg;
    return eval_scale_score(mg * sum_mg + (INTL_PHASE_MAX - mg) * sum_eg, INTL_PHASE_MAX);
}

/* The rows are read from scratch at every evaluation, 5 squares a lookup: kept from ply to
 * ply instead (both frames updated by the squares a move changes, as Turkish does) they
 * cost more, 89.6 M instructions of updates against 46 M saved at the leaves on the bench
 * with the shipped weights at depth 9 (callgrind, 2026-12). */
static int intl_pattern_evaluate(const Position *pos, const Weights *w)
{
    Bitboard stm = pos->men[pos->side] & INTL_BOARD_BB, other = pos->men[!pos->side] & INTL_BOARD_BB;
    uint64_t own[INTL_PATTERN_ROWS], opp[INTL_PATTERN_ROWS];
    if (pos->side == WHITE) {
        frame_rows(stm, other, own);
        frame_rows(intl_half_turn(other), intl_half_turn(stm), opp);
    } else {
        frame_rows(intl_half_turn(stm), intl_half_turn(other), own);
        frame_rows(other, stm, opp);
    }
    return evaluate_rows(pos, w, own, opp);
}

const EvalSpec international_pattern_eval_spec = {
    INTL_LINEAR_EVAL_FIELDS,
    .eval_name = "pattern",
    .npattern_states = INTL_PATTERN_WINDOWS * INTL_PATTERN_STATES,
    .max_pattern_terms = INTL_PATTERN_TERMS,
    .feature_set_version = INTL_PATTERN_FEATURE_SET,
    .patterns = intl_patterns,
    .pattern_key_bytes = KEY_BYTES,
    .pattern_key = intl_pattern_key,
    .key_patterns = intl_key_patterns,
    .evaluate = intl_pattern_evaluate,
};
