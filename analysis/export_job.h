/* `dama export WHAT|all --out FILE|DIR/` as one call: one table or every table into CSV
 * files from one snapshot of the store, so the files agree while self-play writes. */
#ifndef DAMA_EXPORT_JOB_H
#define DAMA_EXPORT_JOB_H

#include "export.h"

/* Writes what (an export_names entry, "all" or NULL = all) to out: the file itself, or with
 * dir set one file WHAT.csv each in the directory out (made when missing).  A run named in
 * o->run_id must be of o->variant (and is then counted whatever its status).  After each
 * file prints "export WHAT rows N file PATH time T rows/s R" on report.  Returns 0, 2 (no
 * such run, or one of another variant), 1 (the database, a file or memory failed) or 130
 * (interrupted: that file not written), with err the line that says why. */
int export_job_run(Store *store, const char *db_path, const char *what, ExportOptions *o, const char *out,
                   bool dir, FILE *report, char *err, size_t errlen);

#endif
