/* Tests of store/: schema creation and migration, rejection of foreign files, round trips,
 * all-or-nothing batches, deduplication, a concurrent reader, and the insert rate.
 * Runs from the project root (reads data/schema.sql).  sqlite3 is used directly only to
 * forge files the store must reject and damage it must detect. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "store.h"
#include "merge.h"
#include "store_internal.h"  /* test_bind_failure lowers a limit of the connection */

/* ---- fixtures ---- */

typedef struct TempDb {
    char path[64];
} TempDb;

static void temp_db_remove(const TempDb *t)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        char p[80];
        snprintf(p, sizeof p, "%s%s", t->path, suffixes[i]);
        unlink(p);
    }
}

/* Empties the test's file back to zero bytes: to SQLite, an empty database (user_version 0). */
static void temp_db_reset(const TempDb *t)
{
    temp_db_remove(t);
    int fd = open(t->path, O_CREAT | O_EXCL | O_WRONLY, 0600);
    assert_true(fd >= 0);
    close(fd);
}

/* Each test gets a fresh file under /tmp; teardown removes it even when the test fails. */
static int setup_db(void **state)
{
    TempDb *t = malloc(sizeof *t);
    if (!t) return -1;
    snprintf(t->path, sizeof t->path, "/tmp/dama-test-store-XXXXXX");
    int fd = mkstemp(t->path);
    if (fd < 0) {
        free(t);
        return -1;
    }
    close(fd);
    *state = t;
    return 0;
}

static int teardown_db(void **state)
{
    temp_db_remove(*state);
    free(*state);
    return 0;
}

static Store *open_ok(const char *path)
{
    char err[256];
    Store *s = store_open(path, err, sizeof err);
    if (!s) fail_msg("store_open(%s): %s", path, err);
    return s;
}

static int64_t count(Store *s, const char *table)
{
    int64_t n = -1;
    if (!store_count(s, table, &n)) fail_msg("store_count(%s): %s", table, store_error(s));
    return n;
}

/* Runs SQL on a raw connection (to forge or damage files). */
static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("%s: %s", sql, msg);
    sqlite3_close(db);
}

static int64_t raw_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* The first column of the first row as text (static buffer). */
static const char *raw_text(const char *path, const char *sql)
{
    static char out[512];
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    const unsigned char *v = sqlite3_column_text(st, 0);
    snprintf(out, sizeof out, "%s", v ? (const char *)v : "NULL");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

static uint64_t next_random(uint64_t *state)  /* splitmix64 */
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A game of `plies` plies with plies+1 random positions; every bitboard has its top bit
 * set so the int64 bit-pattern storage is exercised. */
typedef struct TestGame {
    GameRecord rec;
    StoredPosition pos[200];
    char moves[32];
} TestGame;

static void make_game(TestGame *g, int64_t run_id, int plies, uint64_t seed)
{
    assert_true(plies < 200);
    memset(g, 0, sizeof *g);
    uint64_t r = seed;
    for (int i = 0; i <= plies; i++) {
        StoredPosition *p = &g->pos[i];
        p->pos.men[WHITE] = next_random(&r) | (1ull << 63);
        p->pos.kings[WHITE] = next_random(&r) | (1ull << 63);
        p->pos.men[BLACK] = next_random(&r) | (1ull << 63);
        p->pos.kings[BLACK] = i == 0 ? UINT64_MAX : next_random(&r) | (1ull << 63);
        p->pos.side = i % 2;
        p->has_score = i % 5 != 0;
        p->score = p->has_score ? (int)(next_random(&r) % 4001) - 2000 : 0;
        p->capture_pending = i % 3 == 0;
    }
    snprintf(g->moves, sizeof g->moves, "c3-d4 f6-e5 d4xf6");
    g->rec = (GameRecord){ .variant = "turkish",
        .run_id = run_id, .pair_id = (int64_t)(seed % 7) + 1, .result = RESULT_WHITE_WINS + (int)(seed % 3),
        .reason = seed % 2 ? "no-moves" : NULL, .plies = plies, .mars = seed % 2 == 0,
        .moves = g->moves, .seed = seed | (1ull << 63), .positions = g->pos, .npositions = plies + 1,
    };
}

/* n games of `plies` plies for one run, seeds 0..n-1, and the batch of their records. */
static void make_batch(TestGame *tg, GameRecord *batch, int n, int64_t run_id, int plies)
{
    for (int i = 0; i < n; i++) {
        make_game(&tg[i], run_id, plies, (uint64_t)i);
        batch[i] = tg[i].rec;
    }
}

static bool positions_equal(const StoredPosition *a, const StoredPosition *b)
{
    return a->pos.men[0] == b->pos.men[0] && a->pos.men[1] == b->pos.men[1] &&
           a->pos.kings[0] == b->pos.kings[0] && a->pos.kings[1] == b->pos.kings[1] &&
           a->pos.side == b->pos.side && a->has_score == b->has_score &&
           (!a->has_score || a->score == b->score) && a->capture_pending == b->capture_pending;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}


/* ---- schema comparison ---- */

/* Appends every row of sql (all columns, '|' separated) to buf. */
static void append_rows(sqlite3 *db, const char *sql, char *buf, size_t cap)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    while (sqlite3_step(st) == SQLITE_ROW) {
        size_t len = strlen(buf);
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const unsigned char *v = sqlite3_column_text(st, c);
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", c ? "|" : "  ", v ? (const char *)v : "NULL");
            if (len >= cap) fail_msg("schema signature too long");
        }
        snprintf(buf + len, cap - len, "\n");
    }
    sqlite3_finalize(st);
}

/* The structure of a database as SQLite sees it, independent of how the CREATE text was
 * written (a migrated file keeps its old comments and ALTER TABLE's spelling): every table
 * and index by name, each table's columns (name, type, not null, default, key), each
 * index's uniqueness and columns, the foreign keys, and the header's version and id.
 * Returns a static buffer (one call's result at a time; copy to keep). */
static const char *schema_signature(const char *path)
{
    static char buf[1 << 16];
    buf[0] = '\0';
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    append_rows(db, "SELECT 'version', user_version FROM pragma_user_version", buf, sizeof buf);
    append_rows(db, "SELECT 'application', application_id FROM pragma_application_id", buf, sizeof buf);
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT type, name FROM sqlite_master WHERE name NOT LIKE"
                                        " 'sqlite_%' ORDER BY type, name", -1, &st, NULL), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(st, 0), *name = (const char *)sqlite3_column_text(st, 1);
        char sql[512];
        size_t len = strlen(buf);
        snprintf(buf + len, sizeof buf - len, "%s %s\n", type, name);
        if (strcmp(type, "table") == 0) {
            snprintf(sql, sizeof sql, "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_xinfo('%s')"
                     " ORDER BY cid", name);
            append_rows(db, sql, buf, sizeof buf);
            snprintf(sql, sizeof sql, "SELECT name, \"unique\", origin, partial FROM pragma_index_list('%s')"
                     " WHERE name NOT LIKE 'sqlite_%%' ORDER BY name", name);
            append_rows(db, sql, buf, sizeof buf);
            /* automatic indexes (UNIQUE, PRIMARY KEY) by their columns, not their numbered names */
            snprintf(sql, sizeof sql, "SELECT l.\"unique\", l.origin, group_concat(i.name) FROM"
                     " pragma_index_list('%s') l, pragma_index_info(l.name) i WHERE l.name LIKE 'sqlite_%%'"
                     " GROUP BY l.name ORDER BY 3", name);
            append_rows(db, sql, buf, sizeof buf);
            snprintf(sql, sizeof sql, "SELECT \"table\", \"from\", \"to\", on_delete FROM"
                     " pragma_foreign_key_list('%s') ORDER BY id, seq", name);
            append_rows(db, sql, buf, sizeof buf);
        } else if (strcmp(type, "index") == 0) {
            snprintf(sql, sizeof sql, "SELECT name, \"desc\", coll, key FROM pragma_index_xinfo('%s')"
                     " ORDER BY seqno", name);
            append_rows(db, sql, buf, sizeof buf);
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return buf;
}

/* The signature of a database created by this build from nothing (computed once). */
static const char *fresh_signature(void)
{
    static char fresh[1 << 16];
    if (fresh[0]) return fresh;
    TempDb t = { "/tmp/dama-test-fresh-XXXXXX" };
    int fd = mkstemp(t.path);
    assert_true(fd >= 0);
    close(fd);
    char err[256];
    Store *s = store_open(t.path, err, sizeof err);
    if (!s) fail_msg("%s", err);
    store_close(s);
    snprintf(fresh, sizeof fresh, "%s", schema_signature(t.path));
    temp_db_remove(&t); /* schema_signature's read-only connection leaves the WAL files */
    return fresh;
}

/* ---- schema ---- */

static void test_embedded_schema_equals_file(void **state)
{
    (void)state;
    FILE *f = fopen("data/schema.sql", "rb");
    if (!f) fail_msg("data/schema.sql: %s (run the tests from the project root)", strerror(errno));
    static char file[1 << 16];
    size_t n = fread(file, 1, sizeof file - 1, f);
    fclose(f);
    file[n] = '\0';
    const char *embedded = store_schema_sql();
    size_t i = 0;
    while (i < n && embedded[i] == file[i]) i++;
    if (i != n || embedded[i] != '\0')
        fail_msg("store/schema.c and data/schema.sql differ at byte %zu", i);
}

static void test_create_fresh(void **state)
{
    const TempDb *t = *state;  /* zero bytes: a version-0 empty database */
    Store *s = open_ok(t->path);
    const char *tables[] = {"runs", "weights", "openings", "games", "positions",
                            "tune_runs", "tune_epochs", "matches", "analyses"};
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) assert_int_equal(count(s, tables[i]), 0);
    assert_true(store_check(s));
    store_close(s);
    assert_int_equal(raw_int(t->path, "PRAGMA user_version"), store_schema_version());
    assert_int_equal(raw_int(t->path, "PRAGMA application_id"), 0x44414D41);
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'wal'"), 1);

    /* A path that does not exist yet is created. */
    temp_db_remove(t);
    s = open_ok(t->path);
    assert_int_equal(count(s, "games"), 0);
    store_close(s);
}

static void test_reopen_is_idempotent(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t run = store_run_begin(s, "selfplay", "turkish", "{\"games\":2}", "dama 0.1", "bench 123", 0);
    assert_true(run > 0);
    int64_t objects = raw_int(t->path, "SELECT count(*) FROM sqlite_master");
    store_close(s);
    for (int i = 0; i < 3; i++) {
        s = open_ok(t->path);
        assert_int_equal(count(s, "runs"), 1);
        assert_true(store_check(s));
        store_close(s);
    }
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM sqlite_master"), objects);
}

static void test_migrate_from_version_0(void **state)
{
    const TempDb *t = *state;
    /* A real SQLite file (header written) with user_version 0 and no schema. */
    raw_exec(t->path, "PRAGMA page_size = 8192; VACUUM;");
    /* The header is on disk: one page of the size asked for, no schema, version 0. */
    struct stat st;
    assert_int_equal(stat(t->path, &st), 0);
    assert_int_equal(st.st_size, 8192);
    assert_int_equal(raw_int(t->path, "PRAGMA user_version"), 0);
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM sqlite_master"), 0);
    Store *s = open_ok(t->path);
    assert_int_equal(count(s, "positions"), 0);
    store_close(s);
    assert_int_equal(raw_int(t->path, "PRAGMA user_version"), store_schema_version());
    /* The schema went into that file (its page size kept), not into a new one. */
    assert_int_equal(raw_int(t->path, "PRAGMA page_size"), 8192);
    assert_string_equal(schema_signature(t->path), fresh_signature());
}


/* ---- migration of real old files ---- */

/* An old database: the committed schema of that version (tests/data) run on an empty file,
 * the way that version's dama created it, and rows in every table it had. */
static void make_old_database(const char *path, int version)
{
    char fixture[64];
    snprintf(fixture, sizeof fixture, "tests/data/schema-v%d.sql", version);
    FILE *f = fopen(fixture, "rb");
    if (!f) fail_msg("%s: %s (run the tests from the project root)", fixture, strerror(errno));
    static char sql[1 << 16];
    size_t n = fread(sql, 1, sizeof sql - 1, f);
    fclose(f);
    sql[n] = '\0';
    raw_exec(path, "PRAGMA journal_mode = WAL");
    raw_exec(path, sql);
    raw_exec(path,
             "INSERT INTO weights (id, variant, generation, text, hash, note) VALUES (1, 'turkish', 0, 'man 100\n',"
             " '00000000000000aa', 'old');"
             "INSERT INTO runs (id, kind, params, status, weights_id) VALUES (1, 'selfplay', 'games=2', 'done', 1);"
             "INSERT INTO runs (id, kind, status) VALUES (2, 'tune', 'done');"
             "INSERT INTO openings (id, fen, source) VALUES (1, 'W:Wa3:Bh6', 'file');"
             "INSERT INTO games (id, run_id, pair_id, opening_id, white_weights_id, black_weights_id, result,"
             " reason, plies, mars, moves, seed, npositions) VALUES"
             " (1, 1, 1, 1, 1, 1, 'white', 'no-moves', 2, 1, 'a3-a4 h6-h5', -5, 3),"
             " (2, 1, 1, 1, 1, 1, 'draw', 'move-cap', 1, 0, 'a3-b4', 7, 2);"
             "INSERT INTO positions VALUES (1, 0, -9223372036854775808, 0, 3, 4, 0, 12, 0),"
             " (1, 1, 5, 6, 7, 8, 1, NULL, 1), (1, 2, 9, 10, 11, 12, 0, -30, 0),"
             " (2, 0, 1, 2, 3, 4, 0, 5, 0), (2, 1, 6, 7, 8, 9, 1, 10, 0);"
             "INSERT INTO tune_runs (id, run_id, parent_weights_id, result_weights_id, k, epochs) VALUES"
             " (1, 2, 1, 1, 0.004, 3);"
             "INSERT INTO tune_epochs VALUES (1, 0, 0.25, 0.5);"
             "INSERT INTO matches (run_id, weights_a, weights_b, games, wins) VALUES (1, 1, 1, 2, 1);"
             "INSERT INTO analyses (run_id, fen, score) VALUES (1, 'W:Wa3:Bh6', 40);");
    if (version >= 2)
        raw_exec(path, "INSERT INTO train_steps (train_run_id, generation, step, ref_id, outcome) VALUES"
                       " (1, 1, 'decision', 1, 'promoted')");
    if (version >= 3)
        raw_exec(path, "UPDATE games SET game_index = id - 1;"
                       "UPDATE runs SET host = 'old-host', pid = 4242 WHERE id = 1");
}

/* After migration: the rows of make_old_database, read through the store and raw SQL. */
static void expect_old_data(const char *path, int version)
{
    Store *s = open_ok(path);
    assert_int_equal(count(s, "games"), 2);
    assert_int_equal(count(s, "positions"), 5);
    assert_int_equal(count(s, "tune_epochs"), 1);
    assert_int_equal(count(s, "matches"), 1);
    assert_int_equal(count(s, "analyses"), 1);
    assert_int_equal(count(s, "train_steps"), version >= 2 ? 1 : 0);
    StoredGame g;
    if (!store_game_read(s, 1, &g)) fail_msg("%s", store_error(s));
    assert_int_equal(g.rec.result, RESULT_WHITE_WINS);
    assert_string_equal(g.rec.reason, "no-moves");
    assert_string_equal(g.rec.moves, "a3-a4 h6-h5");
    assert_true(g.rec.mars);
    assert_true(g.rec.seed == (uint64_t)-5);
    assert_int_equal(g.rec.has_index, version >= 3);  /* games from before v3 have no index */
    assert_string_equal(g.rec.variant, "turkish");    /* every game before v4 was Turkish */
    assert_true(g.positions[0].pos.men[WHITE] == 1ull << 63);
    assert_false(g.positions[1].has_score);
    assert_int_equal(g.positions[2].score, -30);
    store_game_free(&g);
    char *text = NULL;
    assert_true(store_weights_get(s, 1, &text));
    assert_string_equal(text, "man 100\n");
    free(text);
    unsigned char *blob = NULL;
    size_t blob_len = 1;
    assert_true(store_weights_get_blob(s, 1, &text, &blob, &blob_len));  /* old weights: no blob */
    assert_null(blob);
    assert_int_equal(blob_len, 0);
    free(text);
    assert_true(store_check(s));
    /* the new columns work: a game index is unique within its run */
    int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 1);
    assert_true(run > 2);
    static TestGame tg;
    make_game(&tg, run, 4, 3);
    tg.rec.has_index = true;
    tg.rec.game_index = 0;
    assert_true(store_games_write(s, &tg.rec, 1));
    assert_false(store_games_write(s, &tg.rec, 1));
    assert_non_null(strstr(store_error(s), "UNIQUE"));
    /* ... and the variant: the old rows are Turkish, an International run can be added */
    assert_true(store_run_begin(s, "selfplay", "international", NULL, NULL, NULL, 0) > run);
    store_close(s);
    assert_string_equal(raw_text(path, "SELECT params FROM runs WHERE id = 1"), "games=2");
    if (version >= 3)
        assert_int_equal(raw_int(path, "SELECT count(*) FROM runs WHERE id = 1 AND host = 'old-host' AND pid = 4242"), 1);
    else
        assert_int_equal(raw_int(path, "SELECT count(*) FROM runs WHERE id = 1 AND host IS NULL AND pid IS NULL"), 1);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM runs WHERE id <= 2 AND variant = 'turkish'"), 2);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM games WHERE id <= 2 AND variant = 'turkish'"), 2);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM openings WHERE variant = 'turkish'"), 1);
    assert_int_equal(raw_int(path, "SELECT count(*) FROM runs WHERE variant = 'international'"), 1);
    /* the CHECK came with the migrated column too: no unknown variant gets in */
    char *msg = NULL;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    /* since v8 a game may be unfinished (an imported PDN game without a result), and the
     * result's CHECK still refuses anything else */
    assert_int_equal(sqlite3_exec(db, "INSERT INTO games (run_id, result, plies, npositions) VALUES (1, 'unfinished', 0, 0)",
                                  NULL, NULL, &msg), SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(db, "INSERT INTO games (run_id, result, plies, npositions) VALUES (1, 'won', 0, 0)",
                                      NULL, NULL, &msg), SQLITE_OK);
    assert_non_null(msg && strstr(msg, "CHECK") ? msg : NULL);
    sqlite3_free(msg);
    msg = NULL;
    assert_int_equal(sqlite3_exec(db, "DELETE FROM games WHERE result = 'unfinished'", NULL, NULL, NULL), SQLITE_OK);
    /* since v9 the tables hold no list of games (the CHECK went with the migration): the
     * store checks a variant against the registry */
    assert_int_equal(sqlite3_exec(db, "INSERT INTO runs (kind, variant) VALUES ('selfplay', 'chess')", NULL, NULL,
                                  &msg), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM runs WHERE variant = 'chess'", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = open_ok(path);
    assert_int_equal(store_run_begin(s, "selfplay", "chess", NULL, NULL, NULL, 0), -1);
    assert_non_null(strstr(store_error(s), "unknown variant 'chess'"));
    store_close(s);
}

static void test_migrate_real_old_files(void **state)
{
    const TempDb *t = *state;
    for (int version = 1; version < store_schema_version(); version++) {
        temp_db_reset(t);
        make_old_database(t->path, version);
        assert_int_equal(raw_int(t->path, "PRAGMA user_version"), version);
        /* the comparison sees the difference before the migration ... */
        char before[1 << 16];
        snprintf(before, sizeof before, "%s", schema_signature(t->path));
        if (strcmp(before, fresh_signature()) == 0) fail_msg("a version %d file looks fresh", version);
        /* ... and none after it: the same tables, columns, indexes and keys, data kept */
        store_close(open_ok(t->path));
        assert_int_equal(raw_int(t->path, "PRAGMA user_version"), store_schema_version());
        const char *after = schema_signature(t->path), *fresh = fresh_signature();
        if (strcmp(after, fresh) != 0)
            fail_msg("version %d migrated differs from a fresh file:\n--- migrated\n%s--- fresh\n%s", version,
                     after, fresh);
        expect_old_data(t->path, version);
    }
}

typedef Store *OpenFn(const char *path, char *err, size_t errlen);

/* open (store_open or store_open_readonly) refuses path with needle in its message. */
static void expect_refused(OpenFn *open, const char *path, const char *needle)
{
    char err[512] = "";
    Store *s = open(path, err, sizeof err);
    if (s) {
        store_close(s);
        fail_msg("%s was accepted; it must be refused", path);
    }
    if (!strstr(err, needle)) fail_msg("error '%s' does not mention '%s'", err, needle);
}

static void expect_open_fails(const char *path, const char *needle) { expect_refused(store_open, path, needle); }

/* 9 -> 10 builds the weights table again with foreign keys off, so it checks them before
 * it commits: a file whose rows already broke them is refused as it is, still version 9. */
static void test_migration_keeps_broken_files(void **state)
{
    const TempDb *t = *state;
    make_old_database(t->path, 9);
    raw_exec(t->path, "PRAGMA foreign_keys = OFF;"
                      " INSERT INTO runs (id, kind, status, weights_id) VALUES (9, 'selfplay', 'done', 77)");
    expect_open_fails(t->path, "the file breaks its foreign keys");
    assert_int_equal(raw_int(t->path, "PRAGMA user_version"), 9);
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM weights"), 1);
    /* repaired, it migrates */
    raw_exec(t->path, "DELETE FROM runs WHERE id = 9");
    store_close(open_ok(t->path));
    assert_int_equal(raw_int(t->path, "PRAGMA user_version"), store_schema_version());
}

static void test_reject_newer_version(void **state)
{
    const TempDb *t = *state;
    store_close(open_ok(t->path));
    raw_exec(t->path, "PRAGMA user_version = 99");
    expect_open_fails(t->path, "newer");
    assert_int_equal(raw_int(t->path, "PRAGMA user_version"), 99);
}

static void test_reject_foreign_files(void **state)
{
    const TempDb *t = *state;
    /* A SQLite database of some other program: rejected and left in its journal mode. */
    raw_exec(t->path, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('hi');");
    expect_open_fails(t->path, "not a dama database");
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM pragma_journal_mode WHERE journal_mode = 'delete'"), 1);

    /* Another application id with no tables is not ours either. */
    temp_db_reset(t);
    raw_exec(t->path, "PRAGMA application_id = 42");
    expect_open_fails(t->path, "not a dama database");

    /* Not SQLite at all: left byte for byte as it was. */
    temp_db_reset(t);
    FILE *f = fopen(t->path, "wb");
    assert_non_null(f);
    const char *line = "W:Wa3,b3,c3:Ba6,b6,c6 this is not a database\n";
    for (int i = 0; i < 200; i++) fputs(line, f);
    fclose(f);
    long size = 200 * (long)strlen(line);
    expect_open_fails(t->path, "not a database");
    f = fopen(t->path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    assert_int_equal(ftell(f), size);
    fclose(f);

    /* A directory that does not exist: the message says why, not SQLite's "unable to open",
     * and nothing is left behind. */
    expect_open_fails("/nonexistent-dama-dir/x.db", "x.db: cannot create the database: No such file or directory");
    assert_int_equal(access("/nonexistent-dama-dir", F_OK), -1);
}

/* ---- bad input ---- */

static void test_bad_arguments(void **state)
{
    char err[64];
    assert_null(store_open(NULL, err, sizeof err));
    assert_true(strlen(err) > 0);
    assert_null(store_open(NULL, NULL, 0));
    assert_non_null(store_error(NULL));
    store_close(NULL);
    store_game_free(NULL);

    int64_t n = 0;
    char *text = NULL;
    StoredGame g;
    assert_false(store_count(NULL, "games", &n));
    assert_true(store_run_begin(NULL, "selfplay", "turkish", NULL, NULL, NULL, 0) < 0);
    assert_false(store_run_end(NULL, 1, "done"));
    assert_true(store_weights_put(NULL, "turkish", 0, 0, "x 1\n", NULL) < 0);
    assert_false(store_weights_get(NULL, 1, &text));
    assert_true(store_latest_weights(NULL, "turkish") < 0);
    assert_true(store_opening_put(NULL, "turkish", "W:Wa3:Bh6", NULL) < 0);
    assert_false(store_games_write(NULL, NULL, 1));
    assert_false(store_game_read(NULL, 1, &g));
    assert_false(store_positions_foreach(NULL, "turkish", NULL, 0, false, NULL, NULL));
    assert_false(store_check(NULL));

    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
    assert_true(run > 0);

    assert_false(store_count(s, "games; DROP TABLE games", &n));
    assert_non_null(strstr(store_error(s), "unknown table"));
    assert_false(store_count(s, NULL, &n));
    assert_false(store_count(s, "games", NULL));
    assert_true(store_run_begin(s, NULL, "turkish", NULL, NULL, NULL, 0) < 0);
    assert_true(store_run_begin(s, "", "turkish", NULL, NULL, NULL, 0) < 0);
    assert_true(store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 12345) < 0);  /* no such weights */
    assert_false(store_run_end(s, 999, "done"));
    assert_false(store_run_end(s, run, NULL));
    assert_true(store_weights_put(s, NULL, 0, 0, "x 1\n", NULL) < 0);
    assert_true(store_weights_put(s, "turkish", 0, 0, NULL, NULL) < 0);
    assert_false(store_weights_get(s, 777, &text));
    assert_null(text);
    assert_false(store_weights_get(s, 1, NULL));
    assert_true(store_latest_weights(s, NULL) < 0);
    assert_true(store_opening_put(s, "turkish", NULL, NULL) < 0);
    assert_true(store_opening_put(s, "turkish", "", NULL) < 0);
    assert_false(store_game_read(s, 1, &g));
    assert_non_null(strstr(store_error(s), "no game"));
    assert_false(store_game_read(s, 1, NULL));
    assert_false(store_positions_foreach(s, "turkish", NULL, 2, false, NULL, NULL));
    assert_false(store_positions_foreach(s, "turkish", NULL, -1, false, NULL, NULL));

    static TestGame tg;
    make_game(&tg, run, 10, 1);
    GameRecord bad[6];
    for (int i = 0; i < 6; i++) bad[i] = tg.rec;
    bad[0].result = RESULT_NONE;
    bad[1].npositions = bad[1].plies + 2;
    bad[2].positions = NULL;
    bad[3].plies = -1;
    bad[4].run_id = 0;
    StoredPosition wrong_side[11];
    memcpy(wrong_side, tg.pos, sizeof wrong_side);
    wrong_side[5].pos.side = 2;
    bad[5].positions = wrong_side;
    for (int i = 0; i < 6; i++) {
        assert_false(store_games_write(s, &bad[i], 1));
        assert_true(strlen(store_error(s)) > 0);
    }
    assert_false(store_games_write(s, NULL, 3));
    assert_false(store_games_write(s, &tg.rec, -1));
    assert_true(store_games_write(s, &tg.rec, 0));
    assert_int_equal(count(s, "games"), 0);
    assert_int_equal(count(s, "positions"), 0);

    /* After all that, the store still works and the error is cleared by a success. */
    assert_true(store_games_write(s, &tg.rec, 1));
    assert_string_equal(store_error(s), "");
    assert_int_equal(count(s, "positions"), 11);
    store_close(s);
}

/* ---- round trips ---- */

static void test_game_round_trip(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t w = store_weights_put(s, "turkish", 0, 0, "man 100\nking 300\n", "initial");
    int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, "dama 0.1", NULL, w);
    int64_t opening = store_opening_put(s, "turkish", "W:Wa3,b3:Bg6,h6", "test");
    assert_true(w > 0 && run > 0 && opening > 0);

    static TestGame tg[3];
    for (int i = 0; i < 3; i++) {
        make_game(&tg[i], run, 20 + 30 * i, 100 + (uint64_t)i);
        tg[i].rec.opening_id = opening;
        tg[i].rec.white_weights_id = w;
        tg[i].rec.black_weights_id = i == 1 ? 0 : w;
    }
    tg[2].rec.npositions = 5;  /* fewer positions than plies + 1 is allowed */
    GameRecord batch[3] = {tg[0].rec, tg[1].rec, tg[2].rec};
    assert_true(store_games_write(s, batch, 3));
    store_close(s);

    s = open_ok(t->path);  /* read back through a new connection */
    for (int i = 0; i < 3; i++) {
        StoredGame g;
        if (!store_game_read(s, i + 1, &g)) fail_msg("store_game_read: %s", store_error(s));
        const GameRecord *a = &tg[i].rec, *b = &g.rec;
        assert_int_equal(g.id, i + 1);
        assert_true(g.created_at > 1600000000);
        assert_int_equal(b->run_id, a->run_id);
        assert_int_equal(b->pair_id, a->pair_id);
        assert_int_equal(b->opening_id, a->opening_id);
        assert_int_equal(b->white_weights_id, a->white_weights_id);
        assert_int_equal(b->black_weights_id, a->black_weights_id);
        assert_int_equal(b->result, a->result);
        if (a->reason) assert_string_equal(b->reason, a->reason);
        else assert_null(b->reason);
        assert_int_equal(b->plies, a->plies);
        assert_int_equal(b->mars, a->mars);
        assert_string_equal(b->moves, a->moves);
        assert_true(b->seed == a->seed);
        assert_int_equal(b->npositions, a->npositions);
        for (int k = 0; k < a->npositions; k++)
            if (!positions_equal(&b->positions[k], &a->positions[k])) fail_msg("game %d ply %d differs", i, k);
        store_game_free(&g);
        store_game_free(&g);  /* twice is harmless */
    }
    assert_true(store_check(s));
    store_close(s);
}

/* The foreach callback checks every streamed position against the games written. */
typedef struct Walk {
    TestGame *games;      /* game id k is games[k - 1] */
    int ngames;
    int64_t seen, stop_after;
    int64_t last_game, last_run;
    int last_index, last_ply;
    bool bad;
} Walk;

static int walk_cb(void *ctx, int64_t game_id, int ply, const Position *pos, int score,
                   bool has_score, int result)
{
    Walk *w = ctx;
    if (game_id < 1 || game_id > w->ngames) return w->bad = true, 1;
    const TestGame *g = &w->games[game_id - 1];
    StoredPosition got = {.pos = *pos, .score = score, .has_score = has_score};
    got.capture_pending = g->pos[ply].capture_pending;
    /* The stream's order is (run, game index, ply): a game's identity, not its rowid. */
    bool ordered = game_id == w->last_game ? ply > w->last_ply
                 : g->rec.run_id > w->last_run || (g->rec.run_id == w->last_run && g->rec.game_index > w->last_index);
    if (!ordered || ply < 0 || ply >= g->rec.npositions || result != g->rec.result ||
        !positions_equal(&got, &g->pos[ply]))
        w->bad = true;
    w->last_game = game_id;
    w->last_run = g->rec.run_id;
    w->last_index = g->rec.game_index;
    w->last_ply = ply;
    return ++w->seen == w->stop_after;
}

static void test_positions_foreach(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t runs[2] = {store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0),
                       store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0)};
    static TestGame tg[6];
    GameRecord batch[6];
    int64_t total[2] = {0, 0}, quiet[2] = {0, 0};
    for (int i = 0; i < 6; i++) {
        make_game(&tg[i], runs[i % 2], 10 + i, 7 * (uint64_t)i);
        tg[i].rec.has_index = true;
        tg[i].rec.game_index = 5 - i; /* indices against the rowids' order */
        batch[i] = tg[i].rec;
        for (int k = 0; k < tg[i].rec.npositions; k++) {
            total[i % 2]++;
            quiet[i % 2] += !tg[i].pos[k].capture_pending;
        }
    }
    assert_true(store_games_write(s, batch, 6));

    Walk w = {.games = tg, .ngames = 6, .last_ply = -1};
    assert_true(store_positions_foreach(s, "turkish", NULL, 0, false, walk_cb, &w));
    assert_false(w.bad);
    assert_int_equal(w.seen, total[0] + total[1]);

    w = (Walk){.games = tg, .ngames = 6, .last_ply = -1};
    assert_true(store_positions_foreach(s, "turkish", NULL, 0, true, walk_cb, &w));
    assert_false(w.bad);
    assert_int_equal(w.seen, quiet[0] + quiet[1]);

    int64_t second_twice[2] = {runs[1], runs[1]};
    w = (Walk){.games = tg, .ngames = 6, .last_ply = -1};
    assert_true(store_positions_foreach(s, "turkish", second_twice, 2, false, walk_cb, &w));
    assert_false(w.bad);
    assert_int_equal(w.seen, total[1]);

    w = (Walk){.games = tg, .ngames = 6, .last_ply = -1};
    assert_true(store_positions_foreach(s, "turkish", runs, 2, true, walk_cb, &w));
    assert_int_equal(w.seen, quiet[0] + quiet[1]);

    int64_t none = 4242;
    w = (Walk){.games = tg, .ngames = 6, .last_ply = -1};
    assert_true(store_positions_foreach(s, "turkish", &none, 1, false, walk_cb, &w));
    assert_int_equal(w.seen, 0);

    w = (Walk){.games = tg, .ngames = 6, .last_ply = -1, .stop_after = 17};
    assert_true(store_positions_foreach(s, "turkish", NULL, 0, false, walk_cb, &w));
    assert_int_equal(w.seen, 17);

    /* The read transaction is over: writes still work. */
    batch[0].game_index = 100;
    assert_true(store_games_write(s, batch, 1));
    store_close(s);
}

/* ---- two variants in one file ---- */

static int count_cb(void *ctx, int64_t game_id, int ply, const Position *pos, int score,
                    bool has_score, int result);

static int count_rows(void *ctx, int ncols, const StoreCell *cells)
{
    (void)ncols, (void)cells;
    ++*(int64_t *)ctx;
    return 0;
}

/* Rows of an export query for variant (every run). */
static int64_t export_count(Store *s, const char *query, const char *variant)
{
    int64_t n = 0;
    if (!store_export_rows_ex(s, query, variant, 0, true, NULL, count_rows, &n)) fail_msg("%s", store_error(s));
    return n;
}

static void test_variants_kept_apart(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t tr = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
    int64_t in = store_run_begin(s, "selfplay", "international", NULL, NULL, NULL, 0);
    assert_true(tr > 0 && in > tr);
    /* every record names its variant, and only a known one */
    assert_true(store_run_begin(s, "selfplay", NULL, NULL, NULL, NULL, 0) < 0);
    assert_non_null(strstr(store_error(s), "no variant"));
    assert_true(store_run_begin(s, "selfplay", "chess", NULL, NULL, NULL, 0) < 0);
    assert_non_null(strstr(store_error(s), "unknown variant 'chess'"));
    assert_true(store_run_begin(s, "selfplay", "tr", NULL, NULL, NULL, 0) < 0); /* its own name only */
    assert_non_null(strstr(store_error(s), "unknown variant 'tr'"));
    assert_true(store_opening_put(s, NULL, "W:Wa3:Bh6", NULL) < 0);
    int64_t o = store_opening_put(s, "turkish", "W:Wa3:Bh6", NULL);
    assert_true(o > 0);
    assert_true(store_opening_put(s, "international", "W:Wa3:Bh6", NULL) < 0);  /* not the same opening */
    assert_non_null(strstr(store_error(s), "turkish"));

    static TestGame tg[5];
    GameRecord batch[5];
    int64_t positions[2] = {0, 0};
    for (int i = 0; i < 5; i++) {
        bool intl = i >= 3;
        make_game(&tg[i], intl ? in : tr, 6 + i, (uint64_t)i);
        tg[i].rec.variant = intl ? "international" : "turkish";
        tg[i].rec.result = intl ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
        batch[i] = tg[i].rec;
        positions[intl] += tg[i].rec.npositions;
    }
    /* a game of the other variant in a run: the whole batch is refused */
    GameRecord wrong[2] = {batch[0], batch[3]};
    wrong[1].run_id = tr;
    assert_false(store_games_write(s, wrong, 2));
    assert_non_null(strstr(store_error(s), "another variant"));
    assert_int_equal(count(s, "games"), 0);
    wrong[1].variant = NULL;
    assert_false(store_games_write(s, wrong, 2));
    assert_non_null(strstr(store_error(s), "no variant"));
    wrong[1].variant = "chess";
    assert_false(store_games_write(s, wrong, 2));
    assert_non_null(strstr(store_error(s), "unknown variant 'chess'"));
    assert_true(store_games_write(s, batch, 5));
    assert_true(store_run_end(s, tr, "done") && store_run_end(s, in, "done"));

    StoredGame g;
    assert_true(store_game_read(s, 4, &g));
    assert_string_equal(g.rec.variant, "international");
    store_game_free(&g);

    /* the tuner's stream: one variant's positions, never the other's */
    int64_t seen = 0;
    assert_true(store_positions_foreach(s, "turkish", NULL, 0, false, count_cb, &seen));
    assert_int_equal(seen, positions[0]);
    seen = 0;
    assert_true(store_positions_foreach(s, "international", NULL, 0, false, count_cb, &seen));
    assert_int_equal(seen, positions[1]);
    seen = 0;
    assert_true(store_positions_foreach(s, "turkish", &in, 1, false, count_cb, &seen));
    assert_int_equal(seen, 0);
    assert_false(store_positions_foreach(s, NULL, NULL, 0, false, count_cb, &seen));

    int64_t *ids = NULL;
    assert_int_equal(store_game_runs(s, "international", false, &ids), 1);
    assert_true(ids[0] == in);
    free(ids);
    int64_t recent[4];
    assert_int_equal(store_recent_runs(s, "selfplay", "turkish", 4, recent), 1);
    assert_true(recent[0] == tr);
    /* resuming: the last run of this variant, though the other's came later */
    assert_true(store_last_run(s, "selfplay", "turkish", NULL, 0, NULL, 0) == tr);
    assert_true(store_last_run(s, "selfplay", NULL, NULL, 0, NULL, 0) < 0);
    char variant[32];
    assert_int_equal(store_run_info(s, in, NULL, 0, NULL, 0, NULL, variant, sizeof variant), 1);
    assert_string_equal(variant, "international");

    /* exports: one variant's rows and statistics */
    assert_int_equal(export_count(s, "runs", "turkish"), 1);
    assert_int_equal(export_count(s, "games", "turkish"), 3);
    assert_int_equal(export_count(s, "games", "international"), 2);
    assert_int_equal(export_count(s, "positions", "turkish"), positions[0]);
    assert_int_equal(export_count(s, "positions", "international"), positions[1]);
    assert_int_equal(export_count(s, "summary", "turkish"), 1);
    assert_int_equal(export_count(s, "openings", "international"), 1);
    int64_t scored[2] = {0, 0};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < tg[i].rec.npositions; k++) scored[i >= 3] += tg[i].pos[k].has_score;
    assert_int_equal(export_count(s, "calibration", "turkish"), scored[0]);
    assert_false(store_export_rows(s, "games", NULL, 0, NULL, count_rows, &seen));
    store_close(s);
}

/* ---- integrity ---- */

static void test_batch_all_or_nothing(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
    static TestGame tg[8];
    GameRecord batch[8];
    make_batch(tg, batch, 8, run, 40);
    /* Foreign keys only SQLite can judge, each in the last game of the batch. */
    const char *what[] = {"run_id", "opening_id", "white_weights_id"};
    for (int k = 0; k < 3; k++) {
        batch[7] = tg[7].rec;
        if (k == 0) batch[7].run_id = 9999;
        if (k == 1) batch[7].opening_id = 9999;
        if (k == 2) batch[7].white_weights_id = 9999;
        if (store_games_write(s, batch, 8)) fail_msg("a batch with a bad %s was written", what[k]);
        assert_non_null(strstr(store_error(s), "FOREIGN KEY"));
        assert_non_null(strstr(store_error(s), "game 7"));
        assert_int_equal(count(s, "games"), 0);
        assert_int_equal(count(s, "positions"), 0);
    }
    batch[7] = tg[7].rec;
    assert_true(store_games_write(s, batch, 8));
    assert_int_equal(count(s, "games"), 8);
    assert_int_equal(count(s, "positions"), 8 * 41);
    assert_true(store_check(s));
    store_close(s);
}

static void test_check_detects_damage(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    static TestGame tg;
    make_game(&tg, store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0), 12, 5);
    assert_true(store_games_write(s, &tg.rec, 1));
    assert_true(store_check(s));
    raw_exec(t->path, "DELETE FROM positions WHERE game_id = 1 AND ply = 12");
    assert_false(store_check(s));
    assert_non_null(strstr(store_error(s), "game 1 has 12 positions"));
    StoredGame g;
    assert_false(store_game_read(s, 1, &g));
    raw_exec(t->path, "PRAGMA foreign_keys = OFF; INSERT INTO games (run_id, result, plies, npositions)"
                     " VALUES (77, 'draw', 0, 0); DELETE FROM positions WHERE game_id = 1;"
                     " UPDATE games SET npositions = 0 WHERE id = 1");
    assert_false(store_check(s));
    assert_non_null(strstr(store_error(s), "foreign key"));
    store_close(s);
}

/* Weights with a blob (a pattern evaluation's table): kept byte for byte, named by the hash
 * given, deduplicated by it and their head, and never confused with other weights of the
 * same hash: the same numbers under another head (another feature set) are other weights,
 * the same hash and head over another table is refused. */
static void test_weights_blob(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    const unsigned char blob[] = { 0x78, 0x9c, 0x00, 0xff, 0x00, 0x01 };  /* NUL bytes inside */
    int64_t a = store_weights_put_blob(s, "turkish", 0, 0, "variant turkish\neval pattern\n", blob, sizeof blob,
                                       "0123456789abcdef", "pattern");
    assert_true(a > 0);
    assert_int_equal(store_weights_put_blob(s, "turkish", 4, 0, "variant turkish\neval pattern\n", blob,
                                            sizeof blob, "0123456789abcdef", "again"), a);
    assert_int_equal(count(s, "weights"), 1);
    /* the same hash and head with another table is refused, and so is a blob without a hash */
    const unsigned char other[] = { 1, 2, 3 };
    assert_true(store_weights_put_blob(s, "turkish", 0, 0, "variant turkish\neval pattern\n", other, sizeof other,
                                       "0123456789abcdef", NULL) < 0);
    assert_non_null(strstr(store_error(s), "same hash 0123456789abcdef and head but another table"));
    /* the same numbers under another feature set: other weights, each found again by both */
    const char *head2 = "variant turkish\neval pattern\nfeature-set 2\n";
    int64_t a2 = store_weights_put_blob(s, "turkish", 0, a, head2, blob, sizeof blob, "0123456789abcdef", NULL);
    assert_true(a2 > a);
    assert_int_equal(store_weights_put_blob(s, "turkish", 0, 0, head2, blob, sizeof blob, "0123456789abcdef",
                                            NULL), a2);
    assert_int_equal(store_weights_put_blob(s, "turkish", 0, 0, "variant turkish\neval pattern\n", blob,
                                            sizeof blob, "0123456789abcdef", NULL), a);
    assert_int_equal(count(s, "weights"), 2);
    /* and runs of the same options with either are other runs (db merge keeps them apart) */
    const int64_t run_weights[3] = { a, a2, a };
    for (int i = 0; i < 3; i++) {
        int64_t r = store_run_begin(s, "selfplay", "turkish", "games=2", NULL, "b", run_weights[i]);
        assert_true(r > 0 && store_run_identify(s, r, "games=2", 1, 1));
    }
    assert_true(store_weights_put_blob(s, "turkish", 0, 0, "x", blob, sizeof blob, NULL, NULL) < 0);
    char *text = NULL;
    unsigned char *back = NULL;
    size_t len = 0;
    assert_true(store_weights_get_blob(s, a, &text, &back, &len));
    assert_string_equal(text, "variant turkish\neval pattern\n");
    assert_int_equal(len, sizeof blob);
    assert_memory_equal(back, blob, sizeof blob);
    free(text);
    free(back);
    /* linear weights: no blob, named by the hash of their text as before */
    int64_t b = store_weights_put(s, "turkish", 0, 0, "man 100\n", NULL);
    assert_true(store_weights_get_blob(s, b, &text, &back, &len));
    assert_null(back);
    assert_int_equal(len, 0);
    free(text);
    store_close(s);
    assert_string_equal(raw_text(t->path, "SELECT hash FROM weights WHERE id = 1"), "0123456789abcdef");
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM weights WHERE blob IS NULL"), 1);
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM weights WHERE hash = '0123456789abcdef'"), 2);
    assert_int_equal(raw_int(t->path, "SELECT count(DISTINCT identity) FROM runs"), 2);
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM runs a JOIN runs b ON a.identity = b.identity"
                                      " AND a.id < b.id WHERE a.weights_id = b.weights_id"), 1);
}

static void test_weights_and_openings(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    assert_int_equal(store_latest_weights(s, "turkish"), 0);
    int64_t a = store_weights_put(s, "turkish", 0, 0, "man 100\n", "initial");
    int64_t b = store_weights_put(s, "turkish", 1, a, "man 104\n", "tuned");
    assert_true(a > 0 && b > a);
    assert_int_equal(store_weights_put(s, "turkish", 5, b, "man 100\n", "again"), a);  /* dedup */
    int64_t c = store_weights_put(s, "international", 0, 0, "man 100\n", NULL);
    assert_true(c > b);  /* the same text in another variant is another weight set */
    assert_true(store_weights_put(s, "turkish", 2, 999, "man 1\n", NULL) < 0);  /* no parent */
    assert_int_equal(count(s, "weights"), 3);
    assert_int_equal(store_latest_weights(s, "turkish"), b);
    assert_int_equal(store_latest_weights(s, "international"), c);
    int64_t d = store_weights_put(s, "turkish", 1, a, "man 103\n", NULL);  /* a tie: newest wins */
    assert_int_equal(store_latest_weights(s, "turkish"), d);
    char *text = NULL;
    assert_true(store_weights_get(s, b, &text));
    assert_string_equal(text, "man 104\n");
    free(text);
    int64_t empty = store_weights_put(s, "turkish", 3, 0, "", NULL);
    assert_true(store_weights_get(s, empty, &text));
    assert_string_equal(text, "");
    free(text);

    int64_t o = store_opening_put(s, "turkish", "W:Wa3:Bh6", "file");
    assert_true(o > 0);
    assert_int_equal(store_opening_put(s, "turkish", "W:Wa3:Bh6", "random"), o);
    assert_true(store_opening_put(s, "turkish", "B:Wa3:Bh6", NULL) > o);
    assert_int_equal(count(s, "openings"), 2);

    int64_t run = store_run_begin(s, "train", "turkish", "{}", NULL, NULL, b);
    assert_true(store_run_end(s, run, "done"));
    store_close(s);
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM runs WHERE status = 'done' AND ended_at >= started_at"), 1);
}


/* ---- one snapshot for many reads ---- */

static void test_snapshot(void **state)
{
    const TempDb *t = *state;
    Store *w = open_ok(t->path);
    int64_t run = store_run_begin(w, "selfplay", "turkish", NULL, NULL, NULL, 0);
    static TestGame tg[4];
    GameRecord batch[4];
    make_batch(tg, batch, 4, run, 10);
    assert_true(store_games_write(w, batch, 2));

    Store *r = open_ok(t->path);
    assert_true(store_snapshot_begin(r));
    assert_false(store_snapshot_begin(r));  /* one at a time */
    assert_true(store_games_write(w, batch + 2, 2));  /* another Store writes meanwhile */
    /* every read of r still sees 2 games: counts, single games and the position stream */
    assert_int_equal(count(r, "games"), 2);
    assert_int_equal(count(r, "positions"), 22);
    StoredGame g;
    assert_true(store_game_read(r, 2, &g));
    store_game_free(&g);
    assert_false(store_game_read(r, 3, &g));
    int64_t seen = 0;
    assert_true(store_positions_foreach(r, "turkish", NULL, 0, false, count_cb, &seen));
    assert_int_equal(seen, 22);
    assert_true(store_check(r));
    assert_int_equal(count(r, "games"), 2);  /* the reads above did not end the snapshot */
    assert_true(store_run_begin(r, "selfplay", "turkish", NULL, NULL, NULL, 0) < 0);  /* no writes inside */
    store_snapshot_end(r);
    assert_int_equal(count(r, "games"), 4);
    assert_true(store_run_begin(r, "selfplay", "turkish", NULL, NULL, NULL, 0) > 0);
    store_snapshot_end(r);   /* none open: harmless */
    store_snapshot_end(NULL);
    store_close(r);
    store_close(w);
}

/* ---- read-only opening ---- */

static void expect_readonly_fails(const char *path, const char *needle)
{
    expect_refused(store_open_readonly, path, needle);
}

static char *file_bytes(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)*len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)*len, f), (size_t)*len);
    fclose(f);
    return b;
}

static void test_open_readonly(void **state)
{
    const TempDb *t = *state;
    /* nothing is created: a missing file, an empty one, a directory are errors */
    temp_db_remove(t);
    expect_readonly_fails(t->path, "no such database");
    struct stat st;
    assert_int_not_equal(stat(t->path, &st), 0);
    expect_readonly_fails("/tmp", "is a directory");
    temp_db_reset(t);
    expect_readonly_fails(t->path, "empty file");
    assert_int_equal(stat(t->path, &st), 0);
    assert_int_equal(st.st_size, 0);

    /* an older schema is not migrated by a reader: refused, the file left as it was */
    make_old_database(t->path, 2);
    long before_len = 0, after_len = 0;
    char *before = file_bytes(t->path, &before_len);
    expect_readonly_fails(t->path, "older");
    char *after = file_bytes(t->path, &after_len);
    assert_int_equal(before_len, after_len);
    assert_memory_equal(before, after, (size_t)before_len);
    free(before);
    free(after);
    assert_int_equal(raw_int(t->path, "PRAGMA user_version"), 2);

    /* a current file reads, and the connection cannot write: every write fails, whatever
     * the file's permissions (root ignores those) */
    temp_db_reset(t);
    Store *w = open_ok(t->path);
    int64_t run = store_run_begin(w, "selfplay", "turkish", NULL, NULL, NULL, 0);
    static TestGame tg;
    make_game(&tg, run, 8, 1);
    assert_true(store_games_write(w, &tg.rec, 1));
    store_close(w);
    before = file_bytes(t->path, &before_len);
    char err[256];
    Store *r = store_open_readonly(t->path, err, sizeof err);
    if (!r) fail_msg("%s", err);
    assert_int_equal(count(r, "positions"), 9);
    StoredGame g;
    assert_true(store_game_read(r, 1, &g));
    store_game_free(&g);
    assert_true(store_check(r));
    assert_true(store_run_begin(r, "selfplay", "turkish", NULL, NULL, NULL, 0) < 0);
    assert_non_null(strstr(store_error(r), "readonly"));
    assert_false(store_games_write(r, &tg.rec, 1));
    assert_true(store_weights_put(r, "turkish", 0, 0, "man 1\n", NULL) < 0);
    store_close(r);
    after = file_bytes(t->path, &after_len);
    assert_int_equal(before_len, after_len);
    assert_memory_equal(before, after, (size_t)before_len);
    free(before);
    free(after);

    /* a newer schema and foreign files, as for a writer */
    raw_exec(t->path, "PRAGMA user_version = 99");
    expect_readonly_fails(t->path, "newer");
    temp_db_reset(t);
    raw_exec(t->path, "CREATE TABLE notes (x TEXT)");
    expect_readonly_fails(t->path, "not a dama database");
}

/* Copies a file byte for byte. */
static void copy_file(const char *from, const char *to)
{
    long len = 0;
    char *b = file_bytes(from, &len);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, (size_t)len, f), (size_t)len);
    assert_int_equal(fclose(f), 0);
    free(b);
}

/* Opens path read-only in a child that cannot write its directory: as root (who ignores
 * permissions) the child becomes nobody first.  Returns the child's code: 0 read `games`
 * games, 1 the open failed with needle in the message, other values a failure; 77 when
 * the switch of user is not allowed here. */
static int readonly_child(const char *path, int64_t games, const char *needle)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) _exit(77);
        char err[512];
        Store *s = store_open_readonly(path, err, sizeof err);
        if (!s) {
            fprintf(stderr, "readonly child: %s\n", err);
            _exit(needle && strstr(err, needle) ? 1 : 3);
        }
        int64_t n = -1;
        bool ok = !needle && store_count(s, "games", &n) && n == games;
        store_close(s);
        _exit(ok ? 0 : 4);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* A WAL database in a directory nobody may write: SQLite cannot create the -shm there, so
 * the store reads the file as immutable, unless a -wal holds changes the file lacks. */
static void test_readonly_directory(void **state)
{
    const TempDb *t = *state;
    char dir[] = "/tmp/dama-test-rodir-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char db[96], wal[100], shm[100];
    snprintf(db, sizeof db, "%s/ro.db", dir);
    snprintf(wal, sizeof wal, "%s-wal", db);
    snprintf(shm, sizeof shm, "%s-shm", db);
    Store *w = open_ok(t->path);
    int64_t run = store_run_begin(w, "selfplay", "turkish", NULL, NULL, NULL, 0);
    static TestGame tg;
    make_game(&tg, run, 8, 1);
    assert_true(store_games_write(w, &tg.rec, 1));
    store_close(w);  /* the last connection: checkpointed, -wal and -shm removed */
    copy_file(t->path, db);
    assert_int_equal(chmod(db, 0444), 0);
    assert_int_equal(chmod(dir, 0555), 0);
    int code = readonly_child(db, 1, NULL);
    struct stat st;
    bool shm_made = stat(shm, &st) == 0;

    /* pending changes in a -wal without its -shm: refused, not read stale */
    assert_int_equal(chmod(dir, 0755), 0);
    w = open_ok(t->path);
    assert_true(store_games_write(w, &tg.rec, 1));  /* stays in t's -wal while w is open */
    copy_file(t->path, db);
    char twal[80];
    snprintf(twal, sizeof twal, "%s-wal", t->path);
    copy_file(twal, wal);
    store_close(w);
    unlink(shm);
    assert_int_equal(chmod(dir, 0555), 0);
    int pending = readonly_child(db, 2, "holds changes");
    assert_int_equal(chmod(dir, 0755), 0);
    unlink(db), unlink(wal), unlink(shm);
    rmdir(dir);
    if (code == 77) {
        printf("read-only directory: not tested (cannot switch to user nobody here)\n");
        return;
    }
    assert_int_equal(code, 0);
    assert_false(shm_made);  /* it really could not write there */
    assert_int_equal(pending, 1);
}

/* ---- stale runs ---- */

static void test_stale_runs(void **state)
{
    const TempDb *t = *state;
    store_close(open_ok(t->path));
    /* A child begins a run and dies without ending it. */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char err[256];
        Store *s = store_open(t->path, err, sizeof err);
        _exit(s && store_run_begin(s, "selfplay", "turkish", "killed", NULL, NULL, 0) == 1 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char host[256];
    assert_int_equal(gethostname(host, sizeof host), 0);
    host[sizeof host - 1] = '\0';
    char sql[2048];
    /* 2: this process's own run; 3: pid 1, alive and started before the run; 4: pid 1 but
     * a run from 1970 (pid 1 was reused since); 5: another host's; 6: no pid (before v3) */
    snprintf(sql, sizeof sql,
             "INSERT INTO runs (id, kind, host, pid) VALUES (2, 'selfplay', '%s', %d), (3, 'selfplay', '%s', 1);"
             "INSERT INTO runs (id, kind, host, pid, started_at) VALUES (4, 'selfplay', '%s', 1, 1000);"
             "INSERT INTO runs (id, kind, host, pid) VALUES (5, 'selfplay', 'elsewhere.example', %d),"
             " (6, 'selfplay', NULL, NULL);",
             host, (int)getpid(), host, host, (int)pid);
    raw_exec(t->path, sql);
    assert_string_equal(raw_text(t->path, "SELECT group_concat(status) FROM runs"),
                        "running,running,running,running,running,running");
    /* A reader changes nothing ... */
    char err[256];
    Store *r = store_open_readonly(t->path, err, sizeof err);
    assert_non_null(r);
    store_close(r);
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM runs WHERE status = 'stale'"), 0);
    /* ... a writer marks the dead ones */
    store_close(open_ok(t->path));
    bool have_proc = access("/proc/1/stat", R_OK) == 0;
    assert_string_equal(raw_text(t->path, "SELECT group_concat(id || ':' || status, ' ') FROM runs"),
                        have_proc ? "1:stale 2:running 3:running 4:stale 5:running 6:running"
                                  : "1:stale 2:running 3:running 4:running 5:running 6:running");
    assert_int_equal(raw_int(t->path, "SELECT count(*) FROM runs WHERE status = 'stale' AND ended_at IS NULL"), 0);
    char kind[16], st[16];
    int64_t games = -1;
    Store *s = open_ok(t->path);
    assert_int_equal(store_run_info(s, 1, kind, sizeof kind, st, sizeof st, &games, NULL, 0), 1);
    assert_string_equal(kind, "selfplay");
    assert_string_equal(st, "stale");
    assert_int_equal(games, 0);
    assert_int_equal(store_run_info(s, 99, kind, sizeof kind, st, sizeof st, &games, NULL, 0), 0);
    store_close(s);
}

/* Finished and unfinished runs with games, for tune's default input. */
static void test_game_runs(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t runs[4];
    static TestGame tg;
    for (int i = 0; i < 4; i++) {
        runs[i] = store_run_begin(s, i == 3 ? "tune" : "selfplay", "turkish", NULL, NULL, NULL, 0);
        if (i < 3) {
            make_game(&tg, runs[i], 4, (uint64_t)i);
            assert_true(store_games_write(s, &tg.rec, 1));
        }
    }
    assert_true(store_run_end(s, runs[0], "done"));
    assert_true(store_run_end(s, runs[1], "interrupted"));
    assert_true(store_run_end(s, runs[3], "done"));  /* done, but no games */
    int64_t *ids = NULL;
    assert_int_equal(store_game_runs(s, "turkish", false, &ids), 1);
    assert_int_equal(ids[0], runs[0]);
    free(ids);
    assert_int_equal(store_game_runs(s, "turkish", true, &ids), 3);
    assert_int_equal(ids[0], runs[0]);
    assert_int_equal(ids[1], runs[1]);
    assert_int_equal(ids[2], runs[2]);
    free(ids);
    assert_int_equal(store_game_runs(s, "turkish", true, NULL), -1);
    store_close(s);
}

/* ---- binds ---- */

/* A bind SQLite refuses (here: a text over the connection's length limit) fails the call
 * and names the parameter; it is never stored as NULL in its place. */
static void test_bind_failure(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    sqlite3_limit(s->db, SQLITE_LIMIT_LENGTH, 100);  /* white box: the one way to make SQLite refuse a bind */
    char note[201];
    memset(note, 'n', 200);
    note[200] = '\0';
    assert_true(store_weights_put(s, "turkish", 0, 0, "man 100\n", note) < 0);
    assert_non_null(strstr(store_error(s), "binding parameter 6"));
    assert_non_null(strstr(store_error(s), "too big"));
    assert_int_equal(count(s, "weights"), 0);
    assert_true(store_run_begin(s, "selfplay", "turkish", note, NULL, NULL, 0) < 0);
    assert_non_null(strstr(store_error(s), "binding parameter 2"));
    assert_int_equal(count(s, "runs"), 0);
    /* the next call starts clean */
    int64_t id = store_weights_put(s, "turkish", 0, 0, "man 100\n", "short");
    assert_true(id > 0);
    assert_string_equal(store_error(s), "");
    store_close(s);
    assert_string_equal(raw_text(t->path, "SELECT note FROM weights"), "short");
}

/* ---- concurrency ---- */

enum { READER_GAMES_PER_BATCH = 20, READER_BATCHES = 30, READER_PLIES = 60 };

/* The child: its own connection, reading while the parent writes.  Returns an exit code. */
static int reader_child(const char *path, int done_fd)
{
    char err[256];
    Store *s = store_open(path, err, sizeof err);
    if (!s) return 10;
    int64_t last = 0, reads = 0;
    for (;;) {
        char c;
        bool done = read(done_fd, &c, 1) == 1;  /* non-blocking; one byte when the writer ends */
        int64_t games = 0, positions = 0;
        if (!store_count(s, "games", &games) || !store_count(s, "positions", &positions)) return 11;
        /* Counts come from two snapshots, positions' the later: never fewer than games'. */
        if (games < last || games % READER_GAMES_PER_BATCH != 0 || positions < games * (READER_PLIES + 1))
            return 12;
        last = games;
        reads++;
        if (done) {
            bool ok = games == READER_GAMES_PER_BATCH * READER_BATCHES && store_check(s);
            store_close(s);
            return ok ? 0 : 13;
        }
    }
}

static void test_concurrent_reader(void **state)
{
    const TempDb *t = *state;
    Store *s = open_ok(t->path);
    int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[1]);
        /* The reader polls the pipe without blocking. */
        if (fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0) _exit(9);
        _exit(reader_child(t->path, fds[0]));
    }
    close(fds[0]);
    static TestGame tg[READER_GAMES_PER_BATCH];
    GameRecord batch[READER_GAMES_PER_BATCH];
    for (int b = 0; b < READER_BATCHES; b++) {
        for (int i = 0; i < READER_GAMES_PER_BATCH; i++) {
            make_game(&tg[i], run, READER_PLIES, (uint64_t)(b * 100 + i));
            batch[i] = tg[i].rec;
        }
        if (!store_games_write(s, batch, READER_GAMES_PER_BATCH)) fail_msg("%s", store_error(s));
    }
    assert_int_equal(write(fds[1], "x", 1), 1);
    close(fds[1]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) != 0) fail_msg("reader failed with code %d", WEXITSTATUS(status));
    store_close(s);
}

/* Several processes opening one fresh file at once: exactly one creates the schema. */
static void test_concurrent_open(void **state)
{
    const TempDb *t = *state;
    enum { OPENERS = 4 };
    pid_t pids[OPENERS];
    for (int i = 0; i < OPENERS; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            char err[256];
            Store *s = store_open(t->path, err, sizeof err);
            bool ok = s && store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0) > 0;
            if (!ok) fprintf(stderr, "opener %d: %s\n", i, s ? store_error(s) : err);
            store_close(s);
            _exit(ok ? 0 : 1);
        }
    }
    int failed = 0;  /* wait for all before judging, so none outlives the test's file */
    for (int i = 0; i < OPENERS; i++) {
        int status = 0;
        failed += waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    assert_int_equal(failed, 0);
    Store *s = open_ok(t->path);
    assert_int_equal(count(s, "runs"), OPENERS);
    assert_true(store_check(s));
    store_close(s);
}

/* ---- rate (printed, never asserted) ---- */

static int count_cb(void *ctx, int64_t game_id, int ply, const Position *pos, int score,
                    bool has_score, int result)
{
    (void)game_id, (void)ply, (void)score, (void)has_score, (void)result;
    *(int64_t *)ctx += pos->side >= 0;
    return 0;
}

static void test_insert_rate(void **state)
{
    const TempDb *t = *state;
    enum { GAMES = 4000, BATCH = 100, PLIES = 80 };
    Store *s = open_ok(t->path);
    int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
    static TestGame tg[BATCH];
    GameRecord batch[BATCH];
    for (int i = 0; i < BATCH; i++) {
        make_game(&tg[i], run, PLIES, (uint64_t)i);
        batch[i] = tg[i].rec;
    }
    /* CPU time too: on a loaded machine it says more about the code than the wall clock. */
    double start = now_seconds();
    clock_t cpu_start = clock();
    for (int b = 0; b < GAMES / BATCH; b++)
        if (!store_games_write(s, batch, BATCH)) fail_msg("%s", store_error(s));
    double write_s = now_seconds() - start;
    double write_cpu = (double)(clock() - cpu_start) / CLOCKS_PER_SEC;
    int64_t n = (int64_t)GAMES * (PLIES + 1);
    assert_int_equal(count(s, "positions"), n);

    int64_t seen = 0;
    start = now_seconds();
    assert_true(store_positions_foreach(s, "turkish", NULL, 0, false, count_cb, &seen));
    double read_s = now_seconds() - start;
    assert_int_equal(seen, n);
    printf("store rate: wrote %lld positions (%d games, batches of %d) in %.3f s = %.0f positions/s "
           "(%.0f per CPU second); read back %.0f positions/s\n", (long long)n, GAMES, BATCH, write_s,
           (double)n / write_s, (double)n / (write_cpu > 0 ? write_cpu : 1e-9), (double)n / read_s);
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embedded_schema_equals_file),
        cmocka_unit_test_setup_teardown(test_create_fresh, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_reopen_is_idempotent, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_migrate_from_version_0, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_migrate_real_old_files, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_migration_keeps_broken_files, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_variants_kept_apart, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_reject_newer_version, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_reject_foreign_files, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_bad_arguments, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_game_round_trip, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_positions_foreach, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_batch_all_or_nothing, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_check_detects_damage, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_weights_and_openings, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_weights_blob, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_snapshot, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_open_readonly, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_readonly_directory, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_stale_runs, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_game_runs, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_bind_failure, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_concurrent_reader, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_concurrent_open, setup_db, teardown_db),
        cmocka_unit_test_setup_teardown(test_insert_rate, setup_db, teardown_db),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
