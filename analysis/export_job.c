/* Tables of the store into CSV files, from one snapshot (export_job.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "export_job.h"
#include "job_error.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes one WHAT and prints its line: an exit code. */
static int export_one(Store *store, const char *what, const ExportOptions *o, const char *path, FILE *report,
                      char *err, size_t errlen)
{
    char why[512];
    int64_t rows = 0;
    double t0 = now_seconds();
    if (!export_write(store, what, o, path, &rows, why, sizeof why)) {
        if (o->stop && atomic_load(o->stop))
            return job_fail(130, err, errlen, "interrupted: %s not written", path);
        return job_fail(1, err, errlen, "export %s: %s", what, why);
    }
    double t = now_seconds() - t0;
    fprintf(report, "export %s rows %lld file %s time %.3f rows/s %.0f\n", what, (long long)rows, path, t,
            t > 0 ? (double)rows / t : 0.0);
    fflush(report);
    return 0;
}

/* The run named is of the variant: an exit code. */
static int check_run(Store *store, const char *db_path, const ExportOptions *o, char *err, size_t errlen)
{
    char variant[32] = "";
    int found = store_run_info(store, o->run_id, NULL, 0, NULL, 0, NULL, variant, sizeof variant);
    if (found < 0)
        return job_fail(1, err, errlen, "%s: %s", db_path, store_error(store));
    if (!found)
        return job_fail(2, err, errlen, "no run %lld in %s", (long long)o->run_id, db_path);
    if (strcmp(variant, o->variant->name) != 0)
        return job_fail(2, err, errlen, "%s: run %lld plays %s, not %s", db_path, (long long)o->run_id, variant,
                    o->variant->name);
    return 0;
}

/* Every WHAT asked for into the directory out: an exit code. */
static int export_dir(Store *store, const char *what, const ExportOptions *o, const char *out, FILE *report,
                      char *err, size_t errlen)
{
    size_t outlen = strlen(out);
    if (mkdir(out, 0777) != 0 && errno != EEXIST)
        return job_fail(1, err, errlen, "%s: cannot create the directory: %s", out, strerror(errno));
    int code = 0;
    for (int i = 0; export_names[i] && code == 0; i++) {
        if (what && strcmp(what, "all") != 0 && strcmp(what, export_names[i]) != 0)
            continue;
        size_t len = outlen + strlen(export_names[i]) + 8;
        char *path = malloc(len);
        if (!path)
            return job_fail(1, err, errlen, "out of memory");
        snprintf(path, len, "%s%s%s.csv", out, out[outlen - 1] == '/' ? "" : "/", export_names[i]);
        code = export_one(store, export_names[i], o, path, report, err, errlen);
        free(path);
    }
    return code;
}

int export_job_run(Store *store, const char *db_path, const char *what, ExportOptions *o, const char *out,
                   bool dir, FILE *report, char *err, size_t errlen)
{
    err[0] = '\0';
    /* Every file from one snapshot, so that they agree while self-play writes. */
    if (!store_snapshot_begin(store))
        return job_fail(1, err, errlen, "%s: %s", db_path, store_error(store));
    o->include_unfinished |= o->run_id > 0; /* a run named is counted whatever its status */
    int code = o->run_id > 0 ? check_run(store, db_path, o, err, errlen) : 0;
    if (code == 0)
        code = dir ? export_dir(store, what, o, out, report, err, errlen)
                   : export_one(store, what, o, out, report, err, errlen);
    store_snapshot_end(store);
    return code;
}
