/* Dataset, Texel loss and sparse gradient, K fit, lazy Adam, the penalty toward the start,
 * the dedup set: hand-checked values, finite differences, a dense reference, recovery of a
 * known weight vector, the split by game, and the engine's own features stored and read
 * back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset.h"
#include "dataset_file.h"
#include "evaluate.h"
#include "movelist.h"
#include "position.h"
#include "position_set.h"
#include "texel.h"
#include "variant.h"

#include "test_tmpdir.h"

/* cmocka's assert_float_equal works in float; these checks need double. */
#define assert_near(a, b, tol) near_at((a), (b), (tol), #a, __FILE__, __LINE__)
static void near_at(double a, double b, double tol, const char *expr, const char *file, int line)
{
    if (!(fabs(a - b) <= tol)) {
        print_error("%s = %.12g, expected %.12g (tolerance %g)\n", expr, a, b, tol);
        _fail(file, line);
    }
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Uniform in [lo, hi]. */
static int rnd_int(uint64_t *s, int lo, int hi)
{
    return lo + (int)(rnd(s) % (uint64_t)(hi - lo + 1));
}

/* A synthetic position: an anchor feature (0, like the man count difference) and `terms`
 * random features over the others, values in -3..3 without 0, and a random phase. */
static int random_features(uint64_t *s, int num_features, int phase_max, int terms, EvalFeatureTerm *f)
{
    f[0] = (EvalFeatureTerm){ 0, rnd_int(s, -3, 3) };
    for (int j = 1; j <= terms; j++)
        f[j] = (EvalFeatureTerm){ rnd_int(s, 1, num_features - 1), rnd_int(s, 1, 3) * (rnd(s) & 1 ? 1 : -1) };
    return rnd_int(s, 0, phase_max);
}

/* The model written out once more, independently of texel.c: the reference. */
static double model_eval(const EvalFeatureTerm *f, int n, int phase, int phase_max, const double *w)
{
    double sum = 0;
    for (int j = 0; j < n; j++)
        sum += f[j].value * (phase * w[2 * f[j].feature] + (phase_max - phase) * w[2 * f[j].feature + 1]);
    return sum / phase_max;
}

enum { MAXT = 16, PHASE_MAX = 16 };

typedef enum { LABEL_RANDOM, LABEL_SOFT, LABEL_SAMPLED } LabelKind;

/* n positions, 7 per game; labels random results, exactly sigmoid(K eval_true), or drawn
 * as a game result (1 or 0) with that probability. */
static Dataset *make_dataset(uint64_t seed, int n, int num_features, int terms, LabelKind kind,
                             const double *w_true, double K)
{
    uint64_t s = seed;
    Dataset *ds = dataset_new(num_features, PHASE_MAX);
    assert_non_null(ds);
    for (int i = 0; i < n; i++) {
        EvalFeatureTerm f[MAXT];
        int phase = random_features(&s, num_features, PHASE_MAX, terms, f);
        float label = (float)rnd_int(&s, 0, 2) * 0.5f;
        if (kind != LABEL_RANDOM) {
            double p = texel_sigmoid(K, model_eval(f, terms + 1, phase, PHASE_MAX, w_true));
            label = kind == LABEL_SOFT ? (float)p
                                       : (float)((double)(rnd(&s) >> 11) * 0x1p-53 < p);
        }
        assert_true(dataset_add(ds, i / 7, label, phase, f, terms + 1));
    }
    return ds;
}

static void random_weights(uint64_t seed, double *w, int n)
{
    uint64_t s = seed;
    for (int j = 0; j < n; j++)
        w[j] = (double)rnd_int(&s, -1000, 1500) / 10.0;
    w[0] = w[1] = 100.0; /* the anchor: one man, in the middlegame and the endgame */
}

/* The reference gradient of the mean loss over positions order[0 .. n) (all when NULL):
 * straight from the formula, one position at a time into a dense vector. */
static void dense_gradient(const Dataset *ds, const size_t *order, size_t n, const double *w, double K,
                           double *grad)
{
    memset(grad, 0, (size_t)ds->num_weights * sizeof *grad);
    for (size_t k = 0; k < n; k++) {
        const DatasetPosition *p = &ds->pos[order ? order[k] : k];
        EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
        dataset_terms(ds, order ? order[k] : k, f);
        const int count = dataset_count(p), phase = dataset_phase(ds, p);
        double prob = texel_sigmoid(K, model_eval(f, count, phase, ds->phase_max, w));
        double g = 2 * (prob - dataset_label(p)) * prob * (1 - prob) * K / (double)n;
        for (int j = 0; j < count; j++) {
            grad[2 * f[j].feature] += g * f[j].value * phase / ds->phase_max;
            grad[2 * f[j].feature + 1] += g * f[j].value * (ds->phase_max - phase) / ds->phase_max;
        }
    }
}

/* ---- dataset ---- */

static void test_dataset_add(void **state)
{
    (void)state;
    assert_null(dataset_new(0, 1));
    assert_null(dataset_new(4, 0));
    assert_null(dataset_new(4, 256));
    Dataset *ds = dataset_new(4, 2);
    assert_non_null(ds);
    assert_int_equal(ds->num_weights, 8);
    const EvalFeatureTerm f[4] = { { 0, 2 }, { 1, 0 }, { 2, -1 }, { 3, 5 } };
    assert_true(dataset_add(ds, 7, 1.0f, 1, f, 4));
    assert_int_equal(ds->npos, 1);
    assert_int_equal(dataset_count(&ds->pos[0]), 3); /* the 0 value is dropped */
    assert_int_equal(dataset_phase(ds, &ds->pos[0]), 1);
    assert_true(dataset_label(&ds->pos[0]) == 1.0);
    EvalFeatureTerm got[EVAL_MAX_FEATURE_TERMS];
    assert_int_equal(dataset_terms(ds, 0, got), 3);
    assert_int_equal(got[0].feature, 0);
    assert_int_equal(got[0].value, 2);
    assert_int_equal(got[1].feature, 2);
    assert_int_equal(got[1].value, -1);
    assert_int_equal(got[2].feature, 3);
    assert_int_equal(got[2].value, 5);
    /* Packed: the phase, the count of long terms, then 3 bytes a term (a step word, a value
     * byte), no escapes; the last term's value 5 is no short term's, so none is short. */
    assert_int_equal(ds->nbytes, 2 + 9);
    assert_true(dataset_add(ds, 8, 0.5f, 0, NULL, 0)); /* no terms: eval 0 */

    const EvalFeatureTerm bad[1] = { { 4, 1 } }, neg[1] = { { -1, 1 } }, big[1] = { { 1, 32768 } },
                      small[1] = { { 1, -32768 } };
    assert_false(dataset_add(ds, 9, 0.5f, 1, bad, 1));
    assert_false(dataset_add(ds, 9, 0.5f, 1, neg, 1));
    assert_false(dataset_add(ds, 9, 0.5f, 1, big, 1)); /* a value beyond the 16 bits stored */
    assert_false(dataset_add(ds, 9, 0.5f, 3, f, 4));   /* phase above phase_max */
    assert_false(dataset_add(ds, 9, 0.5f, -1, f, 4));
    assert_false(dataset_add(ds, 9, 1.5f, 1, f, 4));
    assert_false(dataset_add(ds, 9, -0.1f, 1, f, 4));
    assert_false(dataset_add(ds, 9, NAN, 1, f, 4));
    assert_false(dataset_add(ds, 9, 0.5f, 1, f, -1));
    assert_int_equal(ds->npos, 2);
    assert_int_equal(ds->nterms, 3);
    assert_true(dataset_add(ds, 9, 0.5f, 2, small, 1)); /* int16's own minimum fits */
    assert_int_equal(dataset_terms(ds, 2, got), 1);
    assert_int_equal(got[0].value, -32768);
    assert_int_equal(got[0].feature, 1);
    /* Features in any order, repeated, and the extremes of the values, come back as given. */
    const EvalFeatureTerm mixed[6] = { { 3, 1 }, { 0, -2 }, { 3, 32767 }, { 1, -1 }, { 0, 2 }, { 2, -32768 } };
    assert_true(dataset_add(ds, 10, 0.5f, 2, mixed, 6));
    assert_int_equal(dataset_terms(ds, 3, got), 6);
    for (int j = 0; j < 6; j++) {
        assert_int_equal(got[j].feature, mixed[j].feature);
        assert_int_equal(got[j].value, mixed[j].value);
    }

    /* A record's three fields each keep their own bits: the offset's 40 (low bits, then
     * the highest), the count's 9 (up to 320 terms and beyond), the label's 15. */
    const uint64_t offsets[] = { 0, 0xFFFFFFFFull, 0x100000000ull, 0xAB12345678ull, DATASET_MAX_BYTES - 1 };
    const int counts[] = { 0, 7, EVAL_MAX_FEATURE_TERMS, 511 };
    const double labels[] = { 0.0, 0.5, 1.0, 0.25 };
    for (size_t k = 0; k < sizeof offsets / sizeof *offsets; k++)
        for (int c = 0; c < 4; c++)
            for (int l = 0; l < 4; l++) {
                DatasetPosition rec = dataset_record(offsets[k], counts[c], labels[l]);
                assert_true(dataset_offset(&rec) == offsets[k]);
                assert_int_equal(dataset_count(&rec), counts[c]);
                assert_true(dataset_label(&rec) == labels[l]);
                dataset_set_label(&rec, 1.0 - labels[l]);
                dataset_set_offset(&rec, offsets[k] ^ 1);
                assert_true(dataset_offset(&rec) == (offsets[k] ^ 1) && dataset_count(&rec) == counts[c]);
                assert_true(dataset_label(&rec) == 1.0 - labels[l]);
            }
    /* A blended label keeps the nearest of 1/16384's: 0.3 is 4915/16384, 0.3 - 0.000012. */
    DatasetPosition rec = dataset_record(12, 3, 0.3);
    assert_true(dataset_label(&rec) == 4915.0 / 16384);
    assert_true(fabs(dataset_label(&rec) - 0.3) < 0.5 / DATASET_LABEL_ONE);

    /* Grows past its first block without losing anything. */
    for (int i = 0; i < 5000; i++)
        assert_true(dataset_add(ds, 100 + i, 0.0f, 2, f, 4));
    assert_int_equal(ds->npos, 5004);
    assert_int_equal(ds->nterms, 4 + 6 + 3 * 5000);
    assert_int_equal(ds->game[5003], 100 + 4999);
    assert_int_equal(dataset_terms(ds, 5003, got), 3);
    assert_int_equal(got[2].value, 5);
    assert_int_equal(got[2].feature, 3);
    /* 8 bytes a position record, 8 its game id, and the packed bytes, capacity counted. */
    assert_int_equal(dataset_bytes(ds), sizeof *ds + ds->pos_cap * 16 + ds->bytes_cap);
    assert_true(ds->pos_cap >= ds->npos && ds->bytes_cap >= ds->nbytes);
    /* Trimmed once loaded: no slack left, every term still there; more can be added. */
    assert_true(ds->bytes_cap > ds->nbytes); /* the doubling left some */
    assert_true(dataset_trim(ds));
    assert_int_equal(ds->bytes_cap, ds->nbytes);
    assert_int_equal(ds->pos_cap, ds->npos);
    assert_int_equal(dataset_bytes(ds), sizeof *ds + ds->npos * 16 + ds->nbytes);
    assert_int_equal(dataset_terms(ds, 3, got), 6);
    assert_int_equal(got[5].value, -32768);
    assert_true(dataset_add(ds, 9, 0.5f, 2, small, 1));
    assert_int_equal(dataset_terms(ds, 5004, got), 1);
    assert_int_equal(got[0].value, -32768);
    dataset_free(ds);
    dataset_free(NULL);

    /* A step of 65535 is the escape's own mark: that step and larger ones go in full, one
     * less in the word; int8's edges in the byte, one past them escaped (-128 is the mark). */
    ds = dataset_new(300000, 2);
    assert_non_null(ds);
    const EvalFeatureTerm steps[6] = { { 0, 127 }, { 65535, -127 }, { 65535 + 65534, 128 },
                                       { 65535 + 65534 + 65536, -128 }, { 299999, 1 }, { 7, -1 } };
    assert_true(dataset_add(ds, 1, 0.5f, 1, steps, 6));
    assert_int_equal(dataset_terms(ds, 0, got), 6);
    for (int j = 0; j < 6; j++) {
        assert_int_equal(got[j].feature, steps[j].feature);
        assert_int_equal(got[j].value, steps[j].value);
    }
    /* The phase and count bytes, 3 bytes a term (7 going back is no short term), 4 more for each
     * feature in full (steps 65535, 65536 and 103394, and 7 going back) and 2 more for each
     * escaped value (128, -128). */
    assert_int_equal(ds->nbytes, 2 + 6 * 3 + 4 * 4 + 2 * 2);
    dataset_free(ds);
}

/* Short terms (dataset.h) worked by hand: the bytes of two runs, and where the long part
 * ends when a run has more terms than its count byte counts. */
static void test_short_terms_by_hand(void **state)
{
    (void)state;
    Dataset *ds = dataset_new(20000, 2);
    assert_non_null(ds);
    /* (1, 5) is long (no code for 5); (3, +1) step 2 code 0: word 8; (3, -1) step 0 code 1:
     * word 1; (10, +2) step 7 code 2: word 30; (16393, -2) step 16383 (the largest) code 3:
     * word 0xFFFF, which in a short word marks nothing. */
    const EvalFeatureTerm a[5] = { { 1, 5 }, { 3, 1 }, { 3, -1 }, { 10, 2 }, { 16393, -2 } };
    const uint8_t a_bytes[13] = { 1, 1, 1, 0, 5, 8, 0, 1, 0, 30, 0, 0xFF, 0xFF };
    assert_true(dataset_add(ds, 1, 0.5f, 1, a, 5));
    assert_int_equal(ds->nbytes, sizeof a_bytes);
    assert_memory_equal(ds->terms, a_bytes, sizeof a_bytes);
    /* Only a tail is short: (0, 1) would fit but (1, 7) does not, nor step 16384; the
     * last, step 1 code 1, does: 3 long terms. */
    const EvalFeatureTerm b[4] = { { 0, 1 }, { 1, 7 }, { 16385, 1 }, { 16386, -1 } };
    const uint8_t b_bytes[13] = { 2, 3, 0, 0, 1, 0, 0x00, 0x40, 1, 7, 1, 5, 0 };
    assert_true(dataset_add(ds, 2, 0.5f, 2, b, 4));
    assert_int_equal(ds->nbytes, sizeof a_bytes + sizeof b_bytes);
    assert_memory_equal(ds->terms + sizeof a_bytes, b_bytes, sizeof b_bytes);
    EvalFeatureTerm got[EVAL_MAX_FEATURE_TERMS];
    assert_int_equal(dataset_terms(ds, 0, got), 5);
    for (int j = 0; j < 5; j++)
        assert_true(got[j].feature == a[j].feature && got[j].value == a[j].value);
    assert_int_equal(dataset_terms(ds, 1, got), 4);
    for (int j = 0; j < 4; j++)
        assert_true(got[j].feature == b[j].feature && got[j].value == b[j].value);
    /* 300 terms, 10 long then 290 short: count byte 10, 2 + 30 + 580 bytes.  260 long then
     * 40 short: more long terms than the byte counts, so all 300 are long (0xFF). */
    EvalFeatureTerm many[300];
    for (int j = 0; j < 300; j++)
        many[j] = (EvalFeatureTerm){ j, j < 10 ? 9 : j % 2 ? 1 : -1 };
    size_t at = ds->nbytes;
    assert_true(dataset_add(ds, 3, 0.5f, 1, many, 300));
    assert_int_equal(ds->terms[at + 1], 10);
    assert_int_equal(ds->nbytes - at, 2 + 10 * 3 + 290 * 2);
    for (int j = 0; j < 300; j++)
        many[j].value = j < 260 ? 9 : -2;
    at = ds->nbytes;
    assert_true(dataset_add(ds, 4, 0.5f, 1, many, 300));
    assert_int_equal(ds->terms[at + 1], DATASET_ALL_LONG);
    assert_int_equal(ds->nbytes - at, 2 + 300 * 3);
    assert_int_equal(dataset_terms(ds, 2, got), 300);
    assert_true(got[9].value == 9 && got[10].value == -1 && got[299].feature == 299 && got[299].value == 1);
    assert_int_equal(dataset_terms(ds, 3, got), 300);
    for (int j = 0; j < 300; j++)
        assert_true(got[j].feature == j && got[j].value == many[j].value);
    dataset_free(ds);
}

/* Random runs mixing every kind of term (steps at the short word's and the escape's edges,
 * back jumps, repeats; values at the codes', int8's and int16's edges) come back as given,
 * and the kernels' eval over them is the model's over the terms as given. */
static void test_terms_round_trip(void **state)
{
    (void)state;
    enum { NF = 400000, N = 3000 };
    static const int steps[] = { 0, 1, 2, 100, 16383, 16384, 65534, 65535, 65536 };
    static const int values[] = { 1, -1, 2, -2, 3, -3, 127, -127, 128, -128, 32767, -32768, 0 };
    uint64_t s = 77;
    Dataset *ds = dataset_new(NF, PHASE_MAX);
    assert_non_null(ds);
    double *w = malloc(2 * NF * sizeof *w);
    assert_non_null(w);
    random_weights(3, w, 2 * NF);
    EvalFeatureTerm (*given)[EVAL_MAX_FEATURE_TERMS] = malloc(N * sizeof *given);
    int *kept = malloc(N * sizeof *kept), *phase = malloc(N * sizeof *phase);
    assert_true(given && kept && phase);
    for (int i = 0; i < N; i++) {
        int n = i % 50 == 0 ? EVAL_MAX_FEATURE_TERMS : rnd_int(&s, 0, 80), f = 0;
        bool pattern_like = rnd(&s) & 1; /* mostly short terms, or anything */
        EvalFeatureTerm t[EVAL_MAX_FEATURE_TERMS];
        for (int j = 0; j < n; j++) {
            int step = pattern_like ? rnd_int(&s, 0, 3000) : steps[rnd(&s) % (sizeof steps / sizeof *steps)];
            f = rnd(&s) % 16 == 0 ? rnd_int(&s, 0, f) : f + step; /* now and then back */
            if (f >= NF)
                f = rnd_int(&s, 0, NF - 1);
            int value = pattern_like && rnd(&s) % 8 ? values[rnd(&s) % 4]
                                                    : values[rnd(&s) % (sizeof values / sizeof *values)];
            t[j] = (EvalFeatureTerm){ f, value };
        }
        phase[i] = rnd_int(&s, 0, PHASE_MAX);
        assert_true(dataset_add(ds, i, 0.5f, phase[i], t, n));
        kept[i] = 0;
        for (int j = 0; j < n; j++)
            if (t[j].value)
                given[i][kept[i]++] = t[j];
    }
    for (int i = 0; i < N; i++) {
        EvalFeatureTerm got[EVAL_MAX_FEATURE_TERMS];
        assert_int_equal(dataset_terms(ds, (size_t)i, got), kept[i]);
        for (int j = 0; j < kept[i]; j++)
            assert_true(got[j].feature == given[i][j].feature && got[j].value == given[i][j].value);
        double want = model_eval(given[i], kept[i], phase[i], PHASE_MAX, w);
        assert_near(texel_eval(ds, (size_t)i, w), want, 1e-9 * (1 + fabs(want)));
    }
    dataset_free(ds);
    free(w);
    free(given);
    free(kept);
    free(phase);
}

/* The gradient and the loss over runs mostly of short terms (pattern-like: +-1, +-2, small
 * steps) equal the formula over the terms as given (not as decoded). */
static void test_gradient_of_short_terms(void **state)
{
    (void)state;
    enum { NF = 30000, N = 20000, T = 40 };
    uint64_t s = 4242;
    Dataset *ds = dataset_new(NF, PHASE_MAX);
    double *w = malloc(2 * NF * sizeof *w), *g = malloc(2 * NF * sizeof *g), *want = calloc(2 * NF, sizeof *want);
    assert_true(ds && w && g && want);
    random_weights(8, w, 2 * NF);
    for (int j = 2; j < 2 * NF; j++)
        w[j] /= 10; /* evals in the sigmoid's slope, so every term's gradient counts */
    const double K = 0.01;
    double sse = 0;
    for (int i = 0; i < N; i++) {
        EvalFeatureTerm t[T];
        t[0] = (EvalFeatureTerm){ 0, rnd_int(&s, -12, 12) }; /* a linear-like head */
        int f = 1;
        for (int j = 1; j < T; j++) {
            f += rnd_int(&s, 0, 700); /* at most 27 301: within NF */
            t[j] = (EvalFeatureTerm){ f, (rnd(&s) % 6 ? 1 : 2) * (rnd(&s) & 1 ? 1 : -1) };
        }
        int phase = rnd_int(&s, 0, PHASE_MAX);
        float label = (float)rnd_int(&s, 0, 2) * 0.5f;
        assert_true(dataset_add(ds, i / 9, label, phase, t, T));
        int n = t[0].value ? T : T - 1;
        const EvalFeatureTerm *u = t[0].value ? t : t + 1;
        double prob = texel_sigmoid(K, model_eval(u, n, phase, PHASE_MAX, w)), d = prob - label;
        sse += d * d;
        double gi = 2 * d * prob * (1 - prob) * K / N;
        for (int j = 0; j < n; j++) {
            want[2 * u[j].feature] += gi * u[j].value * phase / PHASE_MAX;
            want[2 * u[j].feature + 1] += gi * u[j].value * (PHASE_MAX - phase) / PHASE_MAX;
        }
    }
    assert_true(ds->nbytes < (size_t)N * (2 + 3 + 2 * (T - 1)) + 1); /* the occurrences short */
    assert_true(texel_gradient(ds, w, K, g, 2));
    double scale = 0;
    for (int j = 0; j < 2 * NF; j++)
        scale = fmax(scale, fabs(want[j]));
    assert_true(scale > 0);
    for (int j = 0; j < 2 * NF; j++)
        assert_near(g[j], want[j], 1e-9 * scale);
    assert_near(texel_loss(ds, w, K, 2), sse / N, 1e-12);
    dataset_free(ds);
    free(w);
    free(g);
    free(want);
}

/* Random legal positions of a variant: a walk of random moves from the start. */
static int walk_positions(const Variant *v, uint64_t seed, Position *out, int max)
{
    uint64_t s = seed;
    Rules rules = rules_default(v);
    int n = 0;
    while (n < max) {
        Position pos;
        v->start(&pos);
        for (int ply = 0; ply < 80 && n < max; ply++) {
            MoveList list;
            v->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            out[n++] = pos;
            Position child;
            movelist_play(&child, &pos, &list.moves[rnd(&s) % (uint64_t)list.count]);
            pos = child;
        }
    }
    return n;
}

/* The layout round trip on the engine's own features: what is stored is what eval_features
 * wrote (phase, features, values, in order), and the model's sum over the stored terms is
 * the engine's evaluation (to its rounding). */
static void test_dataset_stores_eval_features(void **state)
{
    (void)state;
    enum { N = 600 };
    Position *pos = malloc(N * sizeof *pos);
    assert_non_null(pos);
    for (int vi = 0; variant_at(vi); vi++) {
        const Variant *v = variant_at(vi);
        const EvalSpec *specs[2] = { v->eval, v->pattern_eval };
        int n = walk_positions(v, 1234 + (uint64_t)vi, pos, N);
        for (int si = 0; si < 2 && specs[si]; si++) {
            const EvalSpec *spec = specs[si];
            WEIGHTS_SCOPED w = { 0 };
            assert_true(weights_default(&w, spec));
            double *wd = malloc((size_t)w.count * sizeof *wd);
            assert_non_null(wd);
            uint64_t s = 5;
            for (int j = 0; j < w.count; j++) { /* pattern weights too, so they count */
                if (j >= 2 * spec->nfeatures)
                    w.w[j] = rnd_int(&s, -60, 60);
                wd[j] = w.w[j];
            }
            Dataset *ds = dataset_new(w.count / 2, spec->phase_max);
            assert_non_null(ds);
            for (int i = 0; i < n; i++) {
                EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
                int phase, k = eval_features(spec, &pos[i], f, &phase);
                assert_true(dataset_add(ds, i, 0.5f, phase, f, k));
                const DatasetPosition *p = &ds->pos[i];
                assert_int_equal(dataset_phase(ds, p), phase);
                assert_int_equal(dataset_count(p), k);
                EvalFeatureTerm got[EVAL_MAX_FEATURE_TERMS];
                assert_int_equal(dataset_terms(ds, (size_t)i, got), k);
                for (int j = 0; j < k; j++) {
                    assert_int_equal(got[j].feature, f[j].feature);
                    assert_int_equal(got[j].value, f[j].value);
                }
                assert_near(texel_eval(ds, (size_t)i, wd), evaluate(&pos[i], &w), 0.5 + 1e-9);
            }
            printf("%s %s: %.1f features a position on average, %.1f bytes a position\n", v->name,
                   eval_spec_is_pattern(spec) ? "pattern" : "linear", (double)ds->nterms / (double)ds->npos,
                   (double)(sizeof *ds->pos * ds->npos + ds->nbytes) / (double)ds->npos);
            dataset_free(ds);
            free(wd);
        }
    }
    free(pos);
}

/* ---- loss and gradient by hand ---- */

static void test_eval_loss_by_hand(void **state)
{
    (void)state;
    /* Two features, phase_max 4, phase 3; w = {100, 80 | 30, -20}; terms (0, 2) (1, -1):
     * eval = (2 (3*100 + 1*80) - (3*30 + 1*(-20))) / 4 = (760 - 70) / 4 = 172.5.
     * K = 0.01, label 1: p = 1 / (1 + e^-1.725) = 0.848771747, loss (1 - p)^2 = 0.022869984.
     * d loss / d w_j = 2 (p - 1) p (1 - p) K coef_j, coef = {1.5, 0.5, -0.75, -0.25}
     *   = {-0.000582341898, -0.000194113966, 0.000291170949, 0.0000970569829} */
    Dataset *ds = dataset_new(2, 4);
    const EvalFeatureTerm f[2] = { { 0, 2 }, { 1, -1 } };
    assert_true(dataset_add(ds, 1, 1.0f, 3, f, 2));
    const double w[4] = { 100, 80, 30, -20 };
    assert_near(texel_eval(ds, 0, w), 172.5, 1e-12);
    assert_near(texel_loss(ds, w, 0.01, 1), 0.022869984357, 1e-11);
    double g[4];
    assert_true(texel_gradient(ds, w, 0.01, g, 2));
    assert_near(g[0], -0.000582341897632, 1e-14);
    assert_near(g[1], -0.000194113965877, 1e-14);
    assert_near(g[2], 0.000291170948816, 1e-14);
    assert_near(g[3], 0.0000970569829387, 1e-14);

    /* Saturated sigmoid: no NaN, no overflow trouble. */
    assert_near(texel_sigmoid(1.0, 1e6), 1.0, 0.0);
    assert_near(texel_sigmoid(1.0, -1e6), 0.0, 0.0);
    dataset_free(ds);

    /* Empty dataset: loss 0, gradient 0, K 0. */
    Dataset *empty = dataset_new(2, 1);
    assert_near(texel_loss(empty, w, 0.01, 2), 0.0, 0.0);
    assert_true(texel_gradient(empty, w, 0.01, g, 2));
    assert_near(g[0] + g[1] + g[2] + g[3], 0.0, 0.0);
    assert_near(texel_fit_k(empty, w, 2), 0.0, 0.0);
    dataset_free(empty);
}

/* (a) the sparse gradient against the dense reference and against central differences;
 * the same bits on any team. */
static void test_gradient_finite_differences(void **state)
{
    (void)state;
    enum { F = 12, W = 2 * F, N = 3000 };
    Dataset *ds = make_dataset(11, N, F, 6, LABEL_RANDOM, NULL, 0);
    double w[W], g[W], g1[W], ref[W];
    random_weights(5, w, W);
    const double K = 0.013, h = 1e-3;
    assert_true(texel_gradient(ds, w, K, g, 3));
    dense_gradient(ds, NULL, N, w, K, ref);
    for (int j = 0; j < W; j++) {
        assert_near(g[j], ref[j], 1e-12 * fabs(ref[j]) + 1e-300);
        double wp[W], wm[W];
        memcpy(wp, w, sizeof w);
        memcpy(wm, w, sizeof w);
        wp[j] += h;
        wm[j] -= h;
        double fd = (texel_loss(ds, wp, K, 1) - texel_loss(ds, wm, K, 1)) / (2 * h);
        double rel = fabs(g[j] - fd) / fmax(fabs(fd), 1e-300);
        if (!(rel < 1e-5))
            print_error("weight %d: gradient %.12g, finite difference %.12g\n", j, g[j], fd);
        assert_true(rel < 1e-5);
        assert_true(fabs(fd) > 1e-7); /* a real check, not 0 against 0 */
    }

    /* Any team: the same bits (the blocks are fixed by the number of positions). */
    const int teams[] = { 1, 2, 3, 4 }; /* libomp 14 leaks a little when a team grows past 4 */
    for (size_t t = 0; t < sizeof teams / sizeof *teams; t++) {
        assert_true(texel_gradient(ds, w, K, g1, teams[t]));
        assert_memory_equal(g1, g, sizeof g);
        assert_true(texel_loss(ds, w, K, teams[t]) == texel_loss(ds, w, K, 1));
    }
    dataset_free(ds);
}

/* The batch gradient: only the features of the batch's positions are listed, each once, and
 * their values are the reference's over that batch; a batch of one feature-poor position
 * touches few weights among many. */
static void test_batch_gradient_is_sparse(void **state)
{
    (void)state;
    enum { F = 5000, W = 2 * F, N = 9000, B = 2500 };
    Dataset *ds = make_dataset(13, N, F, 12, LABEL_RANDOM, NULL, 0);
    double *w = malloc(W * sizeof *w), *ref = malloc(W * sizeof *ref), *first = malloc(W * sizeof *first);
    size_t *order = malloc(B * sizeof *order);
    unsigned char *in_batch = calloc(F, 1);
    assert_true(w && ref && first && order && in_batch);
    random_weights(6, w, W);
    uint64_t s = 77;
    for (int k = 0; k < B; k++) /* any positions, in any order, repeats allowed */
        order[k] = (size_t)(rnd(&s) % N);
    size_t expected = 0;
    for (int k = 0; k < B; k++) {
        EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
        int count = dataset_terms(ds, order[k], f);
        for (int j = 0; j < count; j++)
            if (!in_batch[f[j].feature]) {
                in_batch[f[j].feature] = 1;
                expected++;
            }
    }
    const double K = 0.011;
    dense_gradient(ds, order, B, w, K, ref);
    double scale = 0;
    for (int j = 0; j < W; j++)
        scale = fmax(scale, fabs(ref[j]));
    for (int threads = 1; threads <= 3; threads++) {
        TexelBatchGradient *bg = texel_batch_gradient_new(ds, threads);
        assert_non_null(bg);
        const uint32_t *touched;
        const double *g;
        size_t nt;
        double sse;
        for (int round = 0; round < 2; round++) { /* the scratch is clean after a call */
            assert_true(texel_batch_gradient(bg, ds, order, B, w, K, &sse, &touched, &nt, &g));
            assert_int_equal(nt, expected);
            unsigned char *listed = calloc(F, 1);
            for (size_t i = 0; i < nt; i++) {
                uint32_t f = touched[i];
                assert_true(in_batch[f] && !listed[f]);
                listed[f] = 1;
                assert_near(g[2 * f], ref[2 * f], 1e-10 * scale); /* sums that cancel: */
                assert_near(g[2 * f + 1], ref[2 * f + 1], 1e-10 * scale); /* absolute */
                if (threads == 1 && round == 0) {
                    first[2 * f] = g[2 * f];
                    first[2 * f + 1] = g[2 * f + 1];
                } else { /* the same bits on every team */
                    assert_true(g[2 * f] == first[2 * f] && g[2 * f + 1] == first[2 * f + 1]);
                }
            }
            free(listed);
        }
        /* One position: its distinct features only. */
        EvalFeatureTerm f0[EVAL_MAX_FEATURE_TERMS];
        int count0 = dataset_terms(ds, order[0], f0);
        size_t distinct = 0;
        for (int j = 0; j < count0; j++) {
            int seen_before = 0;
            for (int i = 0; i < j; i++)
                seen_before |= f0[i].feature == f0[j].feature;
            distinct += !seen_before;
        }
        assert_true(texel_batch_gradient(bg, ds, order, 1, w, K, &sse, &touched, &nt, &g));
        assert_int_equal(nt, distinct);
        texel_batch_gradient_free(bg);
    }
    dataset_free(ds);
    free(w);
    free(ref);
    free(first);
    free(order);
    free(in_batch);
}

/* (b) K fit: a minimum of the loss; and K_true back from labels made with it. */
static void test_fit_k(void **state)
{
    (void)state;
    enum { F = 5, W = 2 * F, N = 20000 };
    double w[W];
    random_weights(21, w, W);
    const double K_true = 0.0123;

    /* Results drawn as 1/0 games: the fitted K is a local minimum of the loss. */
    Dataset *ds = make_dataset(22, N, F, 5, LABEL_SAMPLED, w, K_true);
    double K = texel_fit_k(ds, w, 2);
    double l = texel_loss(ds, w, K, 2);
    assert_true(K > 0);
    for (double d = 1e-6; d < 1e-1; d *= 10) {
        assert_true(l <= texel_loss(ds, w, K * (1 + d), 2));
        assert_true(l <= texel_loss(ds, w, K * (1 - d), 2));
    }
    assert_near(K, K_true, 0.1 * K_true); /* sampling noise only */
    dataset_free(ds);

    /* Labels exactly sigmoid(K_true eval): the loss is 0 at K_true (up to float labels). */
    ds = make_dataset(23, N, F, 5, LABEL_SOFT, w, K_true);
    K = texel_fit_k(ds, w, 2);
    assert_near(K, K_true, 1e-5 * K_true);
    assert_true(texel_fit_k(ds, w, 1) == K); /* the team size changes nothing, not even rounding */
    dataset_free(ds);
}

/* ---- split by game ---- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Sorted distinct game ids of a dataset; returns how many. */
static size_t game_ids(const Dataset *ds, int64_t *out)
{
    for (size_t i = 0; i < ds->npos; i++)
        out[i] = ds->game[i];
    qsort(out, ds->npos, sizeof *out, cmp_i64);
    size_t m = 0;
    for (size_t i = 0; i < ds->npos; i++)
        if (m == 0 || out[m - 1] != out[i])
            out[m++] = out[i];
    return m;
}

/* (d) */
static void test_split_by_game(void **state)
{
    (void)state;
    enum { F = 4, W = 2 * F, N = 14000 }; /* 2000 games of 7 positions */
    Dataset *ds = make_dataset(31, N, F, 4, LABEL_RANDOM, NULL, 0);
    Dataset *tr, *va, *tr2, *va2, *tr3, *va3;
    assert_true(dataset_split(ds, 0.25, 42, &tr, &va));
    assert_int_equal(tr->npos + va->npos, N);

    int64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    size_t na = game_ids(tr, a), nb = game_ids(va, b);
    assert_int_equal(na + nb, N / 7); /* every game on one side only... */
    for (size_t i = 0, j = 0; i < na && j < nb;) { /* ...checked by merging sorted ids */
        assert_true(a[i] != b[j]);
        if (a[i] < b[j])
            i++;
        else
            j++;
    }
    /* 500 expected of 2000; binomial sd ~19, so 440..560 is > 3 sd. */
    assert_in_range(nb, 440, 560);
    assert_int_equal(va->npos, nb * 7);

    /* The views read the parent's terms: same evals, order kept; they hold no terms. */
    double w[W];
    random_weights(3, w, W);
    for (size_t i = 0, k = 0; i < ds->npos; i++)
        if (k < va->npos && ds->game[i] == va->game[k] &&
            dataset_offset(&ds->pos[i]) == dataset_offset(&va->pos[k])) {
            assert_near(texel_eval(va, k, w), texel_eval(ds, i, w), 0.0);
            k++;
        }
    assert_int_equal(dataset_bytes(va), sizeof *va + va->pos_cap * (sizeof *va->pos + sizeof *va->game));
    const EvalFeatureTerm one[1] = { { 0, 1 } };
    assert_false(dataset_add(va, 1, 0.5f, 0, one, 1)); /* views are read-only */

    /* Deterministic; another seed, another split. */
    assert_true(dataset_split(ds, 0.25, 42, &tr2, &va2));
    assert_int_equal(va2->npos, va->npos);
    assert_memory_equal(va2->pos, va->pos, va->npos * sizeof *va->pos);
    assert_true(dataset_split(ds, 0.25, 43, &tr3, &va3));
    assert_true(va3->npos != va->npos ||
                memcmp(va3->pos, va->pos, va->npos * sizeof *va->pos) != 0);
    dataset_free(tr2);
    dataset_free(va2);
    dataset_free(tr3);
    dataset_free(va3);

    /* Edge fractions and bad arguments. */
    assert_true(dataset_split(ds, 0.0, 1, &tr2, &va2));
    assert_int_equal(va2->npos, 0);
    assert_int_equal(tr2->npos, N);
    dataset_free(tr2);
    dataset_free(va2);
    assert_true(dataset_split(ds, 1.0, 1, &tr2, &va2));
    assert_int_equal(tr2->npos, 0);
    dataset_free(tr2);
    dataset_free(va2);
    assert_false(dataset_split(ds, 1.5, 1, &tr2, &va2));
    assert_null(tr2);
    assert_false(dataset_split(ds, NAN, 1, &tr2, &va2));

    /* The parent's records can go once split: the views keep their evals and their
     * bytes, the parent keeps only its terms. */
    double eval_before[N];
    for (size_t i = 0; i < va->npos; i++)
        eval_before[i] = texel_eval(va, i, w);
    size_t terms_bytes = ds->bytes_cap;
    dataset_release_positions(ds);
    assert_int_equal(ds->npos, 0);
    assert_int_equal(dataset_bytes(ds), sizeof *ds + terms_bytes);
    assert_int_equal(tr->npos + va->npos, N);
    for (size_t i = 0; i < va->npos; i++)
        assert_near(texel_eval(va, i, w), eval_before[i], 0.0);
    /* The game ids go too once split: 8 bytes a position less; the view evaluates as
     * before, and cannot be split again. */
    dataset_release_games(va);
    assert_int_equal(dataset_bytes(va), sizeof *va + va->pos_cap * sizeof *va->pos);
    assert_near(texel_eval(va, 0, w), eval_before[0], 0.0);
    assert_false(dataset_split(va, 0.5, 1, &tr2, &va2));
    assert_null(tr2);

    free(a);
    free(b);
    dataset_free(tr);
    dataset_free(va);
    dataset_free(ds);
}

/* ---- Adam ---- */

typedef struct Trace {
    int calls, last_epoch, stop_at;
    double first_valid, last_valid;
} Trace;

static bool trace(void *ctx, int epoch, double train_loss, double valid_loss)
{
    Trace *t = ctx;
    assert_true(isfinite(train_loss) && isfinite(valid_loss));
    assert_int_equal(epoch, t->calls); /* 0, 1, 2, ... */
    if (t->calls++ == 0)
        t->first_valid = valid_loss;
    t->last_epoch = epoch;
    t->last_valid = valid_loss;
    return epoch != t->stop_at;
}

/* Naive start: only the anchor (the man's two weights) is known. */
static void naive_start(double *w, const double *w_true, int n)
{
    for (int j = 0; j < n; j++)
        w[j] = j < 2 ? w_true[j] : 0.0;
}

/* (c) labels set to sigmoid(K w_true . x): from naive weights, with the anchor frozen at its
 * true value and K known, Adam must find w_true. */
static void test_recovery(void **state)
{
    (void)state;
    enum { F = 8, W = 2 * F, N = 20000 };
    double w_true[W], w[W], w2[W];
    random_weights(41, w_true, W);
    const double K = 0.01;
    Dataset *ds = make_dataset(42, N, F, 6, LABEL_SOFT, w_true, K);
    Dataset *tr, *va;
    assert_true(dataset_split(ds, 0.2, 7, &tr, &va));

    unsigned char frozen[W] = { 1, 1 };
    TexelOptions o = texel_default_options();
    o.K = K;
    o.frozen = frozen;
    o.epochs = 1500;
    o.learning_rate = 2.0;
    o.lr_decay = 0.997;
    o.threads = 1; /* the team changes no bit (test_same_bits_on_any_team) */
    naive_start(w, w_true, W);

    Trace t = { .stop_at = -1 };
    TexelResult r;
    assert_true(texel_train(tr, va, w, &o, trace, &t, &r));
    assert_near(r.K, K, 0.0);
    assert_int_equal(t.calls, r.epochs_run + 1);
    assert_true(r.best_epoch > 0 && r.best_epoch <= r.epochs_run);
    assert_true(r.best_valid_loss < 1e-9 && r.best_valid_loss < 1e-6 * t.first_valid);
    assert_near(texel_loss(va, w, K, 2), r.best_valid_loss, 0.0); /* w = best weights */
    assert_near(w[0], w_true[0], 0.0);                           /* frozen stays put */
    assert_near(w[1], w_true[1], 0.0);
    assert_near(r.touched_per_step, F, 0.0); /* a full batch touches every feature */
    for (int j = 0; j < W; j++) {
        if (!(fabs(w[j] - w_true[j]) < 0.005))
            print_error("weight %d: %.6f, true %.6f\n", j, w[j], w_true[j]);
        assert_near(w[j], w_true[j], 0.005); /* of weights up to 150: 1 part in 3e4 */
    }

    /* Deterministic for a team size: the same run gives the same bits. */
    naive_start(w2, w_true, W);
    assert_true(texel_train(tr, va, w2, &o, NULL, NULL, NULL));
    assert_memory_equal(w, w2, sizeof w);

    /* Mini-batches (shuffled each epoch; 16 steps an epoch) get there too. */
    o.batch_size = 1000;
    o.epochs = 300;
    o.learning_rate = 1.0;
    o.lr_decay = 0.98;
    naive_start(w2, w_true, W);
    assert_true(texel_train(tr, va, w2, &o, NULL, NULL, &r));
    for (int j = 0; j < W; j++)
        assert_near(w2[j], w_true[j], 0.001);

    dataset_free(tr);
    dataset_free(va);
    dataset_free(ds);
}

/* Game results drawn as 1 or 0: the fit still lands near the truth, within sampling noise. */
static void test_recovery_sampled(void **state)
{
    (void)state;
    enum { F = 4, W = 2 * F, N = 100000 };
    double w_true[W], w[W];
    random_weights(51, w_true, W);
    const double K = 0.01;
    Dataset *ds = make_dataset(52, N, F, 4, LABEL_SAMPLED, w_true, K);
    unsigned char frozen[W] = { 1, 1 };
    TexelOptions o = texel_default_options();
    o.K = K;
    o.frozen = frozen;
    o.epochs = 400;
    o.learning_rate = 3.0;
    o.lr_decay = 0.995;
    o.threads = 1;
    naive_start(w, w_true, W);
    assert_true(texel_train(ds, NULL, w, &o, NULL, NULL, NULL));
    for (int j = 0; j < W; j++) {
        if (!(fabs(w[j] - w_true[j]) < 4.0))
            print_error("weight %d: %.6f, true %.6f\n", j, w[j], w_true[j]);
        /* From errors of ~100 at the start, to within sampling noise. */
        assert_near(w[j], w_true[j], 4.0);
    }
    dataset_free(ds);
}

static void test_train_stops_and_options(void **state)
{
    (void)state;
    enum { F = 4, W = 2 * F, N = 3000 };
    double w_true[W], w[W], w0[W];
    random_weights(61, w_true, W);
    Dataset *ds = make_dataset(62, N, F, 4, LABEL_SAMPLED, w_true, 0.01);
    Dataset *tr, *va;
    assert_true(dataset_split(ds, 0.3, 1, &tr, &va));
    unsigned char frozen[W] = { 1, 1 }, none[W] = { 0 };
    TexelOptions o = texel_default_options();
    o.frozen = frozen;
    o.threads = 2;
    memcpy(w0, w_true, sizeof w0);

    /* No anchor, or nonsense options: refused, weights untouched. */
    memcpy(w, w0, sizeof w);
    TexelOptions bad = o;
    bad.frozen = none;
    assert_false(texel_train(tr, va, w, &bad, NULL, NULL, NULL));
    bad.frozen = NULL;
    assert_false(texel_train(tr, va, w, &bad, NULL, NULL, NULL));
    bad = o;
    bad.learning_rate = 0;
    assert_false(texel_train(tr, va, w, &bad, NULL, NULL, NULL));
    bad = o;
    bad.beta1 = 1.0;
    assert_false(texel_train(tr, va, w, &bad, NULL, NULL, NULL));
    bad = o;
    bad.reg = -1e-9;
    assert_false(texel_train(tr, va, w, &bad, NULL, NULL, NULL));
    bad.reg = NAN;
    assert_false(texel_train(tr, va, w, &bad, NULL, NULL, NULL));
    assert_memory_equal(w, w0, sizeof w);

    /* The callback stops the run. */
    Trace t = { .stop_at = 5 };
    TexelResult r;
    assert_true(texel_train(tr, va, w, &o, trace, &t, &r));
    assert_int_equal(r.epochs_run, 5);
    assert_true(r.early_stopped);
    assert_true(r.K > 0.001 && r.K < 0.1); /* fitted on the starting weights */

    /* From naive weights with a learning rate too large to settle (it improves for a few
     * epochs, then bounces): validation stops improving, training stops `patience` epochs
     * after the best, and the weights returned are those of the best epoch. */
    naive_start(w, w0, W);
    o.learning_rate = 30;
    o.patience = 3;
    o.epochs = 500;
    t = (Trace){ .stop_at = -1 };
    assert_true(texel_train(tr, va, w, &o, trace, &t, &r));
    assert_true(r.early_stopped);
    assert_true(r.best_epoch > 0);
    assert_int_equal(r.epochs_run, r.best_epoch + 3);
    assert_true(r.best_valid_loss < t.first_valid && r.best_valid_loss < t.last_valid);
    assert_near(texel_loss(va, w, r.K, 2), r.best_valid_loss, 0.0);
    assert_near(w[0], w0[0], 0.0);

    /* Zero epochs: only epoch 0 is reported, weights unchanged. */
    memcpy(w, w0, sizeof w);
    o.epochs = 0;
    t = (Trace){ .stop_at = -1 };
    assert_true(texel_train(tr, NULL, w, &o, trace, &t, &r));
    assert_int_equal(t.calls, 1);
    assert_int_equal(r.best_epoch, 0);
    assert_memory_equal(w, w0, sizeof w);

    dataset_free(tr);
    dataset_free(va);
    dataset_free(ds);
}

/* Defect 3: a fit must not depend on the number of threads.  The sums are cut into blocks
 * fixed by the number of positions, so 1, 2 and 3 threads give the same bits, with a full
 * batch and with mini-batches of several sizes (cutting by thread changed the rounding and
 * through it K, the weights and the decisions of a training run). */
static void test_same_bits_on_any_team(void **state)
{
    (void)state;
    enum { F = 300, W = 2 * F, N = 30011 }; /* not a multiple of anything: uneven blocks */
    double *w_true = malloc(W * sizeof *w_true), *w = malloc(W * sizeof *w);
    double *fit1 = malloc(W * sizeof *fit1), *fit = malloc(W * sizeof *fit);
    double *g1 = malloc(W * sizeof *g1), *g = malloc(W * sizeof *g);
    unsigned char *frozen = calloc(W, 1);
    assert_true(w_true && w && fit1 && fit && g1 && g && frozen);
    random_weights(71, w_true, W);
    Dataset *ds = make_dataset(72, N, F, 12, LABEL_SAMPLED, w_true, 0.01);
    for (int j = 0; j < W; j++)
        w[j] = j < 2 ? w_true[j] : w_true[j] * 0.7;
    double K1 = texel_fit_k(ds, w, 1);
    double l1 = texel_loss(ds, w, K1, 1);
    assert_true(texel_gradient(ds, w, K1, g1, 1));
    frozen[0] = frozen[1] = 1;
    const size_t batches[] = { 0, 9000, 16384, 777 }; /* 3, 2, 4 and 1 gradient blocks */
    for (size_t bi = 0; bi < sizeof batches / sizeof *batches; bi++) {
        TexelOptions o = texel_default_options();
        o.frozen = frozen;
        o.epochs = bi == 0 ? 8 : 2;
        o.batch_size = batches[bi];
        o.reg = bi == 3 ? 1e-10 : 0.0; /* the penalty's path too */
        o.threads = 1;
        memcpy(fit1, w, W * sizeof *w);
        TexelResult r1, r;
        assert_true(texel_train(ds, NULL, fit1, &o, NULL, NULL, &r1));
        if (r1.best_epoch == 0)
            print_error("batch %zu: no epoch improved\n", batches[bi]);
        assert_true(r1.best_epoch > 0); /* it moved: the bits compared are a fit's */
        for (int threads = 2; threads <= 3; threads++) {
            if (bi == 0) {
                assert_true(texel_fit_k(ds, w, threads) == K1);
                assert_true(texel_loss(ds, w, K1, threads) == l1);
                assert_true(texel_gradient(ds, w, K1, g, threads));
                assert_memory_equal(g, g1, W * sizeof *g);
            }
            o.threads = threads;
            memcpy(fit, w, W * sizeof *w);
            assert_true(texel_train(ds, NULL, fit, &o, NULL, NULL, &r));
            assert_memory_equal(fit, fit1, W * sizeof *fit);
            assert_true(r.K == r1.K && r.best_valid_loss == r1.best_valid_loss);
        }
    }
    dataset_free(ds);
    free(w_true);
    free(w);
    free(fit1);
    free(fit);
    free(g1);
    free(g);
    free(frozen);
}

/* FNV-1a over the bytes of n doubles: one number for a whole fit's bits. */
/* Three epochs of a pattern evaluation's fit at a fixed K (full batch when batch is 0). */
static TexelOptions pattern_fit_options(const unsigned char *frozen, size_t batch, int threads)
{
    TexelOptions o = texel_default_options();
    o.frozen = frozen;
    o.epochs = 3;
    o.batch_size = batch;
    o.K = 0.004;
    o.threads = threads;
    return o;
}

static uint64_t fit_hash(const double *w, int n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    const unsigned char *b = (const unsigned char *)w;
    for (size_t i = 0; i < (size_t)n * sizeof *w; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* Fits whose bits were printed by the tuner of commit 9ba286a (3-byte terms, one shared
 * weight vector read by every thread): the packing of the terms and the threads' own
 * copies of the weights, which Adam keeps up to date step by step, change no sum.  Random
 * features (values -3..3, steps back and far) and the Turkish pattern evaluation's own
 * features (sorted pattern states), full batches and mini-batches, two threads. */
static void test_fit_bits_as_before(void **state)
{
    (void)state;
    enum { F = 300, W = 2 * F, N = 30011, WALK = 3000 };
    double *w_true = malloc(W * sizeof *w_true), *fit = malloc(W * sizeof *fit);
    unsigned char *frozen = calloc(W, 1);
    assert_true(w_true && fit && frozen);
    random_weights(71, w_true, W);
    Dataset *ds = make_dataset(72, N, F, 12, LABEL_SAMPLED, w_true, 0.01);
    frozen[0] = frozen[1] = 1;
    const size_t batches[] = { 0, 777 };
    const uint64_t random_pins[] = { 0xdc0b2c1b94920bb4ull, 0x62149d1effdad167ull };
    for (int bi = 0; bi < 2; bi++) {
        TexelOptions o = texel_default_options();
        o.frozen = frozen;
        o.epochs = 3;
        o.batch_size = batches[bi];
        o.reg = 1e-10;
        o.threads = 2;
        for (int j = 0; j < W; j++)
            fit[j] = j < 2 ? w_true[j] : w_true[j] * 0.7;
        TexelResult r;
        assert_true(texel_train(ds, NULL, fit, &o, NULL, NULL, &r));
        print_message("random batch %zu: 0x%016llx\n", batches[bi], (unsigned long long)fit_hash(fit, W));
        assert_true(fit_hash(fit, W) == random_pins[bi]);
    }
    dataset_free(ds);

    const Variant *v = variant_by_name("turkish");
    const EvalSpec *spec = v->pattern_eval;
    Position *pos = malloc(WALK * sizeof *pos);
    assert_non_null(pos);
    int n = walk_positions(v, 99, pos, WALK);
    ds = dataset_new(eval_spec_features(spec), spec->phase_max);
    assert_non_null(ds);
    uint64_t s = 17;
    for (int i = 0; i < n; i++) {
        EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
        int phase, k = eval_features(spec, &pos[i], f, &phase);
        assert_true(dataset_add(ds, i / 40, (float)rnd_int(&s, 0, 2) * 0.5f, phase, f, k));
    }
    const int pw = ds->num_weights;
    double *pfit = calloc((size_t)pw, sizeof *pfit);
    unsigned char *pfrozen = calloc((size_t)pw, 1);
    assert_true(pfit && pfrozen);
    pfit[0] = pfit[1] = 100.0;
    pfrozen[0] = pfrozen[1] = 1;
    const uint64_t pattern_pins[] = { 0xaf6ff4f161ee7402ull, 0x3e1e503150c17188ull };
    for (int bi = 0; bi < 2; bi++) {
        TexelOptions o = pattern_fit_options(pfrozen, bi ? 256 : 0, 2);
        for (int j = 2; j < pw; j++)
            pfit[j] = 0.0;
        TexelResult r;
        assert_true(texel_train(ds, NULL, pfit, &o, NULL, NULL, &r));
        print_message("turkish pattern batch %zu: 0x%016llx\n", o.batch_size, (unsigned long long)fit_hash(pfit, pw));
        assert_true(fit_hash(pfit, pw) == pattern_pins[bi]);
    }
    dataset_free(ds);
    free(pos);
    free(pfit);
    free(pfrozen);
    free(w_true);
    free(fit);
    free(frozen);
}

/* The penalty toward the start weights: a huge one keeps every weight within a step of its
 * start, none leaves them free to move, and a moderate one ends (full batch, run to
 * convergence) where the objective's gradient vanishes: data gradient + 2 reg (w - start) = 0. */
static void test_regularisation(void **state)
{
    (void)state;
    enum { F = 6, W = 2 * F, N = 5000 };
    double w_true[W], start[W], w[W], g[W];
    random_weights(81, w_true, W);
    const double K = 0.01;
    Dataset *ds = make_dataset(82, N, F, 5, LABEL_SOFT, w_true, K);
    unsigned char frozen[W] = { 1, 1 };
    TexelOptions o = texel_default_options();
    o.K = K;
    o.frozen = frozen;
    o.epochs = 200;
    o.patience = 0;
    o.threads = 2;
    naive_start(start, w_true, W);

    /* reg 0: the weights travel far (the truth is up to 150 away). */
    memcpy(w, start, sizeof w);
    assert_true(texel_train(ds, NULL, w, &o, NULL, NULL, NULL));
    double moved = 0;
    for (int j = 2; j < W; j++)
        moved = fmax(moved, fabs(w[j] - start[j]));
    assert_true(moved > 50);

    /* Huge reg: the pull wins; each weight stays within about one step (lr = 1) of its start. */
    for (int b = 0; b < 2; b++) {
        o.reg = 1e6;
        o.batch_size = b ? 1000 : 0;
        memcpy(w, start, sizeof w);
        assert_true(texel_train(ds, NULL, w, &o, NULL, NULL, NULL));
        for (int j = 0; j < W; j++)
            assert_near(w[j], start[j], 1.5 * o.learning_rate);
    }

    /* Moderate reg, full batch, decaying steps: the stationary point of loss + penalty. */
    o.reg = 5e-6;
    o.batch_size = 0;
    o.epochs = 700;
    o.learning_rate = 3.0;
    o.lr_decay = 0.99;
    memcpy(w, start, sizeof w);
    assert_true(texel_train(ds, NULL, w, &o, NULL, NULL, NULL));
    assert_true(texel_gradient(ds, w, K, g, 2));
    double gstart[W];
    assert_true(texel_gradient(ds, start, K, gstart, 2));
    for (int j = 2; j < W; j++) {
        double pull = 2 * o.reg * (w[j] - start[j]);
        if (!(fabs(g[j] + pull) < 1e-3 * fabs(gstart[j])))
            print_error("weight %d: data gradient %.6g, pull %.6g, start gradient %.6g\n", j, g[j],
                        pull, gstart[j]);
        assert_true(fabs(g[j] + pull) < 1e-3 * fabs(gstart[j]));
        assert_true(fabs(pull) > 0.05 * fabs(gstart[j])); /* the pull is real, not 0 against 0 */
    }
    dataset_free(ds);
}

/* ---- dedup ---- */

static void test_position_set(void **state)
{
    (void)state;
    const Variant *v = variant_at(0);
    enum { N = 5000 };
    Position *pos = malloc(N * sizeof *pos);
    assert_non_null(pos);
    int n = walk_positions(v, 99, pos, N);
    PositionSet set;
    assert_true(position_set_init(&set, 10)); /* small: it must grow */
    size_t distinct = 0;
    for (int i = 0; i < n; i++) {
        int before = 0; /* seen earlier? by plain comparison */
        for (int k = 0; k < i && !before; k++)
            before = position_equal(&pos[k], &pos[i]);
        int added = position_set_add(&set, &pos[i]);
        assert_int_equal(added, !before);
        distinct += !before;
    }
    assert_int_equal(set.count, distinct);
    assert_true(distinct < (size_t)n); /* the start position repeats every walk */
    /* The side to move is part of a position. */
    Position other = pos[0];
    other.side ^= 1;
    assert_int_equal(position_set_add(&set, &other), 1);
    assert_int_equal(position_set_add(&set, &other), 0);
    position_set_free(&set);
    free(pos);
}

/* ---- packed files ---- */

static void write_bytes(const char *path, const unsigned char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A file that must be refused, the reason naming the file (and `what`). */
static void assert_refused(const char *path, const char *what)
{
    char err[256] = "";
    Dataset *m = dataset_map(path, NULL, NULL, NULL, err, sizeof err);
    if (m)
        print_error("%s: mapped a file with %s\n", path, what);
    assert_null(m);
    assert_non_null(strstr(err, path));
}

/* Saved and mapped back: the same positions, terms and game ids, a view's too (its terms
 * packed again), the same fit bit for bit; nothing of its own in memory; bad files refused. */
static void test_packed_file(void **state)
{
    (void)state;
    enum { F = 300, W = 2 * F, N = 6000 };
    char dir[64], path[128], view_path[128], bad_path[128], err[256];
    assert_int_equal(test_tmpdir_make(dir, sizeof dir, "texel"), 0);
    snprintf(path, sizeof path, "%s/all.texel", dir);
    snprintf(view_path, sizeof view_path, "%s/valid.texel", dir);
    snprintf(bad_path, sizeof bad_path, "%s/bad.texel", dir);
    Dataset *ds = make_dataset(91, N, F, 12, LABEL_RANDOM, NULL, 0);
    const EvalFeatureTerm wide[3] = { { 299, 32767 }, { 0, -32768 }, { 150, -2 } }; /* escapes, back jumps */
    assert_true(dataset_add(ds, 9999, 0.25f, 3, wide, 3));
    assert_true(dataset_save(ds, path, NULL, err, sizeof err));
    Dataset *m = dataset_map(path, NULL, NULL, NULL, err, sizeof err);
    if (!m)
        print_error("%s\n", err);
    assert_non_null(m);
    assert_int_equal(m->npos, ds->npos);
    assert_int_equal(m->nterms, ds->nterms);
    assert_int_equal(m->nbytes, ds->nbytes);
    assert_int_equal(dataset_bytes(m), sizeof *m);
    for (size_t i = 0; i < ds->npos; i++) {
        EvalFeatureTerm a[EVAL_MAX_FEATURE_TERMS], b[EVAL_MAX_FEATURE_TERMS];
        int n = dataset_terms(ds, i, a);
        assert_int_equal(dataset_terms(m, i, b), n);
        assert_memory_equal(a, b, (size_t)n * sizeof *a);
        assert_true(dataset_label(&m->pos[i]) == dataset_label(&ds->pos[i]) &&
                    dataset_phase(m, &m->pos[i]) == dataset_phase(ds, &ds->pos[i]));
        assert_int_equal(m->game[i], ds->game[i]);
    }
    assert_false(dataset_add(m, 1, 0.5f, 0, wide, 1)); /* read-only */

    /* The same fit from the file as from memory. */
    double *w0 = malloc(W * sizeof *w0), *wa = malloc(W * sizeof *wa), *wb = malloc(W * sizeof *wb);
    unsigned char *frozen = calloc(W, 1);
    assert_true(w0 && wa && wb && frozen);
    random_weights(92, w0, W);
    frozen[0] = frozen[1] = 1;
    TexelOptions o = texel_default_options();
    o.frozen = frozen;
    o.epochs = 3;
    o.batch_size = 777;
    o.threads = 2;
    Dataset *tr_a, *va_a, *tr_b, *va_b;
    assert_true(dataset_split(ds, 0.2, 5, &tr_a, &va_a));
    assert_true(dataset_split(m, 0.2, 5, &tr_b, &va_b));
    memcpy(wa, w0, W * sizeof *wa);
    memcpy(wb, w0, W * sizeof *wb);
    TexelResult ra, rb;
    assert_true(texel_train(tr_a, va_a, wa, &o, NULL, NULL, &ra));
    assert_true(texel_train(tr_b, va_b, wb, &o, NULL, NULL, &rb));
    assert_true(ra.best_epoch > 0);
    assert_memory_equal(wa, wb, W * sizeof *wa);

    /* A view saves its own positions only, its terms packed contiguously. */
    assert_true(dataset_save(va_a, view_path, NULL, err, sizeof err));
    Dataset *mv = dataset_map(view_path, NULL, NULL, NULL, err, sizeof err);
    assert_non_null(mv);
    assert_int_equal(mv->npos, va_a->npos);
    assert_true(mv->nbytes < ds->nbytes / 2);
    for (size_t i = 0; i < mv->npos; i++)
        assert_true(texel_eval(mv, i, w0) == texel_eval(va_a, i, w0));
    dataset_free(mv);

    /* A tag and scores: the scores come back, the tag is checked, no temporary is left. */
    float *scores = malloc(ds->npos * sizeof *scores);
    assert_non_null(scores);
    for (size_t i = 0; i < ds->npos; i++)
        scores[i] = i % 3 ? (float)i - 50.0f : NAN;
    DatasetFileExtras extras = { .tag = "turkish pattern 7", .scores = scores };
    assert_true(dataset_save(ds, view_path, &extras, err, sizeof err));
    char tmp_path[160];
    snprintf(tmp_path, sizeof tmp_path, "%s.tmp", view_path);
    assert_int_equal(access(tmp_path, F_OK), -1);
    const float *back = NULL;
    mv = dataset_map(view_path, "turkish pattern 7", NULL, &back, err, sizeof err);
    assert_non_null(mv);
    assert_non_null(back);
    for (size_t i = 0; i < ds->npos; i++)
        assert_true(i % 3 ? back[i] == scores[i] : isnan(back[i]));
    assert_true(texel_eval(mv, ds->npos - 1, w0) == texel_eval(ds, ds->npos - 1, w0));
    dataset_free(mv);
    assert_null(dataset_map(view_path, "turkish linear 7", NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, view_path));
    assert_non_null(strstr(err, "'turkish pattern 7', not 'turkish linear 7'"));
    extras.tag = "a tag longer than thirty-one bytes";
    assert_false(dataset_save(ds, view_path, &extras, err, sizeof err));
    free(scores);

    /* Bad files: missing, cut anywhere, a wrong magic, a bad record, a term running past. */
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size_t size = (size_t)ftell(f);
    rewind(f);
    unsigned char *bytes = malloc(size);
    assert_non_null(bytes);
    assert_int_equal(fread(bytes, 1, size, f), size);
    fclose(f);
    snprintf(err, sizeof err, "%s/none.texel", dir);
    assert_refused(err, "no file");
    const size_t games = 88 + 8 * ds->npos, records = games + 8 * ds->npos;
    const size_t cuts[] = { 0, 7, 87, 88, 89, games - 1, games, records - 1, records, records + 1, size - 1 };
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        write_bytes(bad_path, bytes, cuts[i]);
        assert_refused(bad_path, "a cut");
    }
    bytes[0] ^= 1;
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "a bad magic");
    bytes[0] ^= 1;
    bytes[8]--; /* the version word (after the 8-byte magic, little-endian): 5, still read */
    write_bytes(bad_path, bytes, size);
    Dataset *five = dataset_map(bad_path, NULL, NULL, NULL, err, sizeof err);
    assert_non_null(five);
    assert_int_equal(five->npos, ds->npos);
    assert_int_equal(five->key_bytes, 0);
    dataset_free(five);
    bytes[8]--; /* 4: refused */
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "an older version");
    assert_null(dataset_map(bad_path, NULL, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "save it again")); /* it says how to remake it */
    bytes[8] += 2;
    /* Position 3's phase: its run's first byte, where its record's low 40 bits point. */
    DatasetPosition record3;
    memcpy(&record3, bytes + games + 8 * 3, sizeof record3);
    unsigned char *phase3 = bytes + records + dataset_offset(&record3), phase3_saved = *phase3;
    *phase3 = PHASE_MAX + 1;
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "a phase above phase_max");
    assert_null(dataset_map(bad_path, NULL, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "position 3")); /* the record named */
    *phase3 = phase3_saved;
    bytes[games + 8 * (ds->npos - 1) + 5]++; /* the last position's count (the high word's bits 8..): one term more */
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "a term running past the end");
    bytes[games + 8 * (ds->npos - 1) + 5]--;
    unsigned char *label_top = bytes + games + 8 * (ds->npos - 1) + 7, label_saved = *label_top;
    *label_top = 0xFF; /* its label's top 8 of 15 bits (the high word's top byte): about 1.99 */
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "a label above 1");
    *label_top = label_saved;
    /* The last run is `wide`'s, 18 bytes: its phase, its count of long terms (2), their steps (4) and
     * values (2), the short word of (150, -2) (2), escapes (8: 32767, feature 0 in full,
     * -32768).  Its first step made the escape mark wants 4 bytes more than the file has;
     * its second value byte made 5, one word fewer; a count of long terms above its 3 terms
     * is refused. */
    assert_int_equal(bytes[size - 17], 2);
    unsigned char *count_byte = bytes + size - 17;
    *count_byte = 4;
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "more long terms than terms");
    *count_byte = 2;
    unsigned char *last_step = bytes + size - 17 + 1, saved[2] = { last_step[0], last_step[1] };
    last_step[0] = last_step[1] = 0xFF;
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "escapes running past the end");
    last_step[0] = saved[0];
    last_step[1] = saved[1];
    unsigned char *second_value = bytes + size - 17 + 6, value_saved = *second_value;
    *second_value = 5;
    write_bytes(bad_path, bytes, size);
    assert_refused(bad_path, "a run shorter than the terms");
    *second_value = value_saved;
    write_bytes(bad_path, bytes, size);
    Dataset *again = dataset_map(bad_path, NULL, NULL, NULL, err, sizeof err); /* repaired: mapped again */
    assert_non_null(again);
    dataset_free(again);

    free(bytes);
    dataset_free(tr_a);
    dataset_free(va_a);
    dataset_free(tr_b);
    dataset_free(va_b);
    dataset_free(m);
    dataset_free(ds);
    free(w0);
    free(wa);
    free(wb);
    free(frozen);
    assert_int_equal(test_tmpdir_remove(dir), 0);
}

/* Sorts occurrences as (state, sign) keys, for comparing two readings as multisets. */
static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int occurrence_keys(const int32_t *state, const int8_t *sign, int n, int64_t *out)
{
    for (int j = 0; j < n; j++)
        out[j] = 2 * (int64_t)state[j] + (sign[j] > 0);
    qsort(out, (size_t)n, sizeof *out, compare_int64);
    return n;
}

/* dataset_terms of a keyed position merged as eval_features merges: summed per feature,
 * zeros dropped, ascending. */
static int merged_terms(const Dataset *ds, size_t i, EvalFeatureTerm *out)
{
    EvalFeatureTerm t[EVAL_MAX_FEATURE_TERMS];
    int n = dataset_terms(ds, i, t), m = 0;
    int64_t keys[EVAL_MAX_FEATURE_TERMS];
    for (int j = 0; j < n; j++) /* feature << 32 | value + 2^31: by feature, then value */
        keys[j] = (int64_t)t[j].feature << 32 | (int64_t)((uint32_t)t[j].value ^ 0x80000000u);
    qsort(keys, (size_t)n, sizeof *keys, compare_int64);
    for (int j = 0; j < n;) {
        int32_t f = (int32_t)(keys[j] >> 32), value = 0;
        for (; j < n && (int32_t)(keys[j] >> 32) == f; j++)
            value += (int32_t)((uint32_t)keys[j] ^ 0x80000000u);
        if (value)
            out[m++] = (EvalFeatureTerm){ f, value };
    }
    return m;
}

/* A keyed dataset (dataset.h), Turkish and International: the occurrences read again from
 * a 16-byte key are, merged, those eval_features writes (patterns(), Turkish's read square
 * by square); the same positions stored as terms and as keys give the same sums, loss and
 * fit (but for the last bits, the sums' order moving) in under 100 bytes; a packed file
 * keeps the keys and is refused without the evaluation that reads them; any key reads in
 * bounds; misuse refused. */
static void keyed_dataset_checks(const char *game, const char *other_game)
{
    enum { N = 4000 };
    const Variant *v = variant_by_name(game);
    const EvalSpec *spec = v->pattern_eval;
    assert_int_equal(spec->pattern_key_bytes, 16);
    Position *pos = malloc(N * sizeof *pos);
    assert_non_null(pos);
    const int n = walk_positions(v, 4242, pos, N);
    const int nf = eval_spec_features(spec);
    Dataset *terms = dataset_new(nf, spec->phase_max), *keyed = dataset_new(nf, spec->phase_max);
    assert_true(terms && keyed);
    assert_false(dataset_use_keys(keyed, v->eval)); /* a linear spec has no key */
    Dataset *other = dataset_new(nf + 1, spec->phase_max);
    assert_false(dataset_use_keys(other, spec)); /* not the spec's features */
    dataset_free(other);
    assert_true(dataset_use_keys(keyed, spec));
    uint64_t s = 31;
    for (int i = 0; i < n; i++) {
        EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
        int phase, k = eval_features(spec, &pos[i], f, &phase), linear = 0;
        while (linear < k && f[linear].feature < spec->nfeatures)
            linear++;
        uint8_t key[EVAL_MAX_PATTERN_KEY];
        spec->pattern_key(&pos[i], key);
        float label = (float)rnd_int(&s, 0, 2) * 0.5f;
        assert_true(dataset_add(terms, i / 40, label, phase, f, k));
        if (i == 0) {
            assert_false(dataset_add(keyed, 0, label, phase, f, linear)); /* a keyed one wants keys */
            assert_false(dataset_add_keyed(terms, 0, label, phase, f, linear, key));
            assert_false(dataset_add_keyed(keyed, 0, label, phase, f, linear, NULL));
        }
        assert_true(dataset_add_keyed(keyed, i / 40, label, phase, f, linear, key));

        /* The key's occurrences, summed per state, are eval_features'; no state is left
         * with both signs. */
        int32_t sb[EVAL_MAX_PATTERN_TERMS];
        int8_t gb[EVAL_MAX_PATTERN_TERMS];
        int64_t kb[EVAL_MAX_PATTERN_TERMS];
        int nb = occurrence_keys(sb, gb, spec->key_patterns(key, sb, gb), kb);
        for (int j = 1; j < nb; j++)
            assert_false(kb[j] / 2 == kb[j - 1] / 2 && kb[j] != kb[j - 1]);
        EvalFeatureTerm got[EVAL_MAX_FEATURE_TERMS];
        assert_int_equal(merged_terms(keyed, (size_t)i, got), k);
        assert_memory_equal(got, f, (size_t)k * sizeof *f);
    }
    const double bytes_terms = (double)(sizeof *terms->pos * terms->npos + terms->nbytes) / n,
                 bytes_keyed = (double)(sizeof *keyed->pos * keyed->npos + keyed->nbytes) / n;
    printf("%s pattern: %.1f bytes a position as terms, %.1f keyed\n", game, bytes_terms, bytes_keyed);
    assert_true(bytes_keyed < 100.0);

    /* The model's sums and the loss, position by position. */
    const int nw = 2 * nf;
    double *w = malloc((size_t)nw * sizeof *w), *fa = malloc((size_t)nw * sizeof *fa),
           *fb = malloc((size_t)nw * sizeof *fb), *fc = malloc((size_t)nw * sizeof *fc);
    unsigned char *frozen = calloc((size_t)nw, 1);
    assert_true(w && fa && fb && fc && frozen);
    random_weights(33, w, nw);
    for (int i = 0; i < n; i++) {
        double a = texel_eval(terms, (size_t)i, w);
        assert_near(texel_eval(keyed, (size_t)i, w), a, 1e-9 * (1.0 + fabs(a)));
    }
    const double loss = texel_loss(terms, w, 0.004, 2);
    assert_near(texel_loss(keyed, w, 0.004, 2), loss, 1e-12 * loss);

    /* A fit of each, full batch and mini-batches: the same weights but for the last bits;
     * the keyed fit the same bits on one thread and two. */
    frozen[0] = frozen[1] = 1;
    for (int bi = 0; bi < 2; bi++) {
        double *fits[3] = { fa, fb, fc };
        const Dataset *sets[3] = { terms, keyed, keyed };
        for (int r = 0; r < 3; r++) {
            TexelOptions o = pattern_fit_options(frozen, bi ? 256 : 0, r == 2 ? 1 : 2);
            for (int j = 0; j < nw; j++)
                fits[r][j] = j < 2 ? 100.0 : 0.0;
            TexelResult res;
            assert_true(texel_train(sets[r], NULL, fits[r], &o, NULL, NULL, &res));
        }
        double most = 0;
        for (int j = 0; j < nw; j++)
            most = fmax(most, fabs(fa[j] - fb[j]));
        print_message("batch %d: largest difference %.3g\n", bi ? 256 : 0, most);
        assert_true(most < 1e-6);
        assert_memory_equal(fb, fc, (size_t)nw * sizeof *fb);
    }

    /* A packed file keeps the keys; it needs the spec that reads them. */
    char dir[64], path[128], err[256];
    assert_int_equal(test_tmpdir_make(dir, sizeof dir, "keyed"), 0);
    snprintf(path, sizeof path, "%s/keyed.texel", dir);
    assert_true(dataset_save(keyed, path, NULL, err, sizeof err));
    assert_null(dataset_map(path, NULL, NULL, NULL, err, sizeof err));
    assert_non_null(strstr(err, "pattern keys"));
    assert_non_null(strstr(err, path));
    assert_null(dataset_map(path, NULL, variant_by_name(other_game)->pattern_eval, NULL, err, sizeof err));
    Dataset *m = dataset_map(path, NULL, spec, NULL, err, sizeof err);
    assert_non_null(m);
    assert_int_equal(m->npos, keyed->npos);
    assert_int_equal(m->nbytes, keyed->nbytes);
    assert_true(texel_loss(m, w, 0.004, 2) == texel_loss(keyed, w, 0.004, 2));
    Dataset *tr, *va;
    assert_true(dataset_split(m, 0.2, 3, &tr, &va));
    assert_true(tr->key_spec == spec && va->key_spec == spec);
    dataset_free(tr);
    dataset_free(va);
    dataset_free(m);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char *bytes = malloc(8u << 20);
    assert_non_null(bytes);
    size_t size = fread(bytes, 1, 8u << 20, f);
    fclose(f);
    assert_true(size > 88 && size < (8u << 20));
    write_bytes(path, bytes, size - 1); /* the last key cut short */
    assert_null(dataset_map(path, NULL, spec, NULL, err, sizeof err));
    assert_non_null(strstr(err, path));
    bytes[52] = EVAL_MAX_PATTERN_KEY + 1; /* the header's key size (the word before the tag) */
    write_bytes(path, bytes, size);
    assert_null(dataset_map(path, NULL, spec, NULL, err, sizeof err));
    assert_non_null(strstr(err, "key size"));

    /* A keyed file whose position has more linear terms than a spec has features: its key's
     * occurrences would overrun the kernels' buffers.  Made from an unkeyed file of one
     * position of 300 terms, its header given a key size and the key appended. */
    Dataset *wide = dataset_new(nf, spec->phase_max);
    assert_non_null(wide);
    EvalFeatureTerm many[300];
    for (int j = 0; j < 300; j++)
        many[j] = (EvalFeatureTerm){ j, 1 };
    assert_true(dataset_add(wide, 1, 0.5f, 1, many, 300));
    assert_true(dataset_save(wide, path, NULL, err, sizeof err));
    dataset_free(wide);
    f = fopen(path, "rb");
    assert_non_null(f);
    size = fread(bytes, 1, 8u << 20, f);
    fclose(f);
    uint64_t nbytes;
    memcpy(&nbytes, bytes + 40, sizeof nbytes); /* the header's term bytes */
    nbytes += 16;
    memcpy(bytes + 40, &nbytes, sizeof nbytes);
    bytes[52] = 16;
    memset(bytes + size, 0, 16);
    write_bytes(path, bytes, size + 16);
    assert_null(dataset_map(path, NULL, spec, NULL, err, sizeof err));
    assert_non_null(strstr(err, "position 0"));
    free(bytes);
    assert_int_equal(test_tmpdir_remove(dir), 0);

    /* Any 16 bytes read in bounds: both sides' men on one square count as the mover's. */
    for (int t = 0; t < 20000; t++) {
        uint8_t key[16];
        for (int b = 0; b < 16; b++)
            key[b] = (uint8_t)rnd(&s);
        int32_t st[EVAL_MAX_PATTERN_TERMS];
        int8_t sg[EVAL_MAX_PATTERN_TERMS];
        int k = spec->key_patterns(key, st, sg);
        assert_true(k >= 0 && k <= spec->max_pattern_terms);
        for (int j = 0; j < k; j++)
            assert_true(st[j] >= 0 && st[j] < spec->npattern_states && (sg[j] == 1 || sg[j] == -1));
    }
    assert_false(dataset_use_keys(keyed, spec)); /* it holds positions */
    dataset_free(terms);
    dataset_free(keyed);
    free(pos);
    free(w);
    free(fa);
    free(fb);
    free(fc);
    free(frozen);
}

static void test_keyed_dataset(void **state)
{
    (void)state;
    keyed_dataset_checks("turkish", "international");
    keyed_dataset_checks("international", "turkish");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dataset_add),
        cmocka_unit_test(test_short_terms_by_hand),
        cmocka_unit_test(test_terms_round_trip),
        cmocka_unit_test(test_gradient_of_short_terms),
        cmocka_unit_test(test_dataset_stores_eval_features),
        cmocka_unit_test(test_eval_loss_by_hand),
        cmocka_unit_test(test_gradient_finite_differences),
        cmocka_unit_test(test_batch_gradient_is_sparse),
        cmocka_unit_test(test_fit_k),
        cmocka_unit_test(test_split_by_game),
        cmocka_unit_test(test_recovery),
        cmocka_unit_test(test_recovery_sampled),
        cmocka_unit_test(test_train_stops_and_options),
        cmocka_unit_test(test_same_bits_on_any_team),
        cmocka_unit_test(test_fit_bits_as_before),
        cmocka_unit_test(test_regularisation),
        cmocka_unit_test(test_position_set),
        cmocka_unit_test(test_packed_file),
        cmocka_unit_test(test_keyed_dataset),
    };
    if (getenv("TEXEL_FILTER")) /* one test by name, while working on it */
        cmocka_set_test_filter(getenv("TEXEL_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
