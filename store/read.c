/* Reads: one game with its positions, weights, and the position stream for the tuner. */
#include <stdio.h>
#include <stdlib.h>
#include "game.h"
#include "store_internal.h"

int store_result_from_text(const unsigned char *text)
{
    if (!text) return -1;
    if (strcmp((const char *)text, "white") == 0) return RESULT_WHITE_WINS;
    if (strcmp((const char *)text, "black") == 0) return RESULT_BLACK_WINS;
    if (strcmp((const char *)text, "draw") == 0) return RESULT_DRAW;
    if (strcmp((const char *)text, "unfinished") == 0) return RESULT_NONE;
    return -1;
}

/* strdup of a column; NULL stays NULL.  *oom is set when the copy fails. */
char *store_column_strdup(sqlite3_stmt *st, int col, bool *oom)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    if (!t) return NULL;
    size_t len = (size_t)sqlite3_column_bytes(st, col);
    char *copy = malloc(len + 1);
    if (!copy) {
        *oom = true;
        return NULL;
    }
    memcpy(copy, t, len + 1);
    return copy;
}

void store_column_position(sqlite3_stmt *st, int col, Position *pos)
{
    pos->men[WHITE] = store_i2u(sqlite3_column_int64(st, col));
    pos->kings[WHITE] = store_i2u(sqlite3_column_int64(st, col + 1));
    pos->men[BLACK] = store_i2u(sqlite3_column_int64(st, col + 2));
    pos->kings[BLACK] = store_i2u(sqlite3_column_int64(st, col + 3));
    pos->side = sqlite3_column_int(st, col + 4);
}

void store_game_free(StoredGame *g)
{
    if (!g) return;
    free(g->reason);
    free(g->moves);
    free(g->positions);
    memset(g, 0, sizeof *g);
}

static bool read_game_row(Store *s, int64_t id, StoredGame *out)
{
    sqlite3_stmt *st = store_stmt(s, STMT_GAME_GET);
    store_bind_int(s, st, 1, id);
    int rc = store_step(s, st);
    bool ok = false, oom = false;
    if (rc == SQLITE_DONE) store_fail(s, "no game %lld", (long long)id);
    else if (rc != SQLITE_ROW) store_fail_db(s, "store_game_read");
    else {
        GameRecord *r = &out->rec;
        out->id = id;
        r->run_id = sqlite3_column_int64(st, 0);
        r->pair_id = sqlite3_column_int64(st, 1);
        r->opening_id = sqlite3_column_int64(st, 2);
        r->white_weights_id = sqlite3_column_int64(st, 3);
        r->black_weights_id = sqlite3_column_int64(st, 4);
        r->result = store_result_from_text(sqlite3_column_text(st, 5));
        out->reason = store_column_strdup(st, 6, &oom);
        r->plies = sqlite3_column_int(st, 7);
        r->mars = sqlite3_column_int(st, 8) != 0;
        out->moves = store_column_strdup(st, 9, &oom);
        r->seed = store_i2u(sqlite3_column_int64(st, 10));
        r->npositions = sqlite3_column_int(st, 11);
        out->created_at = sqlite3_column_int64(st, 12);
        r->has_index = sqlite3_column_type(st, 13) != SQLITE_NULL;
        r->game_index = sqlite3_column_int(st, 13);
        const unsigned char *variant = sqlite3_column_text(st, 14);
        snprintf(out->variant, sizeof out->variant, "%s", variant ? (const char *)variant : "");
        r->variant = out->variant;
        if (oom) store_fail(s, "store_game_read: out of memory");
        else if (r->result < 0) store_fail(s, "game %lld: unknown result", (long long)id);
        else if (r->npositions < 0 || r->npositions > r->plies + 1)
            store_fail(s, "game %lld: %d positions for %d plies", (long long)id, r->npositions, r->plies);
        else ok = true;
    }
    store_done(st);
    return ok;
}

static bool read_positions(Store *s, int64_t id, StoredGame *out)
{
    int n = out->rec.npositions;
    if (n > 0 && !(out->positions = calloc((size_t)n, sizeof *out->positions)))
        return store_fail(s, "store_game_read: out of memory");
    sqlite3_stmt *st = store_stmt(s, STMT_GAME_POSITIONS);
    store_bind_int(s, st, 1, id);
    int count = 0, rc;
    bool ok = true;
    while (ok && (rc = store_step(s, st)) == SQLITE_ROW) {
        /* Plies are written 0..n-1; anything else means the rows were changed behind us. */
        int ply = sqlite3_column_int(st, 0);
        if (ply != count || count >= n) {
            ok = store_fail(s, "game %lld: unexpected position at ply %d", (long long)id, ply);
            break;
        }
        StoredPosition *p = &out->positions[count++];
        store_column_position(st, 1, &p->pos);
        p->has_score = sqlite3_column_type(st, 6) != SQLITE_NULL;
        p->score = p->has_score ? sqlite3_column_int(st, 6) : 0;
        p->capture_pending = sqlite3_column_int(st, 7) != 0;
    }
    if (ok && rc != SQLITE_DONE) ok = store_fail_db(s, "store_game_read");
    if (ok && count != n)
        ok = store_fail(s, "game %lld: %d positions stored, %d recorded", (long long)id, count, n);
    store_done(st);
    return ok;
}

bool store_game_read(Store *s, int64_t game_id, StoredGame *out)
{
    if (!out) return s ? store_fail(s, "store_game_read: no output") : false;
    memset(out, 0, sizeof *out);
    if (!store_ready(s)) return false;
    /* One snapshot for the game and its positions. */
    if (!store_read_begin(s)) return false;
    bool ok = read_game_row(s, game_id, out) && read_positions(s, game_id, out);
    store_read_end(s);
    if (!ok) {
        store_game_free(out);
        return false;
    }
    out->rec.reason = out->reason;
    out->rec.moves = out->moves;
    out->rec.positions = out->positions;
    return true;
}

bool store_weights_get_blob(Store *s, int64_t id, char **text_out, unsigned char **blob_out, size_t *blob_len)
{
    if (text_out) *text_out = NULL;
    if (blob_out) *blob_out = NULL;
    if (blob_len) *blob_len = 0;
    if (!store_ready(s)) return false;
    if (!text_out) return store_fail(s, "store_weights_get: no output");
    sqlite3_stmt *st = store_stmt(s, STMT_WEIGHTS_GET);
    store_bind_int(s, st, 1, id);
    int rc = store_step(s, st);
    bool oom = false;
    if (rc == SQLITE_ROW) {
        *text_out = store_column_strdup(st, 0, &oom);
        const void *blob = sqlite3_column_blob(st, 1);
        size_t len = (size_t)sqlite3_column_bytes(st, 1);
        if (blob_out && sqlite3_column_type(st, 1) != SQLITE_NULL) {
            *blob_out = malloc(len ? len : 1);
            if (*blob_out) {
                if (len) memcpy(*blob_out, blob, len);
                *blob_len = len;
            } else {
                oom = true;
            }
        }
    }
    store_done(st);
    if (rc == SQLITE_DONE) return store_fail(s, "no weights %lld", (long long)id);
    if (rc != SQLITE_ROW) return store_fail_db(s, "store_weights_get");
    if (oom || !*text_out) {
        free(*text_out);
        *text_out = NULL;
        if (blob_out) {
            free(*blob_out);
            *blob_out = NULL;
        }
        return store_fail(s, "store_weights_get: out of memory");
    }
    return true;
}

bool store_weights_get(Store *s, int64_t id, char **text_out)
{
    return store_weights_get_blob(s, id, text_out, NULL, NULL);
}

int64_t store_latest_weights(Store *s, const char *variant)
{
    if (!store_ready(s)) return -1;
    if (!variant) return store_fail(s, "store_latest_weights: no variant"), -1;
    sqlite3_stmt *st = store_stmt(s, STMT_WEIGHTS_LATEST);
    store_bind_text(s, st, 1, variant);
    int rc = store_step(s, st);
    int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : rc == SQLITE_DONE ? 0 : -1;
    if (id < 0) store_fail_db(s, "store_latest_weights");
    store_done(st);
    return id;
}

/* Walks one statement's rows; *stopped is set when cb asks to stop. */
static bool walk(Store *s, sqlite3_stmt *st, StorePositionFn cb, void *ctx, bool *stopped)
{
    int rc;
    while ((rc = store_step(s, st)) == SQLITE_ROW) {
        Position pos;
        store_column_position(st, 2, &pos);
        bool has_score = sqlite3_column_type(st, 7) != SQLITE_NULL;
        int result = store_result_from_text(sqlite3_column_text(st, 8));
        if (result < 0 || result == RESULT_NONE) /* the statements leave unfinished games out */
            return store_fail(s, "game %lld: unknown result", (long long)sqlite3_column_int64(st, 0));
        if (cb(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1), &pos,
               has_score ? sqlite3_column_int(st, 7) : 0, has_score, result)) {
            *stopped = true;
            return true;
        }
    }
    return rc == SQLITE_DONE || store_fail_db(s, "store_positions_foreach");
}

bool store_positions_foreach(Store *s, const char *variant, const int64_t *run_ids, int nruns,
                             bool quiet_only, StorePositionFn cb, void *ctx)
{
    if (!store_ready(s)) return false;
    if (!store_variant_given(s, variant, "store_positions_foreach")) return false;
    if (!cb || nruns < 0 || (nruns > 0 && !run_ids))
        return store_fail(s, "store_positions_foreach: bad arguments");
    if (!store_read_begin(s)) return false;
    bool ok = true, stopped = false;
    for (int i = 0; ok && !stopped && i < (nruns ? nruns : 1); i++) {
        bool repeated = false;  /* a run named twice is walked once */
        for (int j = 0; j < i; j++) repeated |= run_ids[j] == run_ids[i];
        if (repeated) continue;
        sqlite3_stmt *st = store_stmt(s, nruns ? STMT_FOREACH_RUN : STMT_FOREACH_ALL);
        store_bind_int(s, st, 1, quiet_only ? 1 : 0);
        if (nruns) store_bind_int(s, st, 2, run_ids[i]);
        store_bind_text(s, st, 3, variant);
        ok = walk(s, st, cb, ctx, &stopped);
        store_done(st);
    }
    store_read_end(s);
    return ok;
}
