/* Texel fit: loss, sparse gradient, K search and lazy Adam, parallel over positions with
 * OpenMP. */
#include "texel.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

double texel_sigmoid(double K, double eval)
{
    double x = K * eval;
    /* exp of a large positive number is inf and 1 / inf is 0: exact, but keep the FP
     * overflow flag quiet by saturating where double precision already has. */
    if (x < -745.0)
        return 0.0;
    return 1.0 / (1.0 + exp(-x));
}

/* The kernels' unpacking of a run (dataset.h): features into f, values into v as doubles,
 * a short term's from a table of its four codes (no conversion on the way to the sums), a
 * keyed dataset's occurrences read again from the key after the terms.  Returns the number
 * of terms written. */
static inline int unpack_terms(const Dataset *ds, const uint8_t *run, int n, uint32_t *restrict f,
                               double *restrict v)
{
    static const double code_value[4] = { 1.0, -1.0, 2.0, -2.0 };
    const int nl = dataset_long_terms(run, n);
    const uint8_t *b = run + 2, *s = b + 3 * (size_t)nl, *e = s + 2 * (size_t)(n - nl);
    uint32_t feature = 0;
    for (int j = 0; j < nl; j++) {
        v[j] = dataset_term(b, nl, j, &e, &feature);
        f[j] = feature;
    }
    for (int j = nl; j < n; j++) {
        uint32_t w = dataset_word(s + 2 * (size_t)(j - nl));
        feature += w >> 2;
        f[j] = feature;
        v[j] = code_value[w & 3];
    }
    if (!ds->key_spec)
        return n;
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    const int k = dataset_key_terms(ds, e, f + n, sign);
    for (int j = 0; j < k; j++)
        v[n + j] = sign[j];
    return n + k;
}

/* A feature's MG and EG weight (or gradient) side by side, added and scaled as one: the
 * same operations as two doubles, half the instructions (GCC and Clang vector types; no
 * contraction into fused multiply-adds under -std=c11, so the sums are the scalar code's). */
typedef double Pair __attribute__((vector_size(16)));

static inline Pair load_pair(const double *p)
{
    Pair x;
    memcpy(&x, p, sizeof x);
    return x;
}

static inline void store_pair(double *p, Pair x)
{
    memcpy(p, &x, sizeof x);
}

/* eval of one position from its unpacked terms.  Feature j's MG and EG weights are
 * w[stride j] and w[stride j + 1] (stride 2: the weights as given; 4: a gradient thread's
 * copy, its sums beside them).  Two accumulators break the add latency chain (the
 * compiler may not reorder FP adds); the order is fixed, so results are too. */
static inline double terms_eval(const Dataset *ds, int n, int phase, const double *w, size_t stride,
                                const uint32_t *restrict f, const double *restrict v)
{
    Pair s0 = { 0, 0 }, s1 = { 0, 0 };
    int j = 0;
    for (; j + 2 <= n; j += 2) {
        s0 += load_pair(w + stride * f[j]) * v[j];
        s1 += load_pair(w + stride * f[j + 1]) * v[j + 1];
    }
    if (j < n)
        s0 += load_pair(w + stride * f[j]) * v[j];
    const int mg = phase, eg = ds->phase_max - mg;
    return ((s0[0] + s1[0]) * mg + (s0[1] + s1[1]) * eg) / ds->phase_max;
}

static inline double position_eval(const Dataset *ds, const DatasetPosition *p, const double *w)
{
    uint32_t f[EVAL_MAX_FEATURE_TERMS];
    double v[EVAL_MAX_FEATURE_TERMS];
    const uint8_t *run = dataset_run(ds, p);
    const int n = unpack_terms(ds, run, dataset_count(p), f, v);
    return terms_eval(ds, n, dataset_run_phase(run), w, 2, f, v);
}

double texel_eval(const Dataset *ds, size_t i, const double *w)
{
    return position_eval(ds, &ds->pos[i], w);
}

/* Positions are cut into a number of contiguous blocks that depends on the count only,
 * never on the threads; each block sums into its own buffers and the blocks are added in
 * block order.  So every result is the same bit for bit on 1 or 64 threads.  A gradient
 * block is larger than a loss block: each gradient block's touched list is merged serially,
 * so fewer, longer blocks keep that merge small next to the kernel. */
enum { MAX_BLOCKS = 64, LOSS_BLOCK_MIN = 512, GRAD_BLOCK_MIN = 4096 };

static int block_count(size_t n, size_t block_min)
{
    size_t b = n / block_min;
    return b < 1 ? 1 : b > MAX_BLOCKS ? MAX_BLOCKS : (int)b;
}

static size_t block_begin(size_t n, int block, int blocks)
{
    return n * (size_t)block / (size_t)blocks;
}

static int resolve_threads(int threads)
{
    return threads > 0 ? threads : omp_get_max_threads();
}

/* Threads for a pass over n positions in `blocks` blocks: one when the pass is too small to
 * repay waking a team (the blocks then run one after the other: the same sums). */
enum { PARALLEL_MIN = 8192 };

static int team_size(int threads, int blocks, size_t n)
{
    threads = resolve_threads(threads);
    return n < PARALLEL_MIN ? 1 : threads < blocks ? threads : blocks;
}

/* Sum of squared errors of positions order[begin .. end) (begin .. end without order). */
static double block_sse(const Dataset *ds, const size_t *order, size_t begin, size_t end,
                        const double *w, double K)
{
    double sse = 0;
    for (size_t k = begin; k < end; k++) {
        const DatasetPosition *p = &ds->pos[order ? order[k] : k];
        double d = texel_sigmoid(K, position_eval(ds, p, w)) - dataset_label(p);
        sse += d * d;
    }
    return sse;
}

static double sse_of(const Dataset *ds, const double *w, double K, int threads)
{
    const size_t n = ds->npos;
    const int blocks = block_count(n, LOSS_BLOCK_MIN), team = team_size(threads, blocks, n);
    double partial[MAX_BLOCKS];
#pragma omp parallel for schedule(static) num_threads(team) if (team > 1)
    for (int b = 0; b < blocks; b++)
        partial[b] = block_sse(ds, NULL, block_begin(n, b, blocks), block_begin(n, b + 1, blocks), w, K);
    double sse = 0;
    for (int b = 0; b < blocks; b++)
        sse += partial[b];
    return sse;
}

double texel_loss(const Dataset *ds, const double *w, double K, int threads)
{
    return ds->npos ? sse_of(ds, w, K, threads) / (double)ds->npos : 0.0;
}

/* ---- The sparse gradient ---- */

/* One thread's copy of the weights with its dense accumulator beside them: feature f's MG
 * and EG weights at wa[4f], wa[4f + 1] and its sums at wa[4f + 2], wa[4f + 3], so the line a
 * term's weights bring into the cache is the one its sums go to (the weights and sums of a
 * pattern evaluation are megabytes, read at random: one cache miss a term instead of two).
 * The sums are kept all zero between blocks: a block clears what it wrote through its
 * touched list, so clearing costs what the block touched. */
typedef struct Scratch {
    double *wa;    /* 4 per feature */
    uint8_t *seen; /* 1 per feature */
} Scratch;

/* One block's result: the features it touched (first touch order) and their MG, EG sums. */
typedef struct BlockOut {
    uint32_t *feature;
    double *value; /* 2 per listed feature */
    size_t len, cap;
} BlockOut;

struct TexelBatchGradient {
    int num_features, threads;
    Scratch scratch[MAX_BLOCKS]; /* one per thread of the team (at most one per block) */
    BlockOut out[MAX_BLOCKS];
    double partial[MAX_BLOCKS];
    double *grad;       /* 2 per feature: the batch's gradient, valid for touched features */
    uint8_t *seen;      /* 1 per feature, all zero between calls */
    uint32_t *touched;  /* the batch's touched features */
};

/* Zeroed bytes starting on a cache line: malloc's 16-byte alignment would put half the
 * features' 32 bytes (weights and sums) across two lines, two misses a term instead of one. */
static void *zeroed_lines(size_t bytes)
{
    enum { LINE = 64 };
    size_t rounded = (bytes + LINE - 1) / LINE * LINE;
    void *p = aligned_alloc(LINE, rounded ? rounded : LINE);
    if (p)
        memset(p, 0, rounded);
    return p;
}

TexelBatchGradient *texel_batch_gradient_new(const Dataset *ds, int threads)
{
    TexelBatchGradient *bg = calloc(1, sizeof *bg);
    if (!bg)
        return NULL;
    const size_t nf = (size_t)ds->num_features;
    bg->num_features = ds->num_features;
    bg->threads = team_size(threads, MAX_BLOCKS, PARALLEL_MIN);
    bg->grad = malloc(2 * nf * sizeof *bg->grad);
    bg->seen = calloc(nf, 1);
    bg->touched = malloc(nf * sizeof *bg->touched);
    bool ok = bg->grad && bg->seen && bg->touched;
    for (int t = 0; ok && t < bg->threads; t++) {
        bg->scratch[t].wa = zeroed_lines(4 * nf * sizeof *bg->scratch[t].wa);
        bg->scratch[t].seen = calloc(nf, 1);
        ok = bg->scratch[t].wa && bg->scratch[t].seen;
    }
    if (!ok) {
        texel_batch_gradient_free(bg);
        return NULL;
    }
    return bg;
}

void texel_batch_gradient_free(TexelBatchGradient *bg)
{
    if (!bg)
        return;
    for (int t = 0; t < MAX_BLOCKS; t++) {
        free(bg->scratch[t].wa);
        free(bg->scratch[t].seen);
        free(bg->out[t].feature);
        free(bg->out[t].value);
    }
    free(bg->grad);
    free(bg->seen);
    free(bg->touched);
    free(bg);
}

/* Room in a block's list for every feature it can touch: no allocation in the parallel part. */
static bool block_out_reserve(BlockOut *o, size_t need)
{
    if (need <= o->cap)
        return true;
    uint32_t *f = realloc(o->feature, need * sizeof *f);
    if (f)
        o->feature = f;
    double *v = f ? realloc(o->value, 2 * need * sizeof *v) : NULL;
    if (v)
        o->value = v;
    if (!f || !v)
        return false;
    o->cap = need;
    return true;
}

/* How far ahead a mini-batch's kernel prefetches the records and then the terms of the
 * positions it reads out of order (a full batch streams them and needs no help): the
 * record first, so that the terms' address is in the cache when their turn comes. */
enum { PREFETCH_RECORD_AHEAD = 16, PREFETCH_TERMS_AHEAD = 6 };

/* The first lines of a mini-batch position's run: at most 3 bytes a term and two bytes,
 * a few escapes, its key. */
static inline void prefetch_terms(const Dataset *ds, const uint8_t *terms, const DatasetPosition *p)
{
    const uint8_t *b = terms + dataset_offset(p);
    for (size_t line = 0; line < 2 + 3 * (size_t)dataset_count(p) + (size_t)ds->key_bytes; line += 64)
        __builtin_prefetch(b + line);
}

/* One block: its squared errors, and gscale * (p - y) p (1 - p) * coef summed per touched
 * feature into the thread's accumulator, then moved into the block's list.  Local restrict
 * pointers: the byte flags would otherwise alias everything and force reloads. */
static double block_gradient(const Dataset *ds, const size_t *order, size_t begin, size_t end,
                             double K, double gscale, Scratch *s, BlockOut *o)
{
    const double inv_pm = 1.0 / ds->phase_max;
    const int pm = ds->phase_max;
    const DatasetPosition *restrict pos = ds->pos;
    const uint8_t *restrict terms = ds->terms;
    double *restrict wa = s->wa;
    uint8_t *restrict seen = s->seen;
    uint32_t *restrict list = o->feature;
    uint32_t f[EVAL_MAX_FEATURE_TERMS]; /* the position's terms: the eval and the sums read them */
    double v[EVAL_MAX_FEATURE_TERMS];
    double sse = 0;
    size_t len = 0;
    for (size_t k = begin; k < end; k++) {
        if (order && k + PREFETCH_RECORD_AHEAD < end)
            __builtin_prefetch(&pos[order[k + PREFETCH_RECORD_AHEAD]]);
        if (order && k + PREFETCH_TERMS_AHEAD < end)
            prefetch_terms(ds, terms, &pos[order[k + PREFETCH_TERMS_AHEAD]]);
        const DatasetPosition *p = &pos[order ? order[k] : k];
        const uint8_t *run = terms + dataset_offset(p);
        const int phase = dataset_run_phase(run);
        const int n = unpack_terms(ds, run, dataset_count(p), f, v);
        double prob = texel_sigmoid(K, terms_eval(ds, n, phase, wa, 4, f, v));
        double d = prob - dataset_label(p);
        sse += d * d;
        double g = gscale * d * prob * (1.0 - prob);
        const Pair gp = { g * phase * inv_pm, g * (pm - phase) * inv_pm };
        for (int j = 0; j < n; j++) {
            uint32_t fj = f[j];
            if (!seen[fj]) {
                seen[fj] = 1;
                list[len++] = fj;
            }
            double *sum = wa + 4 * (size_t)fj + 2;
            store_pair(sum, load_pair(sum) + gp * v[j]);
        }
    }
    double *restrict out = o->value;
    for (size_t i = 0; i < len; i++) {
        size_t fj = list[i];
        out[2 * i] = wa[4 * fj + 2];
        out[2 * i + 1] = wa[4 * fj + 3];
        wa[4 * fj + 2] = wa[4 * fj + 3] = 0.0;
        seen[fj] = 0;
    }
    o->len = len;
    return sse;
}

/* Adds the blocks' sums of features lo .. hi - 1 into grad in block order and lists the
 * features touched at out (first touch order; ascending when many, so the update walks
 * its arrays forwards instead of jumping about); returns their number.  Leaves the seen
 * flags of the range all zero. */
static size_t merge_range(TexelBatchGradient *bg, int blocks, size_t lo, size_t hi, uint32_t *out)
{
    uint8_t *restrict seen = bg->seen;
    double *restrict grad = bg->grad;
    size_t nt = 0;
    for (int b = 0; b < blocks; b++) {
        const BlockOut *o = &bg->out[b];
        for (size_t i = 0; i < o->len; i++) {
            size_t f = o->feature[i];
            if (f < lo || f >= hi)
                continue;
            if (!seen[f]) {
                seen[f] = 1;
                out[nt++] = (uint32_t)f;
                grad[2 * f] = o->value[2 * i];
                grad[2 * f + 1] = o->value[2 * i + 1];
            } else {
                grad[2 * f] += o->value[2 * i];
                grad[2 * f + 1] += o->value[2 * i + 1];
            }
        }
    }
    if (nt > (hi - lo) / 16) { /* many: list them again by one scan of the flags */
        nt = 0;
        for (size_t f = lo; f < hi; f++)
            if (seen[f]) {
                seen[f] = 0;
                out[nt++] = (uint32_t)f;
            }
    } else {
        for (size_t i = 0; i < nt; i++)
            seen[out[i]] = 0;
    }
    return nt;
}

/* Copies w into every thread's copy, one copy a thread. */
static void copy_weights(TexelBatchGradient *bg, const double *w)
{
#pragma omp parallel num_threads(bg->threads) if (bg->threads > 1)
    for (int c = omp_get_thread_num(); c < bg->threads; c += omp_get_num_threads()) {
        double *restrict wa = bg->scratch[c].wa;
        for (size_t f = 0; f < (size_t)bg->num_features; f++) {
            wa[4 * f] = w[2 * f];
            wa[4 * f + 1] = w[2 * f + 1];
        }
    }
}

/* texel_batch_gradient; synced: the threads' copies already hold w (texel_train keeps them
 * so: it updates them with the weights it changes, instead of copying every weight each
 * step, which would cost a mini-batch of a large pattern evaluation more than its terms). */
static bool batch_gradient(TexelBatchGradient *bg, const Dataset *ds, const size_t *order, size_t n,
                           const double *w, bool synced, double K, double *sse, const uint32_t **touched,
                           size_t *ntouched, const double **grad)
{
    *touched = bg->touched;
    *grad = bg->grad;
    *ntouched = 0;
    *sse = 0;
    if (n == 0)
        return true;
    const int blocks = block_count(n, GRAD_BLOCK_MIN);
    const int team = n < PARALLEL_MIN ? 1 : bg->threads < blocks ? bg->threads : blocks;
    const double gscale = 2.0 * K / (double)n;

    /* Step 1: each block's list sized to its terms (or every feature), serially. */
    const size_t key_terms = ds->key_spec ? (size_t)ds->key_spec->max_pattern_terms : 0;
    for (int b = 0; b < blocks; b++) {
        size_t terms = 0, end = block_begin(n, b + 1, blocks);
        for (size_t k = block_begin(n, b, blocks); k < end; k++)
            terms += (size_t)dataset_count(&ds->pos[order ? order[k] : k]) + key_terms;
        if (!block_out_reserve(&bg->out[b], terms < (size_t)bg->num_features ? terms : (size_t)bg->num_features))
            return false;
    }

    /* Step 2: the blocks, in parallel, each through its thread's copy of the weights. */
    if (!synced)
        copy_weights(bg, w);
#pragma omp parallel for schedule(static) num_threads(team) if (team > 1)
    for (int b = 0; b < blocks; b++)
        bg->partial[b] = block_gradient(ds, order, block_begin(n, b, blocks), block_begin(n, b + 1, blocks),
                                        K, gscale, &bg->scratch[omp_get_thread_num()], &bg->out[b]);

    /* Step 3: merge the lists in block order (the same sums on any team), each thread the
     * features of its own range: it reads every list and keeps its range's entries. */
    double total = 0;
    for (int b = 0; b < blocks; b++)
        total += bg->partial[b];
    size_t count[MAX_BLOCKS];
    int ranges = 1; /* the team the system gave, which may be smaller than asked */
#pragma omp parallel num_threads(team) if (team > 1)
    {
        const int t = omp_get_thread_num(), nth = omp_get_num_threads();
        if (t == 0)
            ranges = nth;
        const size_t nf = (size_t)bg->num_features;
        const size_t lo = nf * (size_t)t / (size_t)nth, hi = nf * (size_t)(t + 1) / (size_t)nth;
        count[t] = merge_range(bg, blocks, lo, hi, bg->touched + lo);
    }
    size_t nt = 0;
    for (int t = 0; t < ranges; t++) { /* the ranges' lists, one after the other */
        const size_t lo = (size_t)bg->num_features * (size_t)t / (size_t)ranges;
        memmove(bg->touched + nt, bg->touched + lo, count[t] * sizeof *bg->touched);
        nt += count[t];
    }
    *ntouched = nt;
    *sse = total;
    return true;
}

bool texel_batch_gradient(TexelBatchGradient *bg, const Dataset *ds, const size_t *order, size_t n,
                          const double *w, double K, double *sse, const uint32_t **touched,
                          size_t *ntouched, const double **grad)
{
    return batch_gradient(bg, ds, order, n, w, false, K, sse, touched, ntouched, grad);
}

bool texel_gradient(const Dataset *ds, const double *w, double K, double *grad, int threads)
{
    memset(grad, 0, (size_t)ds->num_weights * sizeof *grad);
    if (ds->npos == 0)
        return true;
    TexelBatchGradient *bg = texel_batch_gradient_new(ds, threads);
    const uint32_t *touched;
    const double *g;
    size_t nt;
    double sse;
    bool ok = bg && texel_batch_gradient(bg, ds, NULL, ds->npos, w, K, &sse, &touched, &nt, &g);
    for (size_t i = 0; ok && i < nt; i++) {
        grad[2 * (size_t)touched[i]] = g[2 * (size_t)touched[i]];
        grad[2 * (size_t)touched[i] + 1] = g[2 * (size_t)touched[i] + 1];
    }
    texel_batch_gradient_free(bg);
    return ok;
}

/* ---- K search: evals do not depend on K, so compute them once. ---- */

/* Mean loss over precomputed evals, in the same fixed blocks as the loss. */
static double loss_of_k(const double *eval, const float *label, size_t n, double K, int threads)
{
    double partial[MAX_BLOCKS];
    const int blocks = block_count(n, LOSS_BLOCK_MIN), team = team_size(threads, blocks, n);
#pragma omp parallel for schedule(static) num_threads(team) if (team > 1)
    for (int b = 0; b < blocks; b++) {
        double s = 0;
        for (size_t i = block_begin(n, b, blocks); i < block_begin(n, b + 1, blocks); i++) {
            double d = texel_sigmoid(K, eval[i]) - label[i];
            s += d * d;
        }
        partial[b] = s;
    }
    double sse = 0;
    for (int b = 0; b < blocks; b++)
        sse += partial[b];
    return sse / (double)n;
}
double texel_fit_k(const Dataset *ds, const double *w, int threads)
{
    const size_t n = ds->npos;
    if (n == 0)
        return 0.0;
    threads = resolve_threads(threads);
    double *eval = malloc(n * sizeof *eval);
    float *label = malloc(n * sizeof *label);
    if (!eval || !label) {
        free(eval);
        free(label);
        return 0.0;
    }
#pragma omp parallel for schedule(static) num_threads(threads)
    for (size_t i = 0; i < n; i++) {
        eval[i] = texel_eval(ds, i, w);
        label[i] = (float)dataset_label(&ds->pos[i]);
    }

    /* Step 1: grid K = 2^e, e = -30 .. 10; the first of equal minima wins. */
    enum { EMIN = -30, EMAX = 10 };
    int best_e = EMIN;
    double best_loss = INFINITY;
    for (int e = EMIN; e <= EMAX; e++) {
        double l = loss_of_k(eval, label, n, ldexp(1.0, e), threads);
        if (l < best_loss) {
            best_loss = l;
            best_e = e;
        }
    }
    double best_k = ldexp(1.0, best_e);

    /* Step 2: golden section on the neighbours of the best grid point (the loss is
     * unimodal there in practice); keep the grid point if the search does no better. */
    const double invphi = 0.6180339887498949;
    double a = best_e > EMIN ? ldexp(1.0, best_e - 1) : 0.0;
    double b = ldexp(1.0, best_e + 1);
    double c = b - invphi * (b - a), d = a + invphi * (b - a);
    double lc = loss_of_k(eval, label, n, c, threads);
    double ld = loss_of_k(eval, label, n, d, threads);
    for (int it = 0; it < 200 && b - a > 1e-13 * b; it++) {
        if (lc <= ld) {
            b = d;
            d = c;
            ld = lc;
            c = b - invphi * (b - a);
            lc = loss_of_k(eval, label, n, c, threads);
        } else {
            a = c;
            c = d;
            lc = ld;
            d = a + invphi * (b - a);
            ld = loss_of_k(eval, label, n, d, threads);
        }
    }
    double k = lc <= ld ? c : d, lk = lc <= ld ? lc : ld;
    if (k > 0 && lk <= best_loss)
        best_k = k;

    free(eval);
    free(label);
    return best_k;
}

/* ---- Lazy Adam ---- */

TexelOptions texel_default_options(void)
{
    return (TexelOptions){
        .epochs = 1000,
        .learning_rate = 1.0,
        .lr_decay = 1.0,
        .batch_size = 0,
        .beta1 = 0.9,
        .beta2 = 0.999,
        .epsilon = 1e-10,
        .reg = 0.0,
        .patience = 50,
        .threads = 0,
        .K = 0.0,
        .frozen = NULL,
        .seed = 1,
    };
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t x = (*state += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Fisher-Yates with a seeded generator: the same batches on every run. */
static void shuffle(size_t *order, size_t n, uint64_t *state)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(next_random(state) % i);
        size_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
}

static bool options_valid(const Dataset *train, const Dataset *valid, const double *w,
                          const TexelOptions *o)
{
    if (!train || !w || !o || !o->frozen || o->epochs < 0 || o->patience < 0 ||
        !(o->learning_rate > 0) || !(o->lr_decay > 0) || !(o->beta1 >= 0 && o->beta1 < 1) ||
        !(o->beta2 >= 0 && o->beta2 < 1) || !(o->epsilon > 0) || !isfinite(o->K) ||
        !(o->reg >= 0 && isfinite(o->reg)))
        return false;
    if (valid && (valid->num_features != train->num_features || valid->phase_max != train->phase_max))
        return false;
    for (int j = 0; j < train->num_weights; j++)
        if (o->frozen[j])
            return true;
    return false; /* nothing anchors the scale */
}

/* beta1^t and beta2^t for t = 0 .. len - 1, by repeated products as plain Adam keeps them
 * (so a full batch gives plain Adam's bits); grown as the steps go.  Once both have
 * underflowed to 0 the table stops growing: later t read 0. */
typedef struct BetaPowers {
    double *p1, *p2;
    size_t len, cap;
    bool complete;
} BetaPowers;

static bool beta_powers_reach(BetaPowers *bp, size_t t, double beta1, double beta2)
{
    while (!bp->complete && bp->len <= t) {
        if (bp->len == bp->cap) {
            size_t cap = bp->cap ? 2 * bp->cap : 1024;
            double *p1 = realloc(bp->p1, cap * sizeof *p1);
            if (p1)
                bp->p1 = p1;
            double *p2 = p1 ? realloc(bp->p2, cap * sizeof *p2) : NULL;
            if (p2)
                bp->p2 = p2;
            if (!p1 || !p2)
                return false;
            bp->cap = cap;
        }
        size_t i = bp->len++;
        bp->p1[i] = i ? bp->p1[i - 1] * beta1 : 1.0;
        bp->p2[i] = i ? bp->p2[i - 1] * beta2 : 1.0;
        bp->complete = bp->p1[i] == 0.0 && bp->p2[i] == 0.0;
    }
    return true;
}

typedef struct Adam {
    double *m, *v, *best, *start; /* num_weights each (start only with a penalty) */
    uint32_t *steps;              /* per feature: the steps that touched it */
    size_t *order;                /* mini-batch order; NULL for full batch */
    BetaPowers powers;
    TexelBatchGradient *bg;
    bool synced; /* bg's copies of the weights hold w: adam_update keeps them so */
} Adam;

static void adam_free(Adam *a)
{
    free(a->m);
    free(a->v);
    free(a->best);
    free(a->start);
    free(a->steps);
    free(a->order);
    free(a->powers.p1);
    free(a->powers.p2);
    texel_batch_gradient_free(a->bg);
}

/* One lazy Adam update of the weights of the touched features. */
static void adam_update(Adam *a, const TexelOptions *opt, double lr, const uint32_t *touched,
                        size_t nt, const double *grad, double *w)
{
    const BetaPowers *bp = &a->powers;
    const double reg2 = 2.0 * opt->reg;
    /* Each weight on its own: any team gives the same bits. */
    const int team = nt > 2048 ? team_size(opt->threads, MAX_BLOCKS, PARALLEL_MIN) : 1;
#pragma omp parallel for schedule(static) num_threads(team) if (team > 1)
    for (size_t i = 0; i < nt; i++) {
        const size_t f = touched[i], t = ++a->steps[f];
        const double b1t = t < bp->len ? bp->p1[t] : 0.0, b2t = t < bp->len ? bp->p2[t] : 0.0;
        for (size_t j = 2 * f; j < 2 * f + 2; j++) {
            if (opt->frozen[j])
                continue;
            double g = grad[j];
            if (reg2 > 0)
                g += reg2 * (w[j] - a->start[j]);
            a->m[j] = opt->beta1 * a->m[j] + (1 - opt->beta1) * g;
            a->v[j] = opt->beta2 * a->v[j] + (1 - opt->beta2) * g * g;
            double mhat = a->m[j] / (1 - b1t), vhat = a->v[j] / (1 - b2t);
            w[j] -= lr * mhat / (sqrt(vhat) + opt->epsilon);
            for (int c = 0; c < a->bg->threads; c++)
                a->bg->scratch[c].wa[2 * j - j % 2] = w[j]; /* 4f or 4f + 1 */
        }
    }
}

/* Validation loss, or the exact training loss when there is no validation set. */
static double criterion(const Dataset *train, const Dataset *valid, const double *w, double K,
                        int threads)
{
    const Dataset *ds = valid && valid->npos > 0 ? valid : train;
    return texel_loss(ds, w, K, threads);
}

/* What picks the best epoch: the validation loss; without a validation set, the training
 * objective (loss + penalty), as the plain loss would always prefer the unpulled weights. */
static double selection_score(double loss, bool has_valid, const Adam *a, const TexelOptions *opt,
                              const double *w, size_t nw)
{
    if (has_valid || !(opt->reg > 0))
        return loss;
    double pen = 0;
    for (size_t j = 0; j < nw; j++)
        pen += (w[j] - a->start[j]) * (w[j] - a->start[j]);
    return loss + opt->reg * pen;
}

/* Allocates the optimiser's scratch: moments, best and (with regularisation) starting
 * weights, the per-feature step counts and (for minibatches) the identity order. */
static bool adam_init(Adam *a, const Dataset *train, const double *w, const TexelOptions *opt,
                      bool minibatch, int threads)
{
    const size_t nw = (size_t)train->num_weights;
    const size_t n = train->npos;
    *a = (Adam){
        .m = calloc(nw, sizeof(double)),
        .v = calloc(nw, sizeof(double)),
        .best = malloc(nw * sizeof(double)),
        .start = opt->reg > 0 ? malloc(nw * sizeof(double)) : NULL,
        .steps = calloc(nw / 2, sizeof(uint32_t)),
        .order = minibatch ? malloc(n * sizeof(size_t)) : NULL,
        .bg = texel_batch_gradient_new(train, threads),
    };
    if (!a->m || !a->v || !a->best || (opt->reg > 0 && !a->start) || !a->steps || (minibatch && !a->order) || !a->bg) {
        adam_free(a);
        return false;
    }
    if (minibatch)
        for (size_t i = 0; i < n; i++)
            a->order[i] = i;
    if (a->start)
        memcpy(a->start, w, nw * sizeof *w);
    return true;
}

/* One epoch of Adam steps over the batches of a->order (or all of train): adds the
 * squared errors to *sse and the touched weights to *touched_sum; false on failure. */
static bool adam_epoch(Adam *a, const Dataset *train, const TexelOptions *opt, bool minibatch,
                       size_t batch, double lr, double K, double *w, size_t *step, double *sse,
                       double *touched_sum)
{
    const size_t n = train->npos;
    for (size_t begin = 0; begin < n; begin += batch) {
        size_t len = n - begin < batch ? n - begin : batch, nt;
        const uint32_t *touched;
        const double *grad;
        double batch_sse;
        bool ok = beta_powers_reach(&a->powers, ++*step, opt->beta1, opt->beta2) &&
                  batch_gradient(a->bg, train, minibatch ? a->order + begin : NULL, len, w, a->synced,
                                 K, &batch_sse, &touched, &nt, &grad);
        if (!ok)
            return false;
        a->synced = true;
        *sse += batch_sse;
        *touched_sum += (double)nt;
        adam_update(a, opt, lr, touched, nt, grad, w);
    }
    return true;
}

bool texel_train(const Dataset *train, const Dataset *valid, double *w,
                 const TexelOptions *opt, TexelProgress cb, void *ctx, TexelResult *out)
{
    if (!options_valid(train, valid, w, opt))
        return false;
    const size_t nw = (size_t)train->num_weights;
    const size_t n = train->npos;
    const bool minibatch = opt->batch_size > 0 && opt->batch_size < n;
    const size_t batch = minibatch ? opt->batch_size : n;
    const int threads = resolve_threads(opt->threads);

    /* Step 1: scratch. */
    Adam a;
    if (!adam_init(&a, train, w, opt, minibatch, threads))
        return false;
    double *w0 = malloc(nw * sizeof *w0); /* to give w back untouched on failure */
    if (!w0) {
        adam_free(&a);
        return false;
    }
    memcpy(w0, w, nw * sizeof *w);

    /* Step 2: K, and the starting point as epoch 0. */
    TexelResult r = { .K = opt->K > 0 ? opt->K : texel_fit_k(train, w, threads) };
    memcpy(a.best, w, nw * sizeof *w);
    double train_loss = texel_loss(train, w, r.K, threads);
    r.best_valid_loss = criterion(train, valid, w, r.K, threads);
    const bool has_valid = valid && valid->npos > 0;
    double best_score = selection_score(r.best_valid_loss, has_valid, &a, opt, w, nw);
    bool go = !cb || cb(ctx, 0, train_loss, r.best_valid_loss);
    r.early_stopped = !go;

    /* Step 3: epochs of Adam steps. */
    uint64_t rng = opt->seed;
    double lr = opt->learning_rate, touched_sum = 0;
    size_t step = 0;
    bool ok = true;
    for (int epoch = 1; ok && go && epoch <= opt->epochs && n > 0; epoch++) {
        if (minibatch)
            shuffle(a.order, n, &rng);
        double sse = 0;
        ok = adam_epoch(&a, train, opt, minibatch, batch, lr, r.K, w, &step, &sse, &touched_sum);
        if (!ok)
            break;
        lr *= opt->lr_decay;
        train_loss = sse / (double)n;
        double vl = criterion(train, valid, w, r.K, threads);
        r.epochs_run = epoch;

        /* Step 4: keep the best weights; stop when patience runs out or on request. */
        double score = selection_score(vl, has_valid, &a, opt, w, nw);
        if (score < best_score) {
            best_score = score;
            r.best_valid_loss = vl;
            r.best_epoch = epoch;
            memcpy(a.best, w, nw * sizeof *w);
        } else if (opt->patience > 0 && epoch - r.best_epoch >= opt->patience) {
            r.early_stopped = true;
            go = false;
        }
        if (cb && !cb(ctx, epoch, train_loss, vl)) {
            r.early_stopped = true;
            go = false;
        }
    }

    memcpy(w, ok ? a.best : w0, nw * sizeof *w);
    free(w0);
    adam_free(&a);
    r.touched_per_step = step ? touched_sum / (double)step : 0.0;
    if (ok && out)
        *out = r;
    return ok;
}
