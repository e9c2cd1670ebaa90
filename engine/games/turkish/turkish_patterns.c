/* The Turkish pattern evaluation (turkish_patterns.h): the windows read square by square
 * for eval_extract and the tuner (patterns), and the same sum read with a 256-entry table
 * of 4-square segments for the search (pattern_evaluate); the tests hold the two equal. */
#include <string.h>

#include "bitboard.h"
#include "evaluate.h"
#include "turkish_eval.h"
#include "turkish_patterns.h"

/* Bumped whenever a state comes to mean another arrangement of men. */
#define FEATURE_SET_VERSION 1

/* The men of one side's view: ranks as that side sees them (its men move north). */
typedef struct View {
    Bitboard own, opp;
} View;

/* views[0]: the side to move's view (occurrence +1); views[1]: the opponent's (-1).  Black
 * sees the board with its ranks mirrored: a byte swap. */
static void side_views(const Position *pos, View views[2])
{
    Bitboard wm = pos->men[WHITE], bm = pos->men[BLACK];
    View white = { wm, bm }, black = { __builtin_bswap64(bm), __builtin_bswap64(wm) };
    views[0] = pos->side == WHITE ? white : black;
    views[1] = pos->side == WHITE ? black : white;
}

/* ---- The reference reading: square by square, as turkish_patterns.h defines it ---- */

static int square_digit(const View *v, int file, int rank)
{
    Bitboard sq = square_bb(make_square(file, rank));
    return v->own & sq ? 1 : v->opp & sq ? 2 : 0;
}

/* The window's state read from its first file (reversed: from its last file). */
static int window_reading(const View *v, int pair, int offset, bool reversed)
{
    int state = 0, unit = 1;
    for (int dr = 0; dr < 2; dr++)
        for (int k = 0; k < TURKISH_PATTERN_FILES; k++, unit *= 3) {
            int file = reversed ? offset + TURKISH_PATTERN_FILES - 1 - k : offset + k;
            state += unit * square_digit(v, file, pair + dr);
        }
    return state;
}

static int32_t window_state(const View *v, int pair, int offset)
{
    int direct = window_reading(v, pair, offset, false);
    int reversed = window_reading(v, pair, offset, true);
    int middle = (TURKISH_PATTERN_OFFSETS - 1) / 2;
    int s = offset < middle ? direct : offset > middle ? reversed
          : direct < reversed ? direct : reversed;
    return turkish_pattern_table(pair, offset) * TURKISH_PATTERN_STATES + s;
}

static int turkish_patterns(const Position *pos, int32_t *state, int8_t *sign)
{
    View views[2];
    side_views(pos, views);
    int n = 0;
    for (int view = 0; view < 2; view++)
        for (int pair = 0; pair < TURKISH_PATTERN_PAIRS; pair++)
            for (int offset = 0; offset < TURKISH_PATTERN_OFFSETS; offset++) {
                state[n] = window_state(&views[view], pair, offset);
                sign[n++] = view == 0 ? 1 : -1;
            }
    return n;
}

/* ---- The fast reading: two lookups a window ---- */

/* Base-3 value of 4 squares of a rank from key = own4 | opp4 << 4 (bit i = the i-th square
 * from the window's first file), read from the first square (DIRECT) or the last (REVERSED). */
#define DIGIT(k, i) ((((k) >> (i)) & 1) + 2 * (((k) >> (4 + (i))) & 1))
#define DIRECT(k) (DIGIT(k, 0) + 3 * DIGIT(k, 1) + 9 * DIGIT(k, 2) + 27 * DIGIT(k, 3))
#define REVERSED(k) (27 * DIGIT(k, 0) + 9 * DIGIT(k, 1) + 3 * DIGIT(k, 2) + DIGIT(k, 3))
#define KEYS4(F, k) F(k), F((k) + 1), F((k) + 2), F((k) + 3)
#define KEYS16(F, k) KEYS4(F, k), KEYS4(F, (k) + 4), KEYS4(F, (k) + 8), KEYS4(F, (k) + 12)
#define KEYS64(F, k) KEYS16(F, k), KEYS16(F, (k) + 16), KEYS16(F, (k) + 32), KEYS16(F, (k) + 48)
#define KEYS256(F) KEYS64(F, 0), KEYS64(F, 64), KEYS64(F, 128), KEYS64(F, 192)
static const uint8_t segment_direct[256] = { KEYS256(DIRECT) };
static const uint8_t segment_reversed[256] = { KEYS256(REVERSED) };
#define SEGMENT_STATES 81 /* 3^4: the upper rank's unit */

/* Adds the weights of the 35 windows of one view into *mg and *eg.  tables: the first
 * pattern weight (state 0's MG weight). */
static inline void add_view(const View *v, const int32_t *tables, int64_t *mg, int64_t *eg)
{
    /* The keys of every rank at once: byte r of KEYS(c) is the key of rank r's 4 squares
     * from file c.  A shift by c <= 4 keeps each byte's low nibble inside its own rank. */
    const Bitboard nibbles = 0x0F0F0F0F0F0F0F0FULL;
#define KEYS(c) (((v->own >> (c)) & nibbles) | (((v->opp >> (c)) & nibbles) << 4))
    Bitboard k0 = KEYS(0), k1 = KEYS(1), k2 = KEYS(2), k3 = KEYS(3), k4 = KEYS(4);
#undef KEYS
    int64_t sum_mg = 0, sum_eg = 0;
#pragma GCC unroll 7 /* gcc leaves the loop rolled: 5% of the time */
    for (int pair = 0; pair < TURKISH_PATTERN_PAIRS; pair++) {
        const int32_t *t = tables + 2 * TURKISH_PATTERN_STATES * TURKISH_PATTERN_CLASSES * pair;
        const int32_t *outer = t, *inner = t + 2 * TURKISH_PATTERN_STATES,
                      *middle = t + 4 * TURKISH_PATTERN_STATES;
        int shift = 8 * pair;
        /* The window's state: the lower rank's segment plus 81 times the upper rank's. */
#define WINDOW(read, k)                                                                    \
    (read[((k) >> shift) & 0xFF] + SEGMENT_STATES * read[((k) >> (shift + 8)) & 0xFF])
        int s0 = WINDOW(segment_direct, k0), s1 = WINDOW(segment_direct, k1);
        int s3 = WINDOW(segment_reversed, k3), s4 = WINDOW(segment_reversed, k4);
        int d2 = WINDOW(segment_direct, k2), r2 = WINDOW(segment_reversed, k2);
#undef WINDOW
        int s2 = d2 < r2 ? d2 : r2;
        /* 64-bit from the first term on: five int32 weights may overflow an int. */
        sum_mg += (int64_t)outer[2 * s0] + outer[2 * s4] + inner[2 * s1] + inner[2 * s3]
                + middle[2 * s2];
        sum_eg += (int64_t)outer[2 * s0 + 1] + outer[2 * s4 + 1] + inner[2 * s1 + 1]
                + inner[2 * s3 + 1] + middle[2 * s2 + 1];
    }
    *mg += sum_mg;
    *eg += sum_eg;
}

/* ---- The tuner's key: the side to move's view, 16 bytes (eval_spec.h) ---- */

enum { KEY_BYTES = 2 * sizeof(Bitboard) };

static void pattern_key(const Position *pos, uint8_t *key)
{
    View views[2];
    side_views(pos, views);
    memcpy(key, &views[0].own, sizeof(Bitboard));
    memcpy(key + sizeof(Bitboard), &views[0].opp, sizeof(Bitboard));
}

/* The 35 windows of one view, as turkish_patterns reads them, read like add_view: out[5 p
 * + offset] the state of the window on rank pair p and that offset (its table's first
 * state added).  Each rank's segment is looked up once: the upper rank of pair p is the
 * lower rank of pair p + 1. */
static void view_states(const View *v, int32_t out[TURKISH_PATTERN_WINDOWS])
{
    const Bitboard nibbles = 0x0F0F0F0F0F0F0F0FULL;
#define KEYS(c) (((v->own >> (c)) & nibbles) | (((v->opp >> (c)) & nibbles) << 4))
    const Bitboard k0 = KEYS(0), k1 = KEYS(1), k2 = KEYS(2), k3 = KEYS(3), k4 = KEYS(4);
#undef KEYS
    enum { RANKS = TURKISH_PATTERN_PAIRS + 1 };
    int s0[RANKS], s1[RANKS], d2[RANKS], r2[RANKS], s3[RANKS], s4[RANKS];
    for (int rank = 0; rank < RANKS; rank++) {
        const int shift = 8 * rank;
        s0[rank] = segment_direct[(k0 >> shift) & 0xFF];
        s1[rank] = segment_direct[(k1 >> shift) & 0xFF];
        d2[rank] = segment_direct[(k2 >> shift) & 0xFF];
        r2[rank] = segment_reversed[(k2 >> shift) & 0xFF];
        s3[rank] = segment_reversed[(k3 >> shift) & 0xFF];
        s4[rank] = segment_reversed[(k4 >> shift) & 0xFF];
    }
    for (int pair = 0; pair < TURKISH_PATTERN_PAIRS; pair++) {
#define WINDOW(seg) ((seg)[pair] + SEGMENT_STATES * (seg)[pair + 1])
        const int direct = WINDOW(d2), reversed = WINDOW(r2);
        const int32_t table = TURKISH_PATTERN_STATES * TURKISH_PATTERN_CLASSES * pair;
        int32_t *o = out + TURKISH_PATTERN_OFFSETS * pair;
        o[0] = table + WINDOW(s0);
        o[1] = table + TURKISH_PATTERN_STATES + WINDOW(s1);
        o[2] = table + 2 * TURKISH_PATTERN_STATES + (direct < reversed ? direct : reversed);
        o[3] = table + TURKISH_PATTERN_STATES + WINDOW(s3);
        o[4] = table + WINDOW(s4);
#undef WINDOW
    }
}

/* Of the mover's states x0, x1 and the opponent's y0, y1 of one table, which are left once
 * each equal pair of a mover's and an opponent's is taken out (keep[0..3]: x0, x1, y0, y1),
 * without a branch: which windows match is the data's, and mispredicted it costs more
 * than the rest of the reading. */
static inline void cancel_two(int32_t x0, int32_t x1, int32_t y0, int32_t y1, int keep[4])
{
    int e00 = x0 == y0, e01 = x0 == y1, e10 = x1 == y0, e11 = x1 == y1;
    int t0 = e00, t1 = (!e00) & e01;         /* x0 takes y0, else y1 */
    int u0 = e10 & (!t0), u1 = (!u0) & e11 & (!t1); /* x1 takes what is left */
    keep[0] = !(t0 | t1);
    keep[1] = !(u0 | u1);
    keep[2] = !(t0 | u0);
    keep[3] = !(t1 | u1);
}

/* Any 16 bytes read safely: a square both sides claim counts as the side to move's.
 * A state both views read (so +1 and -1: an empty window, most often) is left out, as
 * eval_features merges it away: the tuner's lazy Adam moves only the weights a batch
 * touches, and must not count it as touched.  Only windows of one table can share a
 * state: the same rank pair and offsets {0, 4}, {1, 3} or {2}.  Every state is written
 * and the count advanced only past those kept. */
static int key_patterns(const uint8_t *key, int32_t *state, int8_t *sign)
{
    View mover;
    memcpy(&mover.own, key, sizeof(Bitboard));
    memcpy(&mover.opp, key + sizeof(Bitboard), sizeof(Bitboard));
    mover.opp &= ~mover.own;
    const View other = { __builtin_bswap64(mover.opp), __builtin_bswap64(mover.own) };
    int32_t a[TURKISH_PATTERN_WINDOWS], b[TURKISH_PATTERN_WINDOWS];
    view_states(&mover, a);
    view_states(&other, b);
    int n = 0;
    for (int pair = 0; pair < TURKISH_PATTERN_PAIRS; pair++) {
        const int32_t *x = a + TURKISH_PATTERN_OFFSETS * pair, *y = b + TURKISH_PATTERN_OFFSETS * pair;
        int outer[4], inner[4];
        cancel_two(x[0], x[4], y[0], y[4], outer);
        cancel_two(x[1], x[3], y[1], y[3], inner);
        const int middle = x[2] != y[2];
        const int32_t st[10] = { x[0], x[4], y[0], y[4], x[1], x[3], y[1], y[3], x[2], y[2] };
        const int keep[10] = { outer[0], outer[1], outer[2], outer[3], inner[0], inner[1], inner[2], inner[3],
                               middle, middle };
        static const int8_t sg[10] = { 1, 1, -1, -1, 1, 1, -1, -1, 1, -1 };
        for (int k = 0; k < 10; k++) {
            state[n] = st[k];
            sign[n] = sg[k];
            n += keep[k];
        }
    }
    return n;
}

/* The score of pos from the pattern sums of its windows (the side to move's minus the
 * opponent's) plus its linear features. */
static inline int score_with_patterns(const Position *pos, const Weights *w, int64_t mg, int64_t eg)
{
    int32_t v[EVAL_MAX_FEATURES + 1];
    int phase = turkish_features(pos, v);
    for (int i = 0; i < TURKISH_NFEATURES; i++) {
        mg += (int64_t)v[i] * w->w[2 * i];
        eg += (int64_t)v[i] * w->w[2 * i + 1];
    }
    return eval_scale_score(phase * mg + (TURKISH_PHASE_MAX - phase) * eg, TURKISH_PHASE_MAX);
}

static int pattern_evaluate(const Position *pos, const Weights *w)
{
    View views[2];
    side_views(pos, views);
    const int32_t *tables = w->w + 2 * TURKISH_NFEATURES;
    int64_t mg = 0, eg = 0, opp_mg = 0, opp_eg = 0;
    add_view(&views[0], tables, &mg, &eg);
    add_view(&views[1], tables, &opp_mg, &opp_eg);
    return score_with_patterns(pos, w, mg - opp_mg, eg - opp_eg);
}

/* ---- Incremental: the windows' readings kept from move to move ----
 *
 * EvalInc.slot.u16 holds one block of VIEW_SLOTS readings per view: White's (own = White's
 * men) first, then Black's (ranks mirrored, own = Black's men).  In a block, window (pair,
 * offset) is at PAIR_SLOT + 5 pair + offset, read as the table reads it (directly for
 * offsets 0..2, reversed for 3 and 4), and the reversed reading of the middle window (pair,
 * 2) at MIDDLE_SLOT + pair: its state is the smaller of the two.  A man on rank r of a view
 * lies in the windows of pairs r - 1 and r: ten consecutive slots from 5 r, and two middle
 * ones from MIDDLE_SLOT - 1 + r.  The slots of "pair -1" (0..4, MIDDLE_SLOT - 1) and "pair 7"
 * (40..44, MIDDLE_SLOT + 7) are padding that a man on rank 0 or 7 writes and nobody reads. */
#define PAIR_SLOT 5
#define MIDDLE_SLOT 46
#define VIEW_SLOTS 54
_Static_assert(PAIR_SLOT + 5 * (TURKISH_PATTERN_PAIRS + 1) <= MIDDLE_SLOT - 1,
               "the pair slots and their padding come before the middle ones");
_Static_assert(MIDDLE_SLOT + TURKISH_PATTERN_PAIRS + 1 == VIEW_SLOTS && 2 * VIEW_SLOTS <= EVAL_INC_SLOTS,
               "both views fit an EvalInc");

/* 3^e for e = 0..7, as a constant expression. */
#define POW3(e) (((e) & 1 ? 3 : 1) * ((e) & 2 ? 9 : 1) * ((e) & 4 ? 81 : 1))
/* What a man (digit 1) on file f adds to the reading of the window (pair, offset) when it
 * stands dr ranks above the pair's lower rank. */
#define UNIT(f, dr, offset, reversed)                                                       \
    ((f) - (offset) >= 0 && (f) - (offset) < TURKISH_PATTERN_FILES                          \
         ? POW3(4 * (dr) + ((reversed) ? 3 - ((f) - (offset)) : (f) - (offset)))            \
         : 0)
/* A man on file f, as 16-bit lanes of 64-bit words: the ten pair slots from 5 r (pair
 * r - 1, dr 1; then pair r, dr 0) in words 0..2 (lanes 10 and 11 zero), the two middle
 * slots from MIDDLE_SLOT - 1 + r in word 3.  A word adds to four slots at once: the slots'
 * true values stay in 0..6560 (padding too: it reads windows off the board), so as
 * integers the sum of the lanes is the lanes of the sum, and arithmetic mod 2^64 is exact
 * whatever the sign and order of the changes. */
#define LANES(a, b, c, d) ((uint64_t)(a) | (uint64_t)(b) << 16 | (uint64_t)(c) << 32 | (uint64_t)(d) << 48)
#define SQUARE_UNITS(f)                                                                     \
    { LANES(UNIT(f, 1, 0, 0), UNIT(f, 1, 1, 0), UNIT(f, 1, 2, 0), UNIT(f, 1, 3, 1)),         \
      LANES(UNIT(f, 1, 4, 1), UNIT(f, 0, 0, 0), UNIT(f, 0, 1, 0), UNIT(f, 0, 2, 0)),         \
      LANES(UNIT(f, 0, 3, 1), UNIT(f, 0, 4, 1), 0, 0),                                       \
      LANES(UNIT(f, 1, 2, 1), UNIT(f, 0, 2, 1), 0, 0) }
static const uint64_t square_units[8][4] = {
    SQUARE_UNITS(0), SQUARE_UNITS(1), SQUARE_UNITS(2), SQUARE_UNITS(3),
    SQUARE_UNITS(4), SQUARE_UNITS(5), SQUARE_UNITS(6), SQUARE_UNITS(7),
};
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "16-bit lane j of a word is slot j");
_Static_assert(VIEW_SLOTS + MIDDLE_SLOT - 1 + (TURKISH_PATTERN_PAIRS + 1) + 4 <= EVAL_INC_SLOTS,
               "the last middle word (rank 7 of Black's view) stays in the EvalInc");

static void pattern_inc_init(EvalInc *inc, const Position *pos, const Weights *w)
{
    turkish_inc_init(inc, pos, w);
    View views[2];
    side_views(pos, views);
    for (int side = WHITE; side <= BLACK; side++) {
        /* views[0] is the side to move's */
        const View *v = &views[side != pos->side];
        uint16_t *slots = inc->slot.u16 + VIEW_SLOTS * side;
        for (int k = 0; k < VIEW_SLOTS; k++)
            slots[k] = 0;
        for (int pair = 0; pair < TURKISH_PATTERN_PAIRS; pair++) {
            for (int offset = 0; offset < TURKISH_PATTERN_OFFSETS; offset++)
                slots[PAIR_SLOT + 5 * pair + offset] = (uint16_t)window_reading(v, pair, offset, offset > 2);
            slots[MIDDLE_SLOT + pair] = (uint16_t)window_reading(v, pair, 2, true);
        }
    }
}

/* Adds the word x times factor to the four slots at p (unaligned). */
static inline void add_word(uint16_t *p, uint64_t x, uint64_t factor)
{
    uint64_t word;
    memcpy(&word, p, sizeof word);
    word += factor * x;
    memcpy(p, &word, sizeof word);
}

/* Adds digit times a man on square sq of a view (digit negated, mod 2^64, for a man that
 * leaves). */
static inline void add_man(uint16_t *slots, int sq, uint64_t digit)
{
    const uint64_t *units = square_units[square_file(sq)];
    uint16_t *pairs = slots + 5 * square_rank(sq);
    add_word(pairs, units[0], digit);
    add_word(pairs + 4, units[1], digit);
    add_word(pairs + 8, units[2], digit);
    add_word(slots + MIDDLE_SLOT - 1 + square_rank(sq), units[3], digit);
}

/* A man of colour arrives on (sign 1) or leaves (sign -1) each square of men. */
static inline void change_men(uint16_t *slots, Bitboard men, int colour, int sign)
{
    uint64_t in_white = (uint64_t)(int64_t)(sign * (colour == WHITE ? 1 : 2));
    uint64_t in_black = (uint64_t)(int64_t)(sign * (colour == BLACK ? 1 : 2));
    for (Bitboard b = men; b;) {
        int sq = pop_lsb(&b);
        add_man(slots, sq, in_white);
        add_man(slots + VIEW_SLOTS, sq ^ 56, in_black); /* Black's view: ranks mirrored */
    }
}

static void pattern_inc_update(EvalInc *inc, const Position *before, const Position *after, const Weights *w)
{
    if (before->men[WHITE] == after->men[WHITE] && before->men[BLACK] == after->men[BLACK])
        return; /* a king's move that took no man */
    turkish_inc_update(inc, before, after, w);
    for (int c = WHITE; c <= BLACK; c++) {
        change_men(inc->slot.u16, after->men[c] & ~before->men[c], c, 1);
        change_men(inc->slot.u16, before->men[c] & ~after->men[c], c, -1);
    }
}

/* A state's two weights (MG, EG: adjacent in the table) as one value, and their sums in
 * 64 bits.  With SSE4.1 one load widened and one add a window serve both phases (pmovsxdq,
 * paddq), not two loads and two adds: a fifth of the leaf's instructions.  Without it the
 * same sums two by two. */
#if defined(__SSE4_1__) && defined(__x86_64__)
#include <smmintrin.h>
typedef __m128i WeightSum;
static inline WeightSum weight_sum_zero(void) { return _mm_setzero_si128(); }
static inline WeightSum weight_pair(const int32_t *table, size_t state)
{
    return _mm_cvtepi32_epi64(_mm_loadl_epi64((const __m128i *)(const void *)(table + 2 * state)));
}
static inline WeightSum weight_add(WeightSum a, WeightSum b) { return _mm_add_epi64(a, b); }
static inline int64_t weight_sum_mg(WeightSum a) { return _mm_cvtsi128_si64(a); }
static inline int64_t weight_sum_eg(WeightSum a) { return _mm_extract_epi64(a, 1); }
#else
typedef struct WeightSum {
    int64_t mg, eg;
} WeightSum;
static inline WeightSum weight_sum_zero(void) { return (WeightSum){ 0, 0 }; }
static inline WeightSum weight_pair(const int32_t *table, size_t state)
{
    return (WeightSum){ table[2 * state], table[2 * state + 1] };
}
static inline WeightSum weight_add(WeightSum a, WeightSum b) { return (WeightSum){ a.mg + b.mg, a.eg + b.eg }; }
static inline int64_t weight_sum_mg(WeightSum a) { return a.mg; }
static inline int64_t weight_sum_eg(WeightSum a) { return a.eg; }
#endif

/* Adds the weights of the 35 windows of one view's slots into *mg and *eg (add_view's sums). */
static inline void add_slots(const uint16_t *slots, const int32_t *tables, int64_t *mg, int64_t *eg)
{
    WeightSum sum = weight_sum_zero();
#pragma GCC unroll 7
    for (int pair = 0; pair < TURKISH_PATTERN_PAIRS; pair++) {
        const int32_t *t = tables + 2 * TURKISH_PATTERN_STATES * TURKISH_PATTERN_CLASSES * pair;
        const int32_t *outer = t, *inner = t + 2 * TURKISH_PATTERN_STATES,
                      *middle = t + 4 * TURKISH_PATTERN_STATES;
        const uint16_t *r = slots + PAIR_SLOT + 5 * pair;
        /* size_t states: the weight's address is one scaled index from the table's */
        size_t s0 = r[0], s1 = r[1], d2 = r[2], s3 = r[3], s4 = r[4], r2 = slots[MIDDLE_SLOT + pair];
        size_t s2 = d2 < r2 ? d2 : r2;
        WeightSum ends = weight_add(weight_pair(outer, s0), weight_pair(outer, s4));
        WeightSum inside = weight_add(weight_pair(inner, s1), weight_pair(inner, s3));
        sum = weight_add(sum, weight_add(weight_add(ends, inside), weight_pair(middle, s2)));
    }
    *mg += weight_sum_mg(sum);
    *eg += weight_sum_eg(sum);
}

static int pattern_inc_evaluate(const EvalInc *inc, const Position *pos, const Weights *w)
{
    const int32_t *tables = w->w + 2 * TURKISH_NFEATURES;
    int64_t mg = 0, eg = 0, opp_mg = 0, opp_eg = 0;
    add_slots(inc->slot.u16 + VIEW_SLOTS * pos->side, tables, &mg, &eg);
    add_slots(inc->slot.u16 + VIEW_SLOTS * !pos->side, tables, &opp_mg, &opp_eg);
    return turkish_inc_score(inc, pos, w, mg - opp_mg, eg - opp_eg);
}

_Static_assert(TURKISH_PATTERN_WINDOWS * 2 <= EVAL_MAX_PATTERN_TERMS, "both views fit");
_Static_assert(TURKISH_PATTERN_OFFSETS == 5 && TURKISH_PATTERN_CLASSES == 3,
               "add_view reads offsets 0/4, 1/3 and 2");

const EvalSpec turkish_pattern_eval_spec = {
    TURKISH_LINEAR_EVAL_FIELDS,
    .eval_name = "pattern",
    .npattern_states = TURKISH_PATTERN_TABLES * TURKISH_PATTERN_STATES,
    .max_pattern_terms = 2 * TURKISH_PATTERN_WINDOWS,
    .feature_set_version = FEATURE_SET_VERSION,
    .patterns = turkish_patterns,
    .pattern_key_bytes = KEY_BYTES,
    .pattern_key = pattern_key,
    .key_patterns = key_patterns,
    .evaluate = pattern_evaluate,
    .inc_init = pattern_inc_init,
    .inc_update = pattern_inc_update,
    .inc_evaluate = pattern_inc_evaluate,
};
