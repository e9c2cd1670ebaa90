/* Solving endgame classes: iterated forward passes with dama's own move generator, and the
 * full consistency check of a class on disk. */
#ifndef DAMA_EGDB_BUILD_H
#define DAMA_EGDB_BUILD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "egdb_probe.h"

typedef struct EgdbBuildOptions {
    int pieces;               /* every class of 2..pieces pieces */
    const atomic_bool *stop;  /* set (Ctrl-C): the class under way is dropped, none written */
    FILE *progress;           /* progress and ETA lines; NULL: quiet */
    bool kings_only;          /* only the classes without men (quick: tests, kings' endings) */
    int threads;              /* threads of each pass; 0: OpenMP's default (the CPUs).  The
                               * files are the same whatever the count */
} EgdbBuildOptions;

enum EgdbBuildStatus { EGDB_BUILD_OK = 0, EGDB_BUILD_FAILED, EGDB_BUILD_INTERRUPTED };

/* Builds into db's directory every class up to opt->pieces that has no valid file there,
 * lower piece counts first and, within a count, fewer men first (a capture leads to fewer
 * pieces, a promotion to fewer men: both solved before).  A class and its mirror (the same
 * material, the other side to move) are solved together.  Returns enum EgdbBuildStatus;
 * err tells why on EGDB_BUILD_FAILED. */
int egdb_build(Egdb *db, const EgdbBuildOptions *opt, char *err, size_t errlen);

/* The value of a normalized position from its successors' values in db: the rules' end of
 * the game (game_end without draw counters) first, then WIN when a move leads to a LOSS,
 * LOSS when every move leads to a WIN, else DRAW.  EGDB_UNKNOWN when a successor's class
 * is not available.  list is scratch room. */
int egdb_rate(Egdb *db, const Position *normalized, MoveList *list);

typedef struct EgdbVerifyReport {
    uint64_t positions;        /* indices that are positions */
    uint64_t count[3];         /* by value: EGDB_DRAW, EGDB_WIN, EGDB_LOSS */
    uint64_t inconsistent;     /* positions whose value egdb_rate contradicts */
    uint64_t first_bad;        /* index of the first of them */
} EgdbVerifyReport;

/* Checks every position of class cls in db against its successors, on threads threads (0:
 * the CPUs; the report does not depend on it); false with err when the class or a
 * successor's class cannot be read.  r->inconsistent == 0 is a pass. */
bool egdb_verify_class(Egdb *db, EgdbClass cls, int threads, EgdbVerifyReport *r, char *err, size_t errlen);

#endif
