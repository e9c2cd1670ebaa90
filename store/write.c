/* Writes: runs, weights, openings, and batches of games with their positions. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "game.h"
#include "store_internal.h"

/* Steps a write statement that returns no rows; "what" names it in the error. */
static bool step_done(Store *s, sqlite3_stmt *st, const char *what)
{
    int rc = store_step(s, st);
    if (rc != SQLITE_DONE) store_fail_db(s, what);
    store_done(st);
    return rc == SQLITE_DONE;
}

int64_t store_run_begin(Store *s, const char *kind, const char *variant, const char *params,
                        const char *engine_version, const char *bench_signature,
                        int64_t weights_id)
{
    if (!store_ready(s)) return -1;
    if (!kind || !kind[0]) return store_fail(s, "store_run_begin: no kind"), -1;
    if (!store_variant_given(s, variant, "store_run_begin")) return -1;
    sqlite3_stmt *st = store_stmt(s, STMT_RUN_INSERT);
    store_bind_text(s, st, 1, kind);
    store_bind_text(s, st, 2, params);
    store_bind_text(s, st, 3, engine_version);
    store_bind_text(s, st, 4, bench_signature);
    store_bind_id(s, st, 5, weights_id);
    char host[256];
    if (gethostname(host, sizeof host) != 0)
        host[0] = '\0';
    host[sizeof host - 1] = '\0';
    store_bind_text(s, st, 6, host[0] ? host : NULL);  /* outlives the step */
    store_bind_int(s, st, 7, (int64_t)getpid());
    store_bind_text(s, st, 8, variant);
    if (!step_done(s, st, "store_run_begin")) return -1;
    return sqlite3_last_insert_rowid(s->db);
}

bool store_run_end(Store *s, int64_t run_id, const char *status)
{
    if (!store_ready(s)) return false;
    if (!status || !status[0]) return store_fail(s, "store_run_end: no status");
    sqlite3_stmt *st = store_stmt(s, STMT_RUN_END);
    store_bind_int(s, st, 1, run_id);
    store_bind_text(s, st, 2, status);
    if (!step_done(s, st, "store_run_end")) return false;
    if (sqlite3_changes(s->db) != 1)
        return store_fail(s, "store_run_end: no run %lld", (long long)run_id);
    return true;
}

/* FNV-1a 64 as 16 hex digits: enough to find candidates, since equal hashes are confirmed
 * by comparing the texts. */
void store_text_hash(const char *text, char out[17])
{
    uint64_t h = 0xcbf29ce484222325u;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3u;
    }
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* The stored weights: their text and their blob (NULL, 0 for linear weights). */
typedef struct WeightsRow {
    const char *text;
    const void *blob;
    size_t blob_len;
} WeightsRow;

/* Under the write lock: the id of the same weights, 0 when new, -1 on error.  Weights are
 * one by variant, hash and text (the same numbers under another head, another feature set,
 * are other weights); the table under them must then be the same too. */
static int64_t weights_find(Store *s, const char *variant, const char *hash, const WeightsRow *row)
{
    sqlite3_stmt *st = store_stmt(s, STMT_WEIGHTS_FIND);
    store_bind_text(s, st, 1, variant);
    store_bind_text(s, st, 2, hash);
    store_bind_text(s, st, 3, row->text);
    int64_t id = 0;
    int rc = store_step(s, st);
    if (rc == SQLITE_ROW) {
        const void *old_blob = sqlite3_column_blob(st, 1);
        size_t old_len = (size_t)sqlite3_column_bytes(st, 1);
        id = sqlite3_column_int64(st, 0);
        bool same_blob = (old_blob != NULL) == (row->blob != NULL) && old_len == row->blob_len &&
                         (old_len == 0 || memcmp(old_blob, row->blob, old_len) == 0);
        if (!same_blob) {
            store_fail(s, "store_weights_put: weights %lld have the same hash %s and head but another "
                       "table (a damaged table, or two tables whose 64-bit hashes collide)", (long long)id, hash);
            id = -1;
        }
    } else if (rc != SQLITE_DONE) {
        store_fail_db(s, "store_weights_put");
        id = -1;
    }
    store_done(st);
    return id;
}

static int64_t weights_insert(Store *s, const char *variant, int generation, int64_t parent_id,
                              const WeightsRow *row, const char *hash, const char *note)
{
    sqlite3_stmt *st = store_stmt(s, STMT_WEIGHTS_INSERT);
    store_bind_text(s, st, 1, variant);
    store_bind_int(s, st, 2, generation);
    store_bind_id(s, st, 3, parent_id);
    store_bind_text(s, st, 4, row->text);
    store_bind_text(s, st, 5, hash);
    store_bind_text(s, st, 6, note);
    store_bind_blob(s, st, 7, row->blob, row->blob_len);
    if (!step_done(s, st, "store_weights_put")) return -1;
    return sqlite3_last_insert_rowid(s->db);
}

int64_t store_weights_put_blob(Store *s, const char *variant, int generation, int64_t parent_id,
                               const char *text, const void *blob, size_t blob_len, const char *hash,
                               const char *note)
{
    if (!store_ready(s)) return -1;
    if (!text)
        return store_fail(s, "store_weights_put: missing text"), -1;
    if (!store_variant_given(s, variant, "store_weights_put")) return -1;
    if (blob && (!hash || strlen(hash) != 16))
        return store_fail(s, "store_weights_put: a blob needs the weights' hash"), -1;
    char text_hash_hex[17];
    if (!blob)
        store_text_hash(text, text_hash_hex);
    const char *key = blob ? hash : text_hash_hex;
    /* An empty blob is still a blob: SQLite would read a zero-length one back as NULL. */
    static const unsigned char no_bytes[1];
    WeightsRow row = { text, blob && blob_len == 0 ? no_bytes : blob, blob_len };
    /* Find and insert under one lock, so two writers cannot both insert the same weights. */
    if (!store_begin_write(s)) return -1;
    int64_t id = weights_find(s, variant, key, &row);
    if (id == 0) id = weights_insert(s, variant, generation, parent_id, &row, key, note);
    if (id < 0) {
        store_rollback(s);
        return -1;
    }
    return store_commit(s) ? id : -1;
}

int64_t store_weights_put(Store *s, const char *variant, int generation, int64_t parent_id,
                          const char *text, const char *note)
{
    return store_weights_put_blob(s, variant, generation, parent_id, text, NULL, 0, NULL, note);
}

int64_t store_opening_find_or_insert(Store *s, const char *variant, const char *fen, const char *source)
{
    sqlite3_stmt *st = store_stmt(s, STMT_OPENING_FIND);
    store_bind_text(s, st, 1, fen);
    int64_t id = 0;
    int rc = store_step(s, st);
    if (rc == SQLITE_ROW) {
        id = sqlite3_column_int64(st, 0);
        const char *stored = (const char *)sqlite3_column_text(st, 1);
        if (!stored || strcmp(stored, variant) != 0) {
            store_fail(s, "store_opening_put: opening '%s' is stored as %s, not %s", fen,
                       stored ? stored : "(none)", variant);
            id = -1;
        }
    } else if (rc != SQLITE_DONE) {
        store_fail_db(s, "store_opening_put");
        id = -1;
    }
    store_done(st);
    if (id == 0) {
        st = store_stmt(s, STMT_OPENING_INSERT);
        store_bind_text(s, st, 1, fen);
        store_bind_text(s, st, 2, source);
        store_bind_text(s, st, 3, variant);
        id = step_done(s, st, "store_opening_put") ? sqlite3_last_insert_rowid(s->db) : -1;
    }
    return id;
}

int64_t store_opening_put(Store *s, const char *variant, const char *fen, const char *source)
{
    if (!store_ready(s)) return -1;
    if (!fen || !fen[0]) return store_fail(s, "store_opening_put: no FEN"), -1;
    if (!store_variant_given(s, variant, "store_opening_put")) return -1;
    if (!store_begin_write(s)) return -1;
    int64_t id = store_opening_find_or_insert(s, variant, fen, source);
    if (id < 0) {
        store_rollback(s);
        return -1;
    }
    return store_commit(s) ? id : -1;
}

static const char *result_text(int result)
{
    switch (result) {
    case RESULT_WHITE_WINS: return "white";
    case RESULT_BLACK_WINS: return "black";
    case RESULT_DRAW: return "draw";
    case RESULT_NONE: return "unfinished";
    default: return NULL;
    }
}

/* Rejects what SQLite cannot (pointers, counts) before anything is written. */
bool store_game_valid(Store *s, const GameRecord *g, int index, bool unfinished_ok)
{
    if (!result_text(g->result) || (g->result == RESULT_NONE && !unfinished_ok))
        return store_fail(s, "game %d of the batch: result %d is not a finished game's", index, g->result);
    if (g->run_id <= 0)
        return store_fail(s, "game %d of the batch: no run_id", index);
    char what[48];
    snprintf(what, sizeof what, "game %d of the batch", index);
    if (!store_variant_given(s, g->variant, what))
        return false;
    if (g->plies < 0 || g->npositions < 0 || g->npositions > g->plies + 1)
        return store_fail(s, "game %d of the batch: %d positions for %d plies (0 to plies+1 allowed)",
                          index, g->npositions, g->plies);
    if (g->npositions > 0 && !g->positions)
        return store_fail(s, "game %d of the batch: %d positions but no array", index, g->npositions);
    for (int i = 0; i < g->npositions; i++)
        if (g->positions[i].pos.side != WHITE && g->positions[i].pos.side != BLACK)
            return store_fail(s, "game %d of the batch, ply %d: side to move %d", index, i,
                              g->positions[i].pos.side);
    return true;
}

bool store_game_insert(Store *s, const GameRecord *g, int index, int64_t *id_out)
{
    sqlite3_stmt *st = store_stmt(s, STMT_GAME_INSERT);
    store_bind_int(s, st, 1, g->run_id);
    store_bind_id(s, st, 2, g->pair_id);
    store_bind_id(s, st, 3, g->opening_id);
    store_bind_id(s, st, 4, g->white_weights_id);
    store_bind_id(s, st, 5, g->black_weights_id);
    store_bind_text(s, st, 6, result_text(g->result));
    store_bind_text(s, st, 7, g->reason);
    store_bind_int(s, st, 8, g->plies);
    store_bind_int(s, st, 9, g->mars ? 1 : 0);
    store_bind_text(s, st, 10, g->moves ? g->moves : "");
    store_bind_int(s, st, 11, store_u2i(g->seed));
    store_bind_int(s, st, 12, g->npositions);
    if (g->has_index)
        store_bind_int(s, st, 13, g->game_index);
    else
        store_bind_null(s, st, 13);
    store_bind_text(s, st, 14, g->variant);
    char what[64];
    snprintf(what, sizeof what, "game %d of the batch", index);
    if (!step_done(s, st, what)) return false;
    if (sqlite3_changes(s->db) == 0)
        return store_fail(s, "game %d of the batch: a %s game in run %lld, which plays another variant",
                          index, g->variant, (long long)g->run_id);

    int64_t game_id = sqlite3_last_insert_rowid(s->db);
    if (id_out) *id_out = game_id;
    /* The hot loop: every column is rebound each row, so no clear_bindings. */
    st = store_stmt(s, STMT_POSITION_INSERT);
    for (int i = 0; i < g->npositions; i++) {
        const StoredPosition *p = &g->positions[i];
        store_bind_int(s, st, 1, game_id);
        store_bind_int(s, st, 2, i);
        store_bind_int(s, st, 3, store_u2i(p->pos.men[WHITE]));
        store_bind_int(s, st, 4, store_u2i(p->pos.kings[WHITE]));
        store_bind_int(s, st, 5, store_u2i(p->pos.men[BLACK]));
        store_bind_int(s, st, 6, store_u2i(p->pos.kings[BLACK]));
        store_bind_int(s, st, 7, p->pos.side);
        if (p->has_score) store_bind_int(s, st, 8, p->score);
        else store_bind_null(s, st, 8);
        store_bind_int(s, st, 9, p->capture_pending ? 1 : 0);
        if (store_step(s, st) != SQLITE_DONE) {
            snprintf(what, sizeof what, "game %d of the batch, ply %d", index, i);
            store_fail_db(s, what);
            sqlite3_reset(st);
            return false;
        }
        sqlite3_reset(st);
    }
    /* The players' names: the White and Black tags a PDN export writes (seq 0 and 1; an
     * imported game's tags are stored by the import, with no names here). */
    const char *names[2] = { g->white_name, g->black_name };
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        st = store_stmt(s, STMT_PDN_TAG_INSERT);
        store_bind_int(s, st, 1, game_id);
        store_bind_int(s, st, 2, i);
        store_bind_text(s, st, 3, i ? "Black" : "White");
        store_bind_text(s, st, 4, names[i]);
        snprintf(what, sizeof what, "game %d of the batch, its players' names", index);
        if (!step_done(s, st, what)) return false;
    }
    return true;
}

bool store_games_write(Store *s, const GameRecord *games, int n)
{
    if (!store_ready(s)) return false;
    if (n < 0 || (n > 0 && !games)) return store_fail(s, "store_games_write: bad batch (%d games)", n);
    for (int i = 0; i < n; i++)
        if (!store_game_valid(s, &games[i], i, false)) return false;
    if (n == 0) return true;
    if (!store_begin_write(s)) return false;
    for (int i = 0; i < n; i++)
        if (!store_game_insert(s, &games[i], i, NULL)) {
            store_rollback(s);
            return false;
        }
    return store_commit(s);
}

/* When the process `pid` started, in Unix seconds, from /proc (Linux); -1 when unknown. */
static int64_t process_start_time(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* Field 22 (starttime, clock ticks after boot) counts from the ')' that ends the
     * command name, which may itself hold spaces and parentheses. */
    char *p = strrchr(buf, ')');
    unsigned long long ticks = 0;
    if (!p || sscanf(p + 1, " %*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
                     &ticks) != 1)
        return -1;
    f = fopen("/proc/stat", "r");
    if (!f) return -1;
    long long boot = -1;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "btime %lld", &boot) == 1) break;
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    return boot < 0 || hz <= 0 ? -1 : boot + (int64_t)(ticks / (unsigned long long)hz);
}

/* A run's process is gone when no process has its pid, or when the process that has it
 * now started after the run did (the pid was reused).  Without /proc a reused pid keeps
 * the run 'running': the one case this cannot see. */
static bool run_process_gone(long pid, int64_t run_started)
{
    if (pid <= 0) return false;
    if (pid == (long)getpid()) return false;
    if (kill((pid_t)pid, 0) != 0) return errno == ESRCH;
    int64_t started = process_start_time(pid);
    return started >= 0 && started > run_started + 1; /* btime and starttime round to seconds */
}

bool store_mark_stale_runs(Store *s)
{
    char host[256];
    if (gethostname(host, sizeof host) != 0) return true; /* no host: runs cannot be judged */
    host[sizeof host - 1] = '\0';
    sqlite3_stmt *st = store_prepare(s, "SELECT id, pid, started_at FROM runs WHERE status = 'running'"
                                     " AND host = ?1 AND pid IS NOT NULL", "finding stale runs");
    if (!st) return false;
    store_bind_text(s, st, 1, host);
    int64_t stale[64];
    int nstale = 0, rc = SQLITE_DONE;
    while (nstale < 64 && (rc = store_step(s, st)) == SQLITE_ROW)
        if (run_process_gone((long)sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)))
            stale[nstale++] = sqlite3_column_int64(st, 0);
    bool ok = nstale == 64 || rc == SQLITE_DONE || store_fail_db(s, "finding stale runs");
    sqlite3_finalize(st);
    if (!ok || nstale == 0) return ok;
    /* The status test again under the write lock: the run may have ended meanwhile. */
    st = store_prepare(s, "UPDATE runs SET status = 'stale', ended_at = " STORE_NOW
                       " WHERE id = ?1 AND status = 'running'", "marking stale runs");
    if (!st) return false;
    ok = store_begin_write(s);
    for (int i = 0; ok && i < nstale; i++) {
        store_bind_int(s, st, 1, stale[i]);
        ok = step_done(s, st, "marking stale runs");
    }
    sqlite3_finalize(st);
    if (!ok) {
        store_rollback(s);
        return false;
    }
    return store_commit(s);
}
