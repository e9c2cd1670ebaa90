/* What the files of store/ share: the Store struct, its prepared statements, the database
 * layer of db.c and each file's calls for the others.  Not for use outside store/. */
#ifndef DAMA_STORE_INTERNAL_H
#define DAMA_STORE_INTERNAL_H

#include <sqlite3.h>
#include <string.h>
#include "store.h"
#include "variant.h"

#define STORE_NOW "CAST(strftime('%s', 'now') AS INTEGER)"

/* Every statement the store runs more than once, prepared at open and reused.
 * Position columns come in the order of struct StoredPosition's bitboards. */
#define STORE_STATEMENTS(X)                                                                  \
    X(TX_WRITE, "BEGIN IMMEDIATE")                                                           \
    X(TX_READ, "BEGIN")                                                                      \
    X(TX_COMMIT, "COMMIT")                                                                   \
    X(TX_ROLLBACK, "ROLLBACK")                                                               \
    X(RUN_INSERT, "INSERT INTO runs (kind, params, engine_version, bench_signature,"         \
                  " weights_id, host, pid, variant) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)") \
    X(RUN_END, "UPDATE runs SET ended_at = " STORE_NOW ", status = ?2 WHERE id = ?1")        \
    X(WEIGHTS_FIND, "SELECT id, blob FROM weights WHERE variant = ?1 AND hash = ?2"          \
                    " AND text = ?3")                                                        \
    X(WEIGHTS_INSERT, "INSERT INTO weights (variant, generation, parent_id, text, hash,"     \
                      " note, blob) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")                    \
    X(WEIGHTS_GET, "SELECT text, blob FROM weights WHERE id = ?1")                           \
    X(WEIGHTS_LATEST, "SELECT id FROM weights WHERE variant = ?1"                            \
                      " ORDER BY generation DESC, id DESC LIMIT 1")                          \
    X(OPENING_FIND, "SELECT id, variant FROM openings WHERE fen = ?1")                       \
    X(OPENING_INSERT, "INSERT INTO openings (fen, source, variant) VALUES (?1, ?2, ?3)")     \
    X(GAME_INSERT, "INSERT INTO games (run_id, pair_id, opening_id, white_weights_id,"       \
                   " black_weights_id, result, reason, plies, mars, moves, seed, npositions,"  \
                   " game_index, variant) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"    \
                   " ?11, ?12, ?13, ?14"                                                      \
                   /* nothing when the run plays another variant (a missing run: the      \
                    * foreign key says so) */                                             \
                   " WHERE NOT EXISTS (SELECT 1 FROM runs WHERE id = ?1 AND variant IS NOT ?14)") \
    X(POSITION_INSERT, "INSERT INTO positions (game_id, ply, white_men, white_kings,"        \
                       " black_men, black_kings, side, score, capture_pending)"              \
                       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")                       \
    X(GAME_GET, "SELECT run_id, pair_id, opening_id, white_weights_id, black_weights_id,"    \
                " result, reason, plies, mars, moves, seed, npositions, created_at,"         \
                " game_index, variant"                                                       \
                " FROM games WHERE id = ?1")                                                 \
    X(GAME_POSITIONS, "SELECT ply, white_men, white_kings, black_men, black_kings, side,"    \
                      " score, capture_pending FROM positions WHERE game_id = ?1"            \
                      " ORDER BY ply")                                                       \
    X(FOREACH_ALL, "SELECT p.game_id, p.ply, p.white_men, p.white_kings, p.black_men,"       \
                   " p.black_kings, p.side, p.score, g.result"                               \
                   " FROM positions p JOIN games g ON g.id = p.game_id"                      \
                   " WHERE (?1 = 0 OR p.capture_pending = 0) AND g.variant = ?3"             \
                   " AND g.result <> 'unfinished'"                                           \
                   " ORDER BY g.run_id, g.game_index, g.id, p.ply")                          \
    X(FOREACH_RUN, "SELECT p.game_id, p.ply, p.white_men, p.white_kings, p.black_men,"       \
                   " p.black_kings, p.side, p.score, g.result"                               \
                   " FROM games g JOIN positions p ON p.game_id = g.id"                      \
                   " WHERE g.run_id = ?2 AND (?1 = 0 OR p.capture_pending = 0)"              \
                   " AND g.variant = ?3 AND g.result <> 'unfinished'"                        \
                   " ORDER BY g.game_index, g.id, p.ply")                                    \
    X(PDN_GAME_INFO, "SELECT r.kind, r.host, o.fen, ww.hash, bw.hash, pg.game_id IS NOT NULL,"  \
                     " pg.source FROM games g JOIN runs r ON r.id = g.run_id"                  \
                     " LEFT JOIN openings o ON o.id = g.opening_id"                            \
                     " LEFT JOIN weights ww ON ww.id = g.white_weights_id"                     \
                     " LEFT JOIN weights bw ON bw.id = g.black_weights_id"                     \
                     " LEFT JOIN pdn_games pg ON pg.game_id = g.id WHERE g.id = ?1")          \
    X(PDN_TAGS_GET, "SELECT name, value FROM pdn_tags WHERE game_id = ?1 ORDER BY seq")      \
    X(PDN_NOTES_GET, "SELECT ply, text FROM pdn_notes WHERE game_id = ?1 ORDER BY seq")      \
    X(PDN_IDENTITY_FIND, "SELECT 1 FROM pdn_games WHERE identity = ?1")                      \
    X(PDN_ORIGIN_FIND, "SELECT 1 FROM games WHERE run_id = ?1 AND game_index = ?2"           \
                       " AND variant = ?3 AND moves = ?4")                                   \
    X(PDN_NEXT_INDEX, "SELECT coalesce(max(game_index) + 1, 0) FROM games WHERE run_id = ?1") \
    X(PDN_GAME_INSERT, "INSERT INTO pdn_games (game_id, identity, source) VALUES (?1, ?2, ?3)") \
    X(PDN_TAG_INSERT, "INSERT INTO pdn_tags (game_id, seq, name, value) VALUES (?1, ?2, ?3, ?4)") \
    X(PDN_NOTE_INSERT, "INSERT INTO pdn_notes (game_id, seq, ply, text) VALUES (?1, ?2, ?3, ?4)") \
    X(CHECK_INTEGRITY, "PRAGMA integrity_check")                                             \
    X(CHECK_FOREIGN_KEYS, "PRAGMA foreign_key_check")                                        \
    X(CHECK_POSITIONS, "SELECT g.id, g.npositions, (SELECT count(*) FROM positions p"        \
                       " WHERE p.game_id = g.id) AS n FROM games g"                          \
                       " WHERE n <> g.npositions LIMIT 1")

enum StatementId {
#define STORE_ENUM(name, sql) STMT_##name,
    STORE_STATEMENTS(STORE_ENUM)
#undef STORE_ENUM
    STMT_COUNT
};

/* Tables store_count may name: a whitelist, since a table name cannot be a parameter. */
#define STORE_TABLES(X)                                                                      \
    X(runs) X(weights) X(openings) X(games) X(positions)                                     \
    X(tune_runs) X(tune_epochs) X(matches) X(analyses) X(train_steps)                         \
    X(pdn_games) X(pdn_tags) X(pdn_notes)                                                    \
    X(run_shards)

enum TableId {
#define STORE_TABLE_ENUM(name) TABLE_##name,
    STORE_TABLES(STORE_TABLE_ENUM)
#undef STORE_TABLE_ENUM
    TABLE_COUNT
};

struct Store {
    sqlite3 *db;
    sqlite3_stmt *stmt[STMT_COUNT];
    sqlite3_stmt *count[TABLE_COUNT];  /* "SELECT count(*) FROM <table>" */
    bool readonly;        /* opened by store_open_readonly */
    bool snapshot;        /* inside store_snapshot_begin/_end: reads share one transaction */
    int bind_rc, bind_col;/* the first failed bind since the last step (SQLITE_OK: none) */
    char err[512];
};

/* db.c, the layer under the other files.  Error helpers: set s->err and return false, so
 * failures read `return store_fail(...)`. */
bool store_fail(Store *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "what: <SQLite's message>" */
bool store_fail_db(Store *s, const char *what);

/* db.c: "file:PATH?QUERY" with the path escaped, for sqlite3_open_v2 with SQLITE_OPEN_URI and
 * ATTACH (malloc'd; NULL when out of memory). */
char *store_file_uri(const char *path, const char *query);
/* A games.result text as enum Result ('unfinished': RESULT_NONE); -1 for anything else
 * (read.c). */
int store_result_from_text(const unsigned char *text);
/* The bitboard columns from `col` on: white men, white kings, black men, black kings, side
 * (read.c). */
void store_column_position(sqlite3_stmt *st, int col, Position *pos);
/* FNV-1a 64 of text as 16 hex digits (write.c). */
void store_text_hash(const char *text, char out[17]);

/* db.c: a statement for a rare call, prepared now (finalize it after use); NULL after
 * store_fail_db(s, what) when SQLite refuses it. */
sqlite3_stmt *store_prepare(Store *s, const char *sql, const char *what);

/* The statement ready to bind: reset and with its bindings cleared by store_done(). */
static inline sqlite3_stmt *store_stmt(Store *s, enum StatementId id) { return s->stmt[id]; }
void store_done(sqlite3_stmt *st);

/* db.c: transactions.  store_rollback is safe when SQLite has already rolled back on its
 * own. */
bool store_begin_write(Store *s);
bool store_begin_read(Store *s);
bool store_commit(Store *s);
void store_rollback(Store *s);

/* db.c: reads that need one snapshot (a game and its positions, an export query) run between
 * these two; inside store_snapshot_begin/_end they join the caller's snapshot instead. */
bool store_read_begin(Store *s);
void store_read_end(Store *s);

/* Binding.  Each records the first failure (too big, out of memory, bad index) in s, and
 * store_step then refuses to run the statement, so a failed bind can never store NULL
 * in its place; store_fail_db reports it ("what: binding parameter N: why").  Inline:
 * the position insert binds nine values a row. */
static inline void store_bind_result(Store *s, int col, int rc)
{
    if (rc != SQLITE_OK && s->bind_rc == SQLITE_OK) {  /* the first: it explains the rest */
        s->bind_rc = rc;
        s->bind_col = col;
    }
}
static inline void store_bind_int(Store *s, sqlite3_stmt *st, int col, int64_t v)
{
    store_bind_result(s, col, sqlite3_bind_int64(st, col, v));
}
static inline void store_bind_real(Store *s, sqlite3_stmt *st, int col, double v)
{
    store_bind_result(s, col, sqlite3_bind_double(st, col, v));
}
static inline void store_bind_null(Store *s, sqlite3_stmt *st, int col)
{
    store_bind_result(s, col, sqlite3_bind_null(st, col));
}
/* Text, or NULL when text is NULL; ids <= 0 bind NULL ("none"). */
static inline void store_bind_text(Store *s, sqlite3_stmt *st, int col, const char *text)
{
    store_bind_result(s, col, text ? sqlite3_bind_text(st, col, text, -1, SQLITE_STATIC) : sqlite3_bind_null(st, col));
}
/* Bytes, or NULL when data is NULL. */
static inline void store_bind_blob(Store *s, sqlite3_stmt *st, int col, const void *data, size_t len)
{
    store_bind_result(s, col, data ? sqlite3_bind_blob64(st, col, data, len, SQLITE_STATIC) : sqlite3_bind_null(st, col));
}
static inline void store_bind_id(Store *s, sqlite3_stmt *st, int col, int64_t id)
{
    store_bind_result(s, col, id > 0 ? sqlite3_bind_int64(st, col, id) : sqlite3_bind_null(st, col));
}
/* sqlite3_step, or the failed bind's code without stepping. */
static inline int store_step(Store *s, sqlite3_stmt *st)
{
    return s->bind_rc != SQLITE_OK ? s->bind_rc : sqlite3_step(st);
}

/* Every record and every filter names its variant, a game of the registry by its own name
 * (the schema has no list of games: engine/games/registry.c is the one): there is no
 * default to mix games by. */
static inline bool store_variant_given(Store *s, const char *variant, const char *what)
{
    if (!variant || !variant[0])
        return store_fail(s, "%s: no variant", what);
    const Variant *v = variant_by_name(variant);
    if (!v || strcmp(v->name, variant) != 0) {
        char games[256];
        return store_fail(s, "%s: unknown variant '%s' (the games: %s)", what, variant,
                          variant_names(", ", games, sizeof games));
    }
    return true;
}

/* uint64 <-> int64 with the same bits: SQLite integers are signed 64-bit. */
static inline int64_t store_u2i(uint64_t u) { int64_t i; memcpy(&i, &u, sizeof i); return i; }
static inline uint64_t store_i2u(int64_t i) { uint64_t u; memcpy(&u, &i, sizeof u); return u; }

/* The argument is a usable Store (not NULL, open); clears the last error.  */
static inline bool store_ready(Store *s)
{
    if (!s || !s->db) return false;
    s->err[0] = '\0';
    s->bind_rc = SQLITE_OK;
    return true;
}

/* export.c: steps st to the end, calling header once with the column names, then row with
 * each row's cells (a non-zero return stops early: still a success). */
bool store_walk_rows(Store *s, sqlite3_stmt *st, const char *name, StoreHeaderFn header,
                     StoreRowFn row, void *ctx);

/* schema.c: checks what the file holds (no writes); *migrate is set when store_migrate
 * must run.  store_migrate creates or upgrades the schema in one write transaction. */
bool store_schema_check(Store *s, bool *migrate);
bool store_migrate(Store *s);
/* For a reader: the file must hold exactly this build's schema (a reader never migrates). */
bool store_schema_check_current(Store *s);
/* The file's schema version: -1 for a file with no schema yet; false (message in s) for a
 * file that is not a dama database or is newer than this build. */
bool store_schema_version_of(Store *s, int64_t *version);

/* read.c: strdup of a column; NULL stays NULL.  *oom is set when the copy fails. */
char *store_column_strdup(sqlite3_stmt *st, int col, bool *oom);

/* write.c: runs of this host left 'running' by a process that is gone become 'stale'. */
/* Under the caller's write lock: an opening's id (inserted when new); a game checked (an
 * unfinished one, RESULT_NONE, only when unfinished_ok: imported games), and inserted with
 * its positions (its id into *id, which may be NULL). */
int64_t store_opening_find_or_insert(Store *s, const char *variant, const char *fen, const char *source);
bool store_game_valid(Store *s, const GameRecord *g, int index, bool unfinished_ok);
bool store_game_insert(Store *s, const GameRecord *g, int index, int64_t *id);
bool store_mark_stale_runs(Store *s);

#endif
