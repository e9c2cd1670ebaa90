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

/* Every run of ids (n of them, named by --runs) exists, played games of variant
 * (self-play, match or import) and has some; an unfinished one is used as asked.  A
 * TrainStatus (errors printed, db named in them). */
int tune_check_runs(Store *store, const char *db, const char *variant, const int64_t *ids, int n);
/* The runs a fit learns from when none are named: the last `last` self-play runs, or with
 * last 0 every finished run's games (unfinished ones only when named).  *ids is malloc'd,
 * *nruns their count.  A TrainStatus (errors printed). */
int tune_stored_runs(Store *store, const char *db, const char *variant, long last, int64_t **ids, int *nruns);

#endif
