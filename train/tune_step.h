/* The tune step: a fit of stored games recorded in the database. */
#ifndef DAMA_TUNE_STEP_H
#define DAMA_TUNE_STEP_H

#include <stdatomic.h>

#include "store.h"
#include "tune.h"

/* Fits cfg, stores the weights (generation, parent) and the tuning run, writes out_path if
 * given; *result_weights_id gets the new weights' id (may be NULL).  show: the epochs on
 * stderr.  Returns a TrainStatus (errors printed). */
int tune_step(Store *store, const TuneConfig *cfg, int64_t parent_weights_id, int generation,
              const char *out_path, bool show, const atomic_bool *stop, int64_t *result_weights_id);

#endif
