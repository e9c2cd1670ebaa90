/* Feature values of a Russian draughts position (the terms and their reasons:
 * russian_eval_features.h) and the EvalSpec that names and weights them.
 *
 * Both sides are measured by the same code in their own frame: White's pieces as they are,
 * Black's with the board turned half a turn, so that every side's men move up (towards
 * rank 8) and the square sets below are written once, as White's. */
#include "russian.h"
#include "international_board.h"
#include "russian_eval.h"

_Static_assert(RUSSIAN_EVAL_NUM_FEATURES <= EVAL_MAX_FEATURES, "too many Russian features");
_Static_assert(RUSSIAN_FEAT_MAN == 0, "feature 0 is the man: the unit the tuner keeps fixed");

/* The square in row r (0 = rank 8) and column c (0 = a), a dark one. */
#define SQ_INDEX(r, c) ((r) * INTL_HALF + (c) / 2)
#define SQ(r, c) (1ULL << (SQ_INDEX(r, c) + SQ_INDEX(r, c) / INTL_COLUMNS))
/* Row r: four squares, contiguous bits. */
#define ROW_BB(r) (0xFULL << ((INTL_COLUMNS + 1) * ((r) / 2) + INTL_HALF * ((r) % 2)))
#define COL_A_BB (SQ(1, 0) | SQ(3, 0) | SQ(5, 0) | SQ(7, 0))
#define COL_H_BB (SQ(0, 7) | SQ(2, 7) | SQ(4, 7) | SQ(6, 7))
#define CENTRE_BB (SQ(3, 2) | SQ(4, 3) | SQ(3, 4) | SQ(4, 5)) /* c5, d4, e5, f4 */
#define GUARD_BB (SQ(7, 2) | SQ(7, 4) | SQ(7, 6))              /* c1, e1, g1 */
_Static_assert((ROW_BB(0) | ROW_BB(1) | ROW_BB(2) | ROW_BB(3) | ROW_BB(4) | ROW_BB(5) | ROW_BB(6)
                | ROW_BB(7)) == INTL_BOARD_BB,
               "the eight rows cover the board");

/* Home-row guards counted at most: two cover most break-throughs. */
#define BACK_GUARD_CAP 2

typedef struct Frame {
    Bitboard men, kings, opp_men, opp_kings, empty;
} Frame;

/* Squares where a piece of the frame's side could be captured now: an enemy man next to it
 * with the square beyond empty, or an enemy king on its line with only empty squares
 * between. */
static Bitboard attacked(const Frame *f)
{
    Bitboard hit = 0;
    for (int dir = 0; dir < 4; dir++) {
        Bitboard attackers = f->opp_men | f->opp_kings | intl_slide(f->opp_kings, f->empty, dir);
        hit |= intl_shift(attackers, dir) & intl_shift(f->empty, 3 - dir);
    }
    return hit;
}

static void side_features(const Frame *f, int32_t *out)
{
    Bitboard men = f->men, own = men | f->kings, e = f->empty;
    int nkings = popcount(f->kings);
    out[RUSSIAN_FEAT_MAN] = popcount(men);
    out[RUSSIAN_FEAT_KING_FIRST] = nkings > 0;
    out[RUSSIAN_FEAT_KING_EXTRA] = nkings > 1 ? nkings - 1 : 0;
    for (int adv = 1; adv <= 6; adv++)
        out[RUSSIAN_FEAT_MAN_ADV1 + adv - 1] = popcount(men & ROW_BB(7 - adv));
    out[RUSSIAN_FEAT_CENTRE] = popcount(men & CENTRE_BB);
    out[RUSSIAN_FEAT_EDGE_MEN] = popcount(men & (COL_A_BB | COL_H_BB));
    int guards = popcount(men & GUARD_BB);
    out[RUSSIAN_FEAT_BACK_GUARD] = guards < BACK_GUARD_CAP ? guards : BACK_GUARD_CAP;
    /* a man steps up-left or up-right: free when that square is empty */
    Bitboard left = men & intl_shift(e, DOWN_RIGHT), right = men & intl_shift(e, DOWN_LEFT);
    out[RUSSIAN_FEAT_MAN_MOBILITY] = popcount(left) + popcount(right);
    out[RUSSIAN_FEAT_BLOCKED] = popcount(men & ~(left | right));
    out[RUSSIAN_FEAT_EN_PRISE] = popcount(own & attacked(f));
    Bitboard reach = 0;
    for (int dir = 0; dir < 4 && f->kings; dir++)
        reach |= intl_slide(f->kings, e, dir);
    out[RUSSIAN_FEAT_KING_MOBILITY] = popcount(reach);
    out[RUSSIAN_FEAT_KING_MAIN_ROAD] = popcount(f->kings & russian_main_road());
    out[RUSSIAN_FEAT_SIDE_TO_MOVE] = 0; /* set once, by the caller */
}

int russian_features(const Position *pos, int32_t *v)
{
    Bitboard wm = pos->men[WHITE] & INTL_BOARD_BB, wk = pos->kings[WHITE] & INTL_BOARD_BB;
    Bitboard bm = pos->men[BLACK] & INTL_BOARD_BB, bk = pos->kings[BLACK] & INTL_BOARD_BB;
    Bitboard empty = ~(wm | wk | bm | bk) & INTL_BOARD_BB;
    const Frame white = { wm, wk, bm, bk, empty };
    const Frame black = { intl_half_turn(bm), intl_half_turn(bk), intl_half_turn(wm),
                          intl_half_turn(wk), intl_half_turn(empty) };
    int32_t w[RUSSIAN_EVAL_NUM_FEATURES], b[RUSSIAN_EVAL_NUM_FEATURES];
    side_features(&white, w);
    side_features(&black, b);
    int32_t sign = pos->side == WHITE ? 1 : -1;
    for (int i = 0; i < RUSSIAN_EVAL_NUM_FEATURES; i++)
        v[i] = sign * (w[i] - b[i]);
    v[RUSSIAN_FEAT_SIDE_TO_MOVE] = 1;
    int phase = popcount(wm) + popcount(bm);
    return phase < RUSSIAN_PHASE_MAX ? phase : RUSSIAN_PHASE_MAX;
}

const char *const russian_weight_names[] = {
#define RUSSIAN_WEIGHT_NAMES(name, mg, eg, why) #name "_MG", #name "_EG",
    RUSSIAN_EVAL_FEATURES(RUSSIAN_WEIGHT_NAMES)
#undef RUSSIAN_WEIGHT_NAMES
};

const char *const russian_feature_why[] = {
#define RUSSIAN_FEATURE_WHY(name, mg, eg, why) why,
    RUSSIAN_EVAL_FEATURES(RUSSIAN_FEATURE_WHY)
#undef RUSSIAN_FEATURE_WHY
};

const int32_t russian_defaults[] = {
#define RUSSIAN_DEFAULTS(name, mg, eg, why) mg, eg,
    RUSSIAN_EVAL_FEATURES(RUSSIAN_DEFAULTS)
#undef RUSSIAN_DEFAULTS
};

/* Material alone: a flying king is worth about three men on 8x8 (it can take from afar
 * and men cannot trap it easily), further kings less, as three kings against one on the
 * main road draw. */
const int32_t russian_material_only[2 * RUSSIAN_EVAL_NUM_FEATURES] = {
    [2 * RUSSIAN_FEAT_MAN] = 100,        [2 * RUSSIAN_FEAT_MAN + 1] = 100,
    [2 * RUSSIAN_FEAT_KING_FIRST] = 300, [2 * RUSSIAN_FEAT_KING_FIRST + 1] = 300,
    [2 * RUSSIAN_FEAT_KING_EXTRA] = 200, [2 * RUSSIAN_FEAT_KING_EXTRA + 1] = 200,
};

_Static_assert(sizeof russian_weight_names / sizeof russian_weight_names[0] == 2 * RUSSIAN_EVAL_NUM_FEATURES,
               "two weight names a feature");
_Static_assert(sizeof russian_defaults / sizeof russian_defaults[0] == 2 * RUSSIAN_EVAL_NUM_FEATURES,
               "two defaults a feature");

const EvalSpec russian_eval_spec = { RUSSIAN_LINEAR_EVAL_FIELDS };
