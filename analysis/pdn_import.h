/* `dama pdn import`: the games of a PDN file checked against the rules and stored.
 *
 * Every move is checked; a bad game is reported as "FILE:LINE: game N, move M: why" (or
 * "FILE:LINE: game N: what: why" for its tags, its result and the syntax) and skipped, the
 * good ones are stored in one transaction per file, so a game is stored whole or not at
 * all.  A game already in the database is not stored again.  A game without a result
 * ('*' or none) that the rules do not end either is stored as unfinished (a fragment, a
 * game in progress): it can be analysed and replayed; the tuner and the statistics leave
 * it out. */
#ifndef DAMA_PDN_IMPORT_H
#define DAMA_PDN_IMPORT_H

#include <stdio.h>

#include "pdn_read.h"
#include "store.h"

typedef struct PdnImportConfig {
    const Variant *variant;
    Rules rules;
    FILE *errors;             /* where bad games are reported */
    const atomic_bool *stop;  /* Ctrl-C, SIGTERM (may be NULL): the file's import stops */
    /* The import run, made when the first new game is stored: */
    const char *params, *engine_version, *bench_signature;
} PdnImportConfig;

typedef struct PdnImportCounts {
    int games, imported, duplicates, bad;
} PdnImportCounts;

/* One good game as the store keeps it, with the memory its record points to. */
typedef struct PdnRecord {
    StorePdnImport imp;
    Position start;
    bool setup;               /* a FEN tag set the start up */
    char *moves, *fen, *identity, *source;
    StorePdnTag *tags;
    StorePdnNote *notes;
    StoredPosition *positions;
} PdnRecord;

/* Checks game g of the file called path against cfg's rules, replaying it in *game
 * (scratch): 1 with *out filled (free with pdn_record_free) when it is good, 0 when it is
 * bad (reported on cfg->errors), -1 when out of memory. */
int pdn_record_make(const PdnImportConfig *cfg, const char *path, const PdnGame *g, Game *game,
                    PdnRecord *out);
void pdn_record_free(PdnRecord *r);
/* The record as PDN text, as `dama pdn export` writes it after an import. */
bool pdn_record_write(FILE *f, const PdnRecord *r, const Variant *v, const Rules *rules, char *err,
                      size_t errlen);

/* Imports the file at path into s (run *run_id, created when <= 0 and needed) and adds to
 * *counts.  The file is read game by game (pdn_read_file) and its good games are stored in
 * batches inside one transaction: the whole file's or, on any failure or a stop, none.
 * Returns 0 (bad games are counted, not failures), 2 when the file cannot be read, is no
 * text or holds a game longer than PDN_GAME_MAX_BYTES (err: "FILE[:LINE]: why"), 130 when
 * cfg->stop was set (nothing of the file stored), or 1 when the database fails or memory
 * runs out (err). */
int pdn_import_file(Store *s, const PdnImportConfig *cfg, const char *path, int64_t *run_id,
                    PdnImportCounts *counts, char *err, size_t errlen);

#endif
