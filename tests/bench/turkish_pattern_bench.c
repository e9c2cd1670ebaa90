/* Micro-benchmark of the Turkish pattern evaluation against the linear one: ns per
 * evaluate() on the positions of random games, then the bench search (bench.h, depth 11)
 * with each spec.  The pattern weights of the search are zero, so both searches walk the
 * same tree (equal node counts) and nodes/s compares the cost of the evaluations alone.
 * Prints "turkish linear|pattern evaluate ns/call X" and "turkish linear|pattern search
 * nodes N nps X", both in CPU time; then the incremental evaluation the search uses
 * (evaluate.h, EvalInc): "evaluate_inc ns/call" from a state at hand, and "update ns/move"
 * (the child's state from its parent's, along the games).  Built and run by `make bench`. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "evaluate.h"
#include "movelist.h"
#include "turkish_eval.h"
#include "turkish_patterns.h"
#include "variant.h"
#include "../random_pieces.h"

#define MAX_POS 4096
#define CALLS 20000000L

/* CPU time of this thread: the figures mean little on a loaded machine otherwise. */
static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The spec's default weights (pattern weights zero). */
static void default_weights(Weights *w, const EvalSpec *spec)
{
    if (!weights_default(w, spec)) {
        fprintf(stderr, "turkish_pattern_bench: out of memory for the weights\n");
        exit(1);
    }
}

/* Positions along random games from the start: every stage from 32 men to kings.
 * parent[i] is the index of the position out[i] was reached from, -1 at a game's start. */
static int random_games(Position *out, int *parent)
{
    static MoveList list;
    Rules rules = rules_default(&turkish_variant);
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    int n = 0;
    while (n < MAX_POS) {
        Position pos;
        turkish_variant.start(&pos);
        for (int ply = 0; ply < 150 && n < MAX_POS; ply++) {
            parent[n] = ply ? n - 1 : -1;
            out[n++] = pos;
            turkish_variant.generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            turkish_variant.make(&pos, &list.moves[next_random(&rng) % (uint64_t)list.count]);
        }
    }
    return n;
}

static void measure_evaluate(const char *label, const Position *positions, int n, const Weights *w)
{
    long long checksum = 0;
    long rounds = CALLS / n;
    double start = seconds();
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            checksum += evaluate(&positions[i], w);
    double elapsed = seconds() - start;
    printf("turkish %s evaluate ns/call %.1f (%d weights, checksum %lld)\n", label,
           1e9 * elapsed / ((double)rounds * n), w->count, checksum);
}

/* evaluate_inc from each position's state, then the states' updates along the games. */
static void measure_incremental(const char *label, const Position *positions, const int *parent, int n,
                                const Weights *w)
{
    static EvalInc inc[MAX_POS];
    for (int i = 0; i < n; i++)
        eval_inc_init(&inc[i], &positions[i], w);
    long long checksum = 0;
    long rounds = CALLS / n;
    double start = seconds();
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            checksum += evaluate_inc(&inc[i], &positions[i], w);
    double elapsed = seconds() - start;
    printf("turkish %s evaluate_inc ns/call %.1f (checksum %lld)\n", label,
           1e9 * elapsed / ((double)rounds * n), checksum);
    long moves = 0;
    start = seconds();
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            if (parent[i] >= 0) {
                eval_inc_child(&inc[i], &inc[parent[i]], &positions[parent[i]], &positions[i], w);
                moves++;
            }
    elapsed = seconds() - start;
    printf("turkish %s update ns/move %.1f\n", label, moves ? 1e9 * elapsed / (double)moves : 0.0);
}

static void measure_search(const char *label, const Weights *w)
{
    uint64_t nodes;
    double wall, start = seconds();
    char err[256];
    if (!bench_run(&turkish_variant, w, BENCH_DEPTH, NULL, NULL, &nodes, &wall, err, sizeof err)) {
        fprintf(stderr, "turkish_pattern_bench: %s\n", err);
        exit(1);
    }
    double cpu = seconds() - start;
    printf("turkish %s search depth %d nodes %llu nps %.0f (cpu time)\n", label, BENCH_DEPTH,
           (unsigned long long)nodes, cpu > 0 ? (double)nodes / cpu : 0.0);
}

int main(void)
{
    static Position positions[MAX_POS];
    static int parent[MAX_POS];
    int n = random_games(positions, parent);
    Weights linear, pattern;
    default_weights(&linear, &turkish_eval_spec);
    default_weights(&pattern, &turkish_pattern_eval_spec);
    measure_search("linear", &linear);
    measure_search("pattern", &pattern);
    /* Random pattern weights for the timing of evaluate: every table entry a value. */
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    for (int i = 2 * pattern.spec->nfeatures; i < pattern.count; i++)
        pattern.w[i] = (int32_t)(next_random(&rng) % 81) - 40;
    measure_evaluate("linear", positions, n, &linear);
    measure_evaluate("pattern", positions, n, &pattern);
    measure_incremental("linear", positions, parent, n, &linear);
    measure_incremental("pattern", positions, parent, n, &pattern);
    weights_free(&linear);
    weights_free(&pattern);
    return 0;
}
