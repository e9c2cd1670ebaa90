/* Feature values of an International draughts position (the terms and their reasons:
 * international_eval_features.h) and the EvalSpec that names and weights them.
 *
 * Both sides are measured by the same code in their own frame: White's pieces as they are,
 * Black's with the board turned half a turn (square n <-> 51 - n, bit b <-> 53 - b in the
 * layout of international_board.h), so that every side's men move towards squares 1-5 and
 * the square sets below are written once, as White's. */
#include "international_eval.h"
#include "international_board.h"
#include "international_eval_features.h"

_Static_assert(INTL_EVAL_NUM_FEATURES <= EVAL_MAX_FEATURES, "too many International features");
_Static_assert(INTL_FEAT_MAN == 0, "feature 0 is the man: the unit the tuner keeps fixed");

/* ---- square sets, White's frame ---- */

#define SQ(n) (1ULL << ((n) - 1 + ((n) - 1) / 10))
/* Row r = 0..9 from square 1's row: squares 5r+1 .. 5r+5. */
#define ROW_BB(r) (0x1FULL << (11 * ((r) / 2) + 5 * ((r) % 2)))
/* Column b (squares 1, 11, 21, 31, 41); every other column is a shift of it: the rows of
 * squares 1-5 hold columns b d f h j, the rows of 6-10 columns a c e g i. */
#define COL_B (SQ(1) | SQ(11) | SQ(21) | SQ(31) | SQ(41))
#define COL_D (COL_B << 1)
#define COL_F (COL_B << 2)
#define COL_H (COL_B << 3)
#define COL_J (COL_B << 4)
#define COL_A (COL_B << 5)
#define COL_C (COL_B << 6)
#define COL_E (COL_B << 7)
#define COL_G (COL_B << 8)
#define COL_I (COL_B << 9)
_Static_assert((COL_A & SQ(46)) != 0 && (COL_J & SQ(5)) != 0 && (COL_I & SQ(50)) != 0
               && (COL_A | COL_B | COL_C | COL_D | COL_E | COL_F | COL_G | COL_H | COL_I | COL_J)
                  == INTL_BOARD_BB,
               "the ten columns cover the board");

#define HALF_LEFT_BB (COL_A | COL_B | COL_C | COL_D | COL_E)
#define FLANK_LEFT_BB (COL_A | COL_B | COL_C)
#define FLANK_RIGHT_BB (COL_H | COL_I | COL_J)
#define EDGE_BB (COL_A | COL_J)
#define CENTRE_BB (SQ(22) | SQ(23) | SQ(27) | SQ(28) | SQ(29) | SQ(32) | SQ(33))
#define CLASSIC_BB (SQ(27) | SQ(28) | SQ(32))
#define OUTPOST_BB (SQ(22) | SQ(23) | SQ(24))
#define GUARD_BB (SQ(47) | SQ(48) | SQ(49))
#define GOLDEN_BB SQ(48)
#define MAIN_DIAGONAL_BB                                                                    \
    (SQ(46) | SQ(41) | SQ(37) | SQ(32) | SQ(28) | SQ(23) | SQ(19) | SQ(14) | SQ(10) | SQ(5))

/* Home-row guards counted by BACK_GUARD at most: two already cover the crowning paths of
 * most break-throughs; more are men that should be playing. */
#define BACK_GUARD_CAP 2

/* One side's pieces seen from its own frame: its men move towards squares 1-5. */
typedef struct Frame {
    Bitboard men, kings, opp_men, opp_kings, empty;
} Frame;

static inline Bitboard step_up(Bitboard b)
{
    return intl_shift(b, UP_LEFT) | intl_shift(b, UP_RIGHT);
}

static inline Bitboard step_down(Bitboard b)
{
    return intl_shift(b, DOWN_LEFT) | intl_shift(b, DOWN_RIGHT);
}

/* b moved by delta bits (no masking: the callers mask with empty squares). */
static inline Bitboard shift_by(Bitboard b, int delta)
{
    return delta > 0 ? b << delta : b >> -delta;
}

/* The empty squares the pieces of gen reach sliding in dir: an occluded fill in doubling
 * steps (one step, then 1, 2, 4 and 8 more: the 9 of the long diagonal).  It cannot wrap:
 * empty holds no ghost or off-board bit, so a propagator across an edge is always cut. */
static inline __attribute__((always_inline)) Bitboard slide_fill(Bitboard gen, Bitboard empty, int dir)
{
    int d = intl_step_delta[dir];
    Bitboard flood = shift_by(gen, d) & empty;
#pragma GCC unroll 4
    for (int k = 1; k <= 8; k *= 2) {
        flood |= empty & shift_by(flood, k * d);
        empty &= shift_by(empty, k * d);
    }
    return flood;
}

/* Squares where an own piece could be captured now: an enemy man next to it with the square
 * beyond empty (men capture in all four directions), or an enemy king on the same line with
 * only empty squares between.  For empty squares: where a king that moved there would be
 * taken by a man (the enemy kings are left out there: man_only). */
static inline __attribute__((always_inline)) Bitboard attacked_squares(const Frame *f, int man_only)
{
    Bitboard hit = 0, e = f->empty;
#pragma GCC unroll 4 /* each direction a constant: its shifts fold (a switch a step, rolled) */
    for (int dir = 0; dir < 4; dir++) {
        Bitboard landing_free = intl_shift(e, 3 - dir); /* 3 - dir: the opposite direction */
        Bitboard attackers = f->opp_men;
        if (!man_only && f->opp_kings)
            attackers |= f->opp_kings | slide_fill(f->opp_kings, e, dir);
        hit |= intl_shift(attackers, dir) & landing_free;
    }
    return hit;
}

/* Men with an empty path to the crown that no enemy man can get in front of or next to.  A
 * man is stopped by a piece anywhere in its forward cone (the squares k rows ahead within k
 * columns), and by an enemy man that can reach its cone or a square beside it: enemy men
 * move down, so those are the ones at most two columns wider than the cone, from one row
 * behind the man up.  Both sets are, seen from the obstacles, everything below them in a
 * widening cone: a downward flood from the squares just below each piece and from the
 * squares just above each enemy man.  None while the enemy has a king, which goes anywhere. */
static inline int runaway_men(const Frame *f)
{
    if (f->opp_kings || !f->men)
        return 0;
    Bitboard stopped = step_down(~f->empty & INTL_BOARD_BB) | step_up(f->opp_men);
    /* a cone spans at most the nine rows below row 0; in a crowded position every man is
     * stopped after a row or two */
    for (int row = 0; row < 9 && (f->men & ~stopped); row++)
        stopped |= step_down(stopped);
    return popcount(f->men & ~stopped);
}

static inline int absolute(int x) { return x < 0 ? -x : x; }

/* ceil(2^16 / n) (0 for n = 0): x * reciprocal[n] >> 16 is x / n for every x <= 36 n, four
 * times the advancement n men can have (the error, below x / 2^16, stays under 1 / n):
 * TEMPO without a division at every node. */
static const uint32_t reciprocal[] = {
    0, 65536, 32768, 21846, 16384, 13108, 10923, 9363, 8192, 7282, 6554, 5958,
    5462, 5042, 4682, 4370, 4096, 3856, 3641, 3450, 3277,
    /* 20 men at most a side; up to 50 for any bit pattern the caller may pass */
    3121, 2979, 2850, 2731, 2622, 2521, 2428, 2341, 2260, 2185, 2115, 2048, 1986, 1928,
    1873, 1821, 1772, 1725, 1681, 1639, 1599, 1561, 1525, 1490, 1457, 1425, 1395, 1366,
    1338, 1311,
};
_Static_assert(sizeof reciprocal / sizeof reciprocal[0] == INTL_SQUARES + 1, "0..50 men");

/* Writes every feature of the side of frame f into out (all INTL_EVAL_NUM_FEATURES slots:
 * the caller subtracts the two sides without clearing anything first). */
static inline void side_features(const Frame *f, int32_t *out)
{
    Bitboard men = f->men, own = men | f->kings, e = f->empty;
    int nmen = popcount(men), nkings = popcount(f->kings);

    out[INTL_FEAT_MAN] = nmen;
    out[INTL_FEAT_KING_FIRST] = nkings > 0;
    out[INTL_FEAT_KING_EXTRA] = nkings > 1 ? nkings - 1 : 0;
    out[INTL_FEAT_KINGS_BOTH_MEN] = f->kings && f->opp_kings ? nmen : 0;

    int advancement = 0;
    for (int adv = 1; adv <= 9; adv++) {
        int n = popcount(men & ROW_BB(9 - adv));
        advancement += adv * n;
        if (adv <= 8) /* a man on the crowning row would be a king: no term */
            out[INTL_FEAT_MAN_ADV1 + adv - 1] = n;
    }
    out[INTL_FEAT_TEMPO] = (4 * advancement * reciprocal[nmen]) >> 16; /* 4 * adv / nmen */

    out[INTL_FEAT_CENTRE] = popcount(men & CENTRE_BB);
    out[INTL_FEAT_CLASSIC] = (men & CLASSIC_BB) == CLASSIC_BB;
    Bitboard outposts = men & OUTPOST_BB;
    /* the squares behind s are s + 5 and s + 6: held when s is in own shifted by -5 and -6 */
    Bitboard supported = outposts & intl_shift(own, UP_RIGHT) & intl_shift(own, UP_LEFT);
    out[INTL_FEAT_OUTPOST] = popcount(supported);
    out[INTL_FEAT_OUTPOST_WEAK] = popcount(outposts & ~supported);

    out[INTL_FEAT_HALF_IMBALANCE] = absolute(2 * popcount(men & HALF_LEFT_BB) - nmen);
    int left = popcount(men & FLANK_LEFT_BB), right = popcount(men & FLANK_RIGHT_BB);
    out[INTL_FEAT_FLANK_IMBALANCE] = absolute(left - right);
    out[INTL_FEAT_EDGE_MEN] = popcount(men & EDGE_BB);
    int guards = popcount(men & GUARD_BB);
    out[INTL_FEAT_BACK_GUARD] = guards < BACK_GUARD_CAP ? guards : BACK_GUARD_CAP;
    out[INTL_FEAT_GOLDEN_MAN] = (men & GOLDEN_BB) != 0;

    /* a man on s steps to s - 6 or s - 5: free when s is in empty shifted by +6 or +5 */
    Bitboard step_left = men & intl_shift(e, DOWN_RIGHT);
    Bitboard step_right = men & intl_shift(e, DOWN_LEFT);
    out[INTL_FEAT_MAN_MOBILITY] = popcount(step_left) + popcount(step_right);
    out[INTL_FEAT_BLOCKED] = popcount(men & ~(step_left | step_right));
    out[INTL_FEAT_RUNAWAY] = runaway_men(f);
    out[INTL_FEAT_EN_PRISE] = popcount(own & attacked_squares(f, 0));

    out[INTL_FEAT_KING_MOBILITY] = out[INTL_FEAT_KING_DENIED] = 0;
    out[INTL_FEAT_KING_MAIN_DIAGONAL] = 0;
    if (f->kings) {
        Bitboard k = f->kings, reach = 0;
#pragma GCC unroll 4
        for (int dir = 0; dir < 4; dir++)
            reach |= slide_fill(k, e, dir);
        Bitboard denied = reach & attacked_squares(f, 1);
        out[INTL_FEAT_KING_MOBILITY] = popcount(reach & ~denied);
        out[INTL_FEAT_KING_DENIED] = popcount(denied);
        out[INTL_FEAT_KING_MAIN_DIAGONAL] = popcount(k & MAIN_DIAGONAL_BB);
    }
    out[INTL_FEAT_SIDE_TO_MOVE] = 0; /* set once, by the caller */
}

int international_features(const Position *pos, int32_t *v)
{
    /* masked: bits off the board would count in the popcounts but vanish in the half turn */
    Bitboard wm = pos->men[WHITE] & INTL_BOARD_BB, wk = pos->kings[WHITE] & INTL_BOARD_BB;
    Bitboard bm = pos->men[BLACK] & INTL_BOARD_BB, bk = pos->kings[BLACK] & INTL_BOARD_BB;
    Bitboard empty = ~(wm | wk | bm | bk) & INTL_BOARD_BB;

    const Frame white = { wm, wk, bm, bk, empty };
    const Frame black = { intl_half_turn(bm), intl_half_turn(bk), intl_half_turn(wm), intl_half_turn(wk),
                          intl_half_turn(empty) };
    int32_t w[INTL_EVAL_NUM_FEATURES], b[INTL_EVAL_NUM_FEATURES];
    side_features(&white, w);
    side_features(&black, b);
    int32_t sign = pos->side == WHITE ? 1 : -1;
    for (int i = 0; i < INTL_EVAL_NUM_FEATURES; i++)
        v[i] = sign * (w[i] - b[i]);
    v[INTL_FEAT_SIDE_TO_MOVE] = 1;

    int phase = popcount(wm) + popcount(bm);
    return phase < INTL_PHASE_MAX ? phase : INTL_PHASE_MAX;
}

/* ---- the spec ---- */

const char *const intl_weight_names[] = {
#define INTL_WEIGHT_NAMES(name, mg, eg, why) #name "_MG", #name "_EG",
    INTL_EVAL_FEATURES(INTL_WEIGHT_NAMES)
#undef INTL_WEIGHT_NAMES
};

const char *const intl_feature_why[] = {
#define INTL_FEATURE_WHY(name, mg, eg, why) why,
    INTL_EVAL_FEATURES(INTL_FEATURE_WHY)
#undef INTL_FEATURE_WHY
};

const int32_t intl_defaults[] = {
#define INTL_DEFAULTS(name, mg, eg, why) mg, eg,
    INTL_EVAL_FEATURES(INTL_DEFAULTS)
#undef INTL_DEFAULTS
};

/* Material alone: a king is worth three men (Moby Dam values it 3.3 men once the opening is
 * over; a flying king controls whole diagonals), further kings two: three kings against one
 * are often only a draw on 10x10, so kings beyond the first add less. */
const int32_t intl_material_only[2 * INTL_EVAL_NUM_FEATURES] = {
    [2 * INTL_FEAT_MAN] = 100,        [2 * INTL_FEAT_MAN + 1] = 100,
    [2 * INTL_FEAT_KING_FIRST] = 300, [2 * INTL_FEAT_KING_FIRST + 1] = 300,
    [2 * INTL_FEAT_KING_EXTRA] = 200, [2 * INTL_FEAT_KING_EXTRA + 1] = 200,
};

_Static_assert(sizeof intl_weight_names / sizeof intl_weight_names[0] == 2 * INTL_EVAL_NUM_FEATURES,
               "two weight names a feature");
_Static_assert(sizeof intl_defaults / sizeof intl_defaults[0] == 2 * INTL_EVAL_NUM_FEATURES,
               "two defaults a feature");

const EvalSpec international_eval_spec = { INTL_LINEAR_EVAL_FIELDS };
