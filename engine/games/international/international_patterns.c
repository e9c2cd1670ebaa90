/* The pattern evaluation of International draughts: international_eval.c's linear features,
 * then 4 regions of 12 dark squares read in each side's frame, each region a table of 3^12
 * states (men only: a king counts as an empty square, the linear KING_* features value
 * kings).
 *
 * Why these regions.  A region is 4 columns by 6 rows, two dark squares a row, the size
 * Scan 3.1 fits: the 16 windows of 4 x 4 squares (feature-set 1, 209 952 weights) fitted
 * on 5.2 M positions did no better than on 2.7 M, so their capacity, not the data, had
 * become the limit (docs/experiments.md).  In the frame of one side (its men moving up),
 * the regions cover rows 4 .. 9, its own half and the two middle rows, at columns 2j ..
 * 2j + 3 for j = 0..3 (overlapping by two columns).  The other side's frame covers the
 * rest of the board the same way, so the two frames read the whole board: 8 regions of
 * the real board, each read once, as Scan's 8 regions are.  Any three consecutive rows by
 * three consecutive columns lie inside one region (rows 0 .. 5 or 4 .. 9), so every
 * capture shape is seen whole, as with the small windows; a region also sees a wing's
 * whole structure from the back rank to the centre, which the 4-row windows cut in two.
 * 4 tables of 531 441 states: 2 125 764 states, 4 251 528 pattern weights with both
 * phases, 17.0 MB of int32 (the MG and EG weights of a state side by side, one cache line).
 * That fits the 32 MB L3 but not the 1 MB L2: an evaluation loads 8 weight pairs at random
 * from it (the 16 windows loaded 32 from 840 KB).
 *
 * Weight sharing: none between regions.  Left-right mirroring maps dark squares to light
 * squares on 10x10 and the transpose turns the direction the men move, so the only
 * symmetry the board really has for a game is the half turn with colours exchanged; that
 * is the one used: each region is read in the side to move's frame (sign +1) and, with
 * the board turned half a turn and colours exchanged, in the opponent's (sign -1), against
 * the same table, so the evaluation is exactly colour-symmetric and every table learns
 * from both sides.
 *
 * Speed: in the bitboard layout of international_board.h two rows are 10 contiguous bits,
 * so one lookup per colour and pair of rows (pair_base3 below, 8 KB) gives the base-3
 * digits of all four columns of regions at once; a region's 6 rows are three pairs: 12
 * lookups and a few multiply-adds a position for all 8 states, no pext and no loop over
 * squares. */
#include "international_patterns.h"
#include "evaluate.h"
#include "international_board.h"
#include "international_eval.h"
#include "weights.h"

/* Bumped whenever the meaning of a state changes: regions, square order or digits.
 * 1: 16 windows of 4 x 4 squares (3^8 states); 2: 4 regions of 4 x 6 squares a frame. */
#define INTL_PATTERN_FEATURE_SET 2

/* Two rows of the board, 2p and 2p + 1, are the 10 bits 11p .. 11p + 9 (international_board.h).
 * For one colour's men on them, pair_base3[bits] holds in 16-bit lane j (j = 0..3) the
 * four squares the regions of column j take from those rows in base 3 with digits 0/1:
 * row 2p place j (1), place j + 1 (3), row 2p + 1 place j (9), place j + 1 (27).  An own
 * man adds the lane value, an opponent man twice it (at most 80 a lane). */
#define BIT(m, k) ((uint64_t)(m) >> (k) & 1)
#define LANE(m, j) ((BIT(m, j) + 3 * BIT(m, (j) + 1) + 9 * BIT(m, (j) + 5) + 27 * BIT(m, (j) + 6)) << (16 * (j)))
#define PAIR(m) (LANE(m, 0) | LANE(m, 1) | LANE(m, 2) | LANE(m, 3))
#define PAIR_4(m) PAIR(m), PAIR((m) + 1), PAIR((m) + 2), PAIR((m) + 3)
#define PAIR_16(m) PAIR_4(m), PAIR_4((m) + 4), PAIR_4((m) + 8), PAIR_4((m) + 12)
#define PAIR_64(m) PAIR_16(m), PAIR_16((m) + 16), PAIR_16((m) + 32), PAIR_16((m) + 48)
#define PAIR_256(m) PAIR_64(m), PAIR_64((m) + 64), PAIR_64((m) + 128), PAIR_64((m) + 192)
static const uint64_t pair_base3[1024] = { PAIR_256(0), PAIR_256(256), PAIR_256(512), PAIR_256(768) };
_Static_assert(PAIR(0x3FF) == 0x0028002800280028ULL, "all four digits 1: 1 + 3 + 9 + 27 = 40 a lane");

/* The pair of rows where a region starts: its three pairs are this one and the two below. */
#define FIRST_PAIR (INTL_PATTERN_FIRST_ROW / 2)
_Static_assert(INTL_PATTERN_FIRST_ROW % 2 == 0 && INTL_PATTERN_REGION_ROWS == 6 &&
                   INTL_PATTERN_FIRST_ROW + INTL_PATTERN_REGION_ROWS <= INTL_ROWS,
               "a region is three whole pairs of rows on the board");
_Static_assert(INTL_PATTERN_STATES == 81 * 81 * 81, "three pairs of four squares");

static inline uint64_t pair_digits(Bitboard own, Bitboard opp, int p)
{
    return pair_base3[own >> (11 * p) & 0x3FF] + 2 * pair_base3[opp >> (11 * p) & 0x3FF];
}

static inline int lane(uint64_t row, int j) { return (int)(row >> (16 * j) & 0xFFFF); }

/* The region states of one frame (own men move up, opp the opponent's): region j's in
 * state[j].  The first two pairs are summed in 16-bit lanes (at most 80 + 81 * 80 = 6560),
 * the third added lane by lane times 6561 (a state needs 20 bits). */
static inline void frame_regions(Bitboard own, Bitboard opp, int32_t state[INTL_PATTERN_REGIONS])
{
    uint64_t near = pair_digits(own, opp, FIRST_PAIR) + 81 * pair_digits(own, opp, FIRST_PAIR + 1);
    uint64_t far = pair_digits(own, opp, FIRST_PAIR + 2);
    for (int j = 0; j < INTL_PATTERN_REGIONS; j++)
        state[j] = lane(near, j) + 6561 * lane(far, j);
}

int intl_pattern_region_state(Bitboard own, Bitboard opp, int region)
{
    int32_t state[INTL_PATTERN_REGIONS];
    frame_regions(own & INTL_BOARD_BB, opp & INTL_BOARD_BB, state);
    return state[region];
}

/* The region states of pos in the side to move's frame (own[0..3]) and the opponent's
 * (opp[0..3]): each side's men in the frame where they move up. */
static inline void position_regions(const Position *pos, int32_t *own, int32_t *opp)
{
    Bitboard stm = pos->men[pos->side] & INTL_BOARD_BB, other = pos->men[!pos->side] & INTL_BOARD_BB;
    if (pos->side == WHITE) {
        frame_regions(stm, other, own);
        frame_regions(intl_half_turn(other), intl_half_turn(stm), opp);
    } else {
        frame_regions(intl_half_turn(stm), intl_half_turn(other), own);
        frame_regions(other, stm, opp);
    }
}

/* Occurrence k < 4 is the side to move's region k, 4 + k the opponent's; region j's table
 * starts at j * INTL_PATTERN_STATES. */
static int intl_patterns(const Position *pos, int32_t *state, int8_t *sign)
{
    position_regions(pos, state, state + INTL_PATTERN_REGIONS);
    for (int k = 0; k < INTL_PATTERN_TERMS; k++) {
        state[k] += k % INTL_PATTERN_REGIONS * INTL_PATTERN_STATES;
        sign[k] = k < INTL_PATTERN_REGIONS ? 1 : -1;
    }
    return INTL_PATTERN_TERMS;
}

/* evaluate_generic without writing the occurrences' signs: the side to move's regions
 * added, the opponent's subtracted.  The region states are read from scratch at every
 * evaluation (three lookups a frame and colour), as the windows were: an incremental copy
 * of them cost the small windows more than it saved (docs/experiments.md). */
static int intl_pattern_evaluate(const Position *pos, const Weights *w)
{
    int32_t own[INTL_PATTERN_REGIONS], opp[INTL_PATTERN_REGIONS];
    position_regions(pos, own, opp);
    int32_t v[EVAL_MAX_FEATURES + 1];
    int mg = international_features(pos, v);
    int64_t sum_mg = 0, sum_eg = 0;
    for (int i = 0; i < INTL_EVAL_NUM_FEATURES; i++) {
        sum_mg += (int64_t)v[i] * w->w[2 * i];
        sum_eg += (int64_t)v[i] * w->w[2 * i + 1];
    }
    const int32_t *table = w->w + 2 * INTL_EVAL_NUM_FEATURES;
    int64_t own_mg = 0, own_eg = 0, opp_mg = 0, opp_eg = 0; /* int32 weights of any size */
    for (int j = 0; j < INTL_PATTERN_REGIONS; j++) {
        const int32_t *t = table + 2 * (size_t)j * INTL_PATTERN_STATES;
        /* size_t states: the weight's address is one scaled index from the table's */
        size_t s = (size_t)own[j], o = (size_t)opp[j];
        own_mg += t[2 * s];
        own_eg += t[2 * s + 1];
        opp_mg += t[2 * o];
        opp_eg += t[2 * o + 1];
    }
    sum_mg += own_mg - opp_mg;
    sum_eg += own_eg - opp_eg;
    return eval_scale_score(mg * sum_mg + (INTL_PHASE_MAX - mg) * sum_eg, INTL_PHASE_MAX);
}

const EvalSpec international_pattern_eval_spec = {
    INTL_LINEAR_EVAL_FIELDS,
    .eval_name = "pattern",
    .npattern_states = INTL_PATTERN_REGIONS * INTL_PATTERN_STATES,
    .max_pattern_terms = INTL_PATTERN_TERMS,
    .feature_set_version = INTL_PATTERN_FEATURE_SET,
    .patterns = intl_patterns,
    .evaluate = intl_pattern_evaluate,
};
