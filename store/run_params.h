/* A run's params text ("games=24 nodes=300 ... weights=3 train_run=1") names rows of the
 * file it was made in by id: weights=, a= and b= name weight sets, train_run= and runs= (a
 * comma list) name runs.  When a run moves to another file (`dama db merge`) those ids
 * must follow the rows, or the text points at the wrong ones. */
#ifndef DAMA_RUN_PARAMS_H
#define DAMA_RUN_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ParamsIdKind { PARAMS_ID_WEIGHTS, PARAMS_ID_RUN } ParamsIdKind;

enum { PARAMS_ID_UNMAPPED = -1, PARAMS_ID_FAILED = -2 };

/* The id that row has in the new file, PARAMS_ID_UNMAPPED when it has none there (the id
 * is then kept as written) or PARAMS_ID_FAILED (the lookup itself failed). */
typedef int64_t (*ParamsIdLookup)(void *ctx, ParamsIdKind kind, int64_t id);

/* params with every id it names passed through lookup, into out (len bytes, terminated);
 * everything else is kept as it was, the words of a=engine:NAME(COMMAND) too.  false when
 * out is too small or a lookup failed. */
bool run_params_remap(const char *params, ParamsIdLookup lookup, void *ctx, char *out, size_t len);

#endif
