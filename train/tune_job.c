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

/* The weights file can be written: checked before the fit, which may take minutes, by
 * creating its temporary file (the name weights_save writes first) and removing it. */
static int check_out_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return train_refuse("--out %s is a directory: give a file name for the weights", path);
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return train_refuse("--out %s: path too long", path);
    bool existed = stat(tmp, &st) == 0;
    int fd = open(tmp, O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return train_fail("--out %s: cannot write there: %s", path, strerror(errno));
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

int tune_job_run(const TuneConfig *cfg_, const TuneJob *job)
{
    TuneConfig cfg = *cfg_; /* a copy: the run list below is this call's */
    /* Inputs and output first: a fit can take minutes.  The database is opened to write
     * (tune records its run, the weights and the fit there) but never created. */
    struct stat st;
    const char *db = job->db;
    int code = stat(db, &st) != 0 ? train_fail("%s: no such database", db)
               : !S_ISREG(st.st_mode) ? train_fail("%s: not a database file", db)
               : check_out_path(job->out_path);
    if (code != TRAIN_OK)
        return code;
    char err[512];
    Store *store = store_open(db, err, sizeof err);
    if (!store)
        return train_fail("%s", err);
    int64_t *ids = NULL;
    code = choose_runs(store, &cfg, job, &ids, &cfg.nruns);
    cfg.run_ids = ids;
    int64_t parent = code == TRAIN_OK ? weights_store_save(store, &cfg.start, 0, 0, "tune start") : 0;
    if (parent < 0)
        code = train_fail("%s: %s", db, store_error(store));
    if (code == TRAIN_OK)
        code = tune_step(store, &cfg, parent, 0, job->out_path, job->show, job->stop, NULL);
    store_close(store);
    free(ids);
    return code;
}
