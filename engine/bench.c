/* The bench set and its run (see bench.h). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "position.h"
#include "variant.h"

bool bench_run(const Variant *v, const Weights *w, int depth, BenchReport per_position, void *ctx,
               uint64_t *nodes, double *seconds, char *err, size_t errlen)
{
    return bench_run_set(v, v->bench_fens, v->bench_count, w, depth, per_position, ctx, nodes,
                         seconds, err, errlen);
}

bool bench_run_set(const Variant *v, const char *const *fens, int count, const Weights *w,
                   int depth, BenchReport per_position, void *ctx, uint64_t *nodes,
                   double *seconds, char *err, size_t errlen)
{
    Rules rules = rules_default(v);
    *nodes = 0;
    *seconds = 0;
    /* Every position is read before the first search: a bad one prints nothing else. */
    Position *positions = malloc((size_t)(count > 0 ? count : 1) * sizeof *positions);
    Searcher *s = positions ? searcher_new(v, &rules, w, BENCH_HASH_MB) : NULL;
    if (!s) {
        snprintf(err, errlen, "bench: out of memory for a %d MB hash table", BENCH_HASH_MB);
        free(positions);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < count && ok; i++) {
        char why[256];
        if (!(ok = position_from_fen(&positions[i], v, fens[i], why, sizeof why)))
            snprintf(err, errlen, "bench position %d '%s': %s", i + 1, fens[i], why);
    }
    SearchLimits limits = { .depth = depth };
    for (int i = 0; i < count && ok; i++) {
        searcher_clear(s);
        SearchInfo info = search(s, &positions[i], NULL, 0, &limits, NULL, NULL);
        *nodes += info.nodes;
        *seconds += info.seconds;
        if (per_position)
            per_position(ctx, i, &positions[i], &info);
    }
    searcher_free(s);
    free(positions);
    return ok;
}

bool bench_signature(const Variant *v, char *buf, size_t len, char *err, size_t errlen)
{
    if (!v->eval) {
        snprintf(err, errlen, "bench: variant %s has no evaluation", v->name);
        return false;
    }
    Weights w;
    if (!weights_default(&w, v->eval)) {
        snprintf(err, errlen, "bench: out of memory");
        return false;
    }
    uint64_t nodes;
    double seconds;
    bool ok = bench_run(v, &w, BENCH_SIGNATURE_DEPTH, NULL, NULL, &nodes, &seconds, err, errlen);
    weights_free(&w);
    if (!ok)
        return false;
    snprintf(buf, len, "bench depth %d: %llu", BENCH_SIGNATURE_DEPTH, (unsigned long long)nodes);
    return true;
}
