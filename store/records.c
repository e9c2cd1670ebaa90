/* Records of the pipeline's later steps: tuning runs, matches and the training journal.
 * Rare writes, so their statements are prepared per call. */
#include <stdio.h>
#include <stdlib.h>

#include "store_internal.h"

/* Column col's text (or "") into buf, when buf is given. */
static void copy_text(sqlite3_stmt *st, int col, char *buf, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    if (buf && len)
        snprintf(buf, len, "%s", t ? (const char *)t : "");
}

/* Steps st to completion and finalizes it. */
static bool run_once(Store *s, sqlite3_stmt *st, const char *what)
{
    int rc = store_step(s, st);
    if (rc != SQLITE_DONE)
        store_fail_db(s, what);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

int64_t store_tune_run_put(Store *s, const TuneRunRecord *rec)
{
    if (!store_ready(s))
        return -1;
    if (!rec || rec->nepochs < 0 || (rec->nepochs > 0 && (!rec->epoch_train || !rec->epoch_valid)))
        return store_fail(s, "store_tune_run_put: bad record"), -1;
    if (!store_begin_write(s))
        return -1;
    sqlite3_stmt *st = store_prepare(s, "INSERT INTO tune_runs (run_id, parent_weights_id, result_weights_id,"
                                  " k, train_loss, validation_loss, positions, epochs)"
                                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", "store_tune_run_put");
    if (!st)
        goto fail;
    store_bind_id(s, st, 1, rec->run_id);
    store_bind_id(s, st, 2, rec->parent_weights_id);
    store_bind_id(s, st, 3, rec->result_weights_id);
    store_bind_real(s, st, 4, rec->k);
    store_bind_real(s, st, 5, rec->train_loss);
    store_bind_real(s, st, 6, rec->validation_loss);
    store_bind_int(s, st, 7, rec->positions);
    store_bind_int(s, st, 8, rec->epochs);
    if (!run_once(s, st, "store_tune_run_put"))
        goto fail;
    int64_t id = sqlite3_last_insert_rowid(s->db);
    st = store_prepare(s, "INSERT INTO tune_epochs (tune_run_id, epoch, train_loss, validation_loss)"
                    " VALUES (?1, ?2, ?3, ?4)", "store_tune_run_put epochs");
    if (!st)
        goto fail;
    for (int e = 0; e < rec->nepochs; e++) {
        store_bind_int(s, st, 1, id);
        store_bind_int(s, st, 2, e);
        store_bind_real(s, st, 3, rec->epoch_train[e]);
        store_bind_real(s, st, 4, rec->epoch_valid[e]);
        if (store_step(s, st) != SQLITE_DONE) {
            store_fail_db(s, "store_tune_run_put epochs");
            sqlite3_finalize(st);
            goto fail;
        }
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (!store_commit(s))
        goto fail;
    return id;
fail:
    store_rollback(s);
    return -1;
}

int64_t store_match_put(Store *s, const MatchRecord *rec)
{
    if (!store_ready(s))
        return -1;
    if (!rec)
        return store_fail(s, "store_match_put: no record"), -1;
    sqlite3_stmt *st = store_prepare(s, "INSERT INTO matches (run_id, weights_a, weights_b, games, wins,"
                                  " draws, losses, penta, elo, elo_low, elo_high, llr, llr_low,"
                                  " llr_high, verdict) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                                  " ?10, ?11, ?12, ?13, ?14, ?15)", "store_match_put");
    if (!st)
        return -1;
    store_bind_id(s, st, 1, rec->run_id);
    store_bind_id(s, st, 2, rec->weights_a);
    store_bind_id(s, st, 3, rec->weights_b);
    store_bind_int(s, st, 4, rec->games);
    store_bind_int(s, st, 5, rec->wins);
    store_bind_int(s, st, 6, rec->draws);
    store_bind_int(s, st, 7, rec->losses);
    store_bind_text(s, st, 8, rec->penta);
    const double reals[6] = { rec->elo, rec->elo_low, rec->elo_high, rec->llr, rec->llr_low, rec->llr_high };
    for (int i = 0; i < 6; i++)
        store_bind_real(s, st, 9 + i, reals[i]);
    store_bind_text(s, st, 15, rec->verdict);
    return run_once(s, st, "store_match_put") ? sqlite3_last_insert_rowid(s->db) : -1;
}

int store_recent_runs(Store *s, const char *kind, const char *variant, int n, int64_t *ids)
{
    if (!store_ready(s))
        return -1;
    if (!kind || n < 0 || (n > 0 && !ids))
        return store_fail(s, "store_recent_runs: bad arguments"), -1;
    if (!store_variant_given(s, variant, "store_recent_runs"))
        return -1;
    sqlite3_stmt *st = store_prepare(s, "SELECT id FROM runs WHERE kind = ?1 AND status = 'done'"
                                  " AND variant = ?3 ORDER BY id DESC LIMIT ?2", "store_recent_runs");
    if (!st)
        return -1;
    store_bind_text(s, st, 1, kind);
    store_bind_int(s, st, 2, n);
    store_bind_text(s, st, 3, variant);
    int count = 0, rc;
    while ((rc = store_step(s, st)) == SQLITE_ROW)
        ids[count++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return store_fail_db(s, "store_recent_runs"), -1;
    return count;
}

int64_t store_last_run(Store *s, const char *kind, const char *variant, char *status,
                       size_t status_len, char *params, size_t params_len)
{
    if (!store_ready(s))
        return -1;
    if (!kind)
        return store_fail(s, "store_last_run: bad arguments"), -1;
    if (!store_variant_given(s, variant, "store_last_run"))
        return -1;
    sqlite3_stmt *st = store_prepare(s, "SELECT id, status, params FROM runs WHERE kind = ?1"
                                  " AND variant = ?2 ORDER BY id DESC LIMIT 1", "store_last_run");
    if (!st)
        return -1;
    store_bind_text(s, st, 1, kind);
    store_bind_text(s, st, 2, variant);
    int64_t id = 0;
    int rc = store_step(s, st);
    if (rc == SQLITE_ROW) {
        id = sqlite3_column_int64(st, 0);
        copy_text(st, 1, status, status_len);
        copy_text(st, 2, params, params_len);
    } else if (rc != SQLITE_DONE) {
        id = -1;
        store_fail_db(s, "store_last_run");
    }
    sqlite3_finalize(st);
    return id;
}

bool store_train_step_put(Store *s, int64_t train_run_id, int generation, const char *step,
                          const TrainStep *ts)
{
    if (!store_ready(s))
        return false;
    if (!step || !ts)
        return store_fail(s, "store_train_step_put: bad arguments");
    sqlite3_stmt *st = store_prepare(s, "INSERT OR REPLACE INTO train_steps (train_run_id, generation, step,"
                                  " ref_id, best_weights_id, candidate_weights_id, outcome)"
                                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", "store_train_step_put");
    if (!st)
        return false;
    store_bind_int(s, st, 1, train_run_id);
    store_bind_int(s, st, 2, generation);
    store_bind_text(s, st, 3, step);
    store_bind_id(s, st, 4, ts->ref_id);
    store_bind_id(s, st, 5, ts->best_weights_id);
    store_bind_id(s, st, 6, ts->candidate_weights_id);
    store_bind_text(s, st, 7, ts->outcome[0] ? ts->outcome : NULL);
    return run_once(s, st, "store_train_step_put");
}

int store_train_step_get(Store *s, int64_t train_run_id, int generation, const char *step,
                         TrainStep *ts)
{
    if (!store_ready(s))
        return -1;
    if (!step || !ts)
        return store_fail(s, "store_train_step_get: bad arguments"), -1;
    sqlite3_stmt *st = store_prepare(s, "SELECT ref_id, best_weights_id, candidate_weights_id, outcome"
                                  " FROM train_steps WHERE train_run_id = ?1 AND generation = ?2"
                                  " AND step = ?3", "store_train_step_get");
    if (!st)
        return -1;
    store_bind_int(s, st, 1, train_run_id);
    store_bind_int(s, st, 2, generation);
    store_bind_text(s, st, 3, step);
    int found = 0, rc = store_step(s, st);
    if (rc == SQLITE_ROW) {
        found = 1;
        ts->ref_id = sqlite3_column_int64(st, 0);
        ts->best_weights_id = sqlite3_column_int64(st, 1);
        ts->candidate_weights_id = sqlite3_column_int64(st, 2);
        copy_text(st, 3, ts->outcome, sizeof ts->outcome);
    } else if (rc != SQLITE_DONE) {
        found = -1;
        store_fail_db(s, "store_train_step_get");
    }
    sqlite3_finalize(st);
    return found;
}

int store_run_info(Store *s, int64_t run_id, char *kind, size_t kind_len, char *status,
                   size_t status_len, int64_t *games, char *variant, size_t variant_len)
{
    if (!store_ready(s))
        return -1;
    sqlite3_stmt *st = store_prepare(s, "SELECT kind, status, (SELECT count(*) FROM games WHERE run_id = ?1),"
                                     " variant"
                                     " FROM runs WHERE id = ?1", "store_run_info");
    if (!st)
        return -1;
    store_bind_int(s, st, 1, run_id);
    int found = 0, rc = store_step(s, st);
    if (rc == SQLITE_ROW) {
        found = 1;
        copy_text(st, 0, kind, kind_len);
        copy_text(st, 1, status, status_len);
        if (games)
            *games = sqlite3_column_int64(st, 2);
        copy_text(st, 3, variant, variant_len);
    } else if (rc != SQLITE_DONE) {
        found = -1;
        store_fail_db(s, "store_run_info");
    }
    sqlite3_finalize(st);
    return found;
}

int store_game_runs(Store *s, const char *variant, bool include_unfinished, int64_t **ids)
{
    if (ids)
        *ids = NULL;
    if (!store_ready(s))
        return -1;
    if (!ids)
        return store_fail(s, "store_game_runs: no output"), -1;
    if (!store_variant_given(s, variant, "store_game_runs"))
        return -1;
    sqlite3_stmt *st = store_prepare(s, "SELECT r.id FROM runs r WHERE (?1 OR r.status = 'done') AND r.variant = ?2"
                                     " AND EXISTS (SELECT 1 FROM games g WHERE g.run_id = r.id)"
                                     " ORDER BY r.id", "store_game_runs");
    if (!st)
        return -1;
    store_bind_int(s, st, 1, include_unfinished ? 1 : 0);
    store_bind_text(s, st, 2, variant);
    int count = 0, cap = 0, rc;
    int64_t *list = NULL;
    while ((rc = store_step(s, st)) == SQLITE_ROW) {
        if (count == cap) {
            cap = cap ? 2 * cap : 16;
            int64_t *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown) {
                free(list);
                sqlite3_finalize(st);
                return store_fail(s, "store_game_runs: out of memory"), -1;
            }
            list = grown;
        }
        list[count++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        free(list);
        return store_fail_db(s, "store_game_runs"), -1;
    }
    *ids = list;
    return count;
}
