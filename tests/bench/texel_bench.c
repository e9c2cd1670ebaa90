/* Texel throughput, positions per second per core, with 1 and 2 threads (best of 3 after a
 * warm-up), and the bytes a position the fit holds (its 8-byte record and its packed terms;
 * the game ids go after the split).  Per core = positions / the process's CPU seconds, so a
 * loaded machine slows it little; the 2-thread line also gives the speed-up over 1 thread,
 * by CPU time (2 x its per-core figure over 1 thread's: threads waiting at a barrier spin,
 * and their spinning counts) and by the wall clock, which only a quiet machine measures
 * (the load average is printed):
 *   - the Turkish linear evaluation: 1 M positions of random games, the engine's own
 *     features (72 weights), one full-batch gradient and one full-batch Adam epoch; the
 *     same for 300 k positions under the Turkish pattern evaluation (its occurrences as
 *     terms, then as keys, as `dama tune` stores them: dataset.h) and 300 k of random
 *     International games under its pattern evaluation (as terms, then as keys), their
 *     Adam epochs in mini-batches of 16384 as the tuner runs them;
 *   - a pattern-sized problem: 1 M positions of 100 random terms (30 linear-like values,
 *     70 pattern occurrences of value +-1 or +-2, ascending) over 300 k weights: one full-batch
 *     gradient, and one epoch of lazy Adam in mini-batches of 16384 (the gradient, the
 *     update of the touched weights, and the epoch's validation pass on 10% held out).
 * Prints figures, asserts nothing. */
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dataset.h"
#include "evaluate.h"
#include "movelist.h"
#include "texel.h"
#include "variant.h"

enum { RUNS = 3 };

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void fail(const char *what)
{
    fprintf(stderr, "texel_bench: %s\n", what);
    exit(1);
}

/* Random games of variant v, their features under spec as the tuner stores them: the
 * pattern occurrences as terms, or (keyed) as the spec's pattern keys, as `dama tune` does. */
static Dataset *game_positions(const Variant *v, const EvalSpec *spec, size_t n, bool keyed)
{
    Rules rules = rules_default(v);
    Dataset *ds = dataset_new(weights_count(spec) / 2, spec->phase_max);
    if (!ds || (keyed && !dataset_use_keys(ds, spec)) || !dataset_reserve(ds, n, n * 24))
        fail("out of memory");
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (int64_t game = 0; ds->npos < n; game++) {
        Position pos;
        v->start(&pos);
        for (int ply = 0; ply < 100 && ds->npos < n; ply++) {
            MoveList list;
            v->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
            int phase, k = eval_features(spec, &pos, f, &phase), linear = 0;
            float label = (float)(rnd(&s) % 3) * 0.5f;
            uint8_t key[EVAL_MAX_PATTERN_KEY];
            while (keyed && linear < k && f[linear].feature < spec->nfeatures)
                linear++;
            if (keyed)
                spec->pattern_key(&pos, key);
            if (!(keyed ? dataset_add_keyed(ds, game, label, phase, f, linear, key)
                        : dataset_add(ds, game, label, phase, f, k)))
                fail("dataset_add failed");
            Position child;
            movelist_play(&child, &pos, &list.moves[rnd(&s) % (uint64_t)list.count]);
            pos = child;
        }
    }
    return ds;
}

enum { PAT_FEATURES = 150000, PAT_LINEAR = 30, PAT_OCCURRENCES = 70, PAT_POSITIONS = 1000000 };

static int by_feature(const void *a, const void *b)
{
    const EvalFeatureTerm *x = a, *y = b;
    return (x->feature > y->feature) - (x->feature < y->feature);
}

static Dataset *pattern_positions(void)
{
    Dataset *ds = dataset_new(PAT_FEATURES, 32);
    if (!ds || !dataset_reserve(ds, PAT_POSITIONS, (size_t)PAT_POSITIONS * (PAT_LINEAR + PAT_OCCURRENCES)))
        fail("out of memory");
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (int i = 0; i < PAT_POSITIONS; i++) {
        EvalFeatureTerm f[PAT_LINEAR + PAT_OCCURRENCES];
        for (int j = 0; j < PAT_LINEAR; j++)
            f[j] = (EvalFeatureTerm){ j, (int32_t)(rnd(&s) % 15) - 7 + ((rnd(&s) & 1) ? 8 : -8) };
        for (int j = PAT_LINEAR; j < PAT_LINEAR + PAT_OCCURRENCES; j++) /* states after the linear */
            f[j] = (EvalFeatureTerm){ PAT_LINEAR + (int32_t)(rnd(&s) % (PAT_FEATURES - PAT_LINEAR)),
                                  (rnd(&s) & 1 ? 1 : -1) * (rnd(&s) % 8 ? 1 : 2) };
        qsort(f + PAT_LINEAR, PAT_OCCURRENCES, sizeof *f, by_feature); /* as eval_features writes */
        if (!dataset_add(ds, i / 80, (float)(rnd(&s) % 3) * 0.5f, (int)(rnd(&s) % 33), f,
                         PAT_LINEAR + PAT_OCCURRENCES))
            fail("dataset_add failed");
    }
    return ds;
}

static double *bench_weights(int n)
{
    double *w = malloc((size_t)n * sizeof *w);
    if (!w)
        fail("out of memory");
    uint64_t s = 12345;
    for (int j = 0; j < n; j++)
        w[j] = (double)(rnd(&s) % 201) - 100.0;
    w[0] = w[1] = 100.0;
    return w;
}

static void report_dataset(const char *name, Dataset *ds)
{
    dataset_trim(ds); /* as the tuner does once loaded */
    printf("texel %s dataset: %zu positions, %.1f terms and %.1f bytes a position in the fit "
           "(%.1f MiB)\n", name, ds->npos, (double)ds->nterms / (double)ds->npos,
           (double)(ds->npos * sizeof *ds->pos + ds->nbytes) / (double)ds->npos,
           (double)(ds->npos * sizeof *ds->pos + ds->nbytes) / (1024.0 * 1024.0));
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double load_average(void)
{
    double load = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &load) != 1)
            load = -1;
        fclose(f);
    }
    return load;
}

static void bench_gradient(const char *name, const Dataset *ds, const double *w)
{
    double *grad = malloc((size_t)ds->num_weights * sizeof *grad);
    if (!grad)
        fail("out of memory");
    const double K = 0.005;
    double wall1 = 0, per_core1 = 0;
    for (int threads = 1; threads <= 2; threads++) {
        texel_gradient(ds, w, K, grad, threads); /* warm-up: page in the terms */
        double best_cpu = 1e30, best_wall = 1e30;
        for (int r = 0; r < RUNS; r++) {
            double t0 = omp_get_wtime(), c0 = cpu_seconds();
            texel_gradient(ds, w, K, grad, threads);
            double cpu = cpu_seconds() - c0, wall = omp_get_wtime() - t0;
            best_cpu = cpu < best_cpu ? cpu : best_cpu;
            best_wall = wall < best_wall ? wall : best_wall;
        }
        const double per_core = (double)ds->npos / best_cpu;
        if (threads == 1) {
            wall1 = best_wall;
            per_core1 = per_core;
        }
        printf("texel %s full-batch gradient positions/s per core: %.0f (threads %d", name, per_core, threads);
        if (threads > 1)
            printf(", speed-up by CPU time %.2fx, wall-clock %.2fx at load %.1f", 2 * per_core / per_core1,
                   wall1 / best_wall, load_average());
        printf(")\n");
    }
    free(grad);
}

/* One epoch of mini-batch lazy Adam: the time of 2 epochs less that of 1, each the best of
 * RUNS (the set-up and the starting point's loss passes cancel). */
static void bench_adam_epoch(const char *name, const Dataset *ds, const double *w0, size_t batch)
{
    Dataset *train, *valid;
    double *w = malloc((size_t)ds->num_weights * sizeof *w);
    unsigned char *frozen = calloc((size_t)ds->num_weights, 1);
    if (!w || !frozen || !dataset_split(ds, 0.1, 1, &train, &valid))
        fail("out of memory");
    frozen[0] = frozen[1] = 1;
    TexelOptions o = texel_default_options();
    o.frozen = frozen;
    o.K = 0.005;
    o.batch_size = batch;
    o.patience = 0;
    o.reg = 1e-9;
    double per_core1 = 0;
    for (int threads = 1; threads <= 2; threads++) {
        o.threads = threads;
        double t[3] = { 0, 1e30, 1e30 }, c[3] = { 0, 1e30, 1e30 };
        TexelResult r;
        for (int run = 0; run < RUNS; run++) /* the best of each: less noise in their difference */
            for (int epochs = 1; epochs <= 2; epochs++) {
                o.epochs = epochs;
                memcpy(w, w0, (size_t)ds->num_weights * sizeof *w);
                double t0 = omp_get_wtime(), c0 = cpu_seconds();
                if (!texel_train(train, valid, w, &o, NULL, NULL, &r))
                    fail("texel_train failed");
                double wall = omp_get_wtime() - t0, cpu = cpu_seconds() - c0;
                t[epochs] = wall < t[epochs] ? wall : t[epochs];
                c[epochs] = cpu < c[epochs] ? cpu : c[epochs];
            }
        double epoch = t[2] - t[1], cpu = c[2] - c[1], per_core = (double)train->npos / cpu;
        if (threads == 1)
            per_core1 = per_core;
        printf("texel %s Adam epoch (batch %zu) positions/s per core: %.0f (threads %d, %.2f s an "
               "epoch, %.0f features touched a step", name, batch, per_core, threads, epoch, r.touched_per_step);
        if (threads > 1)
            printf(", speed-up by CPU time %.2fx", 2 * per_core / per_core1);
        printf(")\n");
    }
    dataset_free(train);
    dataset_free(valid);
    free(w);
    free(frozen);
}

/* A game's real pattern features (300 k positions of random games): their bytes a
 * position, the gradient and an Adam epoch. */
static void bench_game_patterns(const char *label, const Variant *v, bool keyed)
{
    if (!v || !v->pattern_eval || (keyed && !v->pattern_eval->pattern_key))
        return;
    Dataset *ds = game_positions(v, v->pattern_eval, 300000, keyed);
    report_dataset(label, ds);
    double *w = bench_weights(ds->num_weights);
    bench_gradient(label, ds, w);
    bench_adam_epoch(label, ds, w, 16384);
    dataset_free(ds);
    free(w);
}

int main(void)
{
    const Variant *turkish = variant_by_name("turkish");
    Dataset *tr = game_positions(turkish, turkish->eval, 1000000, false);
    double *w = bench_weights(tr->num_weights);
    report_dataset("turkish", tr);
    bench_gradient("turkish", tr, w);
    bench_adam_epoch("turkish", tr, w, 0);
    dataset_free(tr);
    free(w);
    bench_game_patterns("turkish-pattern", turkish, false);
    bench_game_patterns("turkish-pattern-keyed", turkish, true);
    bench_game_patterns("international-pattern", variant_by_name("international"), false);
    bench_game_patterns("international-pattern-keyed", variant_by_name("international"), true);

    Dataset *pat = pattern_positions();
    w = bench_weights(pat->num_weights);
    report_dataset("pattern-sized", pat);
    bench_gradient("pattern-sized", pat, w);
    bench_adam_epoch("pattern-sized", pat, w, 16384);
    dataset_free(pat);
    free(w);
    return 0;
}
