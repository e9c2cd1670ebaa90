/* The bench: a fixed set of positions searched to a fixed depth with a fresh table each.
 * Its total node count is the signature of the search and evaluation.  `dama bench`, the
 * signature stored with every run and `dama --version` all come from bench_run, with one
 * hash size, so one depth always gives one count. */
#ifndef DAMA_BENCH_H
#define DAMA_BENCH_H

#include <stddef.h>

#include "search.h"

#define BENCH_HASH_MB 16         /* the table of every bench search */
#define BENCH_DEPTH 11           /* `dama bench` without --depth */
#define BENCH_SIGNATURE_DEPTH 6  /* the signature: quick enough to run at every start */

typedef void (*BenchReport)(void *ctx, int index, const Position *pos, const SearchInfo *info);

/* Searches every bench position of v (v->bench_fens) to depth with v's default rules and
 * weights w, a cleared searcher for each; calls per_position after each (may be NULL).  Fills *nodes and
 * *seconds (search time).  False with a message in err when a bench position does not read
 * or the table cannot be allocated: a bench that skipped a position would be another bench. */
bool bench_run(const Variant *v, const Weights *w, int depth, BenchReport per_position, void *ctx,
               uint64_t *nodes, double *seconds, char *err, size_t errlen);
/* The same on another set of count positions of v (the tests use it). */
bool bench_run_set(const Variant *v, const char *const *fens, int count, const Weights *w,
                   int depth, BenchReport per_position, void *ctx, uint64_t *nodes,
                   double *seconds, char *err, size_t errlen);

/* "bench depth 6: N" for v's built-in weights; false with a message in err. */
bool bench_signature(const Variant *v, char *buf, size_t len, char *err, size_t errlen);

#endif
