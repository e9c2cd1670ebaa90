/* Feature values of a Brazilian draughts position (terms and reasons:
 * brazilian_eval_features.h) and the EvalSpec that names and weights them.  Each side is
 * measured in its own frame, Black's with the board turned half a turn, so that the square
 * sets are written once, as White's (men moving towards squares 1-4). */
#include "brazilian_board.h"
#include "brazilian_eval.h"

_Static_assert(BR_EVAL_NUM_FEATURES <= EVAL_MAX_FEATURES, "too many Brazilian features");
_Static_assert(BR_FEAT_MAN == 0, "feature 0 is the man: the unit the tuner keeps fixed");

#define N(n) (1ULL << ((n) - 1 + ((n) - 1) / 8)) /* square n's bit */
/* Row r (0 = squares 1-4, White's crowning row) as bits: rows 2p and 2p + 1 share 9 bits. */
#define ROW(r) (0xFULL << (9 * ((r) / 2) + 4 * ((r) % 2)))
#define CENTRE_SQUARES (N(14) | N(15) | N(18) | N(19))
/* Columns a (squares 5, 13, 21, 29) and h (4, 12, 20, 28). */
#define EDGE_SQUARES (N(5) | N(13) | N(21) | N(29) | N(4) | N(12) | N(20) | N(28))
#define LONG_DIAGONAL (N(29) | N(25) | N(22) | N(18) | N(15) | N(11) | N(8) | N(4))
#define BACK_GUARD_CAP 2

_Static_assert(ROW(7) == (N(29) | N(30) | N(31) | N(32)), "row 7 is White's home row");

/* One side in its own frame. */
typedef struct Side {
    Bitboard men, kings, empty;
} Side;

/* Own pieces an enemy piece takes now: an enemy man next to it, or an enemy king on its
 * line with nothing between, and the square beyond empty. */
static Bitboard en_prise(const Side *s, Bitboard opp_men, Bitboard opp_kings)
{
    Bitboard own = s->men | s->kings, hit = 0;
    for (int dir = 0; dir < 4; dir++) {
        Bitboard from = opp_men | opp_kings | intl_slide(opp_kings, s->empty, dir);
        hit |= intl_shift(from, dir) & own & intl_shift(s->empty, 3 - dir);
    }
    return hit;
}

static void measure(const Side *s, Bitboard opp_men, Bitboard opp_kings, int32_t *out)
{
    Bitboard men = s->men;
    int nmen = popcount(men), nkings = popcount(s->kings);
    out[BR_FEAT_MAN] = nmen;
    out[BR_FEAT_KING_FIRST] = nkings > 0;
    out[BR_FEAT_KING_EXTRA] = nkings > 1 ? nkings - 1 : 0;
    out[BR_FEAT_KINGS_BOTH_MEN] = s->kings && opp_kings ? nmen : 0;
    for (int adv = 1; adv <= 6; adv++)
        out[BR_FEAT_MAN_ADV1 + adv - 1] = popcount(men & ROW(7 - adv));
    out[BR_FEAT_CENTRE] = popcount(men & CENTRE_SQUARES);
    out[BR_FEAT_EDGE_MEN] = popcount(men & EDGE_SQUARES);
    int guards = popcount(men & ROW(7));
    out[BR_FEAT_BACK_GUARD] = guards < BACK_GUARD_CAP ? guards : BACK_GUARD_CAP;
    Bitboard to_left = intl_shift(men, UP_LEFT) & s->empty, to_right = intl_shift(men, UP_RIGHT) & s->empty;
    out[BR_FEAT_MAN_MOBILITY] = popcount(to_left) + popcount(to_right);
    Bitboard movers = intl_shift(to_left, DOWN_RIGHT) | intl_shift(to_right, DOWN_LEFT);
    out[BR_FEAT_BLOCKED] = popcount(men & ~movers);
    out[BR_FEAT_EN_PRISE] = popcount(en_prise(s, opp_men, opp_kings));
    int reach = 0;
    for (int dir = 0; dir < 4 && s->kings; dir++)
        reach += popcount(intl_slide(s->kings, s->empty, dir));
    out[BR_FEAT_KING_MOBILITY] = reach;
    out[BR_FEAT_KING_MAIN_DIAGONAL] = popcount(s->kings & LONG_DIAGONAL);
    out[BR_FEAT_SIDE_TO_MOVE] = 0; /* set once, by the caller */
}

int brazilian_features(const Position *pos, int32_t *v)
{
    Bitboard wm = pos->men[WHITE] & INTL_BOARD_BB, wk = pos->kings[WHITE] & INTL_BOARD_BB;
    Bitboard bm = pos->men[BLACK] & INTL_BOARD_BB, bk = pos->kings[BLACK] & INTL_BOARD_BB;
    Bitboard empty = ~(wm | wk | bm | bk) & INTL_BOARD_BB;
    Side white = { wm, wk, empty };
    Side black = { intl_half_turn(bm), intl_half_turn(bk), intl_half_turn(empty) };
    int32_t w[BR_EVAL_NUM_FEATURES], b[BR_EVAL_NUM_FEATURES];
    measure(&white, bm, bk, w);
    measure(&black, intl_half_turn(wm), intl_half_turn(wk), b);
    int32_t sign = pos->side == WHITE ? 1 : -1;
    for (int i = 0; i < BR_EVAL_NUM_FEATURES; i++)
        v[i] = sign * (w[i] - b[i]);
    v[BR_FEAT_SIDE_TO_MOVE] = 1;
    int phase = popcount(wm | bm);
    return phase < BR_PHASE_MAX ? phase : BR_PHASE_MAX;
}

const char *const br_weight_names[] = {
#define BR_WEIGHT_NAMES(name, mg, eg, why) #name "_MG", #name "_EG",
    BR_EVAL_FEATURES(BR_WEIGHT_NAMES)
#undef BR_WEIGHT_NAMES
};

const char *const br_feature_why[] = {
#define BR_FEATURE_WHY(name, mg, eg, why) why,
    BR_EVAL_FEATURES(BR_FEATURE_WHY)
#undef BR_FEATURE_WHY
};

const int32_t br_defaults[] = {
#define BR_DEFAULTS(name, mg, eg, why) mg, eg,
    BR_EVAL_FEATURES(BR_DEFAULTS)
#undef BR_DEFAULTS
};

/* Material alone: a king is worth three men on 8x8 too (it sweeps a whole diagonal), a
 * further one two and a half. */
const int32_t br_material_only[2 * BR_EVAL_NUM_FEATURES] = {
    [2 * BR_FEAT_MAN] = 100,        [2 * BR_FEAT_MAN + 1] = 100,
    [2 * BR_FEAT_KING_FIRST] = 300, [2 * BR_FEAT_KING_FIRST + 1] = 300,
    [2 * BR_FEAT_KING_EXTRA] = 250, [2 * BR_FEAT_KING_EXTRA + 1] = 250,
};

_Static_assert(sizeof br_weight_names / sizeof br_weight_names[0] == 2 * BR_EVAL_NUM_FEATURES,
               "two weight names a feature");

const EvalSpec brazilian_eval_spec = { BR_LINEAR_EVAL_FIELDS };
