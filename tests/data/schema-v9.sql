-- dama database, schema version 9.
-- store/schema.c embeds this text byte for byte (tests/test_store.c checks it), so the
-- binary never reads it from the working directory.  Change both together, bump
-- user_version, and add a migration step in store/schema.c.
-- Times are Unix seconds.  Bitboards are uint64 stored as the int64 with the same bits.

PRAGMA application_id = 1145130305; -- 'DAMA': tells a dama database from other files
PRAGMA user_version = 9;

-- Weight sets: every generation the pipeline produces.  Dedup on (variant, hash): the hash
-- of text for linear weights; for a pattern evaluation (since v6) the hash of the weight
-- vector, text its readable head (engine/weights.h) and blob the compressed table that
-- follows it in a file (NULL for linear weights).
CREATE TABLE weights (
    id          INTEGER PRIMARY KEY,
    variant     TEXT    NOT NULL,
    generation  INTEGER NOT NULL,
    parent_id   INTEGER REFERENCES weights(id),
    text        TEXT    NOT NULL,
    hash        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),
    note        TEXT,
    blob        BLOB,
    UNIQUE (variant, hash)
);
CREATE INDEX weights_generation ON weights(variant, generation);

-- One row per invocation of a pipeline step (selfplay, match, train, tune, analysis, import ...).
-- variant (runs, games, openings; since v4): the game played, so one file may hold several
-- and no reader mixes them; a name of the games registry (engine/games/registry.c), which
-- the store checks (since v9: no CHECK of its own, so a new game needs no migration).
CREATE TABLE runs (
    id              INTEGER PRIMARY KEY,
    kind            TEXT    NOT NULL CHECK (length(kind) > 0),
    params          TEXT,
    engine_version  TEXT,
    bench_signature TEXT,
    weights_id      INTEGER REFERENCES weights(id),
    started_at      INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),
    ended_at        INTEGER,
    -- 'running', then 'done', 'interrupted' (Ctrl-C), 'failed' (an error) or 'stale' (its
    -- process died: found by a later writer from host and pid); a merged sharded run is
    -- 'partial' until every one of its shards is merged 'done' (run_shards).
    status          TEXT    NOT NULL DEFAULT 'running',
    host            TEXT,
    pid             INTEGER,
    variant         TEXT    NOT NULL DEFAULT 'turkish',
    -- identity (since v7): the same for every run of the same games (self-play: a hash of
    -- the kind, variant, game options, seed, search signature and weights hash, whatever
    -- the shard), so that `dama db merge` folds the shards of one run into one run.
    -- shard, shards: this run plays shard `shard` of `shards`; a merged run has shards and
    -- no shard (its shards are in run_shards); both NULL: the whole run in one piece.
    identity        TEXT,
    shard           INTEGER CHECK (shard >= 1),
    shards          INTEGER CHECK (shards >= 1)
);
CREATE INDEX runs_identity ON runs(identity);

CREATE TABLE openings (
    id      INTEGER PRIMARY KEY,
    fen     TEXT    NOT NULL UNIQUE,
    source  TEXT,
    variant TEXT    NOT NULL DEFAULT 'turkish'
);

-- The result lives here once; positions inherit it through game_id.  'unfinished' (since
-- v8): a game imported from PDN without a result ('*' or none) or a fragment; the tuner and
-- the statistics read finished games only.
-- game_index is the game's place in its run (game i of a run of N): with the run it is the
-- game's identity, whichever thread played it and whenever it was stored (NULL before v3).
-- Columns added by a migration come last, so a migrated file has a fresh file's tables.
-- npositions is how many rows the game has in positions (ply 0 .. npositions-1): a game
-- and its positions are written in one transaction, so the two always agree.
CREATE TABLE games (
    id                INTEGER PRIMARY KEY,
    run_id            INTEGER NOT NULL REFERENCES runs(id),
    pair_id           INTEGER,
    opening_id        INTEGER REFERENCES openings(id),
    white_weights_id  INTEGER REFERENCES weights(id),
    black_weights_id  INTEGER REFERENCES weights(id),
    result            TEXT    NOT NULL CHECK (result IN ('white', 'black', 'draw', 'unfinished')),
    reason            TEXT,
    plies             INTEGER NOT NULL CHECK (plies >= 0),
    mars              INTEGER NOT NULL DEFAULT 0 CHECK (mars IN (0, 1)),
    moves             TEXT    NOT NULL DEFAULT '',
    seed              INTEGER,
    npositions        INTEGER NOT NULL CHECK (npositions BETWEEN 0 AND plies + 1),
    created_at        INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),
    game_index        INTEGER CHECK (game_index >= 0),
    variant           TEXT    NOT NULL DEFAULT 'turkish'
);
CREATE INDEX games_run ON games(run_id);
CREATE UNIQUE INDEX games_run_index ON games(run_id, game_index);

-- The position before ply `ply` (ply 0 = the opening position).  score is the search
-- score from the side to move, NULL when none was searched.
CREATE TABLE positions (
    game_id          INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply              INTEGER NOT NULL,
    white_men        INTEGER NOT NULL,
    white_kings      INTEGER NOT NULL,
    black_men        INTEGER NOT NULL,
    black_kings      INTEGER NOT NULL,
    side             INTEGER NOT NULL,
    score            INTEGER,
    capture_pending  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

CREATE TABLE tune_runs (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER REFERENCES runs(id),
    parent_weights_id  INTEGER REFERENCES weights(id),
    result_weights_id  INTEGER REFERENCES weights(id),
    k                  REAL,
    train_loss         REAL,
    validation_loss    REAL,
    positions          INTEGER,
    epochs             INTEGER,
    created_at         INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
);

CREATE TABLE tune_epochs (
    tune_run_id      INTEGER NOT NULL REFERENCES tune_runs(id) ON DELETE CASCADE,
    epoch            INTEGER NOT NULL,
    train_loss       REAL,
    validation_loss  REAL,
    PRIMARY KEY (tune_run_id, epoch)
) WITHOUT ROWID;

-- penta: how many game pairs scored 0, 1/2, 1, 3/2 and 2 points, as "n0,n1,n2,n3,n4".
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER REFERENCES runs(id),
    weights_a   INTEGER REFERENCES weights(id),
    weights_b   INTEGER REFERENCES weights(id),
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    penta       TEXT,
    elo         REAL,
    elo_low     REAL,
    elo_high    REAL,
    llr         REAL,
    llr_low     REAL,
    llr_high    REAL,
    verdict     TEXT,
    created_at  INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
);

CREATE TABLE analyses (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER REFERENCES runs(id),
    item_id     TEXT,
    fen         TEXT    NOT NULL,
    best_move   TEXT,
    score       INTEGER,
    depth       INTEGER,
    nodes       INTEGER,
    time_ms     INTEGER,
    pv          TEXT,
    created_at  INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER))
);
CREATE INDEX analyses_run ON analyses(run_id);

-- The training loop's journal: one row per finished step of a generation, so that an
-- interrupted `dama train` resumes where it stopped.
CREATE TABLE train_steps (
    train_run_id          INTEGER NOT NULL REFERENCES runs(id),
    generation            INTEGER NOT NULL,
    step                  TEXT    NOT NULL CHECK (step IN ('selfplay', 'tune', 'match', 'decision')),
    ref_id                INTEGER,  -- selfplay/match: the run; tune: the candidate weights
    best_weights_id       INTEGER REFERENCES weights(id),
    candidate_weights_id  INTEGER REFERENCES weights(id),
    outcome               TEXT,     -- decision: 'promoted' or 'rejected'
    created_at            INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),
    PRIMARY KEY (train_run_id, generation, step)
) WITHOUT ROWID;

-- The shards merged into a run (since v7): each shard's run as it was when last merged,
-- so that the run's status can say whether all its shards are in.
CREATE TABLE run_shards (
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    shard       INTEGER NOT NULL CHECK (shard >= 1),
    shards      INTEGER NOT NULL CHECK (shard <= shards),
    status      TEXT    NOT NULL,
    host        TEXT,
    pid         INTEGER,
    started_at  INTEGER,
    ended_at    INTEGER,
    games       INTEGER NOT NULL,
    merged_at   INTEGER NOT NULL DEFAULT (CAST(strftime('%s', 'now') AS INTEGER)),
    PRIMARY KEY (run_id, shard)
) WITHOUT ROWID;

-- Games imported from PDN files (since v5) keep here what the games table has no column
-- for, so that `dama pdn export` writes back what was read.  identity: a hash of the
-- variant, the start position, the moves and the identifying tags: a game is never
-- imported twice.  source: the FILE:LINE it was read from.
CREATE TABLE pdn_games (
    game_id   INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    identity  TEXT    NOT NULL UNIQUE,
    source    TEXT
);

-- An imported game's tags in the order read (Result, GameType and FEN come from the game).
-- A game dama played has here only its players' names, when it has them (a match's
-- sides): White (seq 0) and Black (seq 1).
CREATE TABLE pdn_tags (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- An imported game's comments, variations, NAGs and !? marks as written, each after `ply`
-- plies (0: before the first move), in the order read.
CREATE TABLE pdn_notes (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    ply      INTEGER NOT NULL CHECK (ply >= 0),
    text     TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
