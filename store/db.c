/* The database layer under every other file of store/: error messages, statement reset,
 * transactions and read snapshots' begin and end, one-off statements, file URIs.  It calls
 * nothing else of store/, so store.c (open), schema.c and write.c all build on it without
 * calling each other in a circle. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "store_internal.h"

bool store_fail(Store *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
    return false;
}

bool store_fail_db(Store *s, const char *what)
{
    if (s->bind_rc != SQLITE_OK) {
        int rc = s->bind_rc;
        s->bind_rc = SQLITE_OK;
        return store_fail(s, "%s: binding parameter %d: %s", what, s->bind_col, sqlite3_errstr(rc));
    }
    return store_fail(s, "%s: %s", what, sqlite3_errmsg(s->db));
}

const char *store_error(const Store *s)
{
    return s ? s->err : "no store (NULL)";
}

void store_done(sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

/* Runs a statement that returns no rows. */
static bool exec_stmt(Store *s, enum StatementId id, const char *what)
{
    sqlite3_stmt *st = store_stmt(s, id);
    int rc = sqlite3_step(st);
    bool ok = rc == SQLITE_DONE || rc == SQLITE_ROW;
    if (!ok) store_fail_db(s, what);
    sqlite3_reset(st);
    return ok;
}

bool store_begin_write(Store *s) { return exec_stmt(s, STMT_TX_WRITE, "begin write transaction"); }
bool store_begin_read(Store *s) { return exec_stmt(s, STMT_TX_READ, "begin read transaction"); }

bool store_read_begin(Store *s) { return s->snapshot || store_begin_read(s); }

void store_read_end(Store *s)
{
    if (!s->snapshot) store_rollback(s);  /* nothing to commit: ends the read transaction */
}

bool store_commit(Store *s)
{
    if (exec_stmt(s, STMT_TX_COMMIT, "commit")) return true;
    store_rollback(s);
    return false;
}

void store_rollback(Store *s)
{
    /* After some errors (I/O, full disk) SQLite has already rolled back; a second
     * ROLLBACK would only overwrite the message that says why. */
    if (sqlite3_get_autocommit(s->db)) return;
    sqlite3_stmt *st = store_stmt(s, STMT_TX_ROLLBACK);
    sqlite3_step(st);
    sqlite3_reset(st);
}

sqlite3_stmt *store_prepare(Store *s, const char *sql, const char *what)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_fail_db(s, what);
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

char *store_file_uri(const char *path, const char *query)
{
    char *uri = malloc(strlen(path) * 3 + strlen(query) + 16);
    if (!uri) return NULL;
    char *p = uri + sprintf(uri, "file:");
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        /* URI syntax characters are escaped; '/' stays a path separator */
        if (*c == '%' || *c == '?' || *c == '#' || *c <= ' ' || *c >= 0x7f) p += sprintf(p, "%%%02X", *c);
        else *p++ = (char)*c;
    }
    sprintf(p, "?%s", query);
    return uri;
}
