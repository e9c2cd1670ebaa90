/* The run record of a game-playing step (run_record.h). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "game.h"
#include "run_record.h"
#include "train_status.h"
#include "variant.h"
#include "version.h"

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

int run_record_open(Store *store, const char *db_path, const char *kind, const char *params,
                    int64_t weights_id, const RunnerConfig *cfg, RunResume resume, RunRecord *run)
{
    memset(run, 0, sizeof *run);
    if (resume != RESUME_NEVER) {
        char status[32], old_params[2048];
        /* a run of the other game is never continued with this one's games */
        int64_t last = store_last_run(store, kind, cfg->setup.variant->name, status, sizeof status, old_params,
                                      sizeof old_params);
        if (last < 0)
            return train_fail("%s: %s", db_path, store_error(store));
        bool same = last > 0 && strcmp(old_params, params) == 0;
        if (resume == RESUME_REQUIRED && last == 0)
            return train_refuse("%s: no %s run to resume", db_path, kind);
        if (resume == RESUME_REQUIRED && !same)
            return train_refuse("--resume needs the options of %s run %lld: %s", kind,
                                (long long)last, old_params);
        if (same) {
            StoredScan sc = { .cfg = cfg, .index_col = -1, .result_col = -1 };
            sc.stored = calloc((size_t)cfg->games, sizeof *sc.stored);
            if (!sc.stored)
                return train_fail("out of memory");
            if (!store_export_rows(store, "games", cfg->setup.variant->name, last, scan_header, scan_row, &sc) || sc.error[0]) {
                int code = train_fail("%s: run %lld: %s", db_path, (long long)last,
                                      sc.error[0] ? sc.error : store_error(store));
                free(sc.stored);
                return code;
            }
            run->id = last;
            run->stored = sc.stored;
            run->resumed = true;
            return TRAIN_OK;
        }
    }
    run->id = run_record_begin(store, db_path, kind, cfg->setup.variant, params, weights_id);
    return run->id < 0 ? TRAIN_FAILED : TRAIN_OK;
}

/* The bench set is compiled in and pinned by tests/test_search.c, so a failure here is a
 * broken build: it stops the step before anything is written. */
int64_t run_record_begin(Store *store, const char *db_path, const char *kind, const Variant *v,
                         const char *params, int64_t weights_id)
{
    char signature[64], err[512];
    if (!bench_signature(v, signature, sizeof signature, err, sizeof err)) {
        train_fail("%s", err);
        return -1;
    }
    int64_t id = store_run_begin(store, kind, v->name, params, dama_engine_version(), signature, weights_id);
    if (id < 0)
        train_fail("%s: %s", db_path, store_error(store));
    return id;
}

bool run_record_close(Store *store, const char *db_path, RunRecord *run, const char *status, bool report)
{
    free(run->stored);
    run->stored = NULL;
    if (store_run_end(store, run->id, status))
        return true;
    if (report)
        train_fail("%s: run %lld could not be marked %s: %s", db_path, (long long)run->id,
                   status, store_error(store));
    return false;
}
