/* `dama analyze --in/--game/--run` as one call: the positions read (bad lines reported),
 * searched in parallel, written as CSV and, with a database, stored as an analysis run.
 * The command line checks the options and prints; a script or the server may call this. */
#ifndef DAMA_BATCH_JOB_H
#define DAMA_BATCH_JOB_H

#include <stdatomic.h>
#include <stdio.h>

#include "batch.h"

typedef struct BatchJob {
    const Variant *variant;
    Rules rules;
    const Weights *weights;
    const char *weights_name;   /* as given (stored in the run's params); NULL = built-in best */
    SearchLimits limits;
    int threads;
    long hash_mb;
    /* One source: a file (in, pdn or FEN lines), a stored game or a sample of a run. */
    const char *in;
    bool pdn;
    int64_t game, run, sample;
    uint64_t seed;              /* the sample's; 0 = 1 */
    BatchPlies plies;
    bool strict;
    const char *db;             /* NULL: dama.db for --game/--run, none for a file */
    const char *out;            /* the CSV; NULL = stdout */
    const char *engine_version; /* stored with the run */
    bool progress;              /* a progress line on stderr */
    const atomic_bool *stop;    /* Ctrl-C, SIGTERM (may be NULL) */
} BatchJob;

typedef struct BatchJobReport {
    int count, bad;             /* positions analysed, bad input lines */
} BatchJobReport;

/* Runs the job: bad lines and a database that will not be written are reported on log.
 * Returns 0 (*report filled; bad lines do not make it fail), 2 (bad input, a file without
 * positions, strict and a bad line), 1 (a file, the database or memory failed) or 130
 * (interrupted: the finished rows written, nothing stored), with err the line that says
 * why ("" when it was already reported). */
int batch_job_run(const BatchJob *job, FILE *log, BatchJobReport *report, char *err, size_t errlen);

#endif
