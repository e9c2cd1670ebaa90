/* Shared plumbing of the pipeline commands. */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "game.h"
#include "pipeline.h"
#include "shipped_weights.h"
#include "variant.h"
#include "version.h"

/* The one piece of process-wide state: set by the signal handler, read by the workers. */
static atomic_bool interrupted;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, true);
}

const atomic_bool *pipeline_interrupt_flag(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A file size limit (ulimit -f) must end in a failed write that is reported, not in
     * a killed process. */
    signal(SIGXFSZ, SIG_IGN);
    return &interrupted;
}

bool pipeline_interrupted(void) { return atomic_load(&interrupted); }

const char *pipeline_engine_version(void) { return dama_engine_version(); }

/* The bench set is compiled in and pinned by tests/test_search.c, so a failure here is a
 * broken build: it stops the command before anything is written. */
void pipeline_bench_signature(const Variant *v, char *buf, size_t len)
{
    char err[512];
    if (!bench_signature(v, buf, len, err, sizeof err)) {
        cli_runtime_error("%s", err);
        exit(EXIT_RUNTIME);
    }
}

int64_t pipeline_store_weights(Store *store, const Weights *w, int generation, int64_t parent,
                               const char *note)
{
    WeightsImage img;
    if (!weights_image(w, &img))
        return -1;
    char hash[17];
    snprintf(hash, sizeof hash, "%016" PRIx64, weights_hash(w));
    int64_t id = store_weights_put_blob(store, w->spec->variant, generation, parent, img.head, img.table,
                                        img.table_len, img.table ? hash : NULL, note);
    weights_image_free(&img);
    return id;
}

bool pipeline_load_stored_weights(Store *store, const Variant *v, int64_t id, Weights *w, char *err,
                                  size_t errlen)
{
    char *text = NULL, source[64];
    unsigned char *blob = NULL;
    size_t blob_len = 0;
    if (!store_weights_get_blob(store, id, &text, &blob, &blob_len)) {
        snprintf(err, errlen, "weights %lld: %s", (long long)id, store_error(store));
        return false;
    }
    /* A file's bytes again: the head, then the table. */
    size_t text_len = strlen(text);
    char *file = realloc(text, text_len + blob_len + 1);
    bool ok = file != NULL;
    if (ok) {
        if (blob_len)
            memcpy(file + text_len, blob, blob_len);
        snprintf(source, sizeof source, "weights %lld", (long long)id);
        ok = weights_parse_variant(w, v, file, text_len + blob_len, source, err, errlen);
    } else {
        free(text);
        snprintf(err, errlen, "weights %lld: out of memory", (long long)id);
    }
    free(file);
    free(blob);
    return ok;
}
static Store *open_with(Store *(*open)(const char *, char *, size_t), const char *path)
{
    char err[512];
    Store *s = open(path, err, sizeof err);
    if (!s)
        cli_runtime_error("%s", err);
    return s;
}

Store *pipeline_open_store(const char *path) { return open_with(store_open, path); }
Store *pipeline_open_store_readonly(const char *path) { return open_with(store_open_readonly, path); }

bool pipeline_weights_by_name(Weights *w, const Variant *v, const char *name, char *err,
                              size_t errlen)
{
    if (strcmp(name, "best") == 0) {
        const unsigned char *data;
        size_t len;
        if (!shipped_weights(v->name, &data, &len)) {
            snprintf(err, errlen, "best weights: none are shipped for %s", v->name);
            return false;
        }
        return weights_parse_variant(w, v, (const char *)data, len, "built-in best weights", err, errlen);
    }
    bool builtin = strcmp(name, "default") == 0 || strcmp(name, "material") == 0;
    if (!builtin)
        return weights_load_variant_until(w, v, name, &interrupted, err, errlen);
    if (!(name[0] == 'd' ? weights_default(w, v->eval) : weights_material_only(w, v->eval))) {
        snprintf(err, errlen, "%s weights: out of memory", name);
        return false;
    }
    return true;
}

bool pipeline_eval_parse(const char *text, EvalChoice *out)
{
    if (strcmp(text, "linear") == 0)
        *out = EVAL_LINEAR;
    else if (strcmp(text, "pattern") == 0)
        *out = EVAL_PATTERN;
    else
        return cli_usage_error("bad value '%s' for --eval: expected linear or pattern", text), false;
    return true;
}

bool pipeline_tune_real(TuneRealOption option, const char *text, double *out)
{
    static const struct {
        const char *name, *expected;
        double min, max;
        bool min_open, max_open; /* min < v rather than min <= v; v < max rather than <= */
    } opts[] = {
        [TUNE_OPT_LR] = { "--lr", "a positive number", 0, INFINITY, true, false },
        [TUNE_OPT_REG] = { "--reg", "a number >= 0", 0, 1e30, false, true },
        [TUNE_OPT_LAMBDA] = { "--lambda", "a number in [0, 1]", 0, 1, false, false },
        [TUNE_OPT_VALIDATION] = { "--validation", "a number in [0, 1)", 0, 1, false, true },
    };
    char *end;
    double v = strtod(text, &end);
    /* Comparisons that are false for NaN: it is refused. */
    bool above = opts[option].min_open ? v > opts[option].min : v >= opts[option].min;
    bool below = opts[option].max_open ? v < opts[option].max : v <= opts[option].max;
    if (end == text || *end || !above || !below)
        return cli_usage_error("bad value '%s' for %s: expected %s", text, opts[option].name,
                               opts[option].expected), false;
    *out = v;
    return true;
}

bool pipeline_start_weights(Weights *w, const Variant *v, const char *name, EvalChoice eval, char *err,
                            size_t errlen)
{
    if (eval == EVAL_PATTERN && !v->pattern_eval) {
        snprintf(err, errlen, "--eval pattern: %s has no pattern evaluation in this build", v->name);
        return false;
    }
    Weights given = { 0 };
    if (!pipeline_weights_by_name(&given, v, name, err, errlen))
        return false;
    bool pattern = eval_spec_is_pattern(given.spec);
    if (eval == EVAL_LINEAR && pattern) {
        weights_free(&given);
        snprintf(err, errlen, "--eval linear: %s holds pattern weights", name);
        return false;
    }
    if (eval != EVAL_PATTERN || pattern) {
        *w = given;
        return true;
    }
    bool ok = weights_convert(w, v->pattern_eval, &given);
    weights_free(&given);
    if (!ok)
        snprintf(err, errlen, "%s: cannot convert to the pattern evaluation of %s", name, v->name);
    return ok;
}

/* The stored games of a run, read back as results by game index. */
typedef struct StoredScan {
    const RunnerConfig *cfg;
    int *stored;
    int index_col, result_col;
    char error[160];
} StoredScan;

static int scan_header(void *ctx, int ncols, const char *const *names)
{
    StoredScan *sc = ctx;
    for (int i = 0; i < ncols; i++) {
        if (strcmp(names[i], "game_index") == 0)
            sc->index_col = i;
        else if (strcmp(names[i], "result") == 0)
            sc->result_col = i;
    }
    if (sc->index_col < 0 || sc->result_col < 0) {
        snprintf(sc->error, sizeof sc->error, "the games export has no game_index or result column");
        return 1;
    }
    return 0;
}

static int scan_row(void *ctx, int ncols, const StoreCell *cells)
{
    StoredScan *sc = ctx;
    (void)ncols;
    const StoreCell *game_index = &cells[sc->index_col], *result = &cells[sc->result_col];
    /* The game's identity in its run (NULL only in games stored before schema v3). */
    uint64_t index = game_index->type == STORE_CELL_INT ? (uint64_t)game_index->i : UINT64_MAX;
    int r = result->type != STORE_CELL_TEXT ? RESULT_NONE
          : strcmp(result->text, "white") == 0 ? RESULT_WHITE_WINS
          : strcmp(result->text, "black") == 0 ? RESULT_BLACK_WINS
          : strcmp(result->text, "draw") == 0 ? RESULT_DRAW : RESULT_NONE;
    if (index >= (uint64_t)sc->cfg->games || r == RESULT_NONE) {
        snprintf(sc->error, sizeof sc->error, "a stored game does not belong to this run's %d games",
                 sc->cfg->games);
        return 1;
    }
    sc->stored[index] = r;
    return 0;
}

int pipeline_run_open(Store *store, const char *db_path, const char *kind, const char *params,
                      int64_t weights_id, const RunnerConfig *cfg, RunResume resume, PipelineRun *run)
{
    memset(run, 0, sizeof *run);
    if (resume != RESUME_NEVER) {
        char status[32], old_params[2048];
        /* a run of the other game is never continued with this one's games */
        int64_t last = store_last_run(store, kind, cfg->setup.variant->name, status, sizeof status, old_params,
                                      sizeof old_params);
        if (last < 0)
            return cli_runtime_error("%s: %s", db_path, store_error(store));
        bool same = last > 0 && strcmp(old_params, params) == 0;
        if (resume == RESUME_REQUIRED && last == 0)
            return cli_usage_error("%s: no %s run to resume", db_path, kind);
        if (resume == RESUME_REQUIRED && !same)
            return cli_usage_error("--resume needs the options of %s run %lld: %s", kind,
                                   (long long)last, old_params);
        if (same) {
            StoredScan sc = { .cfg = cfg, .index_col = -1, .result_col = -1 };
            sc.stored = calloc((size_t)cfg->games, sizeof *sc.stored);
            if (!sc.stored)
                return cli_runtime_error("out of memory");
            if (!store_export_rows(store, "games", cfg->setup.variant->name, last, scan_header, scan_row, &sc) || sc.error[0]) {
                int code = cli_runtime_error("%s: run %lld: %s", db_path, (long long)last,
                                             sc.error[0] ? sc.error : store_error(store));
                free(sc.stored);
                return code;
            }
            run->id = last;
            run->stored = sc.stored;
            run->resumed = true;
            return EXIT_OK;
        }
    }
    char signature[64];
    pipeline_bench_signature(cfg->setup.variant, signature, sizeof signature);
    run->id = store_run_begin(store, kind, cfg->setup.variant->name, params, pipeline_engine_version(), signature, weights_id);
    if (run->id < 0)
        return cli_runtime_error("%s: %s", db_path, store_error(store));
    return EXIT_OK;
}

bool pipeline_run_close(Store *store, const char *db_path, PipelineRun *run, const char *status,
                        bool report)
{
    free(run->stored);
    run->stored = NULL;
    if (store_run_end(store, run->id, status))
        return true;
    if (report)
        cli_runtime_error("%s: run %lld could not be marked %s: %s", db_path, (long long)run->id,
                          status, store_error(store));
    return false;
}
