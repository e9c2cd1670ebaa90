/* PDN games: what an export reads about a game, and imported games with their tags and
 * notes written in one transaction. */
#include <stdio.h>
#include <stdlib.h>
#include "store_internal.h"

static void column_buffer(sqlite3_stmt *st, int col, char *buf, size_t len)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(buf, len, "%s", t ? (const char *)t : "");
}

void store_pdn_free(StoredPdn *p)
{
    if (!p) return;
    for (int i = 0; i < p->ntags; i++) {
        free(p->tags[i].name);
        free(p->tags[i].value);
    }
    for (int i = 0; i < p->nnotes; i++) free(p->notes[i].text);
    free(p->tags);
    free(p->notes);
    free(p->source);
    free(p->opening_fen);
    free(p->run_host);
    memset(p, 0, sizeof *p);
}

static bool read_info(Store *s, int64_t game_id, StoredPdn *out, bool *oom)
{
    sqlite3_stmt *st = store_stmt(s, STMT_PDN_GAME_INFO);
    store_bind_int(s, st, 1, game_id);
    int rc = store_step(s, st);
    bool ok = rc == SQLITE_ROW;
    if (ok) {
        column_buffer(st, 0, out->run_kind, sizeof out->run_kind);
        out->run_host = store_column_strdup(st, 1, oom);
        out->opening_fen = store_column_strdup(st, 2, oom);
        column_buffer(st, 3, out->white_weights_hash, sizeof out->white_weights_hash);
        column_buffer(st, 4, out->black_weights_hash, sizeof out->black_weights_hash);
        out->imported = sqlite3_column_int(st, 5) != 0;
        out->source = store_column_strdup(st, 6, oom);
    } else if (rc == SQLITE_DONE) {
        store_fail(s, "no game %lld", (long long)game_id);
    } else {
        store_fail_db(s, "store_pdn_read");
    }
    store_done(st);
    return ok;
}

/* The rows of a (ply or name, text) statement into tags or notes. */
static bool read_pairs(Store *s, enum StatementId id, int64_t game_id, StoredPdn *out, bool *oom)
{
    sqlite3_stmt *st = store_stmt(s, id);
    store_bind_int(s, st, 1, game_id);
    int rc, cap = 0;
    bool notes = id == STMT_PDN_NOTES_GET;
    while (!*oom && (rc = store_step(s, st)) == SQLITE_ROW) {
        int *count = notes ? &out->nnotes : &out->ntags;
        if (*count == cap) {
            cap = cap ? 2 * cap : 8;
            void *p = notes ? realloc(out->notes, (size_t)cap * sizeof *out->notes)
                            : realloc(out->tags, (size_t)cap * sizeof *out->tags);
            if (!p) {
                *oom = true;
                break;
            }
            if (notes) out->notes = p;
            else out->tags = p;
        }
        if (notes) {
            StorePdnNote *n = &out->notes[out->nnotes++];
            n->ply = sqlite3_column_int(st, 0);
            n->text = store_column_strdup(st, 1, oom);
            if (!n->text) *oom = true;
        } else {
            StorePdnTag *t = &out->tags[out->ntags++];
            t->name = store_column_strdup(st, 0, oom);
            t->value = store_column_strdup(st, 1, oom);
            if (!t->name || !t->value) *oom = true;
        }
    }
    bool ok = *oom || rc == SQLITE_DONE || store_fail_db(s, "store_pdn_read");
    store_done(st);
    return ok;
}

bool store_pdn_read(Store *s, int64_t game_id, StoredPdn *out)
{
    if (!out) return s ? store_fail(s, "store_pdn_read: no output") : false;
    memset(out, 0, sizeof *out);
    if (!store_ready(s)) return false;
    if (!store_read_begin(s)) return false;
    bool oom = false;
    bool ok = read_info(s, game_id, out, &oom) && read_pairs(s, STMT_PDN_TAGS_GET, game_id, out, &oom)
           && read_pairs(s, STMT_PDN_NOTES_GET, game_id, out, &oom);
    store_read_end(s);
    if (ok && oom) ok = store_fail(s, "store_pdn_read: out of memory");
    if (!ok) store_pdn_free(out);
    return ok;
}

int64_t store_pdn_game_ids(Store *s, const char *variant, int64_t run_id, int64_t **ids)
{
    *ids = NULL;
    if (!store_ready(s)) return -1;
    if (!store_variant_given(s, variant, "store_pdn_game_ids")) return -1;
    sqlite3_stmt *st = store_prepare(s, "SELECT id FROM games WHERE variant = ?1 AND (?2 = 0 OR run_id = ?2)"
                                     " ORDER BY run_id, game_index, id", "listing games");
    if (!st) return -1;
    store_bind_text(s, st, 1, variant);
    store_bind_int(s, st, 2, run_id > 0 ? run_id : 0);
    int64_t n = 0, cap = 0;
    int rc;
    bool ok = true;
    while ((rc = store_step(s, st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            int64_t *p = realloc(*ids, (size_t)cap * sizeof *p);
            if (!p) {
                ok = store_fail(s, "listing games: out of memory");
                break;
            }
            *ids = p;
        }
        (*ids)[n++] = sqlite3_column_int64(st, 0);
    }
    if (ok && rc != SQLITE_DONE) ok = store_fail_db(s, "listing games");
    sqlite3_finalize(st);
    if (!ok) {
        free(*ids);
        *ids = NULL;
        return -1;
    }
    return n;
}

/* Steps a statement that returns at most one integer: 1 and *value when a row came, 0
 * when none, -1 on error. */
static int step_int(Store *s, sqlite3_stmt *st, int64_t *value, const char *what)
{
    int rc = store_step(s, st);
    int found = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    if (found > 0 && value) *value = sqlite3_column_int64(st, 0);
    if (found < 0) store_fail_db(s, what);
    store_done(st);
    return found;
}

/* 1 when the game is in the database already, 0 when not, -1 on error. */
static int already_stored(Store *s, const char *variant, const StorePdnImport *g)
{
    sqlite3_stmt *st = store_stmt(s, STMT_PDN_IDENTITY_FIND);
    store_bind_text(s, st, 1, g->identity);
    int found = step_int(s, st, NULL, "finding an imported game");
    if (found != 0 || !g->has_origin) return found;
    st = store_stmt(s, STMT_PDN_ORIGIN_FIND);
    store_bind_int(s, st, 1, g->origin_run);
    store_bind_int(s, st, 2, g->origin_index);
    store_bind_text(s, st, 3, variant);
    store_bind_text(s, st, 4, g->rec.moves ? g->rec.moves : "");
    return step_int(s, st, NULL, "finding the game a PDN game names");
}

static bool step_write(Store *s, sqlite3_stmt *st, const char *what)
{
    int rc = store_step(s, st);
    if (rc != SQLITE_DONE) store_fail_db(s, what);
    store_done(st);
    return rc == SQLITE_DONE;
}

/* The pdn_games row and the game's tags and notes. */
static bool write_extras(Store *s, int64_t game_id, const StorePdnImport *g)
{
    sqlite3_stmt *st = store_stmt(s, STMT_PDN_GAME_INSERT);
    store_bind_int(s, st, 1, game_id);
    store_bind_text(s, st, 2, g->identity);
    store_bind_text(s, st, 3, g->source);
    if (!step_write(s, st, "storing an imported game")) return false;
    for (int i = 0; i < g->ntags; i++) {
        st = store_stmt(s, STMT_PDN_TAG_INSERT);
        store_bind_int(s, st, 1, game_id);
        store_bind_int(s, st, 2, i);
        store_bind_text(s, st, 3, g->tags[i].name);
        store_bind_text(s, st, 4, g->tags[i].value);
        if (!step_write(s, st, "storing a PDN tag")) return false;
    }
    for (int i = 0; i < g->nnotes; i++) {
        st = store_stmt(s, STMT_PDN_NOTE_INSERT);
        store_bind_int(s, st, 1, game_id);
        store_bind_int(s, st, 2, i);
        store_bind_int(s, st, 3, g->notes[i].ply);
        store_bind_text(s, st, 4, g->notes[i].text);
        if (!step_write(s, st, "storing a PDN comment")) return false;
    }
    return true;
}

static bool import_locked(Store *s, const char *variant, const char *params, const char *engine_version,
                          const char *bench_signature, int64_t *run_id, StorePdnImport *games, int n,
                          int *written)
{
    int64_t next_index = -1;
    for (int i = 0; i < n; i++) {
        StorePdnImport *g = &games[i];
        int found = already_stored(s, variant, g);
        if (found < 0) return false;
        g->duplicate = found > 0;
        if (g->duplicate) continue;
        if (*run_id <= 0) {
            *run_id = store_run_begin(s, "import", variant, params, engine_version, bench_signature, 0);
            if (*run_id <= 0) return false;
        }
        if (next_index < 0) {
            sqlite3_stmt *st = store_stmt(s, STMT_PDN_NEXT_INDEX);
            store_bind_int(s, st, 1, *run_id);
            if (step_int(s, st, &next_index, "numbering imported games") != 1) return false;
        }
        int64_t opening = store_opening_find_or_insert(s, variant, g->opening_fen, "pdn");
        if (opening < 0) return false;
        g->rec.run_id = *run_id;
        g->rec.opening_id = opening;
        g->rec.has_index = true;
        g->rec.game_index = (int)next_index++;
        int64_t game_id = 0;
        if (!store_game_valid(s, &g->rec, i, true) || !store_game_insert(s, &g->rec, i, &game_id)
            || !write_extras(s, game_id, g))
            return false;
        (*written)++;
    }
    return true;
}

bool store_pdn_import_begin(Store *s)
{
    return store_ready(s) && store_begin_write(s);
}

bool store_pdn_import_add(Store *s, const char *variant, const char *params, const char *engine_version,
                          const char *bench_signature, int64_t *run_id, StorePdnImport *games, int n,
                          int *written)
{
    *written = 0;
    if (!store_ready(s)) return false;
    if (!store_variant_given(s, variant, "store_pdn_import_add")) return false;
    if (n < 0 || (n > 0 && !games)) return store_fail(s, "store_pdn_import_add: bad batch (%d games)", n);
    for (int i = 0; i < n; i++)
        if (!games[i].identity || !games[i].opening_fen)
            return store_fail(s, "store_pdn_import_add: game %d has no identity or start", i);
    return import_locked(s, variant, params, engine_version, bench_signature, run_id, games, n, written);
}

bool store_pdn_import_commit(Store *s)
{
    return store_commit(s);
}

void store_pdn_import_rollback(Store *s)
{
    store_rollback(s);
}
