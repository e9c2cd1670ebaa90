/* Texel fit: loss, gradient, K search and Adam, parallel over positions with OpenMP. */
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

/* Sum of w[index] * coef over one run of terms.  Four accumulators break the add latency
 * chain (the compiler may not reorder FP adds); the order is fixed, so results are too. */
static inline double dot(const DatasetTerm *t, int n, const double *w)
{
    double e0 = 0, e1 = 0, e2 = 0, e3 = 0;
    int j = 0;
    for (; j + 4 <= n; j += 4) {
        e0 += w[t[j].index] * t[j].coef;
        e1 += w[t[j + 1].index] * t[j + 1].coef;
        e2 += w[t[j + 2].index] * t[j + 2].coef;
        e3 += w[t[j + 3].index] * t[j + 3].coef;
    }
    for (; j < n; j++)
        e0 += w[t[j].index] * t[j].coef;
    return (e0 + e1) + (e2 + e3);
}

double texel_eval(const Dataset *ds, size_t i, const double *w)
{
    const DatasetPosition *p = &ds->pos[i];
    return dot(ds->terms + p->offset, p->count, w) / ds->scale;
}

/* The one kernel: positions order[begin..end) (or begin..end when order is NULL).  Returns
 * the sum of squared errors; when grad is given, adds gscale * (p - y) p (1 - p) * coef
 * to grad[index] for each term, in a second pass over the terms just read (still in L1). */
static inline double kernel(const Dataset *ds, const size_t *order, size_t begin, size_t end,
                            const double *w, double K, double gscale, double *grad)
{
    const double inv_scale = 1.0 / ds->scale;
    double sse = 0;
    for (size_t k = begin; k < end; k++) {
        const DatasetPosition *p = &ds->pos[order ? order[k] : k];
        const DatasetTerm *t = ds->terms + p->offset;
        double prob = texel_sigmoid(K, dot(t, p->count, w) * inv_scale);
        double d = prob - p->label;
        sse += d * d;
        if (grad) {
            double g = gscale * d * prob * (1.0 - prob);
            for (int j = 0; j < p->count; j++)
                grad[t[j].index] += g * t[j].coef;
        }
    }
    return sse;
}

/* Positions are cut into a number of contiguous blocks that depends on the count only,
 * never on the threads; each block sums into its own buffers and the blocks are added in
 * block order.  So every result is the same bit for bit on 1 or 64 threads. */
enum { MAX_BLOCKS = 64, BLOCK_MIN = 512 };

static int block_count(size_t n)
{
    size_t b = n / BLOCK_MIN;
    return b < 1 ? 1 : b > MAX_BLOCKS ? MAX_BLOCKS : (int)b;
}

static size_t block_begin(size_t n, int block, int blocks)
{
    return n * (size_t)block / (size_t)blocks;
}

/* Scratch for a pass, allocated once per call or once per training run. */
typedef struct Workspace {
    int threads;                 /* team size asked for */
    double partial[MAX_BLOCKS];  /* per-block sums of squared errors */
    double *buf;                 /* MAX_BLOCKS * num_weights block gradients (or NULL) */
    double *one;                 /* without buf: one block's gradient at a time (or NULL) */
} Workspace;

static int resolve_threads(int threads)
{
    return threads > 0 ? threads : omp_get_max_threads();
}

/* Without the block buffers (memory short) a gradient pass runs its blocks one after the
 * other through one buffer: slower, the same sums, so callers never fail for scratch. */
static void workspace_init(Workspace *ws, int threads, int num_weights, bool gradient)
{
    ws->threads = resolve_threads(threads);
    ws->buf = gradient ? malloc((size_t)MAX_BLOCKS * (size_t)num_weights * sizeof *ws->buf) : NULL;
    ws->one = NULL;
    if (gradient && !ws->buf) {
        ws->threads = 1;
        ws->one = malloc((size_t)num_weights * sizeof *ws->one);
    }
}

static void workspace_free(Workspace *ws)
{
    free(ws->buf);
    free(ws->one);
}

/* One block into its own gradient buffer g (zeroed first) and partial sum. */
static void pass_block(const Dataset *ds, const size_t *order, size_t n, int block, int blocks,
                       const double *w, double K, double gscale, double *g, Workspace *ws)
{
    if (g)
        memset(g, 0, (size_t)ds->num_weights * sizeof *g);
    ws->partial[block] = kernel(ds, order, block_begin(n, block, blocks),
                                block_begin(n, block + 1, blocks), w, K, gscale, g);
}

/* Sum of squared errors over n positions (through order when given) and, when grad is
 * given, grad = the gradient of (sse * gnorm) with gnorm = 1 / (number averaged over). */
static double pass(const Dataset *ds, const size_t *order, size_t n, const double *w, double K,
                   double *grad, double gnorm, Workspace *ws)
{
    const int nw = ds->num_weights, blocks = block_count(n);
    const double gscale = 2.0 * K * gnorm / ds->scale;
    if (grad)
        memset(grad, 0, (size_t)nw * sizeof *grad);
    if (grad && !ws->buf) {
        /* Memory short: the blocks one after the other through one buffer (the same sums);
         * without even that, straight into grad (the last bits may then differ). */
        for (int b = 0; b < blocks; b++) {
            if (!ws->one) {
                ws->partial[b] = kernel(ds, order, block_begin(n, b, blocks), block_begin(n, b + 1, blocks),
                                        w, K, gscale, grad);
                continue;
            }
            pass_block(ds, order, n, b, blocks, w, K, gscale, ws->one, ws);
            for (int j = 0; j < nw; j++)
                grad[j] += ws->one[j];
        }
    } else {
        const int team = ws->threads < blocks ? ws->threads : blocks;
#pragma omp parallel for schedule(static) num_threads(team) if (team > 1)
        for (int b = 0; b < blocks; b++)
            pass_block(ds, order, n, b, blocks, w, K, gscale,
                       grad ? ws->buf + (size_t)b * (size_t)nw : NULL, ws);
        if (grad)
            for (int b = 0; b < blocks; b++) /* block order: the same sums on any team */
                for (int j = 0; j < nw; j++)
                    grad[j] += ws->buf[(size_t)b * (size_t)nw + (size_t)j];
    }
    double sse = 0;
    for (int b = 0; b < blocks; b++)
        sse += ws->partial[b];
    return sse;
}

double texel_loss(const Dataset *ds, const double *w, double K, int threads)
{
    if (ds->npos == 0)
        return 0.0;
    Workspace ws;
    workspace_init(&ws, threads, ds->num_weights, false);
    double sse = pass(ds, NULL, ds->npos, w, K, NULL, 0.0, &ws);
    workspace_free(&ws);
    return sse / (double)ds->npos;
}

void texel_gradient(const Dataset *ds, const double *w, double K, double *grad, int threads)
{
    if (ds->npos == 0) {
        memset(grad, 0, (size_t)ds->num_weights * sizeof *grad);
        return;
    }
    Workspace ws;
    workspace_init(&ws, threads, ds->num_weights, true);
    pass(ds, NULL, ds->npos, w, K, grad, 1.0 / (double)ds->npos, &ws);
    workspace_free(&ws);
}

/* ---- K search: evals do not depend on K, so compute them once. ---- */

/* Mean loss over precomputed evals, in the same fixed blocks as pass(). */
static double loss_of_k(const double *eval, const float *label, size_t n, double K, int threads)
{
    double partial[MAX_BLOCKS];
    const int blocks = block_count(n), team = threads < blocks ? threads : blocks;
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
        label[i] = ds->pos[i].label;
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

/* ---- Adam ---- */

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
        !(o->beta2 >= 0 && o->beta2 < 1) || !(o->epsilon > 0) || !isfinite(o->K))
        return false;
    if (valid && (valid->num_weights != train->num_weights || valid->scale != train->scale))
        return false;
    for (int j = 0; j < train->num_weights; j++)
        if (o->frozen[j])
            return true;
    return false; /* nothing anchors the scale */
}

typedef struct Adam {
    double *grad, *m, *v, *best; /* num_weights each */
    size_t *order;               /* mini-batch order; NULL for full batch */
} Adam;

static void adam_free(Adam *a)
{
    free(a->grad);
    free(a->m);
    free(a->v);
    free(a->best);
    free(a->order);
}

/* Validation loss, or the exact training loss when there is no validation set. */
static double criterion(const Dataset *train, const Dataset *valid, const double *w, double K,
                        Workspace *ws)
{
    const Dataset *ds = valid && valid->npos > 0 ? valid : train;
    if (ds->npos == 0)
        return 0.0;
    return pass(ds, NULL, ds->npos, w, K, NULL, 0.0, ws) / (double)ds->npos;
}

bool texel_train(const Dataset *train, const Dataset *valid, double *w,
                 const TexelOptions *opt, TexelProgress cb, void *ctx, TexelResult *out)
{
    if (!options_valid(train, valid, w, opt))
        return false;
    const int nw = train->num_weights;
    const size_t n = train->npos;
    const bool minibatch = opt->batch_size > 0 && opt->batch_size < n;
    const size_t batch = minibatch ? opt->batch_size : n;

    /* Step 1: scratch. */
    Adam a = {
        .grad = malloc((size_t)nw * sizeof(double)),
        .m = calloc((size_t)nw, sizeof(double)),
        .v = calloc((size_t)nw, sizeof(double)),
        .best = malloc((size_t)nw * sizeof(double)),
        .order = minibatch ? malloc(n * sizeof(size_t)) : NULL,
    };
    if (!a.grad || !a.m || !a.v || !a.best || (minibatch && !a.order)) {
        adam_free(&a);
        return false;
    }
    if (minibatch)
        for (size_t i = 0; i < n; i++)
            a.order[i] = i;
    Workspace ws;
    workspace_init(&ws, opt->threads, nw, true);

    /* Step 2: K, and the starting point as epoch 0. */
    TexelResult r = { .K = opt->K > 0 ? opt->K : texel_fit_k(train, w, ws.threads) };
    memcpy(a.best, w, (size_t)nw * sizeof *w);
    double train_loss = n ? pass(train, NULL, n, w, r.K, NULL, 0.0, &ws) / (double)n : 0.0;
    r.best_valid_loss = criterion(train, valid, w, r.K, &ws);
    bool go = !cb || cb(ctx, 0, train_loss, r.best_valid_loss);
    r.early_stopped = !go;

    /* Step 3: epochs of Adam steps. */
    uint64_t rng = opt->seed;
    double lr = opt->learning_rate, b1t = 1.0, b2t = 1.0;
    for (int epoch = 1; go && epoch <= opt->epochs && n > 0; epoch++) {
        if (minibatch)
            shuffle(a.order, n, &rng);
        double sse = 0;
        for (size_t start = 0; start < n; start += batch) {
            size_t len = n - start < batch ? n - start : batch;
            const size_t *order = minibatch ? a.order + start : NULL;
            sse += pass(train, order, len, w, r.K, a.grad, 1.0 / (double)len, &ws);
            b1t *= opt->beta1;
            b2t *= opt->beta2;
            for (int j = 0; j < nw; j++) {
                if (opt->frozen[j])
                    continue;
                double g = a.grad[j];
                a.m[j] = opt->beta1 * a.m[j] + (1 - opt->beta1) * g;
                a.v[j] = opt->beta2 * a.v[j] + (1 - opt->beta2) * g * g;
                double mhat = a.m[j] / (1 - b1t), vhat = a.v[j] / (1 - b2t);
                w[j] -= lr * mhat / (sqrt(vhat) + opt->epsilon);
            }
        }
        lr *= opt->lr_decay;
        train_loss = sse / (double)n;
        double vl = criterion(train, valid, w, r.K, &ws);
        r.epochs_run = epoch;

        /* Step 4: keep the best weights; stop when patience runs out or on request. */
        if (vl < r.best_valid_loss) {
            r.best_valid_loss = vl;
            r.best_epoch = epoch;
            memcpy(a.best, w, (size_t)nw * sizeof *w);
        } else if (opt->patience > 0 && epoch - r.best_epoch >= opt->patience) {
            r.early_stopped = true;
            go = false;
        }
        if (cb && !cb(ctx, epoch, train_loss, vl)) {
            r.early_stopped = true;
            go = false;
        }
    }

    memcpy(w, a.best, (size_t)nw * sizeof *w);
    workspace_free(&ws);
    adam_free(&a);
    if (out)
        *out = r;
    return true;
}
