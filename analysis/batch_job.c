/* A batch analysis from its source to its CSV and stored run (batch_job.h). */
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "batch_job.h"
#include "job_error.h"
#include "bench.h"
#include "weights_store.h"

/* The database: read for a game or a run (it must exist), written when one is used; with a
 * file it is opened only once there are results to store.  *db_path is where the results
 * go (NULL: nowhere). */
static int open_source(const BatchJob *job, FILE *log, Store **store, const char **db_path, char *err,
                       size_t errlen)
{
    *store = NULL;
    *db_path = job->db ? job->db : job->in ? NULL : "dama.db";
    const char *path = *db_path;
    if (path && !job->in && access(path, F_OK) != 0)
        return job_fail(1, err, errlen, "%s: no such database", path);
    if (path && !job->in && !(*store = store_open_readonly(path, err, errlen)))
        return 1;
    /* A database analysed but not writable (a read-only file, directory or file system) is
     * still read: the CSV is the result, the stored analyses a by-product it goes without.
     * A file with a database asks for the storing itself, so there it stays a failure. */
    char why[512];
    if (path && job->in && !store_path_writable(path, why, sizeof why))
        return job_fail(1, err, errlen, "%s: cannot write the database: %s", path, why);
    if (*store && !store_path_writable(path, why, sizeof why)) {
        fprintf(log, "dama: %s: the analyses will not be stored: cannot write the database: %s\n",
                path, why);
        *db_path = NULL;
    }
    return 0;
}

/* The positions of the source into list: an exit code. */
static int read_positions(const BatchJob *job, Store *store, BatchList *list, char *err, size_t errlen)
{
    int code;
    err[0] = '\0';
    if (job->in)
        code = job->pdn ? batch_read_pdn_file(list, job->variant, &job->rules, job->in, &job->plies, err, errlen)
                        : batch_read_fen_file(list, job->variant, job->in, err, errlen);
    else if (job->game)
        code = batch_add_game(list, store, job->variant, job->game, &job->plies, err, errlen);
    else
        code = batch_add_run_sample(list, store, job->variant, job->run, job->sample,
                                    job->seed ? job->seed : 1, err, errlen);
    if (code && !err[0] && job->strict)
        snprintf(err, errlen, "stopped at the first bad line (--strict): nothing written");
    if (!code && job->in && list->count == 0 && list->bad == 0)
        return job_fail(2, err, errlen, "%s: no positions in the file", job->in);
    return code;
}

/* The results as one run of kind analysis in db_path: an exit code. */
static int store_results(const BatchJob *job, const char *db_path, const BatchList *list,
                         const BatchResult *results, time_t started, char *err, size_t errlen)
{
    Store *store = store_open(db_path, err, errlen);
    if (!store)
        return 1;
    char signature[64];
    if (!bench_signature(job->variant, signature, sizeof signature, err, errlen)) {
        store_close(store);
        return 1;
    }
    char source[600], params[1024];
    uint64_t seed = job->seed ? job->seed : 1;
    if (job->in)
        snprintf(source, sizeof source, "file:%s format=%s", job->in, job->pdn ? "pdn" : "fen");
    else if (job->game)
        snprintf(source, sizeof source, "game:%lld", (long long)job->game);
    else
        snprintf(source, sizeof source, "run:%lld sample=%lld seed=%llu", (long long)job->run,
                 (long long)job->sample, (unsigned long long)seed);
    snprintf(params, sizeof params, "source=%s depth=%d nodes=%llu movetime=%d threads=%d "
             "hash=%ld weights=%s", source, job->limits.depth, (unsigned long long)job->limits.nodes,
             job->limits.movetime_ms, job->threads, job->hash_mb,
             job->weights_name ? job->weights_name : "best");
    int64_t weights_id = weights_store_save(store, job->weights, 0, 0,
                                                job->weights_name ? job->weights_name
                                                                  : "built-in best weights");
    int64_t run_id = weights_id < 0 ? -1
                     : batch_store(store, job->variant, list, results, params, job->engine_version,
                                   signature, weights_id, (int64_t)started);
    int code = 0;
    if (run_id < 0)
        code = job_fail(1, err, errlen, "%s: %s", db_path, store_error(store));
    store_close(store);
    return code;
}

/* Searches the positions and writes the CSV, then stores the results: an exit code. */
static int analyse(const BatchJob *job, const char *db_path, const BatchList *list, time_t started,
                   char *err, size_t errlen)
{
    BatchConfig cfg = {
        .variant = job->variant,
        .rules = job->rules,
        .weights = job->weights,
        .limits = job->limits,
        .threads = job->threads,
        .hash_mb = (size_t)job->hash_mb,
        .progress = job->progress,
        .stop = job->stop,
        .egdb = job->egdb,
    };
    BatchResult *results = NULL;
    bool interrupted = false;
    int code = 0;
    if (!batch_run(&cfg, list, &results, &interrupted, err, errlen) ||
        !batch_write_csv(list, results, job->out, err, errlen))
        code = 1;
    if (code == 0 && interrupted) {
        /* The finished positions are written (a complete CSV without the unfinished rows);
         * the database gets only whole analyses, so it is left as it was. */
        int written = 0;
        for (int i = 0; i < list->count; i++)
            written += results[i].done;
        code = job_fail(130, err, errlen, "interrupted: wrote %d of %d positions%s", written, list->count,
                    db_path ? ", nothing stored in the database" : "");
    }
    if (code == 0 && db_path)
        code = store_results(job, db_path, list, results, started, err, errlen);
    batch_results_free(results, list->count);
    return code;
}

int batch_job_run(const BatchJob *job, FILE *log, BatchJobReport *report, char *err, size_t errlen)
{
    Store *store;
    const char *db_path;
    err[0] = '\0';
    int code = open_source(job, log, &store, &db_path, err, errlen);
    if (code)
        return code;
    time_t started = time(NULL);
    BatchList list;
    batch_list_init(&list, log, job->strict);
    list.stop = job->stop; /* reading the input stops on Ctrl-C or SIGTERM too */
    code = read_positions(job, store, &list, err, errlen);
    /* Read: the results are stored through a writer opened when there are some. */
    store_close(store);
    if (code == 0)
        code = analyse(job, db_path, &list, started, err, errlen);
    if (code == 0)
        *report = (BatchJobReport){ list.count, list.bad };
    batch_list_free(&list);
    return code;
}
