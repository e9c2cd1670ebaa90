/* `dama egdb verify` as one call: every class file of a directory checked in full
 * (egdb_verify_class), one line a class on the caller's stream. */
#ifndef DAMA_EGDB_VERIFY_H
#define DAMA_EGDB_VERIFY_H

#include <stdio.h>

#include "egdb_build.h"

typedef struct EgdbVerifyTotals {
    int classes, failures; /* class files checked, and those that failed */
} EgdbVerifyTotals;

/* Checks the class files in dir of up to max_pieces pieces: of variant only with its rules,
 * or (only NULL) of every variant with its default rules, each on threads threads (0: the
 * CPUs; the lines do not depend on it).  Classes not built are skipped.
 * Prints on out, as each class is checked, "VARIANT CLASS ok|FAILED positions N win W draw
 * D loss L inconsistent I" or "VARIANT CLASS FAILED why".  False when out of memory. */
bool egdb_verify_dir(const Variant *only, const Rules *rules, const char *dir, int max_pieces, int threads,
                     FILE *out, EgdbVerifyTotals *totals);

#endif
