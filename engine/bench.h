/* The bench: a fixed set of positions searched to a fixed depth with a fresh table each.
 * Its total node count is the signature of the search and evaluation. */
#ifndef DAMA_BENCH_H
#define DAMA_BENCH_H

#include "search.h"

extern const char *const bench_positions[];
extern const int bench_position_count;

/* Runs the bench on s (cleared before each position); per_position may be NULL.
 * Returns the total nodes; *seconds gets the search time. */
uint64_t bench_run(Searcher *s, int depth, double *seconds,
                   void (*per_position)(void *ctx, int index, const Position *pos, const SearchInfo *info),
                   void *ctx);

#endif
