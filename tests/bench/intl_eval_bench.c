/* Micro-benchmark of the International evaluation: features() on the positions of the
 * vector file and of random games from the start, then evaluate() with the linear and the
 * pattern spec (international_patterns.c) on the random-game positions, then the nodes a
 * second of a fixed-node search of the variant's bench positions with each spec.  Prints
 * "intl features ns/call X" per set, "intl evaluate ns/call X (SPEC ...)",
 * "intl search nodes/s X (SPEC ...)" and their ratios, one thread, CPU time.  Built and run by `make bench` (from the
 * project root: it reads tests/vectors/international/positions.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evaluate.h"
#include "international_eval.h"
#include "international_patterns.h"
#include "position.h"
#include "search.h"
#include "variant.h"
#include "../random_pieces.h"

#define MAX_POS 4096
#define CALLS 20000000L
#define VECTORS "tests/vectors/international/positions.txt"
/* Calls of evaluate a trial, nodes of the fixed-node search of each bench position, and the
 * trials of each spec (interleaved; the best is printed). */
#define EVAL_CALLS 4000000L
#define SEARCH_NODES 200000
#define TRIALS 3
/* Pattern weights of the bench: random in +-PATTERN_RANGE, so the tables are read as in
 * play (the cost is the loads, not the values). */
#define PATTERN_RANGE 30

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The FENs of the vector file (before each ';'); returns how many. */
static int read_vectors(Position *out)
{
    FILE *f = fopen(VECTORS, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open (run from the project root)\n", VECTORS);
        return 0;
    }
    char line[1024], err[256];
    int n = 0;
    while (n < MAX_POS && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (line[0] == '#' || !semi)
            continue;
        *semi = '\0';
        if (position_from_fen(&out[n], &international_variant, line, err, sizeof err))
            n++;
    }
    fclose(f);
    return n;
}

/* Positions along random games from the start: every stage from 40 men to kings. */
static int random_games(Position *out)
{
    static MoveList list;
    Rules rules = rules_default(&international_variant);
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    int n = 0;
    while (n < MAX_POS) {
        Position pos;
        international_variant.start(&pos);
        for (int ply = 0; ply < 150 && n < MAX_POS; ply++) {
            out[n++] = pos;
            international_variant.generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            international_variant.make(&pos, &list.moves[next_random(&rng) % (uint64_t)list.count]);
        }
    }
    return n;
}

static void measure(const char *label, const Position *positions, int n)
{
    if (n == 0)
        return;
    int32_t v[EVAL_MAX_FEATURES + 1];
    long long checksum = 0;
    long rounds = CALLS / n, nfeatures = international_eval_spec.nfeatures;
    double start = seconds();
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            checksum += international_eval_spec.features(&positions[i], v) + v[r % nfeatures];
    double elapsed = seconds() - start;
    printf("intl features ns/call %.1f (%s, %d positions, checksum %lld)\n",
           1e9 * elapsed / ((double)rounds * n), label, n, checksum);
}

/* The spec's defaults for its linear features, random pattern weights. */
static Weights bench_weights(const EvalSpec *spec)
{
    Weights w = { 0 };
    if (!weights_default(&w, spec)) {
        fprintf(stderr, "intl_eval_bench: out of memory\n");
        exit(1);
    }
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    for (int i = 2 * spec->nfeatures; i < w.count; i++)
        w.w[i] = (int32_t)(next_random(&rng) % (2 * PATTERN_RANGE + 1)) - PATTERN_RANGE;
    return w;
}

/* CPU time of this thread: on a shared machine the wall clock counts other processes' turns. */
static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ns per evaluate over the positions, EVAL_CALLS calls; *checksum gets the scores' sum. */
static double evaluate_ns(const Weights *w, const Position *positions, int n, long long *checksum)
{
    long rounds = EVAL_CALLS / n;
    *checksum = 0;
    double start = cpu_seconds();
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            *checksum += evaluate(&positions[i], w);
    return 1e9 * (cpu_seconds() - start) / ((double)rounds * n);
}

/* Nodes a CPU second of a fixed-node search of every bench position of the variant;
 * *nodes gets the nodes searched. */
static double search_nps(Searcher *s, uint64_t *nodes)
{
    const Variant *v = s->variant;
    SearchLimits limits = { .nodes = SEARCH_NODES };
    char err[256];
    *nodes = 0;
    double start = cpu_seconds();
    for (int i = 0; i < v->bench_count; i++) {
        Position pos;
        if (!position_from_fen(&pos, v, v->bench_fens[i], err, sizeof err))
            continue;
        searcher_clear(s);
        *nodes += search(s, &pos, NULL, 0, &limits, NULL, NULL).nodes;
    }
    double elapsed = cpu_seconds() - start;
    return elapsed > 0 ? (double)*nodes / elapsed : 0.0;
}

/* evaluate and the search with the linear and the pattern spec, TRIALS times in turn (so a
 * busy spell of the machine hits both), the best trial of each printed. */
static void compare_specs(const Position *positions, int n)
{
    const Variant *v = &international_variant;
    const EvalSpec *specs[2] = { &international_eval_spec, &international_pattern_eval_spec };
    Rules rules = rules_default(v);
    Weights w[2];
    Searcher *searcher[2];
    double best_ns[2] = { 0, 0 }, best_nps[2] = { 0, 0 };
    long long checksum[2];
    uint64_t nodes[2];
    for (int k = 0; k < 2; k++) {
        w[k] = bench_weights(specs[k]);
        searcher[k] = searcher_new(v, &rules, &w[k], 16);
        if (!searcher[k]) {
            fprintf(stderr, "intl_eval_bench: out of memory\n");
            exit(1);
        }
    }
    for (int trial = 0; trial < TRIALS; trial++)
        for (int k = 0; k < 2; k++) {
            double ns = evaluate_ns(&w[k], positions, n, &checksum[k]);
            double nps = search_nps(searcher[k], &nodes[k]);
            if (trial == 0 || ns < best_ns[k])
                best_ns[k] = ns;
            if (nps > best_nps[k])
                best_nps[k] = nps;
        }
    for (int k = 0; k < 2; k++) {
        const char *name = specs[k]->eval_name ? specs[k]->eval_name : "linear";
        printf("intl evaluate ns/call %.1f (%s, %d weights, %d positions, best of %d, checksum %lld)\n",
               best_ns[k], name, w[k].count, n, TRIALS, checksum[k]);
        printf("intl search nodes/s %.0f (%s, %llu nodes, %d positions, best of %d)\n", best_nps[k],
               name, (unsigned long long)nodes[k], v->bench_count, TRIALS);
    }
    printf("intl pattern/linear: evaluate time x%.2f, search nodes/s x%.2f\n",
           best_ns[1] / best_ns[0], best_nps[1] / best_nps[0]);
    for (int k = 0; k < 2; k++) {
        searcher_free(searcher[k]);
        weights_free(&w[k]);
    }
}

int main(void)
{
    static Position positions[MAX_POS];
    measure("vector positions", positions, read_vectors(positions));
    int n = random_games(positions);
    measure("random games", positions, n);
    compare_specs(positions, n);
    return 0;
}
