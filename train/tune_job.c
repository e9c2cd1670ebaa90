/* A fit from the command line's inputs to its weights file (tune_job.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "train_status.h"
#include "tune_job.h"
#include "tune_step.h"
#include "weights_store.h"

/* The output file (of the option named, holding `what`) can be written: checked before
 * the fit, which may take minutes, by creating its temporary file (the name weights_save
 * and dataset_save write first) and removing it. */
static int check_out_path(const char *option, const char *path, const char *what)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return train_refuse("%s %s is a directory: give a file name for the %s", option, path, what);
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return train_refuse("%s %s: path too long", option, path);
    bool existed = stat(tmp, &st) == 0;
    int fd = open(tmp, O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return train_fail("%s %s: cannot write there: %s", option, path, strerror(errno));
    close(fd);
    if (!existed)
        unlink(tmp);
    return TRAIN_OK;
}

/* The runs to learn from into *ids (malloc'd) and *n: the named ones checked, or the
 * stored ones chosen. */
static int choose_runs(Store *store, const TuneConfig *cfg, const TuneJob *job, int64_t **ids, int *n)
{
    if (!job->runs)
        return tune_stored_runs(store, job->db, cfg->variant, job->last, ids, n);
    int code = tune_check_runs(store, job->db, cfg->variant, job->runs, job->nruns);
    if (code != TRAIN_OK)
        return code;
    if (!(*ids = malloc(sizeof **ids * (size_t)(job->nruns ? job->nruns : 1))))
        return train_fail("out of memory");
    memcpy(*ids, job->runs, sizeof **ids * (size_t)job->nruns);
    *n = job->nruns;
    return TRAIN_OK;
}

/* Reading and writing positions, shown on a terminal. */
static void show_data_progress(void *ctx, const char *stage, size_t done, size_t total)
{
    (void)ctx;
    if (total)
        fprintf(stderr, "\rtune: %s %zu of %zu positions   ", stage, done, total);
    else
        fprintf(stderr, "\rtune: %s %zu positions   ", stage, done);
}

/* --save-data: the positions selected written to the packed file. */
static int save_positions(Store *store, const TuneConfig *cfg, const TuneJob *job)
{
    TuneOutcome out;
    bool ok = tune_save_data(store, cfg, job->save_path, &out);
    if (job->show)
        fputc('\n', stderr);
    weights_free(&out.weights);
    if (!ok)
        return train_fail("tune: %s", out.error);
    struct stat st;
    double size = stat(job->save_path, &st) == 0 ? (double)st.st_size : 0;
    printf("tune data: %zu positions kept, %zu duplicates dropped, %.1f MiB in memory; %s: %.1f MiB "
           "(%.0f bytes a position)\n", out.positions, out.duplicates, (double)out.dataset_bytes / (1024.0 * 1024.0),
           job->save_path, size / (1024.0 * 1024.0), out.positions ? size / (double)out.positions : 0.0);
    return TRAIN_OK;
}

int tune_job_run(const TuneConfig *cfg_, const TuneJob *job)
{
    TuneConfig cfg = *cfg_; /* a copy: the run list below is this call's */
    /* Inputs and output first: a fit can take minutes.  The database is opened to write
     * (tune records its run, the weights and the fit there) but never created. */
    struct stat st;
    const char *db = job->db;
    int code = stat(db, &st) != 0 ? train_fail("%s: no such database", db)
               : !S_ISREG(st.st_mode) ? train_fail("%s: not a database file", db)
               : job->save_path ? check_out_path("--save-data", job->save_path, "positions")
               : check_out_path("--out", job->out_path, "weights");
    if (code == TRAIN_OK && cfg.data_path && access(cfg.data_path, R_OK) != 0)
        code = train_refuse("--data %s: %s", cfg.data_path, strerror(errno));
    if (code != TRAIN_OK)
        return code;
    if (job->show)
        cfg.data_progress = show_data_progress;
    char err[512];
    Store *store = store_open(db, err, sizeof err);
    if (!store)
        return train_fail("%s", err);
    int64_t *ids = NULL;
    if (!cfg.data_path) /* a file's positions were chosen when it was saved */
        code = choose_runs(store, &cfg, job, &ids, &cfg.nruns);
    cfg.run_ids = ids;
    if (code == TRAIN_OK && job->save_path) {
        code = save_positions(store, &cfg, job);
        store_close(store);
        free(ids);
        return code;
    }
    int64_t parent = code == TRAIN_OK ? weights_store_save(store, &cfg.start, 0, 0, "tune start") : 0;
    if (parent < 0)
        code = train_fail("%s: %s", db, store_error(store));
    if (code == TRAIN_OK)
        code = tune_step(store, &cfg, parent, 0, job->out_path, job->show, job->stop, NULL);
    store_close(store);
    free(ids);
    return code;
}
