/* The Turkish pattern evaluation (turkish_patterns.h): the windows read square by square
 * for eval_extract and the tuner (patterns), and the same sum read with a 256-entry table
 * of 4-square segments for the search (pattern_evaluate); the tests hold the two equal. */
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

static int pattern_evaluate(const Position *pos, const Weights *w)
{
    int32_t v[EVAL_MAX_FEATURES + 1];
    int phase = turkish_features(pos, v);
    int64_t mg = 0, eg = 0;
    for (int i = 0; i < TURKISH_NFEATURES; i++) {
        mg += (int64_t)v[i] * w->w[2 * i];
        eg += (int64_t)v[i] * w->w[2 * i + 1];
    }
    View views[2];
    side_views(pos, views);
    const int32_t *tables = w->w + 2 * TURKISH_NFEATURES;
    int64_t opp_mg = 0, opp_eg = 0;
    add_view(&views[0], tables, &mg, &eg);
    add_view(&views[1], tables, &opp_mg, &opp_eg);
    mg -= opp_mg;
    eg -= opp_eg;
    return eval_scale_score(phase * mg + (TURKISH_PHASE_MAX - phase) * eg, TURKISH_PHASE_MAX);
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
    .evaluate = pattern_evaluate,
};
