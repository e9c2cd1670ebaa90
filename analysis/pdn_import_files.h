/* `dama pdn import FILE...` as one call: every file imported in order into one run of kind
 * import (pdn_import.h), one line a file on the caller's stream, the run ended with its
 * status. */
#ifndef DAMA_PDN_IMPORT_FILES_H
#define DAMA_PDN_IMPORT_FILES_H

#include "pdn_import.h"

/* Imports paths[0..n) into store (named db_path in messages) by cfg (whose params this
 * sets: the rules and the files).  Prints "pdn import FILE games N imported I already D bad
 * B" on out after each file; a file that cannot be read is reported on cfg->errors and the
 * next one read.  Returns 0, 2 (a bad game or file: the good games are imported), 1 (the
 * database or memory failed) or 130 (interrupted: the files done so far stay imported),
 * with err the line that says why ("" when it was reported). */
int pdn_import_files(Store *store, const char *db_path, PdnImportConfig *cfg, char *const *paths, int n,
                     FILE *out, char *err, size_t errlen);

#endif
