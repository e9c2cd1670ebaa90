/* What the pipeline commands (selfplay, match, train, tune) share: Ctrl-C handling,
 * the engine's identity for run records, and weights stored with their text. */
#ifndef DAMA_PIPELINE_H
#define DAMA_PIPELINE_H

#include <signal.h>

#include "store.h"
#include "weights.h"

/* Installs SIGINT/SIGTERM handlers that only set the returned flag. */
const volatile sig_atomic_t *pipeline_interrupt_flag(void);

/* "dama VERSION" for run records. */
const char *pipeline_engine_version(void);
/* The bench node count at a small depth: a quick signature of search and evaluation. */
void pipeline_bench_signature(char *buf, size_t len);

/* The canonical text of w (malloc'd), or NULL when out of memory. */
char *weights_to_text(const Weights *w);
/* Stores w (deduplicated by text); returns its id or -1 (message in store_error). */
int64_t pipeline_store_weights(Store *store, const Weights *w, int generation, int64_t parent,
                               const char *note);

/* Opens the database for a command, printing the error; NULL on failure. */
Store *pipeline_open_store(const char *path);

#endif
