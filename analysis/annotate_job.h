/* `dama annotate` as one call: the games read (a PDN file, a stored game or a run's games),
 * their positions searched in parallel, the annotated games written as PDN and CSV, and a
 * stored game's analysis kept as one run of kind analysis (what the replay page reads).
 * The command line checks the options and prints; a script or the server may call this. */
#ifndef DAMA_ANNOTATE_JOB_H
#define DAMA_ANNOTATE_JOB_H

#include <stdatomic.h>
#include <stdio.h>

#include "egdb_probe.h"
#include "search.h"

/* The default level (depth) when no limit is given: deep enough to see a piece hung to a multi-capture, a few seconds a
 * game on one core. */
#define ANNOTATE_DEFAULT_DEPTH 10

typedef struct AnnotateJob {
    const Variant *variant;
    Rules rules;
    const Weights *weights;
    const char *weights_name;   /* as given (stored in the run's params); NULL = built-in best */
    SearchLimits limits;
    long hash_mb;
    int threads;
    Egdb *egdb;                 /* endgame databases the searches probe (NULL: none) */
    const char *in;             /* a PDN file, or else ... */
    const char *db;             /* ... the database (NULL = dama.db) and game or run */
    int64_t game, run;
    const char *out;            /* the PDN (NULL or "-" = the caller's stream) */
    const char *csv;            /* the CSV, or NULL */
    const char *engine_version; /* stored with the run */
    bool progress;              /* a progress line on stderr */
    const atomic_bool *stop;    /* Ctrl-C, SIGTERM (may be NULL) */
} AnnotateJob;

/* Runs the job: the PDN goes to out (or job->out), "annotated N games: A ?!, B ?, C ??" and
 * a database that will not be written go to log.  Returns 0, 2 (bad input), 1 (a file, the
 * database or memory failed) or 130 (interrupted: nothing written), with err the line that
 * says why ("" when it was already reported). */
int annotate_job_run(const AnnotateJob *job, FILE *out, FILE *log, char *err, size_t errlen);

#endif
