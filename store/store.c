/* Opening and closing a Store: connection settings, the schema check and migration at
 * open, prepared statements, snapshots, and the whole-file checks.  The calls every file
 * of store/ shares (errors, transactions, one-off statements) are in db.c, below this one
 * and below schema.c and write.c, which open calls. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "store_internal.h"

/* Long enough to ride out another process's write batch, short enough to report a stuck
 * writer instead of hanging. */
#define BUSY_TIMEOUT_MS 10000

static const char *const statement_sql[STMT_COUNT] = {
#define STORE_SQL(name, sql) [STMT_##name] = sql,
    STORE_STATEMENTS(STORE_SQL)
#undef STORE_SQL
};

static const char *const table_names[TABLE_COUNT] = {
#define STORE_TABLE_NAME(name) [TABLE_##name] = #name,
    STORE_TABLES(STORE_TABLE_NAME)
#undef STORE_TABLE_NAME
};

bool store_snapshot_begin(Store *s)
{
    if (!store_ready(s)) return false;
    if (s->snapshot) return store_fail(s, "store_snapshot_begin: a snapshot is already open");
    if (!store_begin_read(s)) return false;
    /* BEGIN alone takes no snapshot: SQLite takes it at the first read, so read now. */
    int64_t n = 0;
    if (!store_count(s, "runs", &n)) {
        store_rollback(s);
        return false;
    }
    s->snapshot = true;
    return true;
}

void store_snapshot_end(Store *s)
{
    if (!s || !s->db || !s->snapshot) return;
    s->snapshot = false;
    store_rollback(s);
}

/* Runs a PRAGMA (or other one-off SQL) that sets something; reads its first value into
 * out when out is not NULL. */
static bool exec_once(Store *s, const char *sql, char *out, size_t outlen)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return store_fail_db(s, sql);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW && out) snprintf(out, outlen, "%s", (const char *)sqlite3_column_text(st, 0));
    bool ok = rc == SQLITE_ROW || rc == SQLITE_DONE;
    if (!ok) store_fail_db(s, sql);
    sqlite3_finalize(st);
    return ok;
}

/* The switch to WAL needs the file to itself for a moment, and SQLite returns SQLITE_BUSY
 * at once rather than waiting in the busy handler when another process holds a read lock
 * on a fresh file (seen with four processes opening one new file): try again for as long
 * as the busy timeout would have waited. */
static bool switch_to_wal(Store *s, char *mode, size_t modelen)
{
    for (int waited_ms = 0;; waited_ms += 5) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK)
            return store_fail_db(s, "PRAGMA journal_mode = WAL");
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) snprintf(mode, modelen, "%s", (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
        if (rc == SQLITE_ROW || rc == SQLITE_DONE) return true;
        if ((rc & 0xff) != SQLITE_BUSY || waited_ms >= BUSY_TIMEOUT_MS)
            return store_fail_db(s, "PRAGMA journal_mode = WAL");
        sqlite3_sleep(5);
    }
}

static bool configure(Store *s, const char *path)
{
    char mode[32] = "";
    if (!switch_to_wal(s, mode, sizeof mode)) return false;
    /* An in-memory database cannot use WAL; everything else must, or readers would block
     * the self-play writer. */
    bool in_memory = path[0] == '\0' || strcmp(path, ":memory:") == 0;
    if (strcmp(mode, "wal") != 0 && !in_memory)
        return store_fail(s, "cannot switch to WAL mode (journal_mode is '%s')", mode);
    /* NORMAL is safe in WAL: a crash of the process loses nothing committed, a power cut
     * at most the last transactions, and the file never corrupts. */
    return exec_once(s, "PRAGMA synchronous = NORMAL", NULL, 0) &&
           exec_once(s, "PRAGMA foreign_keys = ON", NULL, 0);
}

static bool prepare_all(Store *s)
{
    for (int i = 0; i < STMT_COUNT; i++)
        if (sqlite3_prepare_v3(s->db, statement_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
                               &s->stmt[i], NULL) != SQLITE_OK)
            return store_fail_db(s, statement_sql[i]);
    for (int i = 0; i < TABLE_COUNT; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table_names[i]);
        if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->count[i], NULL) != SQLITE_OK)
            return store_fail_db(s, sql);
    }
    return true;
}

static bool connect(Store *s, const char *path, int flags)
{
    /* NOMUTEX: a Store belongs to one thread at a time, so SQLite's per-call locking
     * would only cost time (about 6% of a batch write). */
    int rc = sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK)
        return store_fail(s, "%s", s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
    return true;
}

bool store_path_writable(const char *path, char *why, size_t whylen)
{
    struct stat st;
    if (access(path, W_OK) != 0 && errno != ENOENT) {
        if (errno == EROFS) snprintf(why, whylen, "the file system is read-only");
        else if (errno == EACCES && stat(path, &st) == 0)
            snprintf(why, whylen, "the file is read-only (mode %04o)", (unsigned)(st.st_mode & 07777));
        else snprintf(why, whylen, "%s", strerror(errno));
        return false;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(dir, W_OK) != 0) {
        if (errno == EROFS) snprintf(why, whylen, "the file system is read-only");
        else if (errno == EACCES)
            snprintf(why, whylen, "its directory %s is not writable (SQLite writes the -wal and -shm "
                     "files there)", dir);
        else snprintf(why, whylen, "its directory %s: %s", dir, strerror(errno));
        return false;
    }
    return true;
}

/* SQLite opens a file it may not write read-only without a word, and fails on a read-only
 * file system with "unable to open database file": a writer says which it is. */
static bool writable_or_fail(Store *s, const char *path)
{
    char why[4200];
    return store_path_writable(path, why, sizeof why) ||
           store_fail(s, "cannot write the database: %s", why);
}

static bool open_steps(Store *s, const char *path)
{
    if (!connect(s, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)) return false;
    if (sqlite3_db_readonly(s->db, "main") == 1)
        return writable_or_fail(s, path) && store_fail(s, "cannot write the database: SQLite opened it read-only");
    bool migrate = false;
    /* Check before configuring: a file that is not ours must be left exactly as it was. */
    if (!store_schema_check(s, &migrate) || !configure(s, path)) return false;
    if (migrate && !store_migrate(s)) return false;
    return prepare_all(s) && store_mark_stale_runs(s);
}

/* The first read opens the file (and a WAL file's -shm): the step that can fail. */
static bool first_read(Store *s)
{
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW;
    if (!ok) store_fail(s, "%s", sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return ok;
}

/* True when the -wal file next to path is missing or empty: nothing the file lacks. */
static bool wal_empty(const char *path)
{
    char wal[4096];
    if ((size_t)snprintf(wal, sizeof wal, "%s-wal", path) >= sizeof wal) return false;
    struct stat st;
    return stat(wal, &st) != 0 ? errno == ENOENT : st.st_size == 0;
}

/* A reader of a WAL database needs the -shm file, which it cannot create in a read-only
 * directory.  When the -wal file is empty or gone, the database file alone is the whole
 * database and is opened as immutable (no -shm, no locks: nobody can be writing, since a
 * writer would need the directory too).  Otherwise the changes in the -wal would be
 * missed, so that is an error. */
static bool open_readonly_steps(Store *s, const char *path)
{
    if (!connect(s, path, SQLITE_OPEN_READONLY)) return false;
    if (first_read(s)) return store_schema_check_current(s) && prepare_all(s);
    int rc = sqlite3_extended_errcode(s->db) & 0xff;
    if (rc != SQLITE_READONLY && rc != SQLITE_CANTOPEN) return false;
    if (!wal_empty(path))
        return store_fail(s, "cannot read it: its directory is read-only and %s-wal holds changes "
                          "not yet in the database file (open it once where it can be written)", path);
    char *uri = store_file_uri(path, "immutable=1");
    if (!uri) return store_fail(s, "out of memory");
    sqlite3_close(s->db);
    s->db = NULL;
    bool ok = connect(s, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    free(uri);
    return ok && store_schema_check_current(s) && prepare_all(s);
}

Store *store_open_readonly(const char *path, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    /* SQLite would say "unable to open database file" for all of these. */
    struct stat st;
    const char *why = !path ? "no path" : stat(path, &st) != 0 ? (errno == ENOENT ? "no such database" : strerror(errno))
                      : S_ISDIR(st.st_mode) ? "is a directory, not a database file"
                      : !S_ISREG(st.st_mode) ? "not a database file" : NULL;
    if (why) {
        if (err && errlen) snprintf(err, errlen, "%s: %s", path ? path : "store_open_readonly", why);
        return NULL;
    }
    Store *s = calloc(1, sizeof *s);
    if (!s) {
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    s->readonly = true;
    if (open_readonly_steps(s, path)) return s;
    if (err && errlen) snprintf(err, errlen, "%s: %s", path, s->err);
    store_close(s);
    return NULL;
}

Store *store_open(const char *path, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!path) {
        if (err && errlen) snprintf(err, errlen, "store_open: no path");
        return NULL;
    }
    Store *s = calloc(1, sizeof *s);
    if (!s) {
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    struct stat st;
    bool existed = stat(path, &st) == 0;
    if (open_steps(s, path)) return s;
    if (err && errlen) {
        /* SQLite says only "unable to open database file": a new file's own creation tells
         * why (no such directory, permission denied, read-only file system). */
        int fd = existed ? -1 : open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        int why = errno;
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        int code = s->db ? sqlite3_extended_errcode(s->db) & 0xff : SQLITE_OK;
        if (!existed && fd < 0)
            snprintf(err, errlen, "%s: cannot create the database: %s", path, strerror(why));
        else {
            /* SQLite's "unable to open database file" becomes the reason, when there is one */
            if (existed && (code == SQLITE_CANTOPEN || code == SQLITE_READONLY || code == SQLITE_PERM))
                writable_or_fail(s, path);
            snprintf(err, errlen, "%s: %s", path, s->err);
        }
    }
    store_close(s);
    return NULL;
}

void store_close(Store *s)
{
    if (!s) return;
    for (int i = 0; i < STMT_COUNT; i++) sqlite3_finalize(s->stmt[i]);
    for (int i = 0; i < TABLE_COUNT; i++) sqlite3_finalize(s->count[i]);
    sqlite3_close(s->db);  /* the last connection to close checkpoints and removes the WAL */
    free(s);
}

bool store_count(Store *s, const char *table, int64_t *n)
{
    if (!store_ready(s)) return false;
    if (!table || !n) return store_fail(s, "store_count: missing argument");
    for (int i = 0; i < TABLE_COUNT; i++) {
        if (strcmp(table, table_names[i]) != 0) continue;
        sqlite3_stmt *st = s->count[i];
        bool ok = sqlite3_step(st) == SQLITE_ROW;
        if (ok) *n = sqlite3_column_int64(st, 0);
        else store_fail_db(s, table);
        sqlite3_reset(st);
        return ok;
    }
    return store_fail(s, "store_count: unknown table '%s'", table);
}

/* Each check reports its first finding. */
static bool check_integrity(Store *s)
{
    sqlite3_stmt *st = store_stmt(s, STMT_CHECK_INTEGRITY);
    bool ok = false;
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) store_fail_db(s, "integrity check");
    else if (strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)
        store_fail(s, "integrity check: %s", (const char *)sqlite3_column_text(st, 0));
    else ok = true;
    store_done(st);
    return ok;
}

static bool check_foreign_keys(Store *s)
{
    sqlite3_stmt *st = store_stmt(s, STMT_CHECK_FOREIGN_KEYS);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        store_fail(s, "foreign key check: row %lld of %s refers to a missing row of %s",
                   (long long)sqlite3_column_int64(st, 1), (const char *)sqlite3_column_text(st, 0),
                   (const char *)sqlite3_column_text(st, 2));
    else if (rc != SQLITE_DONE) store_fail_db(s, "foreign key check");
    store_done(st);
    return rc == SQLITE_DONE;
}

static bool check_positions(Store *s)
{
    sqlite3_stmt *st = store_stmt(s, STMT_CHECK_POSITIONS);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        store_fail(s, "game %lld has %lld positions, its record says %lld",
                   (long long)sqlite3_column_int64(st, 0), (long long)sqlite3_column_int64(st, 2),
                   (long long)sqlite3_column_int64(st, 1));
    else if (rc != SQLITE_DONE) store_fail_db(s, "positions check");
    store_done(st);
    return rc == SQLITE_DONE;
}

bool store_check(Store *s)
{
    if (!store_ready(s)) return false;
    /* One snapshot, so a concurrent writer cannot make the checks disagree. */
    if (!store_read_begin(s)) return false;
    bool ok = check_integrity(s) && check_foreign_keys(s) && check_positions(s);
    store_read_end(s);
    return ok;
}
