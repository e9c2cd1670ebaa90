/* `dama analyze` of one position as one call: a finished game says how it ended, a
 * position of the opening book is answered from the book, any other is searched with the
 * game's history (repetitions, draw counters) and the endgame databases.  The command line
 * reads the options and prints the search's iterations; a script may call this. */
#ifndef DAMA_POSITION_JOB_H
#define DAMA_POSITION_JOB_H

#include <stdatomic.h>
#include <stdio.h>

#include "egdb_search.h"
#include "game.h"
#include "search.h"

typedef struct PositionJob {
    const Variant *variant;
    Rules rules;
    const Game *game;          /* the game so far: its position is the one analysed */
    const Weights *weights;
    SearchLimits limits;
    long hash_mb;
    int threads;               /* search threads (Lazy SMP); 0 or 1: one, deterministic */
    Egdb *egdb;                /* NULL: none */
    const char *book_path;     /* NULL: none */
    SearchReport report;       /* each completed iteration (may be NULL) */
    void *report_ctx;
    const atomic_bool *stop;   /* Ctrl-C, SIGTERM (may be NULL) */
} PositionJob;

/* Writes the answer on out: "game over: REASON", or the book's "book MOVE games N score S"
 * lines, or "info egdb probes N hits H" (with databases), then "bestmove MOVE" (or
 * "bestmove none").  Returns 0, 1 (no memory for the hash table or the threads, message
 * in err), 2 (a book that does not read or is another game's, message in err) or 130
 * (interrupted: the last completed iteration's move is still written). */
int position_job_run(const PositionJob *job, FILE *out, char *err, size_t errlen);

#endif
