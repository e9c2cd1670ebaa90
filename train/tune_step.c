/* The tune step (dama tune, and each generation's candidate): the fit recorded as a tune
 * run with its per-epoch losses, the weights stored (and written to a file if asked). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train_status.h"
#include "tune_step.h"
#include "version.h"
#include "weights_store.h"

/* Per-epoch losses, kept for the database and shown on a terminal. */
typedef struct EpochLog {
    double *train, *valid;
    int count, cap;
    bool show;
    const atomic_bool *stop;
} EpochLog;

static bool log_epoch(void *ctx, int epoch, double train_loss, double valid_loss)
{
    EpochLog *log = ctx;
    if (log->count == log->cap) {
        int cap = log->cap ? log->cap * 2 : 64;
        double *t = realloc(log->train, (size_t)cap * sizeof *t);
        if (t)
            log->train = t;
        double *v = realloc(log->valid, (size_t)cap * sizeof *v);
        if (v)
            log->valid = v;
        if (!t || !v)
            return false;
        log->cap = cap;
    }
    log->train[log->count] = train_loss;
    log->valid[log->count++] = valid_loss;
    if (log->show)
        fprintf(stderr, "\rtune: epoch %4d  train %.6f  validation %.6f   ", epoch, train_loss, valid_loss);
    return !(log->stop && atomic_load(log->stop));
}

/* The tune run's params: the fit's settings, its generation and the runs it learns from. */
static void tune_params(const TuneConfig *c, int generation, char *params, size_t len)
{
    int n = snprintf(params, len, "generation=%d epochs=%d lr=%g batch=%zu validation=%g "
                     "skip_plies=%d lambda=%g reg=%g dedup=%d runs=", generation, c->epochs, c->learning_rate,
                     c->batch, c->validation, c->skip_plies, c->lambda, c->reg, c->dedup);
    for (int i = 0; i < c->nruns && n > 0 && (size_t)n < len - 24; i++)
        n += snprintf(params + n, len - (size_t)n, "%s%lld", i ? "," : "", (long long)c->run_ids[i]);
    if (c->nruns == 0)
        n += snprintf(params + n, len - (size_t)n, "all");
    if (eval_spec_is_pattern(c->start.spec) && n > 0 && (size_t)n < len)
        n += snprintf(params + n, len - (size_t)n, " eval=pattern"); /* only then: as before */
    if (c->data_path && n > 0 && (size_t)n < len) /* the runs were the file's save's */
        snprintf(params + n, len - (size_t)n, " data=%s", c->data_path);
}

int tune_step(Store *store, const TuneConfig *cfg, int64_t parent_weights_id, int generation,
              const char *out_path, bool show, const atomic_bool *stop, int64_t *result_weights_id)
{
    EpochLog log = { .show = show, .stop = stop };
    TuneConfig c = *cfg;
    c.progress = log_epoch;
    c.ctx = &log;
    TuneOutcome out;
    int code = TRAIN_OK;
    char params[512];
    tune_params(&c, generation, params, sizeof params);
    int64_t run_id = store_run_begin(store, "tune", c.variant, params, dama_engine_version(), NULL,
                                     parent_weights_id);
    if (run_id < 0) {
        free(log.train);
        free(log.valid);
        return train_fail("tune: %s", store_error(store));
    }
    bool ok = tune_run(store, &c, &out);
    bool interrupted = stop && atomic_load(stop);
    bool ended = store_run_end(store, run_id, interrupted ? "interrupted" : ok ? "done" : "failed");
    if (show)
        fputc('\n', stderr);
    if (!ended) {
        code = train_fail("tune: recording the end of run %lld: %s", (long long)run_id,
                                 store_error(store));
        goto done;
    }
    if (interrupted) {
        fprintf(stderr, "dama: interrupted: the fit is dropped\n");
        code = TRAIN_INTERRUPTED;
        goto done;
    }
    if (!ok) {
        code = train_fail("tune: %s", out.error);
        goto done;
    }
    int64_t wid = weights_store_save(store, &out.weights, generation, parent_weights_id, "tuned");
    TuneRunRecord rec = {
        .run_id = run_id, .parent_weights_id = parent_weights_id, .result_weights_id = wid, .k = out.K,
        .train_loss = out.train_loss, .validation_loss = out.valid_loss,
        .positions = (int64_t)out.positions, .epochs = out.epochs_run,
        .epoch_train = log.train, .epoch_valid = log.valid, .nepochs = log.count,
    };
    if (wid < 0 || store_tune_run_put(store, &rec) < 0) {
        code = train_fail("tune: %s", store_error(store));
        goto done;
    }
    if (result_weights_id)
        *result_weights_id = wid;
    printf("tune data: %zu positions kept, %zu duplicates dropped, %.1f MiB in memory "
           "(%.0f bytes a position), %.0f features touched a step\n",
           out.positions, out.duplicates, (double)out.dataset_bytes / (1024.0 * 1024.0),
           out.positions ? (double)out.dataset_bytes / (double)out.positions : 0.0, out.touched_per_step);
    printf("tune positions %zu (train %zu, validation %zu) K %.6g loss %.6f -> %.6f "
           "(train %.6f) epochs %d best %d time %.1f+%.1fs weights %lld\n",
           out.positions, out.train_positions, out.valid_positions, out.K, out.start_loss,
           out.valid_loss, out.train_loss, out.epochs_run, out.best_epoch, out.extract_seconds,
           out.fit_seconds, (long long)wid);
    if (out_path) {
        char err[512];
        if (!weights_save(&out.weights, out_path, err, sizeof err))
            code = train_fail("%s", err);
    }
done:
    free(log.train);
    free(log.valid);
    weights_free(&out.weights);
    return code;
}

int tune_check_runs(Store *store, const char *db, const char *variant, const int64_t *ids, int n)
{
    for (int i = 0; i < n; i++) {
        char kind[32] = "", status[32] = "", run_variant[32] = "";
        int64_t games = 0;
        int found = store_run_info(store, ids[i], kind, sizeof kind, status, sizeof status, &games,
                                   run_variant, sizeof run_variant);
        if (found < 0)
            return train_fail("%s: %s", db, store_error(store));
        if (!found)
            return train_refuse("--runs: no run %lld in %s", (long long)ids[i], db);
        if (strcmp(kind, "selfplay") != 0 && strcmp(kind, "match") != 0 && strcmp(kind, "import") != 0)
            return train_refuse("--runs: run %lld is a %s run, not a selfplay, match or import run",
                                (long long)ids[i], kind);
        if (strcmp(run_variant, variant) != 0)
            return train_refuse("--runs: run %lld plays %s, not %s", (long long)ids[i], run_variant, variant);
        if (games == 0)
            return train_refuse("--runs: run %lld (%s, %s) has no games", (long long)ids[i], kind, status);
    }
    return TRAIN_OK;
}

int tune_stored_runs(Store *store, const char *db, const char *variant, long last, int64_t **ids, int *nruns)
{
    if (!last) {
        *nruns = store_game_runs(store, variant, false, ids);
        if (*nruns < 0)
            return train_fail("%s: %s", db, store_error(store));
        if (*nruns == 0)
            return train_fail("%s: no finished self-play or match run has games (name an "
                              "unfinished one with --runs)", db);
        return TRAIN_OK;
    }
    *ids = calloc((size_t)last, sizeof **ids);
    *nruns = *ids ? store_recent_runs(store, "selfplay", variant, (int)last, *ids) : -1;
    if (*nruns < 0)
        return train_fail("%s: %s", db, store_error(store));
    if (*nruns == 0)
        return train_fail("%s: no self-play runs to learn from", db);
    return TRAIN_OK;
}
