/* Time to depth with one and two search threads (Lazy SMP, engine/search.h): the bench
 * positions of a variant, each searched to a fixed depth with a cleared table, with the
 * shipped weights.  Prints per thread count the wall and CPU seconds, the nodes of all
 * threads and those of the main thread (the one that decides the move: its nodes to depth,
 * with the helpers on other cores, is what the wall time follows on an idle machine).
 * Built and run by `make bench` (Turkish to depth 13, International to 11); by hand:
 *   build/opt/bench/smp_bench [DEPTH [VARIANT]]. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "position.h"
#include "search.h"
#include "variant.h"
#include "weights_store.h"

static double clock_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The bench positions of v to depth on threads threads; false when one does not read. */
static bool time_to_depth(const Variant *v, const Weights *w, int depth, int threads)
{
    Rules rules = rules_default(v);
    Searcher *s = searcher_new(v, &rules, w, 64);
    if (!s || !searcher_set_threads(s, threads)) {
        fprintf(stderr, "smp_bench: out of memory\n");
        searcher_free(s);
        return false;
    }
    uint64_t nodes = 0, main_nodes = 0;
    double wall0 = clock_seconds(CLOCK_MONOTONIC), cpu0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    SearchLimits limits = { .depth = depth };
    for (int i = 0; i < v->bench_count; i++) {
        Position pos;
        char err[256];
        if (!position_from_fen(&pos, v, v->bench_fens[i], err, sizeof err)) {
            fprintf(stderr, "smp_bench: bench position %d: %s\n", i + 1, err);
            searcher_free(s);
            return false;
        }
        searcher_clear(s);
        SearchInfo info = search(s, &pos, NULL, 0, &limits, NULL, NULL);
        nodes += info.nodes;
        main_nodes += s->nodes;
    }
    double wall = clock_seconds(CLOCK_MONOTONIC) - wall0, cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    printf("smp %s bench depth %d threads %d: wall %.2f s cpu %.2f s nodes %llu main %llu\n", v->name,
           depth, threads, wall, cpu, (unsigned long long)nodes, (unsigned long long)main_nodes);
    searcher_free(s);
    return true;
}

/* One and two threads on v's bench positions to depth, with v's shipped weights. */
static bool one_and_two_threads(const Variant *v, int depth)
{
    Weights w;
    char err[512];
    if (!weights_by_name(&w, v, "best", err, sizeof err)) {
        fprintf(stderr, "smp_bench: %s\n", err);
        return false;
    }
    bool ok = time_to_depth(v, &w, depth, 1) && time_to_depth(v, &w, depth, 2);
    weights_free(&w);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc == 1) /* `make bench`: a few seconds each */
        return one_and_two_threads(&turkish_variant, 13) && one_and_two_threads(&international_variant, 11) ? 0 : 1;
    int depth = atoi(argv[1]);
    const Variant *v = variant_by_name(argc > 2 ? argv[2] : "turkish");
    if (depth < 1 || depth > SEARCH_DEPTH_MAX || !v) {
        fprintf(stderr, "usage: smp_bench [DEPTH (1-%d) [VARIANT]]\n", SEARCH_DEPTH_MAX);
        return 2;
    }
    return one_and_two_threads(v, depth) ? 0 : 1;
}
