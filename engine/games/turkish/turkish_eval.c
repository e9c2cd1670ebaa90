/* The features of Turkish draughts (turkish_eval_features.h) measured on a position, and
 * the EvalSpec that gives them to evaluate.c, weights.c and the tuner. */
#include "evaluate.h"
#include "turkish_board.h"
#include "turkish_eval.h"
#include "turkish_eval_features.h"

/* Square sets of the features, in White's frame (White's men move north). */
#define RANK_BB(r) (RANK_1_BB << (8 * ((r) - 1)))
#define FILES_AH (FILE_A_BB | FILE_H_BB)
#define WING_ABCD 0x0F0F0F0F0F0F0F0FULL /* files a-d */
#define EDGE_BB (FILES_AH | RANK_1_BB | RANK_8_BB)
/* Bit k of a square's rank index, for summing ranks with three popcounts. */
#define RANK_BIT0 0xFF00FF00FF00FF00ULL
#define RANK_BIT1 0xFFFF0000FFFF0000ULL
#define RANK_BIT2 0xFFFFFFFF00000000ULL

/* Feature of the man table that a man on each square counts for.  Men on d2/e2 (the
 * reference square: MAN alone values them) and on ranks 1 and 8 (impossible in play) count
 * for NO_TABLE, a spare slot past the features. */
#define NO_TABLE EVAL_NUM_FEATURES
#define FEATURE_SLOTS (EVAL_NUM_FEATURES + 1)
#define FILE_PAIR(file) ((file) < 4 ? (file) : 7 - (file)) /* 0 = a/h ... 3 = d/e */
#define TABLE_FEATURE(rank, file)                                                          \
    ((rank) < 2 || (rank) > 7 || ((rank) == 2 && FILE_PAIR(file) == 3) ? NO_TABLE          \
     : (rank) == 2 ? FEAT_MAN_R2_AH + FILE_PAIR(file)                                       \
                   : FEAT_MAN_R3_AH + 4 * ((rank) - 3) + FILE_PAIR(file))
#define TABLE_RANK(r)                                                                      \
    TABLE_FEATURE(r, 0), TABLE_FEATURE(r, 1), TABLE_FEATURE(r, 2), TABLE_FEATURE(r, 3),     \
    TABLE_FEATURE(r, 4), TABLE_FEATURE(r, 5), TABLE_FEATURE(r, 6), TABLE_FEATURE(r, 7)
_Static_assert(FEAT_MAN_R3_AH == FEAT_MAN_R2_AH + 3 && FEAT_MAN_R7_DE == FEAT_MAN_R3_AH + 19,
               "man table: a/h, b/g, c/f on rank 2, then a/h..d/e on ranks 3-7");

static const uint8_t man_table_feature[64] = {
    TABLE_RANK(1), TABLE_RANK(2), TABLE_RANK(3), TABLE_RANK(4),
    TABLE_RANK(5), TABLE_RANK(6), TABLE_RANK(7), TABLE_RANK(8),
};

/* Home-rank men counted by BACK_GUARD at most: more guards are men that should advance. */
#define BACK_GUARD_CAP 4

/* One side's pieces seen from its own frame: its men move north. */
typedef struct Frame {
    Bitboard men, kings, opp_men, opp_kings, empty;
} Frame;

/* b and every square below it on its file. */
static inline Bitboard span_south(Bitboard b)
{
    b |= b >> 8;
    b |= b >> 16;
    return b | (b >> 32);
}

/* Own kings an enemy could jump now: an enemy man beside or in front of the king (men
 * capture forward = south here, and sideways), or an enemy king seeing it along a line,
 * with the square beyond the king empty. */
static inline Bitboard exposed_kings(const Frame *f)
{
    Bitboard k = f->kings, e = f->empty;
    Bitboard hit = (shift(f->opp_men, SOUTH) & shift(e, NORTH))
                 | (shift(f->opp_men, WEST) & shift(e, EAST))
                 | (shift(f->opp_men, EAST) & shift(e, WEST));
    if (f->opp_kings) {
        Bitboard ok = f->opp_kings;
        hit |= shift(fill_north(ok, e), NORTH) & shift(e, SOUTH);
        hit |= shift(fill_south(ok, e), SOUTH) & shift(e, NORTH);
        hit |= shift(fill_east(ok, e), EAST) & shift(e, WEST);
        hit |= shift(fill_west(ok, e), WEST) & shift(e, EAST);
    }
    return k & hit;
}

/* Men whose file ahead is empty up to the crown and with no enemy man on their own or a
 * neighbouring file at their rank or ahead (nobody can step in front or jump them); none
 * while the enemy has a king, which can reach any file. */
static int runaway_men(const Frame *f)
{
    if (f->opp_kings)
        return 0;
    Bitboard has_piece_ahead = span_south(~f->empty >> 8);
    Bitboard zone = span_south(f->opp_men);
    zone |= shift(zone, EAST) | shift(zone, WEST);
    return popcount(f->men & ~(has_piece_ahead | zone));
}

/* The positional features of one side (frame f) but the man table's: what add_side adds
 * and the incremental score (turkish_inc_score) reads, without a vector of every feature. */
typedef struct SideTerms {
    int back_guard, man_mobility, blocked, runaway, tempo, wing_imbalance;
    int king_mobility, king_edge, king_exposed;
} SideTerms;

static inline SideTerms side_terms(const Frame *f)
{
    SideTerms t = { 0 };
    Bitboard men = f->men, e = f->empty;
    int guards = popcount(men & RANK_BB(2));
    t.back_guard = guards < BACK_GUARD_CAP ? guards : BACK_GUARD_CAP;

    Bitboard step_north = men & shift(e, SOUTH), step_east = men & shift(e, WEST),
             step_west = men & shift(e, EAST);
    t.man_mobility = popcount(step_north) + popcount(step_east) + popcount(step_west);
    t.blocked = popcount(men & ~(step_north | step_east | step_west));
    t.runaway = runaway_men(f);

    int nmen = popcount(men);
    if (nmen) {
        /* rank index r = 1 is White's home rank: advancement r - 1 */
        int ranks = popcount(men & RANK_BIT0) + 2 * popcount(men & RANK_BIT1)
                  + 4 * popcount(men & RANK_BIT2);
        t.tempo = 4 * (ranks - nmen) / nmen;
    }
    int wing = popcount(men & WING_ABCD) * 2 - nmen;
    t.wing_imbalance = wing < 0 ? -wing : wing;

    if (f->kings) {
        Bitboard k = f->kings;
        Bitboard reach = fill_north(k, e) | fill_south(k, e) | fill_east(k, e) | fill_west(k, e);
        t.king_mobility = popcount(reach & e);
        t.king_edge = popcount(k & EDGE_BB);
        t.king_exposed = popcount(exposed_kings(f));
    }
    return t;
}

/* Adds sign * (the positional features of the side of frame f) into v; the man table's
 * only when man_table. */
static inline void add_side(const Frame *f, int sign, bool man_table, int32_t *v)
{
    if (man_table)
        for (Bitboard b = f->men; b;) /* v has the NO_TABLE slot */
            v[man_table_feature[pop_lsb(&b)]] += sign;
    SideTerms t = side_terms(f);
    v[FEAT_BACK_GUARD] += sign * t.back_guard;
    v[FEAT_MAN_MOBILITY] += sign * t.man_mobility;
    v[FEAT_BLOCKED] += sign * t.blocked;
    v[FEAT_RUNAWAY] += sign * t.runaway;
    v[FEAT_TEMPO] += sign * t.tempo;
    v[FEAT_WING_IMBALANCE] += sign * t.wing_imbalance;
    v[FEAT_KING_MOBILITY] += sign * t.king_mobility;
    v[FEAT_KING_EDGE] += sign * t.king_edge;
    v[FEAT_KING_EXPOSED] += sign * t.king_exposed;
}

/* Each side's frame: White's as the board is, Black's with the ranks mirrored (a byte
 * swap), so that its men go north too. */
static inline void side_frames(const Position *pos, Frame *white, Frame *black)
{
    Bitboard wm = pos->men[WHITE], wk = pos->kings[WHITE];
    Bitboard bm = pos->men[BLACK], bk = pos->kings[BLACK];
    Bitboard empty = ~(wm | wk | bm | bk);
    *white = (Frame){ wm, wk, bm, bk, empty };
    *black = (Frame){ __builtin_bswap64(bm), __builtin_bswap64(bk), __builtin_bswap64(wm),
                      __builtin_bswap64(wk), __builtin_bswap64(empty) };
}

/* Feature values from the side to move into v (FEATURE_SLOTS of them), the man table's
 * only when man_table (else 0); returns the phase (men on the board). */
static inline int features(const Position *pos, bool man_table, int32_t *v)
{
    for (int i = 0; i < FEATURE_SLOTS; i++)
        v[i] = 0;
    Frame white, black;
    side_frames(pos, &white, &black);
    Bitboard wm = pos->men[WHITE], wk = pos->kings[WHITE];
    Bitboard bm = pos->men[BLACK], bk = pos->kings[BLACK];
    add_side(&white, 1, man_table, v);
    add_side(&black, -1, man_table, v);

    int nw = popcount(wm), nb = popcount(bm), kw = popcount(wk), kb = popcount(bk);
    v[FEAT_MAN] = nw - nb;
    v[FEAT_KING_FIRST] = (kw > 0) - (kb > 0);
    v[FEAT_KING_EXTRA] = (kw > 1 ? kw - 1 : 0) - (kb > 1 ? kb - 1 : 0);
    if (pos->side == BLACK)
        for (int i = 0; i < EVAL_NUM_FEATURES; i++)
            v[i] = -v[i];
    v[FEAT_SIDE_TO_MOVE] = 1;

    int phase = nw + nb;
    return phase < TURKISH_PHASE_MAX ? phase : TURKISH_PHASE_MAX;
}

int turkish_features(const Position *pos, int32_t *v) { return features(pos, true, v); }

/* ---- Incremental: the man table's weights summed from move to move (EvalInc.sum) ---- */

/* Adds sign times the man table weights of White's men on white and Black's on black. */
static inline void add_man_table(EvalInc *inc, Bitboard white, Bitboard black, int sign,
                                 const Weights *w)
{
    for (int c = WHITE; c <= BLACK; c++)
        for (Bitboard b = c == WHITE ? white : black; b;) {
            int sq = pop_lsb(&b), f = man_table_feature[c == WHITE ? sq : sq ^ 56];
            if (f != NO_TABLE) { /* Black's square in its own frame: ranks mirrored */
                int s = c == WHITE ? sign : -sign;
                inc->sum[0] += s * (int64_t)w->w[2 * f];
                inc->sum[1] += s * (int64_t)w->w[2 * f + 1];
            }
        }
}

void turkish_inc_init(EvalInc *inc, const Position *pos, const Weights *w)
{
    inc->sum[0] = inc->sum[1] = 0;
    add_man_table(inc, pos->men[WHITE], pos->men[BLACK], 1, w);
}

void turkish_inc_update(EvalInc *inc, const Position *before, const Position *after, const Weights *w)
{
    Bitboard wm0 = before->men[WHITE], wm1 = after->men[WHITE];
    Bitboard bm0 = before->men[BLACK], bm1 = after->men[BLACK];
    add_man_table(inc, wm1 & ~wm0, bm1 & ~bm0, 1, w);
    add_man_table(inc, wm0 & ~wm1, bm0 & ~bm1, -1, w);
}

/* The man table's features are 3 .. FEAT_MAN_R7_DE: the dot product skips them. */
_Static_assert(FEAT_MAN_R2_AH == 3, "MAN, KING_FIRST and KING_EXTRA come before the man table");

/* The features features() gives but the man table's, each value times its weights added
 * straight into mg and eg: no vector of 36 values cleared, filled and read back at every
 * leaf.  The same integer sums in another order: the same score. */
int turkish_inc_score(const EvalInc *inc, const Position *pos, const Weights *w, int64_t mg, int64_t eg)
{
    Frame white, black;
    side_frames(pos, &white, &black);
    Bitboard wm = pos->men[WHITE], wk = pos->kings[WHITE];
    Bitboard bm = pos->men[BLACK], bk = pos->kings[BLACK];
    SideTerms a = side_terms(&white), b = side_terms(&black);
    int nw = popcount(wm), nb = popcount(bm), kw = popcount(wk), kb = popcount(bk);
    /* features() negates every value but SIDE_TO_MOVE for Black to move */
    int64_t sign = pos->side == WHITE ? 1 : -1;
    const int32_t *wt = w->w;
#define TERM(feature, value)                                  \
    do {                                                      \
        int64_t value_ = sign * (value);                      \
        mg += value_ * wt[2 * (feature)];                     \
        eg += value_ * wt[2 * (feature) + 1];                 \
    } while (0)
    TERM(FEAT_MAN, nw - nb);
    TERM(FEAT_KING_FIRST, (kw > 0) - (kb > 0));
    TERM(FEAT_KING_EXTRA, (kw > 1 ? kw - 1 : 0) - (kb > 1 ? kb - 1 : 0));
    TERM(FEAT_BACK_GUARD, a.back_guard - b.back_guard);
    TERM(FEAT_MAN_MOBILITY, a.man_mobility - b.man_mobility);
    TERM(FEAT_BLOCKED, a.blocked - b.blocked);
    TERM(FEAT_RUNAWAY, a.runaway - b.runaway);
    TERM(FEAT_TEMPO, a.tempo - b.tempo);
    TERM(FEAT_WING_IMBALANCE, a.wing_imbalance - b.wing_imbalance);
    TERM(FEAT_KING_MOBILITY, a.king_mobility - b.king_mobility);
    TERM(FEAT_KING_EDGE, a.king_edge - b.king_edge);
    TERM(FEAT_KING_EXPOSED, a.king_exposed - b.king_exposed);
#undef TERM
    mg += wt[2 * FEAT_SIDE_TO_MOVE];
    eg += wt[2 * FEAT_SIDE_TO_MOVE + 1];
    /* the table's sum is White's minus Black's: the side to move's view */
    mg += sign * inc->sum[0];
    eg += sign * inc->sum[1];
    int phase = nw + nb < TURKISH_PHASE_MAX ? nw + nb : TURKISH_PHASE_MAX;
    return eval_scale_score(phase * mg + (TURKISH_PHASE_MAX - phase) * eg, TURKISH_PHASE_MAX);
}
/* Every feature but the man table's (3 .. FEAT_MAN_R7_DE) is a term above. */
_Static_assert(FEAT_MAN_R7_DE + 1 == FEAT_BACK_GUARD && FEAT_SIDE_TO_MOVE == EVAL_NUM_FEATURES - 1
               && FEAT_KING_EXPOSED - FEAT_BACK_GUARD == 9 - 1,
               "turkish_inc_score names the features after the man table, in any order");

static int turkish_inc_evaluate(const EvalInc *inc, const Position *pos, const Weights *w)
{
    return turkish_inc_score(inc, pos, w, 0, 0);
}

const char *const turkish_weight_names[2 * EVAL_NUM_FEATURES] = {
#define WEIGHT_NAMES(name, mg, eg, why) #name "_MG", #name "_EG",
    EVAL_FEATURES(WEIGHT_NAMES)
#undef WEIGHT_NAMES
};

const int32_t turkish_default_values[2 * EVAL_NUM_FEATURES] = {
#define WEIGHT_DEFAULTS(name, mg, eg, why) mg, eg,
    EVAL_FEATURES(WEIGHT_DEFAULTS)
#undef WEIGHT_DEFAULTS
};

const char *const turkish_feature_why[EVAL_NUM_FEATURES] = {
#define FEATURE_WHY(name, mg, eg, why) why,
    EVAL_FEATURES(FEATURE_WHY)
#undef FEATURE_WHY
};

/* The naive baseline of experiments: men 100, the first king 300, further kings 200. */
const int32_t turkish_material_values[2 * EVAL_NUM_FEATURES] = {
    [W_MAN_MG] = 100, [W_MAN_EG] = 100, [W_KING_FIRST_MG] = 300, [W_KING_FIRST_EG] = 300,
    [W_KING_EXTRA_MG] = 200, [W_KING_EXTRA_EG] = 200,
};

_Static_assert(FEAT_MAN == 0, "feature 0 is the man, the unit of the scores");
_Static_assert(EVAL_NUM_FEATURES == TURKISH_NFEATURES, "turkish_eval.h says how many features");
_Static_assert(FEATURE_SLOTS <= EVAL_MAX_FEATURES + 1, "turkish_features writes one spare slot");

const EvalSpec turkish_eval_spec = {
    TURKISH_LINEAR_EVAL_FIELDS,
    .inc_init = turkish_inc_init,
    .inc_update = turkish_inc_update,
    .inc_evaluate = turkish_inc_evaluate,
};
