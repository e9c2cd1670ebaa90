/* Reads for the export (named queries streamed row by row) and the writes of a batch
 * analysis.  Rare calls, so statements are prepared per call.
 *
 * Columns of each query (positional; analysis/export.c turns them into CSV columns, which
 * docs/csv.md describes: a table's own id is <table>_id, results are White's view):
 *   runs         run_id, kind, status, started_at, ended_at, weights_id, engine_version,
 *                bench_signature, params
 *   games        game_id, run_id, pair_id, opening_id, opening_fen, white_weights_id,
 *                black_weights_id, result, reason, plies, mars, npositions, seed, created_at,
 *                run_kind, game_index, moves, white_name, black_name (the players: a
 *                match's sides, an imported game's White and Black tags; NULL = none)
 *   positions    game_id, ply, white_men, white_kings, black_men, black_kings (int64 with the
 *                bitboard's bits), side, score (NULL = none), capture_pending, result
 *   summary      run_id, run_kind, run_status, games, white_wins, draws, black_wins, white_mars,
 *                black_mars, draws_repetition, draws_no_progress, draws_one_each,
 *                draws_move_cap, draws_other, min_plies, max_plies, plies_sum, plies_sumsq
 *   openings     opening_id, opening_fen, source, games, white_wins, draws, black_wins, white_score,
 *                mean_plies
 *   calibration  side, score, result (positions with a score only)
 *   tuning       tune_run_id, run_id, epoch, train_loss, validation_loss, k, positions,
 *                parent_weights_id, result_weights_id, result_generation
 *   tune_runs    tune_run_id, run_id, parent_weights_id, parent_generation,
 *                result_weights_id, result_generation, k, train_loss, validation_loss,
 *                positions, epochs, created_at
 *   matches      match_id, run_id, a_weights_id, a_generation, b_weights_id, b_generation,
 *                games, a_wins, draws, b_wins, a_score, elo, elo_low, elo_high, llr, llr_low, llr_high,
 *                verdict, penta, created_at, train_generation, decision
 *   weights      weights_id, variant, generation, parent_weights_id, note, created_at, hash, eval, text
 *   analyses     analysis_id, run_id, item_id, fen, best_move, score, depth, nodes, time_ms, pv,
 *                created_at
 * runs, games, positions, summary and openings end with the variant.
 * ?1 is the run filter (0 = every run), ?3 the variant (required): every query keeps the rows
 * of that variant only (tuning, matches and analyses by their run's, or else their weights').  summary, openings and calibration are statistics:
 * they count the games of runs that ended 'done' only, unless ?2 is 1, and finished games
 * only (never result 'unfinished'). */
#include <stdio.h>

#include "game.h"
#include "store_internal.h"

#define RUN_FILTER(col) "(?1 = 0 OR " col " = ?1)"
/* ?2: count the games of runs that did not end 'done' (statistics leave them out); an
 * unfinished game (imported without a result) has nothing to count, whatever ?2. */
#define FINISHED_FILTER "(?2 OR r.status = 'done') AND g.result <> 'unfinished'"
/* ?3: the variant; one database may hold both games, and no export mixes them. */
#define VARIANT_FILTER "g.variant = ?3"
#define RUN_VARIANT(col) "(SELECT variant FROM runs WHERE id = " col ")"

static const struct ExportQuery {
    const char *name;
    const char *sql;
} export_queries[] = {
    { "runs",
      "SELECT id AS run_id, kind, status, started_at, ended_at, weights_id, engine_version,"
      " bench_signature, params, variant FROM runs WHERE " RUN_FILTER("id") " AND variant = ?3"
      " ORDER BY id" },
    { "games",
      "SELECT g.id AS game_id, g.run_id, g.pair_id, g.opening_id, o.fen AS opening_fen,"
      " g.white_weights_id, g.black_weights_id, g.result, g.reason, g.plies, g.mars,"
      " g.npositions, g.seed, g.created_at, r.kind AS run_kind, g.game_index, g.moves,"
      " (SELECT value FROM pdn_tags t WHERE t.game_id = g.id AND t.name = 'White' COLLATE NOCASE ORDER BY seq LIMIT 1) AS white_name,"
      " (SELECT value FROM pdn_tags t WHERE t.game_id = g.id AND t.name = 'Black' COLLATE NOCASE ORDER BY seq LIMIT 1) AS black_name,"
      " g.variant"
      " FROM games g JOIN runs r ON r.id = g.run_id LEFT JOIN openings o ON o.id = g.opening_id"
      " WHERE " RUN_FILTER("g.run_id") " AND " VARIANT_FILTER " ORDER BY g.id" },
    { "positions",
      "SELECT p.game_id, p.ply, p.white_men, p.white_kings, p.black_men, p.black_kings,"
      " p.side, p.score, p.capture_pending, g.result, g.variant"
      " FROM games g JOIN positions p ON p.game_id = g.id"
      " WHERE " RUN_FILTER("g.run_id") " AND " VARIANT_FILTER " ORDER BY g.id, p.ply" },
    { "summary",
      "SELECT g.run_id, r.kind AS run_kind, r.status AS run_status, count(*) AS games,"
      " sum(g.result = 'white') AS white_wins, sum(g.result = 'draw') AS draws,"
      " sum(g.result = 'black') AS black_wins,"
      " sum(g.mars AND g.result = 'white') AS white_mars,"
      " sum(g.mars AND g.result = 'black') AS black_mars,"
      " sum(g.result = 'draw' AND g.reason IS 'repetition') AS draws_repetition,"
      " sum(g.result = 'draw' AND g.reason IS 'no-progress') AS draws_no_progress,"
      " sum(g.result = 'draw' AND g.reason IS 'one-each') AS draws_one_each,"
      " sum(g.result = 'draw' AND g.reason IS 'move-cap') AS draws_move_cap,"
      " sum(g.result = 'draw' AND coalesce(g.reason, '') NOT IN"
      "     ('repetition', 'no-progress', 'one-each', 'move-cap')) AS draws_other,"
      " min(g.plies) AS min_plies, max(g.plies) AS max_plies,"
      " sum(g.plies) AS plies_sum, sum(g.plies * g.plies) AS plies_sumsq, r.variant"
      " FROM games g JOIN runs r ON r.id = g.run_id"
      " WHERE " RUN_FILTER("g.run_id") " AND " FINISHED_FILTER " AND " VARIANT_FILTER
      " GROUP BY g.run_id ORDER BY g.run_id" },
    { "openings",
      "SELECT g.opening_id, o.fen AS opening_fen, o.source, count(*) AS games,"
      " sum(g.result = 'white') AS white_wins, sum(g.result = 'draw') AS draws,"
      " sum(g.result = 'black') AS black_wins,"
      " (sum(g.result = 'white') + 0.5 * sum(g.result = 'draw')) / count(*) AS white_score,"
      " avg(g.plies) AS mean_plies, min(g.variant) AS variant"
      " FROM games g JOIN runs r ON r.id = g.run_id LEFT JOIN openings o ON o.id = g.opening_id"
      " WHERE " RUN_FILTER("g.run_id") " AND " FINISHED_FILTER " AND " VARIANT_FILTER
      " GROUP BY g.opening_id ORDER BY g.opening_id" },
    { "calibration",
      "SELECT p.side, p.score, g.result FROM games g JOIN runs r ON r.id = g.run_id"
      " JOIN positions p ON p.game_id = g.id"
      " WHERE p.score IS NOT NULL AND " RUN_FILTER("g.run_id") " AND " FINISHED_FILTER
      " AND " VARIANT_FILTER },
    { "tuning",
      "SELECT e.tune_run_id, t.run_id, e.epoch, e.train_loss, e.validation_loss, t.k,"
      " t.positions, t.parent_weights_id, t.result_weights_id, w.generation AS result_generation"
      " FROM tune_epochs e JOIN tune_runs t ON t.id = e.tune_run_id"
      " LEFT JOIN weights w ON w.id = t.result_weights_id"
      " WHERE " RUN_FILTER("t.run_id") " AND coalesce(" RUN_VARIANT("t.run_id") ", w.variant) IS ?3"
      " ORDER BY e.tune_run_id, e.epoch" },
    { "tune_runs",
      "SELECT t.id AS tune_run_id, t.run_id, t.parent_weights_id, pw.generation AS parent_generation,"
      " t.result_weights_id, w.generation AS result_generation, t.k, t.train_loss,"
      " t.validation_loss, t.positions, t.epochs, t.created_at"
      " FROM tune_runs t LEFT JOIN weights pw ON pw.id = t.parent_weights_id"
      " LEFT JOIN weights w ON w.id = t.result_weights_id"
      " WHERE " RUN_FILTER("t.run_id") " AND coalesce(" RUN_VARIANT("t.run_id") ", w.variant, pw.variant)"
      " IS ?3 ORDER BY t.id" },
    { "matches",
      "SELECT m.id AS match_id, m.run_id, m.weights_a AS a_weights_id, wa.generation AS a_generation,"
      " m.weights_b AS b_weights_id, wb.generation AS b_generation, m.games, m.wins AS a_wins,"
      " m.draws, m.losses AS b_wins, (m.wins + 0.5 * m.draws) / NULLIF(m.games, 0) AS a_score,"
      " m.elo, m.elo_low, m.elo_high,"
      " m.llr, m.llr_low, m.llr_high, m.verdict, m.penta, m.created_at,"
      " d.generation AS train_generation, d.outcome AS decision"
      " FROM matches m LEFT JOIN weights wa ON wa.id = m.weights_a"
      " LEFT JOIN weights wb ON wb.id = m.weights_b"
      /* the training decision on this candidate (A) against this best (B), if any */
      " LEFT JOIN (SELECT candidate_weights_id, best_weights_id, max(generation) AS generation, outcome"
      "   FROM train_steps WHERE step = 'decision' GROUP BY candidate_weights_id, best_weights_id) d"
      "   ON d.candidate_weights_id = m.weights_a AND d.best_weights_id = m.weights_b"
      " WHERE " RUN_FILTER("m.run_id") " AND coalesce(" RUN_VARIANT("m.run_id") ", wa.variant) IS ?3"
      " ORDER BY m.id" },
    { "weights",
      "SELECT id AS weights_id, variant, generation, parent_id AS parent_weights_id, note, created_at, hash,"
      " CASE WHEN blob IS NULL THEN 'linear' ELSE 'pattern' END AS eval, text FROM weights"
      " WHERE variant = ?3 AND (?1 = 0 OR id IN (SELECT weights_id FROM runs WHERE id = ?1"
      "   UNION SELECT white_weights_id FROM games WHERE run_id = ?1"
      "   UNION SELECT black_weights_id FROM games WHERE run_id = ?1"
      "   UNION SELECT weights_a FROM matches WHERE run_id = ?1"
      "   UNION SELECT weights_b FROM matches WHERE run_id = ?1"
      "   UNION SELECT result_weights_id FROM tune_runs WHERE run_id = ?1))"
      " ORDER BY id" },
    { "analyses",
      "SELECT id AS analysis_id, run_id, item_id, fen, best_move, score, depth, nodes, time_ms, pv,"
      " created_at"
      " FROM analyses WHERE " RUN_FILTER("run_id") " AND " RUN_VARIANT("run_id") " IS ?3 ORDER BY id" },
};

#define NQUERIES ((int)(sizeof export_queries / sizeof export_queries[0]))
#define MAX_EXPORT_COLUMNS 32

bool store_walk_rows(Store *s, sqlite3_stmt *st, const char *name, StoreHeaderFn header,
                     StoreRowFn row, void *ctx)
{
    int n = sqlite3_column_count(st);
    if (n > MAX_EXPORT_COLUMNS)
        return store_fail(s, "export %s: too many columns", name);
    const char *names[MAX_EXPORT_COLUMNS];
    for (int i = 0; i < n; i++)
        names[i] = sqlite3_column_name(st, i);
    if (header && header(ctx, n, names))
        return true;
    StoreCell cells[MAX_EXPORT_COLUMNS];
    int rc;
    while ((rc = store_step(s, st)) == SQLITE_ROW) {
        for (int i = 0; i < n; i++) {
            StoreCell *c = &cells[i];
            switch (sqlite3_column_type(st, i)) {
            case SQLITE_INTEGER:
                c->type = STORE_CELL_INT;
                c->i = sqlite3_column_int64(st, i);
                break;
            case SQLITE_FLOAT:
                c->type = STORE_CELL_REAL;
                c->r = sqlite3_column_double(st, i);
                break;
            case SQLITE_NULL:
                c->type = STORE_CELL_NULL;
                break;
            default: /* text; a blob is read as its bytes */
                c->type = STORE_CELL_TEXT;
                c->text = (const char *)sqlite3_column_text(st, i);
                c->len = sqlite3_column_bytes(st, i);
                if (!c->text) {
                    c->text = "";
                    c->len = 0;
                }
                break;
            }
        }
        if (row && row(ctx, n, cells))
            return true;
    }
    return rc == SQLITE_DONE || store_fail_db(s, name);
}

/* Before a read transaction starts: a failed bind fails the query at once. */
static bool store_bind_ok(Store *s, const char *what)
{
    return s->bind_rc == SQLITE_OK || store_fail_db(s, what);
}

static const struct ExportQuery *find_query(const char *name)
{
    for (int i = 0; name && i < NQUERIES; i++)
        if (strcmp(export_queries[i].name, name) == 0)
            return &export_queries[i];
    return NULL;
}

/* Long reads go through a memory map of the file (no copy of each page into SQLite's
 * cache): about a quarter of the time of a positions export.  A connection setting;
 * harmless for the writes of the same Store. */
static void map_for_reading(Store *s)
{
    sqlite3_exec(s->db, "PRAGMA mmap_size = 1073741824", NULL, NULL, NULL);
}

bool store_export_rows(Store *s, const char *query, const char *variant, int64_t run_id,
                       StoreHeaderFn header, StoreRowFn row, void *ctx)
{
    return store_export_rows_ex(s, query, variant, run_id, false, header, row, ctx);
}

bool store_export_rows_ex(Store *s, const char *query, const char *variant, int64_t run_id,
                          bool include_unfinished, StoreHeaderFn header, StoreRowFn row, void *ctx)
{
    if (!store_ready(s))
        return false;
    if (!store_variant_given(s, variant, "store_export_rows"))
        return false;
    if (!query)
        return store_fail(s, "store_export_rows: no query");
    const struct ExportQuery *q = find_query(query);
    if (!q)
        return store_fail(s, "store_export_rows: unknown query '%s'", query);
    map_for_reading(s);
    sqlite3_stmt *st = store_prepare(s, q->sql, q->name);
    if (!st)
        return false;
    store_bind_int(s, st, 1, run_id > 0 ? run_id : 0);
    if (sqlite3_bind_parameter_count(st) >= 2)  /* ?3 is in every query, so ?2 is bindable */
        store_bind_int(s, st, 2, include_unfinished ? 1 : 0);
    store_bind_text(s, st, 3, variant);
    bool ok = store_bind_ok(s, q->name) && store_read_begin(s);
    if (ok) {
        ok = store_walk_rows(s, st, q->name, header, row, ctx);
        sqlite3_reset(st);
        store_read_end(s);
    }
    sqlite3_finalize(st);
    return ok;
}

/* enum Result of a stored result ('unfinished': RESULT_NONE); -1 for anything else. */
static int result_code(const unsigned char *text)
{
    if (!text)
        return -1;
    switch (text[0]) {
    case 'w': return RESULT_WHITE_WINS;
    case 'b': return RESULT_BLACK_WINS;
    case 'd': return RESULT_DRAW;
    case 'u': return RESULT_NONE;
    default: return -1;
    }
}

bool store_export_positions(Store *s, const char *variant, int64_t run_id, StorePositionRowFn cb,
                            void *ctx)
{
    if (!store_ready(s))
        return false;
    if (!store_variant_given(s, variant, "store_export_positions"))
        return false;
    if (!cb)
        return store_fail(s, "store_export_positions: no callback");
    map_for_reading(s);
    sqlite3_stmt *st = store_prepare(s, find_query("positions")->sql, "positions");
    if (!st)
        return false;
    store_bind_int(s, st, 1, run_id > 0 ? run_id : 0);
    store_bind_text(s, st, 3, variant);
    bool ok = store_bind_ok(s, "positions") && store_read_begin(s);
    if (ok) {
        int rc;
        StorePositionRow r;
        while ((rc = store_step(s, st)) == SQLITE_ROW) {
            r.game_id = sqlite3_column_int64(st, 0);
            r.ply = sqlite3_column_int(st, 1);
            r.pos.men[WHITE] = store_i2u(sqlite3_column_int64(st, 2));
            r.pos.kings[WHITE] = store_i2u(sqlite3_column_int64(st, 3));
            r.pos.men[BLACK] = store_i2u(sqlite3_column_int64(st, 4));
            r.pos.kings[BLACK] = store_i2u(sqlite3_column_int64(st, 5));
            r.pos.side = sqlite3_column_int(st, 6);
            r.has_score = sqlite3_column_type(st, 7) != SQLITE_NULL;
            r.score = r.has_score ? sqlite3_column_int(st, 7) : 0;
            r.capture_pending = sqlite3_column_int(st, 8) != 0;
            r.result = result_code(sqlite3_column_text(st, 9));
            if (r.result < 0) {
                ok = store_fail(s, "game %lld: unknown result", (long long)r.game_id);
                break;
            }
            if (cb(ctx, &r))
                break;
        }
        if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE)
            ok = store_fail_db(s, "positions");
        sqlite3_reset(st);
        store_read_end(s);
    }
    sqlite3_finalize(st);
    return ok;
}

int store_has_id(Store *s, const char *table, int64_t id)
{
    if (!store_ready(s))
        return -1;
    const char *sql = NULL;
    if (table && strcmp(table, "runs") == 0)
        sql = "SELECT 1 FROM runs WHERE id = ?1";
    else if (table && strcmp(table, "games") == 0)
        sql = "SELECT 1 FROM games WHERE id = ?1";
    else if (table && strcmp(table, "weights") == 0)
        sql = "SELECT 1 FROM weights WHERE id = ?1";
    else
        return store_fail(s, "store_has_id: unknown table '%s'", table ? table : "(null)"), -1;
    sqlite3_stmt *st = store_prepare(s, sql, "store_has_id");
    if (!st)
        return -1;
    store_bind_int(s, st, 1, id);
    int rc = store_step(s, st);
    int found = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    if (found < 0)
        store_fail_db(s, "store_has_id");
    sqlite3_finalize(st);
    return found;
}

static bool insert_analyses(Store *s, int64_t run_id, const AnalysisRecord *rows, int n)
{
    sqlite3_stmt *st = store_prepare(s, "INSERT INTO analyses (run_id, item_id, fen, best_move, score,"
                                  " depth, nodes, time_ms, pv) VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
                                  " ?7, ?8, ?9)", "store_analyses_put");
    if (!st)
        return false;
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        const AnalysisRecord *r = &rows[i];
        if (!r->fen) {
            ok = store_fail(s, "store_analyses_put: row %d has no FEN", i);
            break;
        }
        store_bind_int(s, st, 1, run_id);
        store_bind_text(s, st, 2, r->item_id);
        store_bind_text(s, st, 3, r->fen);
        store_bind_text(s, st, 4, r->best_move);
        store_bind_int(s, st, 5, r->score);
        store_bind_int(s, st, 6, r->depth);
        store_bind_int(s, st, 7, r->nodes);
        store_bind_int(s, st, 8, r->time_ms);
        store_bind_text(s, st, 9, r->pv);
        if (store_step(s, st) != SQLITE_DONE)
            ok = store_fail_db(s, "store_analyses_put");
        store_done(st);
    }
    sqlite3_finalize(st);
    return ok;
}

int64_t store_analyses_put(Store *s, const char *variant, const char *params,
                           const char *engine_version, const char *bench_signature,
                           int64_t weights_id, int64_t started_at, const AnalysisRecord *rows, int n)
{
    if (!store_ready(s))
        return -1;
    if (!store_variant_given(s, variant, "store_analyses_put"))
        return -1;
    if (n < 0 || (n > 0 && !rows))
        return store_fail(s, "store_analyses_put: bad arguments"), -1;
    if (!store_begin_write(s))
        return -1;
    int64_t run_id = -1;
    sqlite3_stmt *st = store_prepare(s, "INSERT INTO runs (kind, params, engine_version, bench_signature,"
                                  " weights_id, started_at, ended_at, status, variant) VALUES ('analysis',"
                                  " ?1, ?2, ?3, ?4, ?5, " STORE_NOW ", 'done', ?6)", "store_analyses_put run");
    if (st) {
        store_bind_text(s, st, 1, params);
        store_bind_text(s, st, 2, engine_version);
        store_bind_text(s, st, 3, bench_signature);
        store_bind_id(s, st, 4, weights_id);
        store_bind_int(s, st, 5, started_at);
        store_bind_text(s, st, 6, variant);
        if (store_step(s, st) == SQLITE_DONE)
            run_id = sqlite3_last_insert_rowid(s->db);
        else
            store_fail_db(s, "store_analyses_put run");
        sqlite3_finalize(st);
    }
    if (run_id > 0 && insert_analyses(s, run_id, rows, n) && store_commit(s))
        return run_id;
    store_rollback(s);
    return -1;
}
