/* `dama db merge`: one database file folded into another in one transaction.
 *
 * The source is ATTACHed read-only as "shard" and copied table by table with INSERT ...
 * SELECT (positions, the bulk, never pass through C).  Ids are remapped through temporary
 * tables map_T(src, dst, fresh): dst is the target row the source row src is (found by its
 * natural key) or becomes (a new id past the target's largest, fresh = 1). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "merge.h"
#include "run_params.h"
#include "store_internal.h"

bool store_run_identify(Store *s, int64_t run_id, const char *options, int shard, int shards)
{
    if (!store_ready(s)) return false;
    /* the weights by hash and head (text), as the weights table tells them apart (v10) */
    sqlite3_stmt *st = store_prepare(s, "SELECT r.kind, r.variant, r.bench_signature, w.hash, w.text FROM runs r"
                                        " LEFT JOIN weights w ON w.id = r.weights_id WHERE r.id = ?1",
                                     "reading the run to identify");
    if (!st) return false;
    store_bind_int(s, st, 1, run_id);
    char text[128] = "", hash[17];
    bool oom = false;
    int rc = store_step(s, st);
    if (rc == SQLITE_ROW) {
        const char *col[5];
        size_t len = strlen(options ? options : "") + 6;
        for (int i = 0; i < 5; i++) {
            col[i] = (const char *)sqlite3_column_text(st, i);
            if (!col[i]) col[i] = "";
            len += strlen(col[i]);
        }
        char *all = malloc(len); /* the options may name a whole openings book */
        if (all) {
            snprintf(all, len, "%s\n%s\n%s\n%s\n%s\n%s", col[0], col[1], col[2], col[3], col[4],
                     options ? options : "");
            store_text_hash(all, hash);
            free(all);
            snprintf(text, sizeof text, "%.64s:%s", col[0], hash);
        }
        oom = !all;
    }
    sqlite3_finalize(st);
    if (oom) return store_fail(s, "out of memory identifying run %lld", (long long)run_id);
    if (rc != SQLITE_ROW)
        return rc == SQLITE_DONE ? store_fail(s, "store_run_identify: no run %lld", (long long)run_id)
                                 : store_fail_db(s, "reading the run to identify");
    st = store_prepare(s, "UPDATE runs SET identity = ?2, shard = ?3, shards = ?4 WHERE id = ?1",
                       "setting the run's identity");
    if (!st) return false;
    store_bind_int(s, st, 1, run_id);
    store_bind_text(s, st, 2, text);
    store_bind_id(s, st, 3, shards > 0 ? shard : 0);
    store_bind_id(s, st, 4, shards);
    rc = store_step(s, st);
    bool ok = rc == SQLITE_DONE || store_fail_db(s, "setting the run's identity");
    sqlite3_finalize(st);
    return ok;
}

/* ---- reading a source file ---- */

/* The source opened read-only: its schema version, or a problem in err. */
static MergeProblem probe(const char *path, const char *variant, int64_t *version, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        int why = errno;
        snprintf(err, errlen, "%s: %s", path, why == ENOENT ? "no such file" : strerror(why));
        return why == ENOENT ? MERGE_BAD_INPUT : MERGE_FAILED;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s: not a database file", path);
        return MERGE_BAD_INPUT;
    }
    if (access(path, R_OK) != 0) {
        int why = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(why));
        return MERGE_FAILED;
    }
    Store *s = calloc(1, sizeof *s);
    char *uri = store_file_uri(path, "mode=ro");
    if (!s || !uri) {
        free(s);
        free(uri);
        snprintf(err, errlen, "%s: out of memory", path);
        return MERGE_FAILED;
    }
    MergeProblem problem = MERGE_OK;
    int rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
    free(uri);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
        problem = MERGE_FAILED;
    } else if (!store_schema_version_of(s, version)) {
        /* a file SQLite cannot read as a database is bad input, like a foreign database */
        rc = sqlite3_errcode(s->db) & 0xff;
        bool io = rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN || rc == SQLITE_BUSY || rc == SQLITE_NOMEM;
        snprintf(err, errlen, "%s: %s", path, rc == SQLITE_NOTADB ? "not a dama database (not a SQLite file)" : s->err);
        problem = io ? MERGE_FAILED : MERGE_BAD_INPUT;
    } else if (*version < 0) {
        snprintf(err, errlen, "%s: an empty file, not a dama database", path);
        problem = MERGE_BAD_INPUT;
    } else if (variant) {
        /* runs and openings carry their variant since v4: every older row is Turkish */
        const char *sql = *version >= 4
            ? "SELECT 'run', id, variant FROM runs WHERE variant <> ?1 UNION ALL"
              " SELECT 'opening', id, variant FROM openings WHERE variant <> ?1 UNION ALL"
              " SELECT 'weight set', id, variant FROM weights WHERE variant <> ?1 LIMIT 1"
            : "SELECT 'run', id, 'turkish' FROM runs WHERE ?1 <> 'turkish' UNION ALL"
              " SELECT 'weight set', id, variant FROM weights WHERE variant <> ?1 LIMIT 1";
        sqlite3_stmt *st = NULL;
        rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(st, 1, variant, -1, SQLITE_STATIC);
            rc = sqlite3_step(st);
        }
        if (rc == SQLITE_ROW) {
            snprintf(err, errlen, "%s: %s %lld is %s, not %s", path, (const char *)sqlite3_column_text(st, 0),
                     (long long)sqlite3_column_int64(st, 1), (const char *)sqlite3_column_text(st, 2), variant);
            problem = MERGE_BAD_INPUT;
        } else if (rc != SQLITE_DONE) {
            snprintf(err, errlen, "%s: reading the variants: %s", path, sqlite3_errmsg(s->db));
            problem = MERGE_FAILED;
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(s->db);
    free(s);
    return problem;
}

MergeProblem store_merge_check(const char *path, const char *variant, char *err, size_t errlen)
{
    int64_t version = 0;
    return probe(path, variant, &version, err, errlen);
}

/* A copy of an older source in a temporary file, migrated to this build's schema: the
 * source itself is only read.  The name goes into tmp. */
static bool copy_migrated(Store *s, const char *path, char *tmp, size_t len)
{
    const char *dir = getenv("TMPDIR");
    snprintf(tmp, len, "%s/dama-merge-XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        tmp[0] = '\0';
        return store_fail(s, "%s: a temporary copy to migrate: %s", path, strerror(errno));
    }
    close(fd);
    sqlite3 *from = NULL, *to = NULL;
    char *uri = store_file_uri(path, "mode=ro");
    bool ok = uri && sqlite3_open_v2(uri, &from, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
              sqlite3_open_v2(tmp, &to, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK;
    free(uri);
    if (ok) {
        sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
        ok = b && sqlite3_backup_step(b, -1) == SQLITE_DONE;
        sqlite3_backup_finish(b);
        if (!ok) store_fail(s, "%s: copying it to %s: %s", path, tmp, sqlite3_errmsg(to));
    } else {
        store_fail(s, "%s: copying it to %s: %s", path, tmp, to ? sqlite3_errmsg(to) : from ? sqlite3_errmsg(from) : "out of memory");
    }
    sqlite3_close(from);
    sqlite3_close(to);
    if (!ok) return false;
    char err[512];
    Store *copy = store_open(tmp, err, sizeof err);  /* migrates */
    if (!copy) return store_fail(s, "%s: migrating a copy: %s", path, err);
    store_close(copy);
    return true;
}

static void remove_copy(const char *tmp)
{
    if (!tmp[0]) return;
    static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
    for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
        char name[4200];
        snprintf(name, sizeof name, "%s%s", tmp, suffix[i]);
        unlink(name);
    }
}

/* ---- the copy ---- */

/* Runs SQL without rows; *changes (may be NULL) gets the rows it changed. */
static bool exec_sql(Store *s, const char *sql, const char *what, int64_t *changes)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        store_fail(s, "%s: %s", what, msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        return false;
    }
    if (changes) *changes = sqlite3_changes64(s->db);
    return true;
}

/* The first row of a query as text (the columns joined by ' '), or "" when it has none:
 * for the checks that name what conflicts.  false on a database error. */
static bool first_row(Store *s, const char *sql, char *out, size_t len)
{
    sqlite3_stmt *st = store_prepare(s, sql, "checking the merge");
    if (!st) return false;
    out[0] = '\0';
    int rc = sqlite3_step(st);
    for (int c = 0; rc == SQLITE_ROW && c < sqlite3_column_count(st); c++) {
        size_t n = strlen(out);
        const unsigned char *v = sqlite3_column_text(st, c);
        snprintf(out + n, len - n, "%s%s", c ? " " : "", v ? (const char *)v : "NULL");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE || store_fail_db(s, "checking the merge");
}

static int64_t count_of(Store *s, const char *sql)
{
    char text[32];
    return first_row(s, sql, text, sizeof text) ? strtoll(text, NULL, 10) : -1;
}

/* New ids for the rows of map that found none: past the largest id of table, in source
 * order. */
static bool assign_fresh_ids(Store *s, const char *map, const char *table)
{
    char sql[600];
    snprintf(sql, sizeof sql,
             "UPDATE temp.%s SET fresh = 1, dst = x.base + x.n FROM (SELECT src, row_number() OVER"
             " (ORDER BY src) AS n, (SELECT coalesce(max(id), 0) FROM main.%s) AS base FROM temp.%s"
             " WHERE dst IS NULL) AS x WHERE %s.src = x.src", map, table, map, map);
    return exec_sql(s, sql, "numbering the new rows", NULL);
}

#define MAPS(X) X(map_weights) X(map_openings) X(map_runs) X(map_games) X(map_tune)

static bool make_maps(Store *s)
{
#define MAKE_MAP(name) "DROP TABLE IF EXISTS temp." #name "; CREATE TEMP TABLE " #name \
    " (src INTEGER PRIMARY KEY, dst INTEGER, fresh INTEGER NOT NULL DEFAULT 0, ident TEXT);"
    return exec_sql(s, MAPS(MAKE_MAP), "making the id maps", NULL);
#undef MAKE_MAP
}

static void drop_maps(Store *s)
{
#define DROP_MAP(name) "DROP TABLE IF EXISTS temp." #name ";"
    sqlite3_exec(s->db, MAPS(DROP_MAP), NULL, NULL, NULL);
#undef DROP_MAP
}

/* A run's identity when it has none (made before v7, or not self-play): where and when it
 * was made, which no other run shares. */
#define DERIVED_IDENTITY(r) \
    "('row:' || " r ".kind || ':' || " r ".variant || ':' || coalesce(" r ".host, '') || ':' ||" \
    " coalesce(" r ".pid, '') || ':' || " r ".started_at || ':' || " r ".id)"

/* A table whose rows are matched by a natural key (weights by variant, hash and text, openings
 * by FEN): the map, a check that a matched row is the same thing, and the copy of the rest. */
typedef struct KeyedTable {
    const char *map, *table;
    const char *map_sql;      /* fills the map: src, and dst when the target has the key */
    const char *conflict_sql; /* a matched row that differs, as "what" and the key: none = "" */
    const char *conflict;     /* "%s: why" for it */
    const char *copy_sql;     /* inserts the fresh rows */
} KeyedTable;

static const KeyedTable weights_table = {
    "map_weights", "weights",
    "INSERT INTO temp.map_weights (src, dst) SELECT w.id, t.id FROM shard.weights w"
    " LEFT JOIN main.weights t ON t.variant = w.variant AND t.hash = w.hash AND t.text = w.text",
    "SELECT w.variant, w.hash FROM temp.map_weights m JOIN shard.weights w ON w.id = m.src"
    " JOIN main.weights t ON t.id = m.dst WHERE t.blob IS NOT w.blob LIMIT 1",
    "weights %s: the same hash and head name another table in the target",
    "INSERT INTO main.weights (id, variant, generation, parent_id, text, hash, created_at, note, blob)"
    " SELECT m.dst, w.variant, w.generation, p.dst, w.text, w.hash, w.created_at, w.note, w.blob"
    " FROM temp.map_weights m JOIN shard.weights w ON w.id = m.src"
    " LEFT JOIN temp.map_weights p ON p.src = w.parent_id WHERE m.fresh ORDER BY m.dst",
};

static const KeyedTable openings_table = {
    "map_openings", "openings",
    "INSERT INTO temp.map_openings (src, dst) SELECT o.id, t.id FROM shard.openings o"
    " LEFT JOIN main.openings t ON t.fen = o.fen",
    "SELECT o.fen, o.variant, t.variant FROM temp.map_openings m JOIN shard.openings o ON o.id = m.src"
    " JOIN main.openings t ON t.id = m.dst WHERE t.variant <> o.variant LIMIT 1",
    "opening %s: the variants differ",
    "INSERT INTO main.openings (id, fen, source, variant) SELECT m.dst, o.fen, o.source, o.variant"
    " FROM temp.map_openings m JOIN shard.openings o ON o.id = m.src WHERE m.fresh ORDER BY m.dst",
};

static bool merge_keyed(Store *s, const KeyedTable *k, int64_t *added, bool *bad_input)
{
    char conflict[512];
    int64_t n = 0;
    if (!exec_sql(s, k->map_sql, "mapping", NULL) || !first_row(s, k->conflict_sql, conflict, sizeof conflict))
        return false;
    if (conflict[0]) {
        *bad_input = true;
        return store_fail(s, k->conflict, conflict);
    }
    if (!assign_fresh_ids(s, k->map, k->table) || !exec_sql(s, k->copy_sql, k->table, &n)) return false;
    *added += n;
    return true;
}

/* Runs by identity; the shards of one run become one run, the first source run of an
 * identity new to the target is copied. */
static bool merge_runs(Store *s, MergeTotals *t, bool *bad_input)
{
    char conflict[512];
    int64_t n = 0;
    /* the target's own runs get their identity first, so that a file merged back into the
     * one it came from finds its runs */
    if (!exec_sql(s, "UPDATE main.runs SET identity = " DERIVED_IDENTITY("runs") " WHERE identity IS NULL",
                  "naming the target's runs", NULL) ||
        !exec_sql(s, "INSERT INTO temp.map_runs (src, ident) SELECT r.id, coalesce(r.identity, " DERIVED_IDENTITY("r") ")"
                     " FROM shard.runs r;"
                     "UPDATE temp.map_runs SET dst = (SELECT min(t.id) FROM main.runs t WHERE t.identity = map_runs.ident)",
                  "mapping runs", NULL) ||
        !first_row(s, "SELECT r.id, r.shard, r.shards, t.id, t.shards FROM temp.map_runs m JOIN shard.runs r ON r.id = m.src"
                      " JOIN main.runs t ON t.id = m.dst WHERE r.shards IS NOT NULL AND t.shards <> r.shards LIMIT 1",
                   conflict, sizeof conflict))
        return false;
    if (conflict[0]) {
        long long run = 0, shard = 0, shards = 0, target = 0, target_shards = 0;
        sscanf(conflict, "%lld %lld %lld %lld %lld", &run, &shard, &shards, &target, &target_shards);
        *bad_input = true;
        return store_fail(s, "run %lld is in %lld shards, but the same run %lld of the target in %lld", run, shards,
                          target, target_shards);
    }
    /* one new id per identity: a file may hold the same run twice */
    if (!exec_sql(s, "UPDATE temp.map_runs SET dst = x.base + x.n, fresh = (map_runs.src = x.first) FROM"
                     " (SELECT ident, min(src) AS first, row_number() OVER (ORDER BY min(src)) AS n,"
                     " (SELECT coalesce(max(id), 0) FROM main.runs) AS base FROM temp.map_runs WHERE dst IS NULL"
                     " GROUP BY ident) AS x WHERE map_runs.dst IS NULL AND map_runs.ident = x.ident",
                  "numbering the new runs", NULL) ||
        /* a shard's run becomes the whole run: played on many hosts, so none of them, and
         * its params without the shard's */
        !exec_sql(s, "INSERT INTO main.runs (id, kind, params, engine_version, bench_signature, weights_id, started_at,"
                     " ended_at, status, host, pid, variant, identity, shard, shards)"
                     " SELECT m.dst, r.kind, iif(r.shard IS NULL, r.params, replace(r.params, ' shard=' || r.shard"
                     " || '/' || r.shards, '')), r.engine_version, r.bench_signature, w.dst, r.started_at,"
                     " r.ended_at, iif(r.shard IS NULL, r.status, 'partial'), iif(r.shard IS NULL, r.host, NULL),"
                     " iif(r.shard IS NULL, r.pid, NULL),"
                     " r.variant, m.ident, NULL, r.shards FROM temp.map_runs m JOIN shard.runs r ON r.id = m.src"
                     " LEFT JOIN temp.map_weights w ON w.src = r.weights_id WHERE m.fresh ORDER BY m.dst",
                  "copying runs", &n))
        return false;
    t->runs += n;
    return exec_sql(s,
                    /* a whole run finished elsewhere: finished here too */
                    "UPDATE main.runs SET status = r.status, ended_at = r.ended_at FROM temp.map_runs m"
                    " JOIN shard.runs r ON r.id = m.src WHERE runs.id = m.dst AND NOT m.fresh AND r.shard IS NULL"
                    " AND r.status = 'done' AND runs.status <> 'done';"
                    /* the shards: of a shard file, and those a merged file lists */
                    "INSERT INTO main.run_shards (run_id, shard, shards, status, host, pid, started_at, ended_at, games)"
                    " SELECT m.dst, r.shard, r.shards, r.status, r.host, r.pid, r.started_at, r.ended_at,"
                    " (SELECT count(*) FROM shard.games g WHERE g.run_id = r.id) FROM temp.map_runs m"
                    " JOIN shard.runs r ON r.id = m.src JOIN main.runs t ON t.id = m.dst"
                    " WHERE r.shard IS NOT NULL AND t.shards = r.shards"
                    " ON CONFLICT (run_id, shard) DO UPDATE SET status = excluded.status, host = excluded.host,"
                    " pid = excluded.pid, started_at = excluded.started_at, ended_at = excluded.ended_at,"
                    " games = excluded.games, merged_at = excluded.merged_at WHERE excluded.games >= run_shards.games;"
                    "INSERT INTO main.run_shards (run_id, shard, shards, status, host, pid, started_at, ended_at, games)"
                    " SELECT m.dst, x.shard, x.shards, x.status, x.host, x.pid, x.started_at, x.ended_at, x.games"
                    " FROM shard.run_shards x JOIN temp.map_runs m ON m.src = x.run_id JOIN main.runs t ON t.id = m.dst"
                    " WHERE t.shards = x.shards"
                    " ON CONFLICT (run_id, shard) DO UPDATE SET status = excluded.status, host = excluded.host,"
                    " pid = excluded.pid, started_at = excluded.started_at, ended_at = excluded.ended_at,"
                    " games = excluded.games WHERE excluded.games >= run_shards.games;"
                    /* a sharded run is done when all its shards are (or a whole copy was) */
                    "UPDATE main.runs SET status = iif(d.done = runs.shards OR runs.status = 'done', 'done', 'partial'),"
                    " ended_at = iif(d.done = runs.shards, d.ended, iif(runs.status = 'done', runs.ended_at, NULL)),"
                    " started_at = d.started FROM"
                    " (SELECT run_id, sum(status = 'done') AS done, max(ended_at) AS ended, min(started_at) AS started"
                    " FROM main.run_shards WHERE run_id IN (SELECT dst FROM temp.map_runs) GROUP BY run_id) AS d"
                    " WHERE runs.id = d.run_id AND runs.shards IS NOT NULL",
                    "recording the shards", NULL);
}

/* The same game in two source runs of one identity (a run played twice in one file): the
 * first is copied, the others skipped (dst 0).  Only such files pay for the search. */
static bool skip_twins(Store *s)
{
    int64_t twins = count_of(s, "SELECT count(*) - count(DISTINCT dst) FROM temp.map_runs");
    if (twins <= 0) return twins == 0;
    return exec_sql(s,
                    "UPDATE temp.map_games SET dst = 0 WHERE dst IS NULL AND src IN (SELECT g.id FROM shard.games g"
                    " JOIN temp.map_runs r ON r.src = g.run_id WHERE g.game_index IS NOT NULL AND EXISTS"
                    " (SELECT 1 FROM temp.map_runs r2 JOIN shard.games g2 ON g2.run_id = r2.src"
                    " WHERE r2.dst = r.dst AND g2.game_index = g.game_index AND g2.id < g.id))",
                    "skipping games stored twice", NULL);
}

static bool merge_games(Store *s, MergeTotals *t)
{
    int64_t games = 0, positions = 0;
    if (!exec_sql(s,
                  "INSERT INTO temp.map_games (src, dst) SELECT g.id, t.id FROM shard.games g"
                  " JOIN temp.map_runs r ON r.src = g.run_id"
                  " LEFT JOIN main.games t ON t.run_id = r.dst AND t.game_index = g.game_index"
                  " WHERE g.game_index IS NOT NULL;"
                  /* games from before v3 have no index: the same moves, seed and time */
                  "INSERT INTO temp.map_games (src, dst) SELECT g.id, (SELECT min(t.id) FROM main.games t"
                  " WHERE t.run_id = r.dst AND t.game_index IS NULL AND t.moves = g.moves AND t.seed IS g.seed"
                  " AND t.created_at = g.created_at) FROM shard.games g JOIN temp.map_runs r ON r.src = g.run_id"
                  " WHERE g.game_index IS NULL;"
                  /* an imported game the target holds in another run: skipped (dst 0) */
                  "UPDATE temp.map_games SET dst = 0 WHERE dst IS NULL AND src IN (SELECT p.game_id"
                  " FROM shard.pdn_games p JOIN main.pdn_games x ON x.identity = p.identity)",
                  "mapping games", NULL) ||
        !skip_twins(s) ||
        !assign_fresh_ids(s, "map_games", "games") ||
        !exec_sql(s,
                  "INSERT INTO main.games (id, run_id, pair_id, opening_id, white_weights_id, black_weights_id, result,"
                  " reason, plies, mars, moves, seed, npositions, created_at, game_index, variant)"
                  " SELECT m.dst, r.dst, g.pair_id, o.dst, ww.dst, bw.dst, g.result, g.reason, g.plies, g.mars,"
                  " g.moves, g.seed, g.npositions, g.created_at, g.game_index, g.variant"
                  " FROM temp.map_games m JOIN shard.games g ON g.id = m.src JOIN temp.map_runs r ON r.src = g.run_id"
                  " LEFT JOIN temp.map_openings o ON o.src = g.opening_id"
                  " LEFT JOIN temp.map_weights ww ON ww.src = g.white_weights_id"
                  " LEFT JOIN temp.map_weights bw ON bw.src = g.black_weights_id WHERE m.fresh ORDER BY m.src",
                  "copying games", &games) ||
        /* CROSS JOIN keeps the map outside: positions go in in key order, appended */
        !exec_sql(s,
                  "INSERT INTO main.positions (game_id, ply, white_men, white_kings, black_men, black_kings, side,"
                  " score, capture_pending) SELECT m.dst, p.ply, p.white_men, p.white_kings, p.black_men,"
                  " p.black_kings, p.side, p.score, p.capture_pending FROM temp.map_games m"
                  " CROSS JOIN shard.positions p ON p.game_id = m.src WHERE m.fresh",
                  "copying positions", &positions) ||
        !exec_sql(s,
                  "INSERT INTO main.pdn_games (game_id, identity, source) SELECT m.dst, p.identity, p.source"
                  " FROM temp.map_games m JOIN shard.pdn_games p ON p.game_id = m.src WHERE m.fresh;"
                  "INSERT INTO main.pdn_tags (game_id, seq, name, value) SELECT m.dst, p.seq, p.name, p.value"
                  " FROM temp.map_games m JOIN shard.pdn_tags p ON p.game_id = m.src WHERE m.fresh;"
                  "INSERT INTO main.pdn_notes (game_id, seq, ply, text) SELECT m.dst, p.seq, p.ply, p.text"
                  " FROM temp.map_games m JOIN shard.pdn_notes p ON p.game_id = m.src WHERE m.fresh",
                  "copying the PDN tables", NULL))
        return false;
    int64_t skipped = count_of(s, "SELECT count(*) FROM temp.map_games WHERE NOT fresh");
    /* the same run and index, other moves: a run that is not reproducible (--movetime) */
    int64_t differing = count_of(s, "SELECT count(*) FROM temp.map_games m JOIN shard.games g ON g.id = m.src"
                                    " JOIN main.games x ON x.id = m.dst WHERE NOT m.fresh"
                                    " AND (x.moves <> g.moves OR x.result <> g.result)");
    if (skipped < 0 || differing < 0) return false;
    t->differing_games += differing;
    t->games += games;
    t->positions += positions;
    t->skipped_games += skipped;
    return true;
}

/* The pipeline's records: tune runs (and their epochs), matches, analyses and the training
 * journal, each unless the target has the same row. */
static bool merge_records(Store *s)
{
    return exec_sql(s,
                    "INSERT INTO temp.map_tune (src, dst) SELECT x.id, (SELECT min(y.id) FROM main.tune_runs y"
                    " WHERE y.run_id IS r.dst AND y.created_at = x.created_at AND y.parent_weights_id IS pw.dst"
                    " AND y.result_weights_id IS rw.dst AND y.k IS x.k AND y.epochs IS x.epochs)"
                    " FROM shard.tune_runs x LEFT JOIN temp.map_runs r ON r.src = x.run_id"
                    " LEFT JOIN temp.map_weights pw ON pw.src = x.parent_weights_id"
                    " LEFT JOIN temp.map_weights rw ON rw.src = x.result_weights_id",
                    "mapping tune runs", NULL) &&
           assign_fresh_ids(s, "map_tune", "tune_runs") &&
           exec_sql(s,
                    "INSERT INTO main.tune_runs (id, run_id, parent_weights_id, result_weights_id, k, train_loss,"
                    " validation_loss, positions, epochs, created_at) SELECT m.dst, r.dst, pw.dst, rw.dst, x.k,"
                    " x.train_loss, x.validation_loss, x.positions, x.epochs, x.created_at FROM temp.map_tune m"
                    " JOIN shard.tune_runs x ON x.id = m.src LEFT JOIN temp.map_runs r ON r.src = x.run_id"
                    " LEFT JOIN temp.map_weights pw ON pw.src = x.parent_weights_id"
                    " LEFT JOIN temp.map_weights rw ON rw.src = x.result_weights_id WHERE m.fresh ORDER BY m.dst;"
                    "INSERT INTO main.tune_epochs (tune_run_id, epoch, train_loss, validation_loss)"
                    " SELECT m.dst, e.epoch, e.train_loss, e.validation_loss FROM shard.tune_epochs e"
                    " JOIN temp.map_tune m ON m.src = e.tune_run_id WHERE true ON CONFLICT DO NOTHING;"
                    "INSERT INTO main.matches (run_id, weights_a, weights_b, games, wins, draws, losses, penta, elo,"
                    " elo_low, elo_high, llr, llr_low, llr_high, verdict, created_at) SELECT r.dst, a.dst, b.dst,"
                    " x.games, x.wins, x.draws, x.losses, x.penta, x.elo, x.elo_low, x.elo_high, x.llr, x.llr_low,"
                    " x.llr_high, x.verdict, x.created_at FROM shard.matches x"
                    " LEFT JOIN temp.map_runs r ON r.src = x.run_id LEFT JOIN temp.map_weights a ON a.src = x.weights_a"
                    " LEFT JOIN temp.map_weights b ON b.src = x.weights_b WHERE NOT EXISTS (SELECT 1 FROM main.matches y"
                    " WHERE y.run_id IS r.dst AND y.weights_a IS a.dst AND y.weights_b IS b.dst"
                    " AND y.created_at = x.created_at AND y.games = x.games AND y.wins = x.wins AND y.draws = x.draws"
                    " AND y.losses = x.losses) ORDER BY x.id;"
                    "INSERT INTO main.analyses (run_id, item_id, fen, best_move, score, depth, nodes, time_ms, pv,"
                    " created_at) SELECT r.dst, x.item_id, x.fen, x.best_move, x.score, x.depth, x.nodes, x.time_ms,"
                    " x.pv, x.created_at FROM shard.analyses x LEFT JOIN temp.map_runs r ON r.src = x.run_id"
                    " WHERE NOT EXISTS (SELECT 1 FROM main.analyses y WHERE y.run_id IS r.dst"
                    " AND y.item_id IS x.item_id AND y.fen = x.fen AND y.created_at = x.created_at"
                    " AND y.best_move IS x.best_move AND y.score IS x.score AND y.depth IS x.depth) ORDER BY x.id;"
                    /* ref_id: the candidate weights of a tune step, the run of the others */
                    "INSERT INTO main.train_steps (train_run_id, generation, step, ref_id, best_weights_id,"
                    " candidate_weights_id, outcome, created_at) SELECT r.dst, x.generation, x.step,"
                    " CASE WHEN x.ref_id IS NULL OR x.ref_id <= 0 THEN x.ref_id"
                    " WHEN x.step = 'tune' THEN (SELECT dst FROM temp.map_weights WHERE src = x.ref_id)"
                    " ELSE (SELECT dst FROM temp.map_runs WHERE src = x.ref_id) END, bw.dst, cw.dst, x.outcome,"
                    " x.created_at FROM shard.train_steps x JOIN temp.map_runs r ON r.src = x.train_run_id"
                    " LEFT JOIN temp.map_weights bw ON bw.src = x.best_weights_id"
                    " LEFT JOIN temp.map_weights cw ON cw.src = x.candidate_weights_id WHERE true ON CONFLICT DO NOTHING",
                    "copying the pipeline records", NULL);
}

static int on_progress(void *ctx)
{
    const atomic_bool *stop = ctx;
    return atomic_load(stop);  /* non-zero interrupts the statement: the merge rolls back */
}

/* ---- the ids in a run's params text ---- */

typedef struct ParamsMaps {
    sqlite3_stmt *weights, *runs; /* src -> dst of map_weights, map_runs */
} ParamsMaps;

static int64_t params_lookup(void *ctx, ParamsIdKind kind, int64_t id)
{
    ParamsMaps *m = ctx;
    sqlite3_stmt *st = kind == PARAMS_ID_WEIGHTS ? m->weights : m->runs;
    sqlite3_reset(st);
    if (sqlite3_bind_int64(st, 1, id) != SQLITE_OK) return PARAMS_ID_FAILED;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) return sqlite3_column_int64(st, 0);
    return rc == SQLITE_DONE ? PARAMS_ID_UNMAPPED : PARAMS_ID_FAILED;
}

/* SQL remap_params(params): the text with the ids of the target file. */
static void remap_params_sql(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *in = (const char *)sqlite3_value_text(argv[0]);
    if (!in) {
        sqlite3_result_null(cx);
        return;
    }
    size_t len = 19 * strlen(in) + 1; /* an id of one digit or more becomes at most 19 */
    char *out = malloc(len);
    if (!out) {
        sqlite3_result_error_nomem(cx);
        return;
    }
    if (run_params_remap(in, params_lookup, sqlite3_user_data(cx), out, len))
        sqlite3_result_text(cx, out, -1, free);
    else {
        free(out);
        sqlite3_result_error(cx, "cannot map the ids of a run's params", -1);
    }
}

/* The fresh runs' params name the target's rows, as their weights_id does. */
static bool remap_run_params(Store *s)
{
    ParamsMaps m = { store_prepare(s, "SELECT dst FROM temp.map_weights WHERE src = ?1", "mapping params"),
                     store_prepare(s, "SELECT dst FROM temp.map_runs WHERE src = ?1", "mapping params") };
    bool ok = m.weights && m.runs &&
              (sqlite3_create_function(s->db, "remap_params", 1, SQLITE_UTF8, &m, remap_params_sql, NULL, NULL) ==
                   SQLITE_OK ||
               store_fail_db(s, "mapping params")) &&
              exec_sql(s, "UPDATE main.runs SET params = remap_params(params) FROM temp.map_runs m"
                          " WHERE runs.id = m.dst AND m.fresh AND runs.params IS NOT NULL",
                       "mapping the ids of the runs' params", NULL);
    sqlite3_create_function(s->db, "remap_params", 1, SQLITE_UTF8, NULL, NULL, NULL, NULL);
    sqlite3_finalize(m.weights);
    sqlite3_finalize(m.runs);
    return ok;
}

/* The whole copy, inside the caller's write transaction. */
static bool merge_attached(Store *s, MergeTotals *t, bool *bad_input)
{
    char version[32];
    if (!first_row(s, "PRAGMA shard.user_version", version, sizeof version)) return false;
    if (atoi(version) != store_schema_version())
        return store_fail(s, "schema version %s, not %d: changed while being merged", version, store_schema_version());
    return make_maps(s) && merge_keyed(s, &weights_table, &t->weights, bad_input) &&
           merge_keyed(s, &openings_table, &t->openings, bad_input) && merge_runs(s, t, bad_input) &&
           remap_run_params(s) && merge_games(s, t) && merge_records(s);
}

MergeProblem store_merge(Store *s, const char *path, const MergeHooks *hooks, MergeTotals *t)
{
    if (!store_ready(s)) return MERGE_FAILED;
    int64_t version = 0;
    char err[512], tmp[4096] = "";
    MergeProblem problem = probe(path, NULL, &version, err, sizeof err);
    if (problem != MERGE_OK) {
        store_fail(s, "%s", err);
        return problem;
    }
    if (version < store_schema_version() && !copy_migrated(s, path, tmp, sizeof tmp)) {
        remove_copy(tmp);
        return MERGE_FAILED;
    }
    char *uri = store_file_uri(tmp[0] ? tmp : path, "mode=ro");
    sqlite3_stmt *attach = uri ? store_prepare(s, "ATTACH DATABASE ?1 AS shard", "attaching") : NULL;
    bool attached = false;
    if (attach) {
        sqlite3_bind_text(attach, 1, uri, -1, SQLITE_STATIC);
        attached = sqlite3_step(attach) == SQLITE_DONE;
        if (!attached) store_fail(s, "%s: %s", path, sqlite3_errmsg(s->db));
        sqlite3_finalize(attach);
    } else if (!uri) {
        store_fail(s, "out of memory");
    }
    free(uri);
    MergeTotals delta = { 0 };
    bool bad_input = false, ok = attached;
    if (ok && hooks && hooks->stop) sqlite3_progress_handler(s->db, 10000, on_progress, (void *)hooks->stop);
    /* a big transaction: its pages stay in memory rather than spill to the WAL early */
    if (ok) sqlite3_exec(s->db, "PRAGMA main.cache_size = -131072", NULL, NULL, NULL);
    if (ok) ok = store_begin_write(s);
    if (ok) {
        ok = merge_attached(s, &delta, &bad_input);
        if (ok && hooks && hooks->before_commit) hooks->before_commit(hooks->ctx);
        if (ok && hooks && hooks->stop && atomic_load(hooks->stop)) ok = store_fail(s, "interrupted");
        if (ok) ok = store_commit(s);
        else store_rollback(s);
        if (!ok) {
            char why[sizeof s->err];
            snprintf(why, sizeof why, "%s", s->err);
            store_fail(s, "%s: %s%s", path, why, bad_input ? "" : " (nothing of it was merged)");
        }
    }
    sqlite3_progress_handler(s->db, 0, NULL, NULL);
    drop_maps(s);
    if (attached) sqlite3_exec(s->db, "DETACH DATABASE shard", NULL, NULL, NULL);
    remove_copy(tmp);
    if (!ok) return bad_input ? MERGE_BAD_INPUT : MERGE_FAILED;
    t->runs += delta.runs;
    t->weights += delta.weights;
    t->openings += delta.openings;
    t->games += delta.games;
    t->positions += delta.positions;
    t->skipped_games += delta.skipped_games;
    t->differing_games += delta.differing_games;
    return MERGE_OK;
}
