/* The storage layer: the one place that speaks SQL (see data/schema.sql).
 *
 * A Store is one connection to one SQLite file in WAL mode.  Use one Store per thread (or
 * per process after fork(): never carry a Store across fork).  One writer at a time does
 * the work; any number of other Stores may read meanwhile.
 *
 * Errors: every function returns false (bool) or a negative id (int64_t) on failure and
 * leaves a one-line message in store_error().  Bad arguments are errors, never crashes. */
#ifndef DAMA_STORE_H
#define DAMA_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "types.h"

typedef struct Store Store;

/* One position of a game as stored. */
typedef struct StoredPosition {
    Position pos;
    int score;             /* search score from the side to move; valid when has_score */
    bool has_score;
    bool capture_pending;  /* the side to move must capture (the tuner skips these) */
} StoredPosition;

/* A finished game for store_games_write.  Ids <= 0 mean "none" (stored as NULL), except
 * run_id, which must name an existing run.  positions[i] is the position after i plies
 * (positions[0] = the opening position), so 0 <= npositions <= plies + 1; store_check()
 * verifies that each game has exactly npositions rows. */
typedef struct GameRecord {
    const char *variant;      /* required: the run's (Variant.name) */
    int64_t run_id, pair_id, opening_id, white_weights_id, black_weights_id;
    int result;               /* enum Result: RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW;
                                 RESULT_NONE ('unfinished') for an imported game or fragment
                                 without a result (store_pdn_import_add only) */
    const char *reason;       /* e.g. reason_name(); NULL = none */
    int plies;
    bool mars;                /* a win in which the winner lost no piece */
    const char *moves;        /* space-separated moves; NULL = "" */
    uint64_t seed;
    const StoredPosition *positions;
    int npositions;
    /* The game's place in its run: (run_id, game_index) is unique, so the same game is
     * never stored twice.  has_index false = none (NULL, as in files before schema v3). */
    bool has_index;
    int game_index;
    /* The players' names (a match's sides: `--name-a`, an engine's `id name=`); NULL =
     * none.  Stored as the game's PDN tags White and Black (pdn_tags, where an imported
     * game keeps its players too), which the PDN export and games.csv read back. */
    const char *white_name, *black_name;
} GameRecord;

/* A game read back: rec's pointers point into the owned fields; free with store_game_free. */
typedef struct StoredGame {
    int64_t id;
    int64_t created_at;       /* Unix seconds */
    GameRecord rec;
    char *reason;             /* owned; NULL when none */
    char *moves;              /* owned */
    StoredPosition *positions;/* owned, rec.npositions entries */
    char variant[16];         /* rec.variant points here */
} StoredGame;

/* Opens or creates the database at path, creating the schema or migrating an older one.
 * Rejects files that are not SQLite, SQLite files that are not dama databases, and dama
 * databases newer than this build.  Returns NULL and writes a message into err on failure.
 * A writer also marks this host's runs whose process is gone (see store_run_begin) as
 * 'stale'. */
Store *store_open(const char *path, char *err, size_t errlen);
/* Whether a writer could write the database at path, as access(2) tells: the file (when it
 * exists) and its directory, where SQLite keeps the -wal and -shm files.  False with the
 * reason in why ("the file system is read-only", "the file is read-only (mode 0444)", "its
 * directory DIR is not writable"); store_open says "PATH: cannot write the database: WHY". */
bool store_path_writable(const char *path, char *why, size_t whylen);
/* Opens an existing database for reading only (SQLITE_OPEN_READONLY): nothing is created,
 * configured, migrated or marked, so a read-only file or directory can be read.  Fails
 * with a message for a missing file, a foreign file, and a schema older or newer than
 * this build's.  In a read-only directory, where SQLite cannot create the WAL's -shm file,
 * the file is read as immutable when no -wal changes are pending (an error otherwise).
 * Every write through such a Store fails. */
Store *store_open_readonly(const char *path, char *err, size_t errlen);
void store_close(Store *s);                  /* NULL is fine */
const char *store_error(const Store *s);     /* the last failure's message ("" if none) */

/* One read snapshot for many reads: between the two calls every read of s (counts, games,
 * exports, checks) sees the database as it was at store_snapshot_begin, whatever other
 * Stores write meanwhile, so that files exported one after another agree.  Writes through
 * s fail until store_snapshot_end.  false when a snapshot is already open. */
bool store_snapshot_begin(Store *s);
void store_snapshot_end(Store *s);            /* NULL or no snapshot: nothing happens */

/* The schema this build creates (the text of data/schema.sql) and its user_version. */
const char *store_schema_sql(void);
int store_schema_version(void);

/* Runs.  kind and variant (Variant.name: "turkish", "international") are required; the
 * run's games must be of its variant.  Other texts may be NULL;
 * weights_id <= 0 = none.  The run records this host and process id, so a later writer can
 * tell a run whose process died.  store_run_end sets ended_at and status ("done",
 * "interrupted", "failed"). */
int64_t store_run_begin(Store *s, const char *kind, const char *variant, const char *params,
                        const char *engine_version, const char *bench_signature,
                        int64_t weights_id);
bool store_run_end(Store *s, int64_t run_id, const char *status);

/* Weights: the same text for the same variant returns the existing id (generation, parent
 * and note of the existing row are kept).  parent_id <= 0 = none. */
int64_t store_weights_put(Store *s, const char *variant, int generation, int64_t parent_id,
                          const char *text, const char *note);
/* Weights with a binary part (a pattern evaluation's, weights.h): text is the readable head,
 * blob the blob_len bytes of the compressed table, hash the weights' own hash (16 hex
 * digits), which names them instead of the hash of the text; the same hash returns the
 * existing id when text and blob are the same (an error otherwise).  blob NULL is
 * store_weights_put. */
int64_t store_weights_put_blob(Store *s, const char *variant, int generation, int64_t parent_id,
                               const char *text, const void *blob, size_t blob_len, const char *hash,
                               const char *note);
/* Copies the text into *text_out (malloc'd; the caller frees it). */
bool store_weights_get(Store *s, int64_t id, char **text_out);
/* The same and the blob (malloc'd into *blob_out with its length; NULL, 0 for weights that
 * have none). */
bool store_weights_get_blob(Store *s, int64_t id, char **text_out, unsigned char **blob_out, size_t *blob_len);
/* Id of the variant's weights with the highest generation (the newest among equals);
 * 0 when the variant has none, negative on error. */
int64_t store_latest_weights(Store *s, const char *variant);

/* Openings: the same FEN returns the existing id (an error when stored for another variant). */
int64_t store_opening_put(Store *s, const char *variant, const char *fen, const char *source);

/* Writes n games and all their positions in one transaction: all of them or none. */
bool store_games_write(Store *s, const GameRecord *games, int n);

/* Reads one game and its positions into *out (zeroed on failure; always safe to free). */
bool store_game_read(Store *s, int64_t game_id, StoredGame *out);
void store_game_free(StoredGame *g);

/* Rows of a table: runs, weights, openings, games, positions, tune_runs, tune_epochs,
 * matches, analyses, train_steps, pdn_games, pdn_tags, pdn_notes or run_shards.  Any other
 * name is an error. */
bool store_count(Store *s, const char *table, int64_t *n);

/* Streams positions of the finished games of the given runs (nruns = 0: all runs, by run
 * id; an unfinished imported game has no result to learn from), each run's games in game
 * index order (a game's identity; rowid for games without one), each
 * game's positions by ply, with their game's result (enum Result), in one read snapshot.
 * quiet_only skips positions with a capture pending.  A non-zero return from cb stops the
 * walk early (still a success).  cb must not call into the same Store.  Only the games of
 * variant (required) are walked: one database may hold both games. */
typedef int (*StorePositionFn)(void *ctx, int64_t game_id, int ply, const Position *pos,
                               int score, bool has_score, int result);
bool store_positions_foreach(Store *s, const char *variant, const int64_t *run_ids, int nruns,
                             bool quiet_only, StorePositionFn cb, void *ctx);

/* ---- Pipeline records (store/records.c) ---- */

/* A tuning run and its per-epoch losses, written in one transaction.  Ids <= 0 = none. */
typedef struct TuneRunRecord {
    int64_t run_id, parent_weights_id, result_weights_id;
    double k, train_loss, validation_loss;
    int64_t positions;
    int epochs;
    const double *epoch_train, *epoch_valid; /* nepochs each (epoch 0 = start weights) */
    int nepochs;
} TuneRunRecord;
int64_t store_tune_run_put(Store *s, const TuneRunRecord *rec);

/* A match between weights A and B, from A's view. */
typedef struct MatchRecord {
    int64_t run_id, weights_a, weights_b;
    int games, wins, draws, losses;
    const char *penta;        /* "LL,LD,DD+WL,WD,WW" pair counts */
    double elo, elo_low, elo_high, llr, llr_low, llr_high;
    const char *verdict;      /* "accept-H1", "accept-H0", "continue" or "none" */
} MatchRecord;
int64_t store_match_put(Store *s, const MatchRecord *rec);

/* Ids of the n most recent runs of kind and variant that ended 'done' (newest first); returns how many
 * were found (0..n) or -1. */
int store_recent_runs(Store *s, const char *kind, const char *variant, int n, int64_t *ids);
/* What a run is: kind, status and variant copied into the buffers (each may be NULL), and
 * how many games it has.
 * 1 when the run exists, 0 when not, -1 on error. */
int store_run_info(Store *s, int64_t run_id, char *kind, size_t kind_len, char *status,
                   size_t status_len, int64_t *games, char *variant, size_t variant_len);
/* Ids of the runs that have games, in id order, into *ids (malloc'd; the caller frees it;
 * NULL when none) of variant: only those that ended 'done' unless include_unfinished.  Returns how
 * many, or -1. */
int store_game_runs(Store *s, const char *variant, bool include_unfinished, int64_t **ids);
/* The most recent run of kind and variant whatever its status: its id (0 when none, -1 on error), and
 * its status and params copied into the buffers. */
int64_t store_last_run(Store *s, const char *kind, const char *variant, char *status,
                       size_t status_len, char *params, size_t params_len);

/* The training journal: one row per finished step of a generation. */
typedef struct TrainStep {
    int64_t ref_id;               /* selfplay/match: the run; tune: the candidate weights */
    int64_t best_weights_id, candidate_weights_id;
    char outcome[16];             /* decision: "promoted" or "rejected" */
} TrainStep;
bool store_train_step_put(Store *s, int64_t train_run_id, int generation, const char *step,
                          const TrainStep *ts);
/* 1 and *ts when the step is recorded, 0 when not, -1 on error. */
int store_train_step_get(Store *s, int64_t train_run_id, int generation, const char *step,
                         TrainStep *ts);

/* Checks the whole file: SQLite integrity, foreign keys, and that every game has exactly
 * npositions positions.  false with the first problem in store_error(). */
bool store_check(Store *s);

/* ---- Export and batch analysis (store/export.c) ---- */

/* One column value of an export row.  text is valid only during the row callback. */
enum StoreCellType { STORE_CELL_NULL = 0, STORE_CELL_INT, STORE_CELL_REAL, STORE_CELL_TEXT };
typedef struct StoreCell {
    int type;                 /* enum StoreCellType */
    int64_t i;                /* STORE_CELL_INT */
    double r;                 /* STORE_CELL_REAL */
    const char *text;         /* STORE_CELL_TEXT: len bytes (NUL-terminated) */
    int len;
} StoreCell;
/* Called once with the column names, then once per row; a non-zero return stops the walk
 * early (still a success: the caller knows why it stopped). */
typedef int (*StoreHeaderFn)(void *ctx, int ncols, const char *const *names);
typedef int (*StoreRowFn)(void *ctx, int ncols, const StoreCell *cells);

/* Streams the rows of one export query ("runs", "games", "positions", "summary",
 * "openings", "calibration", "tuning", "tune_runs", "matches", "weights", "analyses"; their
 * columns are documented in store/export.c) in one read snapshot (readers never block the
 * writer); only the rows of variant (required); run_id > 0 keeps the rows of that run
 * only.  Unknown query: an error. */
bool store_export_rows(Store *s, const char *query, const char *variant, int64_t run_id,
                       StoreHeaderFn header, StoreRowFn row, void *ctx);
/* The same with the statistics queries (summary, openings, calibration) told whether to
 * count the games of runs that did not end 'done' (running, interrupted, failed, stale);
 * store_export_rows leaves them out.  The other queries list every row either way. */
bool store_export_rows_ex(Store *s, const char *query, const char *variant, int64_t run_id,
                          bool include_unfinished, StoreHeaderFn header, StoreRowFn row, void *ctx);

/* The "positions" query decoded, for the export's fast path: the same rows and order. */
typedef struct StorePositionRow {
    int64_t game_id;
    int ply;
    Position pos;
    int score;                /* valid when has_score */
    bool has_score;
    bool capture_pending;
    int result;               /* the game's: enum Result */
} StorePositionRow;
typedef int (*StorePositionRowFn)(void *ctx, const StorePositionRow *row);
bool store_export_positions(Store *s, const char *variant, int64_t run_id, StorePositionRowFn cb,
                            void *ctx);

/* 1 when table ("runs", "games" or "weights") has a row with this id, 0 when not, -1 on
 * error. */
int store_has_id(Store *s, const char *table, int64_t id);

/* One result of a batch analysis.  best_move and pv may be NULL (no legal move). */
typedef struct AnalysisRecord {
    const char *item_id, *fen, *best_move, *pv;
    int score, depth;
    int64_t nodes, time_ms;
} AnalysisRecord;
/* Writes a run of kind 'analysis' (status 'done', started at started_at Unix seconds) and
 * its n rows in one transaction; returns the run id, or -1 (nothing written). */
int64_t store_analyses_put(Store *s, const char *variant, const char *params,
                           const char *engine_version, const char *bench_signature,
                           int64_t weights_id, int64_t started_at, const AnalysisRecord *rows, int n);

/* ---- Reads for the web view (store/browse.c) ---- */

/* Streams the rows of one named query of the web view ("games", "games_total", "runs",
 * "run_lengths", "run_loss", "train_last", "generations", "train_child"; their parameters
 * and columns are documented in store/browse.c) in one read snapshot; params are its
 * nparams parameters in order (STORE_CELL_NULL, _INT, _REAL or _TEXT; a text is read
 * during the call only).  A wrong count of parameters or an unknown query: an error. */
bool store_browse_rows(Store *s, const char *query, const StoreCell *params, int nparams,
                       StoreRowFn row, void *ctx);

/* ---- Games people played (store/play_store.c) ---- */

/* What a new run of kind 'play' records of who played: NULL or 0 for what is not known. */
typedef struct PlayRunInfo {
    const char *params, *engine_version, *bench_signature;
    int64_t weights_id; /* the engine's weights */
} PlayRunInfo;

/* Writes one finished game a person played (dama play, dama serve) in one transaction:
 * the game and its positions into the run *run_id (of kind 'play', the game's variant), or,
 * when *run_id <= 0, into a new run of kind 'play' (status 'done', with info) made in the
 * same transaction, whose id is put in *run_id.  opening_fen (may be NULL) is the start
 * position, stored as the game's opening.  The game gets the run's next game index; its
 * id goes into *game_id (may be NULL).  false: nothing written, *run_id unchanged. */
bool store_play_game_put(Store *s, const PlayRunInfo *info, const char *opening_fen, const GameRecord *game,
                         int64_t *run_id, int64_t *game_id);

/* ---- PDN games (store/pdn_store.c) ---- */

typedef struct StorePdnTag { char *name, *value; } StorePdnTag;
/* A comment "{...}", variation "(...)", NAG "$n" or mark "!?" after `ply` plies. */
typedef struct StorePdnNote { int ply; char *text; } StorePdnNote;

/* What an export needs about a game besides store_game_read: owned; free with
 * store_pdn_free. */
typedef struct StoredPdn {
    bool imported;            /* read from a PDN file: tags and notes are the ones read */
    char *source;             /* imported: "FILE:LINE" */
    StorePdnTag *tags;
    int ntags;
    StorePdnNote *notes;
    int nnotes;
    char *opening_fen;        /* the game's opening; NULL when none */
    char run_kind[32];
    char *run_host;           /* NULL when unknown */
    char white_weights_hash[17], black_weights_hash[17]; /* "" when none */
} StoredPdn;
bool store_pdn_read(Store *s, int64_t game_id, StoredPdn *out);
void store_pdn_free(StoredPdn *p);

/* Ids of the games of variant (of run_id when > 0), by run, game index and id, into *ids
 * (malloc'd; NULL when none).  Returns how many, or -1. */
int64_t store_pdn_game_ids(Store *s, const char *variant, int64_t run_id, int64_t **ids);

/* One game to import.  rec.run_id and rec.game_index are set by store_pdn_import. */
typedef struct StorePdnImport {
    GameRecord rec;
    const char *opening_fen;  /* the start position */
    const char *identity;     /* a game with the same identity is not imported again */
    const char *source;       /* "FILE:LINE" */
    /* The game this one says it is (DamaRun and DamaGameIndex tags): when this database
     * holds it with the same moves, it is not imported again. */
    bool has_origin;
    int64_t origin_run;
    int origin_index;
    const StorePdnTag *tags;
    int ntags;
    const StorePdnNote *notes;
    int nnotes;
    bool duplicate;           /* out: already in the database, nothing written */
} StorePdnImport;

/* A file's games are imported in one transaction, added batch by batch, so that a file of
 * any size is stored whole or not at all without being held in memory:
 * store_pdn_import_begin, then store_pdn_import_add for each batch, then
 * store_pdn_import_commit (or store_pdn_import_rollback, which also undoes a run created
 * in the transaction: the caller forgets its id).
 * store_pdn_import_add writes the games not yet in the database (earlier batches count),
 * with their positions, tags and notes, into the run *run_id; when *run_id <= 0 and a game
 * is new, a run of kind 'import' is created (its id into *run_id).  *written gets how many
 * were new.  A game's rec.result may be RESULT_NONE: an unfinished game or a fragment,
 * stored as 'unfinished' (the tuner and the statistics leave it out). */
bool store_pdn_import_begin(Store *s);
bool store_pdn_import_add(Store *s, const char *variant, const char *params, const char *engine_version,
                          const char *bench_signature, int64_t *run_id, StorePdnImport *games, int n,
                          int *written);
bool store_pdn_import_commit(Store *s);
void store_pdn_import_rollback(Store *s);

/* ---- The opening explorer (store/explorer.c) ---- */

/* Every game of variant that reached pos and went on, with the position after it (the
 * search score stored with that one, from its side to move) and the game's result (enum
 * Result), in one read snapshot.  A full scan of positions: there is no index on them.  A
 * non-zero return from cb stops the walk (still a success). */
typedef int (*StoreNextFn)(void *ctx, int64_t game_id, const Position *next, int score, bool has_score,
                           int result);
bool store_next_positions(Store *s, const char *variant, const Position *pos, StoreNextFn cb, void *ctx);

#endif
