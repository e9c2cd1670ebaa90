/* `dama pdn export` as one call: the games of the variant (all, a run's or one) read from
 * the store in one snapshot and written as PDN 3.0 to a file or stdout.  A game dama played
 * gets the tags dama writes (Event, Site, Date, Round, White, Black, Dama*); an imported game
 * keeps the tags it had. */
#ifndef DAMA_PDN_EXPORT_H
#define DAMA_PDN_EXPORT_H

#include <stdatomic.h>

#include "store.h"

typedef struct PdnExport {
    Store *store;
    const char *db_path;     /* named in messages */
    const Variant *variant;
    const Rules *rules;
    int64_t run_id, game_id; /* 0 = every game of the variant; at most one of them */
    const char *out;         /* the file (NULL or "-" = stdout), written whole or not at all */
    const atomic_bool *stop; /* Ctrl-C, SIGTERM (may be NULL) */
} PdnExport;

/* Writes the games.  Returns 0 (*ngames written), 2 (no such game or run, or one of another
 * variant), 1 (the database, the file or memory failed) or 130 (interrupted: nothing
 * written), with err the line that says why. */
int pdn_export_run(const PdnExport *job, int64_t *ngames, char *err, size_t errlen);

#endif
