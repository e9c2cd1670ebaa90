/* The schema and its migrations: what a dama database must contain and how an older or
 * empty file gets there. */
#include <stdio.h>
#include "store_internal.h"

#define SCHEMA_VERSION 10
#define APPLICATION_ID 1145130305 /* 'DAMA' in the file header: marks a dama database */

/* The tables of imported PDN games: in the schema and in the 4 -> 5 migration alike. */
#define PDN_TABLES_SQL \
    "-- Games imported from PDN files (since v5) keep here what the games table has no column\n" \
    "-- for, so that `dama pdn export` writes back what was read.  identity: a hash of the\n" \
    "-- variant, the start position, the moves and the identifying tags: a game is never\n" \
    "-- imported twice.  source: the FILE:LINE it was read from.\n" \
    "CREATE TABLE pdn_games (\n" \
    "    game_id   INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,\n" \
    "    identity  TEXT    NOT NULL UNIQUE,\n" \
    "    source    TEXT\n" \
    ");\n" \
    "\n" \
    "-- An imported game's tags in the order read (Result, GameType and FEN come from the game).\n" \
    "-- A game dama played has here only its players' names, when it has them (a match's\n" \
    "-- sides): White (seq 0) and Black (seq 1).\n" \
    "CREATE TABLE pdn_tags (\n" \
    "    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,\n" \
    "    seq      INTEGER NOT NULL,\n" \
    "    name     TEXT    NOT NULL,\n" \
    "    value    TEXT    NOT NULL,\n" \
    "    PRIMARY KEY (game_id, seq)\n" \
    ") WITHOUT ROWID;\n" \
    "\n" \
    "-- An imported game's comments, variations, NAGs and !? marks as written, each after `ply`\n" \
    "-- plies (0: before the first move), in the order read.\n" \
    "CREATE TABLE pdn_notes (\n" \
    "    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,\n" \
    "    seq      INTEGER NOT NULL,\n" \
    "    ply      INTEGER NOT NULL CHECK (ply >= 0),\n" \
    "    text     TEXT    NOT NULL,\n" \
    "    PRIMARY KEY (game_id, seq)\n" \
    ") WITHOUT ROWID;\n"

/* train_steps (since v2): the schema and the 1 -> 2 migration. */
#define TRAIN_STEPS_SQL \
    "-- The training loop's journal: one row per finished step of a generation, so that an\n" \
    "-- interrupted `dama train` resumes where it stopped.\n" \
    "CREATE TABLE train_steps (\n" \
    "    train_run_id          INTEGER NOT NULL REFERENCES runs(id),\n" \
    "    generation            INTEGER NOT NULL,\n" \
    "    step                  TEXT    NOT NULL CHECK (step IN ('selfplay', 'tune', 'match', 'decision')),\n" \
    "    ref_id                INTEGER,  -- selfplay/match: the run; tune: the candidate weights\n" \
    "    best_weights_id       INTEGER REFERENCES weights(id),\n" \
    "    candidate_weights_id  INTEGER REFERENCES weights(id),\n" \
    "    outcome               TEXT,     -- decision: 'promoted' or 'rejected'\n" \
    "    created_at            INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),\n" \
    "    PRIMARY KEY (train_run_id, generation, step)\n" \
    ") WITHOUT ROWID;\n"

/* The table of merged shards: in the schema and in the 6 -> 7 migration alike. */
#define RUN_SHARDS_SQL \
    "-- The shards merged into a run (since v7): each shard's run as it was when last merged,\n" \
    "-- so that the run's status can say whether all its shards are in.\n" \
    "CREATE TABLE run_shards (\n" \
    "    run_id      INTEGER NOT NULL REFERENCES runs(id),\n" \
    "    shard       INTEGER NOT NULL CHECK (shard >= 1),\n" \
    "    shards      INTEGER NOT NULL CHECK (shard <= shards),\n" \
    "    status      TEXT    NOT NULL,\n" \
    "    host        TEXT,\n" \
    "    pid         INTEGER,\n" \
    "    started_at  INTEGER,\n" \
    "    ended_at    INTEGER,\n" \
    "    games       INTEGER NOT NULL,\n" \
    "    merged_at   INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),\n" \
    "    PRIMARY KEY (run_id, shard)\n" \
    ") WITHOUT ROWID;\n"

/* data/schema.sql, byte for byte (tests/test_store.c compares them).  After editing the
 * .sql file, regenerate the literal, e.g. with
 *   sed 's/\\/\\\\/g; s/"/\\"/g; s/^/    "/; s/$/\\n"/' data/schema.sql
 * (its last three tables are PDN_TABLES_SQL, which the 4 -> 5 migration shares, and
 * run_shards before them is RUN_SHARDS_SQL, the 6 -> 7 migration's). */
static const char schema_sql[] =
    "-- dama database, schema version 10.\n"
    "-- store/schema.c embeds this text byte for byte (tests/test_store.c checks it), so the\n"
    "-- binary never reads it from the working directory.  Change both together, bump\n"
    "-- user_version, and add a migration step in store/schema.c.\n"
    "-- Times are Unix seconds.  Bitboards are uint64 stored as the int64 with the same bits.\n"
    "\n"
    "PRAGMA application_id = 1145130305; -- 'DAMA': tells a dama database from other files\n"
    "PRAGMA user_version = 10;\n"
    "\n"
    "-- Weight sets: every generation the pipeline produces.  Dedup on (variant, hash, text): hash\n"
    "-- is the hash of text for linear weights; for a pattern evaluation (since v6) the hash of\n"
    "-- the weight vector, text its readable head (engine/weights.h) and blob the compressed\n"
    "-- table that follows it in a file (NULL for linear weights).  The same numbers under\n"
    "-- another head (another feature set) are other weights (since v10).\n"
    "CREATE TABLE weights (\n"
    "    id          INTEGER PRIMARY KEY,\n"
    "    variant     TEXT    NOT NULL,\n"
    "    generation  INTEGER NOT NULL,\n"
    "    parent_id   INTEGER REFERENCES weights(id),\n"
    "    text        TEXT    NOT NULL,\n"
    "    hash        TEXT    NOT NULL,\n"
    "    created_at  INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),\n"
    "    note        TEXT,\n"
    "    blob        BLOB,\n"
    "    UNIQUE (variant, hash, text)\n"
    ");\n"
    "CREATE INDEX weights_generation ON weights(variant, generation);\n"
    "\n"
    "-- One row per invocation of a pipeline step (selfplay, match, train, tune, analysis, import ...).\n"
    "-- variant (runs, games, openings; since v4): the game played, so one file may hold several\n"
    "-- and no reader mixes them; a name of the games registry (engine/games/registry.c), which\n"
    "-- the store checks (since v9: no CHECK of its own, so a new game needs no migration).\n"
    "CREATE TABLE runs (\n"
    "    id              INTEGER PRIMARY KEY,\n"
    "    kind            TEXT    NOT NULL CHECK (length(kind) > 0),\n"
    "    params          TEXT,\n"
    "    engine_version  TEXT,\n"
    "    bench_signature TEXT,\n"
    "    weights_id      INTEGER REFERENCES weights(id),\n"
    "    started_at      INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),\n"
    "    ended_at        INTEGER,\n"
    "    -- 'running', then 'done', 'interrupted' (Ctrl-C), 'failed' (an error) or 'stale' (its\n"
    "    -- process died: found by a later writer from host and pid); a merged sharded run is\n"
    "    -- 'partial' until every one of its shards is merged 'done' (run_shards).\n"
    "    status          TEXT    NOT NULL DEFAULT 'running',\n"
    "    host            TEXT,\n"
    "    pid             INTEGER,\n"
    "    variant         TEXT    NOT NULL DEFAULT 'turkish',\n"
    "    -- identity (since v7): the same for every run of the same games (self-play: a hash of\n"
    "    -- the kind, variant, game options, seed, search signature and weights hash, whatever\n"
    "    -- the shard), so that `dama db merge` folds the shards of one run into one run.\n"
    "    -- shard, shards: this run plays shard `shard` of `shards`; a merged run has shards and\n"
    "    -- no shard (its shards are in run_shards); both NULL: the whole run in one piece.\n"
    "    identity        TEXT,\n"
    "    shard           INTEGER CHECK (shard >= 1),\n"
    "    shards          INTEGER CHECK (shards >= 1)\n"
    ");\n"
    "CREATE INDEX runs_identity ON runs(identity);\n"
    "\n"
    "CREATE TABLE openings (\n"
    "    id      INTEGER PRIMARY KEY,\n"
    "    fen     TEXT    NOT NULL UNIQUE,\n"
    "    source  TEXT,\n"
    "    variant TEXT    NOT NULL DEFAULT 'turkish'\n"
    ");\n"
    "\n"
    "-- The result lives here once; positions inherit it through game_id.  'unfinished' (since\n"
    "-- v8): a game imported from PDN without a result ('*' or none) or a fragment; the tuner and\n"
    "-- the statistics read finished games only.\n"
    "-- game_index is the game's place in its run (game i of a run of N): with the run it is the\n"
    "-- game's identity, whichever thread played it and whenever it was stored (NULL before v3).\n"
    "-- Columns added by a migration come last, so a migrated file has a fresh file's tables.\n"
    "-- npositions is how many rows the game has in positions (ply 0 .. npositions-1): a game\n"
    "-- and its positions are written in one transaction, so the two always agree.\n"
    "CREATE TABLE games (\n"
    "    id                INTEGER PRIMARY KEY,\n"
    "    run_id            INTEGER NOT NULL REFERENCES runs(id),\n"
    "    pair_id           INTEGER,\n"
    "    opening_id        INTEGER REFERENCES openings(id),\n"
    "    white_weights_id  INTEGER REFERENCES weights(id),\n"
    "    black_weights_id  INTEGER REFERENCES weights(id),\n"
    "    result            TEXT    NOT NULL CHECK (result IN ('white', 'black', 'draw', 'unfinished')),\n"
    "    reason            TEXT,\n"
    "    plies             INTEGER NOT NULL CHECK (plies >= 0),\n"
    "    mars              INTEGER NOT NULL DEFAULT 0 CHECK (mars IN (0, 1)),\n"
    "    moves             TEXT    NOT NULL DEFAULT '',\n"
    "    seed              INTEGER,\n"
    "    npositions        INTEGER NOT NULL CHECK (npositions BETWEEN 0 AND plies + 1),\n"
    "    created_at        INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),\n"
    "    game_index        INTEGER CHECK (game_index >= 0),\n"
    "    variant           TEXT    NOT NULL DEFAULT 'turkish'\n"
    ");\n"
    "CREATE INDEX games_run ON games(run_id);\n"
    "CREATE UNIQUE INDEX games_run_index ON games(run_id, game_index);\n"
    "\n"
    "-- The position before ply `ply` (ply 0 = the opening position).  score is the search\n"
    "-- score from the side to move, NULL when none was searched.\n"
    "CREATE TABLE positions (\n"
    "    game_id          INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,\n"
    "    ply              INTEGER NOT NULL,\n"
    "    white_men        INTEGER NOT NULL,\n"
    "    white_kings      INTEGER NOT NULL,\n"
    "    black_men        INTEGER NOT NULL,\n"
    "    black_kings      INTEGER NOT NULL,\n"
    "    side             INTEGER NOT NULL,\n"
    "    score            INTEGER,\n"
    "    capture_pending  INTEGER NOT NULL,\n"
    "    PRIMARY KEY (game_id, ply)\n"
    ") WITHOUT ROWID;\n"
    "\n"
    "CREATE TABLE tune_runs (\n"
    "    id                 INTEGER PRIMARY KEY,\n"
    "    run_id             INTEGER REFERENCES runs(id),\n"
    "    parent_weights_id  INTEGER REFERENCES weights(id),\n"
    "    result_weights_id  INTEGER REFERENCES weights(id),\n"
    "    k                  REAL,\n"
    "    train_loss         REAL,\n"
    "    validation_loss    REAL,\n"
    "    positions          INTEGER,\n"
    "    epochs             INTEGER,\n"
    "    created_at         INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))\n"
    ");\n"
    "\n"
    "CREATE TABLE tune_epochs (\n"
    "    tune_run_id      INTEGER NOT NULL REFERENCES tune_runs(id) ON DELETE CASCADE,\n"
    "    epoch            INTEGER NOT NULL,\n"
    "    train_loss       REAL,\n"
    "    validation_loss  REAL,\n"
    "    PRIMARY KEY (tune_run_id, epoch)\n"
    ") WITHOUT ROWID;\n"
    "\n"
    "-- penta: how many game pairs scored 0, 1/2, 1, 3/2 and 2 points, as \"n0,n1,n2,n3,n4\".\n"
    "CREATE TABLE matches (\n"
    "    id          INTEGER PRIMARY KEY,\n"
    "    run_id      INTEGER REFERENCES runs(id),\n"
    "    weights_a   INTEGER REFERENCES weights(id),\n"
    "    weights_b   INTEGER REFERENCES weights(id),\n"
    "    games       INTEGER NOT NULL DEFAULT 0,\n"
    "    wins        INTEGER NOT NULL DEFAULT 0,\n"
    "    draws       INTEGER NOT NULL DEFAULT 0,\n"
    "    losses      INTEGER NOT NULL DEFAULT 0,\n"
    "    penta       TEXT,\n"
    "    elo         REAL,\n"
    "    elo_low     REAL,\n"
    "    elo_high    REAL,\n"
    "    llr         REAL,\n"
    "    llr_low     REAL,\n"
    "    llr_high    REAL,\n"
    "    verdict     TEXT,\n"
    "    created_at  INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))\n"
    ");\n"
    "\n"
    "CREATE TABLE analyses (\n"
    "    id          INTEGER PRIMARY KEY,\n"
    "    run_id      INTEGER REFERENCES runs(id),\n"
    "    item_id     TEXT,\n"
    "    fen         TEXT    NOT NULL,\n"
    "    best_move   TEXT,\n"
    "    score       INTEGER,\n"
    "    depth       INTEGER,\n"
    "    nodes       INTEGER,\n"
    "    time_ms     INTEGER,\n"
    "    pv          TEXT,\n"
    "    created_at  INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))\n"
    ");\n"
    "CREATE INDEX analyses_run ON analyses(run_id);\n"
    "\n"
    TRAIN_STEPS_SQL
    "\n"
    RUN_SHARDS_SQL
    "\n"
    PDN_TABLES_SQL;

/* migrations[v] takes a database from user_version v to v + 1, for 1 <= v < SCHEMA_VERSION,
 * and sets user_version itself.  An empty file gets schema_sql (the current schema) at
 * once, so data/schema.sql always describes a fresh database completely. */
static const char *const migrations[SCHEMA_VERSION] = {
    [0] = NULL, /* version 0 is an empty file: schema_sql instead */
    /* 1 -> 2: the training loop's journal */
    [1] = TRAIN_STEPS_SQL
    "PRAGMA user_version = 2;\n",
    /* 2 -> 3: a game's identity (run, index) and a run's process, for stale runs */
    [2] = "ALTER TABLE games ADD COLUMN game_index INTEGER CHECK (game_index >= 0);\n"
    "CREATE UNIQUE INDEX games_run_index ON games(run_id, game_index);\n"
    "ALTER TABLE runs ADD COLUMN host TEXT;\n"
    "ALTER TABLE runs ADD COLUMN pid INTEGER;\n"
    "PRAGMA user_version = 3;\n",
    /* 3 -> 4: the variant of runs, games and openings (every older row is Turkish) */
    [3] = "ALTER TABLE runs ADD COLUMN variant TEXT NOT NULL DEFAULT 'turkish' CHECK (variant IN ('turkish', 'international'));\n"
    "ALTER TABLE openings ADD COLUMN variant TEXT NOT NULL DEFAULT 'turkish' CHECK (variant IN ('turkish', 'international'));\n"
    "ALTER TABLE games ADD COLUMN variant TEXT NOT NULL DEFAULT 'turkish' CHECK (variant IN ('turkish', 'international'));\n"
    "PRAGMA user_version = 4;\n",
    /* 4 -> 5: what imported PDN games keep (tags, comments and variations, identity) */
    [4] = PDN_TABLES_SQL
    "PRAGMA user_version = 5;\n",
    /* 5 -> 6: the compressed table of pattern weights */
    [5] = "ALTER TABLE weights ADD COLUMN blob BLOB;\n"
    "PRAGMA user_version = 6;\n",
    /* 6 -> 7: a run's identity and shard, and the shards merged into a run */
    [6] = "ALTER TABLE runs ADD COLUMN identity TEXT;\n"
    "ALTER TABLE runs ADD COLUMN shard INTEGER CHECK (shard >= 1);\n"
    "ALTER TABLE runs ADD COLUMN shards INTEGER CHECK (shards >= 1);\n"
    "CREATE INDEX runs_identity ON runs(identity);\n"
    RUN_SHARDS_SQL
    "PRAGMA user_version = 7;\n",
    /* 7 -> 8: migrate_unfinished_results; 8 -> 9: migrate_variant_checks; 9 -> 10:
     * migrate_weights_key (C, not scripts) */
    [7] = NULL,
    [8] = NULL,
    [9] = NULL,
};

const char *store_schema_sql(void) { return schema_sql; }
int store_schema_version(void) { return SCHEMA_VERSION; }

/* What the file's header and catalogue say, read in one statement so that all three come
 * from one snapshot (another process may be creating the schema right now). */
static bool read_header(Store *s, int64_t *app, int64_t *user, int64_t *objects)
{
    static const char sql[] = "SELECT (SELECT application_id FROM pragma_application_id),"
                              " (SELECT user_version FROM pragma_user_version),"
                              " (SELECT count(*) FROM sqlite_master)";
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
    if (ok) {
        *app = sqlite3_column_int64(st, 0);
        *user = sqlite3_column_int64(st, 1);
        *objects = sqlite3_column_int64(st, 2);
    } else {
        store_fail_db(s, "reading the database header");
    }
    sqlite3_finalize(st);
    return ok;
}

/* What the file holds: *version is -1 for a file with no schema yet. */
static bool read_version(Store *s, int64_t *version)
{
    int64_t app = 0, user = 0, objects = 0;
    if (!read_header(s, &app, &user, &objects)) return false;
    if (objects == 0 && user == 0 && (app == 0 || app == APPLICATION_ID)) {
        *version = -1;
        return true;
    }
    if (app != APPLICATION_ID)
        return store_fail(s, "not a dama database (a SQLite file with application_id %lld and "
                          "%lld schema objects)", (long long)app, (long long)objects);
    if (user > SCHEMA_VERSION)
        return store_fail(s, "database schema version %lld is newer than this dama's %d: "
                          "use a newer dama", (long long)user, SCHEMA_VERSION);
    if (user < 1)
        return store_fail(s, "damaged dama database: schema version %lld", (long long)user);
    *version = user;
    return true;
}

bool store_schema_version_of(Store *s, int64_t *version) { return read_version(s, version); }

bool store_schema_check(Store *s, bool *migrate)
{
    int64_t version = 0;
    if (!read_version(s, &version)) return false;
    *migrate = version != SCHEMA_VERSION;
    return true;
}

bool store_schema_check_current(Store *s)
{
    int64_t version = 0;
    if (!read_version(s, &version)) return false;
    if (version < 0) return store_fail(s, "an empty file: no dama database yet");
    if (version < SCHEMA_VERSION)
        return store_fail(s, "database schema version %lld is older than this dama's %d and a reader "
                          "does not migrate: run a writing command (e.g. dama selfplay) on it once",
                          (long long)version, SCHEMA_VERSION);
    return true;
}

static bool exec_script(Store *s, const char *sql, const char *what)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK) return true;
    store_fail(s, "%s: %s", what, msg ? msg : sqlite3_errmsg(s->db));
    sqlite3_free(msg);
    return false;
}

/* Changes the CREATE text of tables in place, SQLite's documented way to widen or drop a
 * CHECK constraint (every stored row stays valid, and copying the tables would cost as
 * much as their rows): writable_schema, the edit, a check that `done` now counts
 * `expected` tables, then a new schema_version so that every connection reads the schema
 * again, and user_version `to`. */
static bool edit_table_sql(Store *s, const char *edit, const char *done, int64_t expected, int to,
                           const char *what)
{
    sqlite3_stmt *st = NULL;
    int64_t cookie = -1, changed = 0;
    if (sqlite3_prepare_v2(s->db, "PRAGMA schema_version", -1, &st, NULL) == SQLITE_OK
        && sqlite3_step(st) == SQLITE_ROW)
        cookie = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (cookie < 0) return store_fail_db(s, what);
    if (!exec_script(s, "PRAGMA writable_schema = ON;", what)) return false;
    bool edited = exec_script(s, edit, what);
    if (!exec_script(s, "PRAGMA writable_schema = OFF;", what) || !edited) return false;
    if (sqlite3_prepare_v2(s->db, done, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        changed = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (changed != expected)
        return store_fail(s, "%s: %lld of %lld tables changed", what, (long long)changed, (long long)expected);
    char bump[96];
    snprintf(bump, sizeof bump, "PRAGMA schema_version = %lld; PRAGMA user_version = %d;",
             (long long)cookie + 1, to);
    return exec_script(s, bump, what);
}

/* 7 -> 8: a game's result may be 'unfinished' (imported PDN games without a result): the
 * games table's result CHECK widened. */
static bool migrate_unfinished_results(Store *s)
{
    static const char widen[] =
        "UPDATE sqlite_master SET sql = replace(sql, 'CHECK (result IN (''white'', ''black'', ''draw''))',"
        " 'CHECK (result IN (''white'', ''black'', ''draw'', ''unfinished''))')"
        " WHERE type = 'table' AND name = 'games';";
    static const char widened[] = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'"
                                  " AND instr(sql, '''draw'', ''unfinished''') > 0";
    return edit_table_sql(s, widen, widened, 1, 8, "migrating from schema version 7");
}

/* 8 -> 9: runs, openings and games lose CHECK (variant IN ('turkish', 'international')):
 * the store checks a variant against the games registry instead (store_variant_given), so
 * that a new game needs no migration.  Dropping a CHECK leaves every row valid. */
static bool migrate_variant_checks(Store *s)
{
    static const char drop[] =
        "UPDATE sqlite_master SET sql = replace(sql, ' CHECK (variant IN (''turkish'', ''international''))', '')"
        " WHERE type = 'table' AND name IN ('runs', 'openings', 'games');";
    static const char dropped[] = "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                                  " AND name IN ('runs', 'openings', 'games') AND instr(sql, 'variant IN') = 0";
    return edit_table_sql(s, drop, dropped, 3, 9, "migrating from schema version 8");
}

/* 9 -> 10: weights are one by (variant, hash, text), not (variant, hash): pattern weights
 * are named by their numbers' hash, and the same numbers under another head (another
 * feature set) are other weights.  A UNIQUE constraint cannot be changed in place, so the
 * table is built again, as SQLite documents (ALTER TABLE, "other kinds of table schema
 * changes"): its few rows copied with their ids, the old table dropped and the new one
 * renamed.  store_migrate turns foreign keys off around the transaction.  The table is
 * written out here as version 10 had it, not shared with schema_sql: a migration is history
 * and must not follow later changes.  (The rename leaves the name quoted in sqlite_master's
 * text, "weights"; SQLite reads both alike.) */
static bool migrate_weights_key(Store *s)
{
    static const char rebuild[] =
        "CREATE TABLE weights_v10 (\n"
        "    id          INTEGER PRIMARY KEY,\n"
        "    variant     TEXT    NOT NULL,\n"
        "    generation  INTEGER NOT NULL,\n"
        "    parent_id   INTEGER REFERENCES weights(id),\n"
        "    text        TEXT    NOT NULL,\n"
        "    hash        TEXT    NOT NULL,\n"
        "    created_at  INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),\n"
        "    note        TEXT,\n"
        "    blob        BLOB,\n"
        "    UNIQUE (variant, hash, text)\n"
        ");\n"
        "INSERT INTO weights_v10 (id, variant, generation, parent_id, text, hash, created_at, note, blob)"
        " SELECT id, variant, generation, parent_id, text, hash, created_at, note, blob FROM weights;\n"
        "DROP TABLE weights;\n"
        "ALTER TABLE weights_v10 RENAME TO weights;\n"
        "CREATE INDEX weights_generation ON weights(variant, generation);\n"
        "PRAGMA user_version = 10;\n";
    if (!exec_script(s, rebuild, "migrating from schema version 9")) return false;
    /* what foreign keys would have refused while they were off: nothing, unless the file
     * was damaged before; then it is left as it was (the transaction rolls back) */
    sqlite3_stmt *st = NULL;
    bool clean = sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st, NULL) == SQLITE_OK
                 && sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return clean || store_fail(s, "migrating from schema version 9: the file breaks its foreign keys"
                               " (sqlite3 FILE 'PRAGMA foreign_key_check' lists the rows)");
}

static bool migrate_locked(Store *s)
{
    /* Read again under the write lock: another process may have migrated meanwhile. */
    int64_t version = 0;
    if (!read_version(s, &version)) return false;
    if (version < 0) {
        if (!exec_script(s, schema_sql, "creating the schema")) return false;
        version = SCHEMA_VERSION;
    }
    for (; version < SCHEMA_VERSION; version++) {
        char what[64];
        snprintf(what, sizeof what, "migrating from schema version %lld", (long long)version);
        if (version >= 7 && version <= 9) {
            bool ok = version == 7 ? migrate_unfinished_results(s)
                    : version == 8 ? migrate_variant_checks(s) : migrate_weights_key(s);
            if (!ok) return false;
            continue;
        }
        if (!migrations[version]) return store_fail(s, "%s: no migration", what);
        if (!exec_script(s, migrations[version], what)) return false;
    }
    int64_t now = 0;
    if (!read_version(s, &now)) return false;
    if (now != SCHEMA_VERSION)
        return store_fail(s, "migration ended at schema version %lld, not %d", (long long)now, SCHEMA_VERSION);
    return true;
}

bool store_migrate(Store *s)
{
    /* Foreign keys off while a table is built again (9 -> 10): dropping the old one would
     * otherwise delete or refuse the rows that refer to it.  The pragma works only outside
     * a transaction; migrate_weights_key checks the keys before the commit. */
    if (!exec_script(s, "PRAGMA foreign_keys = OFF", "preparing the migration")) return false;
    /* Statements are not prepared yet, so the transaction is driven by plain SQL. */
    bool ok = exec_script(s, "BEGIN IMMEDIATE", "locking for migration");
    if (ok && migrate_locked(s))
        ok = exec_script(s, "COMMIT", "committing the schema");
    else
        ok = false;
    if (!ok && !sqlite3_get_autocommit(s->db)) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return exec_script(s, "PRAGMA foreign_keys = ON", "ending the migration") && ok;
}
