/* The self-play step: games of one weight set against itself, stored in a run. */
#ifndef DAMA_SELFPLAY_STEP_H
#define DAMA_SELFPLAY_STEP_H

#include "run_record.h"
#include "run_settings.h"
#include "weights.h"

/* Plays rs's games with weights on both sides, records the run (params its text) and
 * prints its totals; *run_id gets its id (may be NULL).  Returns a TrainStatus (errors
 * printed). */
int selfplay_step(Store *store, RunSettings *rs, const Weights *weights, int64_t weights_id,
                  const char *params, RunResume resume, int64_t *run_id);

#endif
