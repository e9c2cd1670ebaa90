/* The run record of a game-playing step (self-play, match): a new run, or the last run of
 * its kind continued with the games it still misses, and its end status. */
#ifndef DAMA_RUN_RECORD_H
#define DAMA_RUN_RECORD_H

#include "runner.h"
#include "store.h"

/* Where a game-playing step writes: a new run, or the last run of its kind continued. */
typedef enum RunResume {
    RESUME_NEVER,     /* always a new run */
    RESUME_IF_SAME,   /* continue the last run of the kind if its params are these (train) */
    RESUME_REQUIRED,  /* --resume: continue it, or fail when there is none or it differs */
} RunResume;

typedef struct RunRecord {
    int64_t id;
    int *stored;      /* continued run: results by game index (RunnerConfig.stored); owned */
    bool resumed;
} RunRecord;

/* Opens the run for cfg's games (errors printed, db_path named in them); returns a
 * TrainStatus. */
int run_record_open(Store *store, const char *db_path, const char *kind, const char *params,
                    int64_t weights_id, const RunnerConfig *cfg, RunResume resume, RunRecord *run);
/* Ends the run with status ('done', 'interrupted', 'failed') and frees it; false when the
 * status cannot be written (printed when report: a failed run has its own message). */
bool run_record_close(Store *store, const char *db_path, RunRecord *run, const char *status, bool report);
/* Begins a run record of kind with the engine's version and the bench signature of v
 * (the signature of its search and evaluation); the new run's id, or -1 after printing
 * the error (the bench cannot run, or the store failed). */
int64_t run_record_begin(Store *store, const char *db_path, const char *kind, const Variant *v,
                         const char *params, int64_t weights_id);

#endif
