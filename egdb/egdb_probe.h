/* The endgame databases of one variant in a directory, as the search, adjudication and the
 * command line read them.  Classes are loaded on first use; a file that is missing,
 * truncated, corrupted or built for other rules is reported once on stderr by name and
 * never used (its positions probe as EGDB_UNKNOWN).
 *
 * Values are perfect play to the end the rules give without their move-count draws (see
 * docs/egdb.md): the search should take a win or loss as a bound, not as the final word
 * under the no-progress (Turkish) or 16/25-move (International) counters. */
#ifndef DAMA_EGDB_PROBE_H
#define DAMA_EGDB_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "egdb_table.h"

#define EGDB_UNKNOWN (-1) /* not covered: too many pieces, or its class is unusable */

typedef struct Egdb Egdb;

/* The databases of v under rules in dir (nothing is read yet); NULL when out of memory. */
Egdb *egdb_open(const Variant *v, const Rules *rules, const char *dir);
void egdb_close(Egdb *db);
/* The largest piece count with any class file in dir (0: none); a position with more
 * pieces is never probed further.  Checked once at open. */
int egdb_max_pieces(const Egdb *db);
/* Silences the reports of unusable files (tests that expect them). */
void egdb_set_quiet(Egdb *db, bool quiet);

/* pos's value for its side to move: EGDB_WIN, EGDB_DRAW or EGDB_LOSS, or EGDB_UNKNOWN.
 * Safe to call from several threads. */
int egdb_probe(Egdb *db, const Position *pos);

/* The table of a class, loaded now if need be; NULL when its file is unusable. */
const EgdbTable *egdb_table(Egdb *db, EgdbClass cls);
/* Hands a table built in memory to db (the builder: classes solved so far); db frees it.
 * Not while other threads probe db. */
void egdb_adopt(Egdb *db, EgdbTable *t);
/* Text of the rules the files must have been built for (rules_describe). */
const char *egdb_rules_text(const Egdb *db);
const Variant *egdb_variant(const Egdb *db);
const char *egdb_dir(const Egdb *db);
/* The file of class cls in db's directory (egdb_file_path). */
void egdb_file_path_for(const Egdb *db, EgdbClass cls, char *buf, size_t len);
const Rules *egdb_rules(const Egdb *db);

#endif
