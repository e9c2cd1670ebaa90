/* `dama tune` as one call, once its options and starting weights are read: the inputs and
 * the output checked first (a fit can take minutes), the runs chosen, the fit run and
 * recorded (tune_step.h). */
#ifndef DAMA_TUNE_JOB_H
#define DAMA_TUNE_JOB_H

#include <stdatomic.h>

#include "tune.h"

typedef struct TuneJob {
    const char *db;           /* opened to write (never created) */
    const char *out_path;     /* the weights file, checked writable before the fit */
    const int64_t *runs;      /* the runs named (--runs), or NULL: ... */
    int nruns;
    long last;                /* ... the last generations' self-play runs (0: every run) */
    const char *save_path;    /* --save-data: write the selected positions there and stop */
    bool show;                /* the fit's progress on stderr */
    const atomic_bool *stop;  /* Ctrl-C, SIGTERM (may be NULL) */
} TuneJob;

/* Fits cfg (its start weights read; its run list set here) as the job says, or with
 * save_path writes the positions it would fit to that packed file (tune_save_data) and
 * stops; with cfg->data_path the positions are that file's (no runs are chosen).  Returns
 * a TrainStatus (train_status.h), the error line printed. */
int tune_job_run(const TuneConfig *cfg, const TuneJob *job);

#endif
