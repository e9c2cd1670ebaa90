/* The bench set and its run (see bench.h). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "position.h"
#include "variant.h"

/* The bench set: openings, middlegames, endgames with kings.  Changing it changes the
 * signature; so does any change to search or evaluation. */
const char *const bench_positions[] = {
    "start",
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,d2,e2,g2,h2,a3,c3,d3,f3,h3,c4,e4:Ba6,b6,d6,f6,h6,a7,c7,e7,f7,g7,h7,b5,g5",
    "W:Wb2,c2,f2,g2,a3,d3,e3,h3,c4,f4,b5:Ba7,c7,f7,g7,b6,d6,e6,h6,c5,g5,a4",
    "B:Wa2,c2,e2,h2,b3,d3,g3,e4,f4:Bb7,d7,g7,a6,c6,f6,h6,d5,b4",
    "W:Wc2,d2,f2,b3,g3,e5:Bb7,c6,e6,g6,a5,h4",
    "W:WKa1,d3,f3,g4:Bb6,c6,e7,h5,Kh8",
    "B:WKd1,Ke4,b2,g3:BKa8,c5,f6,h6",
    "W:WKc3,a4,h3:BKf6,Kb8,d5",
    "W:Wd5,e4:Bd7,g6,Ka1",
    "W:WKh1:Bb5,c6,Ka8",
    "B:Wb3,c4,d4,f3,g2:Bb6,c7,e6,f6,g7",
};

const int bench_position_count = (int)(sizeof bench_positions / sizeof bench_positions[0]);

bool bench_run(const Weights *w, int depth, BenchReport per_position, void *ctx,
               uint64_t *nodes, double *seconds, char *err, size_t errlen)
{
    return bench_run_set(bench_positions, bench_position_count, w, depth, per_position, ctx,
                         nodes, seconds, err, errlen);
}

bool bench_run_set(const char *const *fens, int count, const Weights *w, int depth,
                   BenchReport per_position, void *ctx, uint64_t *nodes, double *seconds,
                   char *err, size_t errlen)
{
    const Variant *v = &turkish_variant;
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

bool bench_signature(char *buf, size_t len, char *err, size_t errlen)
{
    Weights w;
    weights_default(&w);
    uint64_t nodes;
    double seconds;
    if (!bench_run(&w, BENCH_SIGNATURE_DEPTH, NULL, NULL, &nodes, &seconds, err, errlen))
        return false;
    snprintf(buf, len, "bench depth %d: %llu", BENCH_SIGNATURE_DEPTH, (unsigned long long)nodes);
    return true;
}
