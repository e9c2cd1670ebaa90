/* Reads for the web view (dama serve): the game list, runs, a run's details and the
 * training journal, as named queries streamed row by row like the export's.  Rare calls
 * on a read-only Store, so statements are prepared per call.
 *
 * Parameters (StoreCell: NULL, an integer or a text) and columns of each query:
 *   games        ?1 variant (NULL: all), ?2 run (0: all), ?3 result 'white'|'black'|'draw'
 *                (NULL: all), ?4 opening id (0: all), ?5 opening FEN (NULL: all), ?6 limit,
 *                ?7 offset.  id, run_id, variant, result, reason, plies, opening_fen,
 *                opening_id, run_kind; newest first
 *   games_total  ?1..?5 as games.  count
 *   runs         ?1 variant (NULL: all), ?2 run (0: all).  id, kind, variant, status,
 *                started_at, ended_at, games, generation, elo, elo_low, elo_high, promoted
 *                (NULL: no decision), params, train_run_id; newest first.  generation and
 *                train_run_id: the training step the run was (RUN_STEPS), elo: its
 *                match's last row
 *   run_lengths  ?1 run.  plies, games (the histogram of game lengths)
 *   run_loss     ?1 run.  tune_run_id, epoch, train_loss, validation_loss
 *   train_last   ?1 variant.  id, status of the newest train run
 *   generations  ?1 train run.  generation, elo, elo_low, elo_high, promoted, validation_loss,
 *                train_loss, selfplay_run, match_run, candidate_weights_id, positions (the
 *                candidate's fit's data size), fit_seconds (its tune run's wall time)
 *   train_child  ?1 train run.  id, kind, params, games of the newest run a step of it
 *                started (its params name train_run=ID), finished or not
 *   game_analysis ?1 item prefix 'gameG:ply'.  run_id, item_id, fen, score, pv of the
 *                analyses whose item is a position gameG:plyP (dama annotate --game, dama
 *                analyze --game, or another file's game G), newest run first: a stored
 *                game's annotation */
#include <stdio.h>

#include "store_internal.h"

#define GAME_FILTER                                                                          \
    " FROM games g JOIN runs r ON r.id = g.run_id LEFT JOIN openings o ON o.id = g.opening_id" \
    " WHERE (?1 IS NULL OR g.variant = ?1) AND (?2 = 0 OR g.run_id = ?2)"                     \
    " AND (?3 IS NULL OR g.result = ?3) AND (?4 = 0 OR g.opening_id = ?4)"                   \
    " AND (?5 IS NULL OR o.fen = ?5)"

/* The training step each run was: a game-playing step's journal row names its run in
 * ref_id, a tune step's names the weights its tune run produced. */
#define RUN_STEPS                                                                            \
    "(SELECT run_id, min(train_run_id) AS train_run_id, min(generation) AS generation FROM ("  \
    " SELECT ref_id AS run_id, train_run_id, generation FROM train_steps"                    \
    "  WHERE step IN ('selfplay', 'match')"                                                  \
    " UNION ALL SELECT t.run_id, s.train_run_id, s.generation FROM train_steps s"            \
    "  JOIN tune_runs t ON t.result_weights_id = s.ref_id WHERE s.step = 'tune')"            \
    " GROUP BY run_id)"

static const struct BrowseQuery {
    const char *name;
    int nparams;
    const char *sql;
} browse_queries[] = {
    { "games", 7,
      "SELECT g.id, g.run_id, g.variant, g.result, g.reason, g.plies, o.fen AS opening_fen,"
      " g.opening_id, r.kind AS run_kind" GAME_FILTER " ORDER BY g.id DESC LIMIT ?6 OFFSET ?7" },
    { "games_total", 5, "SELECT count(*)" GAME_FILTER },
    { "runs", 2,
      "SELECT r.id, r.kind, r.variant, r.status, r.started_at, r.ended_at,"
      " (SELECT count(*) FROM games WHERE run_id = r.id) AS games, st.generation,"
      " m.elo, m.elo_low, m.elo_high, d.outcome = 'promoted' AS promoted, r.params,"
      " st.train_run_id"
      " FROM runs r LEFT JOIN " RUN_STEPS " st ON st.run_id = r.id"
      " LEFT JOIN train_steps d ON d.train_run_id = st.train_run_id"
      "   AND d.generation = st.generation AND d.step = 'decision'"
      " LEFT JOIN matches m ON m.id = (SELECT max(id) FROM matches WHERE run_id = r.id)"
      " WHERE (?1 IS NULL OR r.variant = ?1) AND (?2 = 0 OR r.id = ?2) ORDER BY r.id DESC" },
    { "run_lengths", 1,
      "SELECT plies, count(*) AS games FROM games WHERE run_id = ?1 GROUP BY plies ORDER BY plies" },
    { "run_loss", 1,
      "SELECT t.id AS tune_run_id, e.epoch, e.train_loss, e.validation_loss"
      " FROM tune_runs t JOIN tune_epochs e ON e.tune_run_id = t.id WHERE t.run_id = ?1"
      " ORDER BY t.id, e.epoch" },
    { "train_last", 1,
      "SELECT id, status FROM runs WHERE kind = 'train' AND variant = ?1 ORDER BY id DESC LIMIT 1" },
    { "generations", 1,
      "SELECT g.generation, m.elo, m.elo_low, m.elo_high,"
      " (SELECT outcome = 'promoted' FROM train_steps WHERE train_run_id = ?1"
      "   AND generation = g.generation AND step = 'decision') AS promoted,"
      " t.validation_loss, t.train_loss,"
      " (SELECT ref_id FROM train_steps WHERE train_run_id = ?1 AND generation = g.generation"
      "   AND step = 'selfplay') AS selfplay_run,"
      " ms.ref_id AS match_run, tu.ref_id AS candidate_weights_id,"
      " t.positions, (SELECT ended_at - started_at FROM runs WHERE id = t.run_id) AS fit_seconds"
      " FROM (SELECT DISTINCT generation FROM train_steps WHERE train_run_id = ?1) g"
      " LEFT JOIN train_steps ms ON ms.train_run_id = ?1 AND ms.generation = g.generation"
      "   AND ms.step = 'match'"
      " LEFT JOIN matches m ON m.id = (SELECT max(id) FROM matches WHERE run_id = ms.ref_id)"
      " LEFT JOIN train_steps tu ON tu.train_run_id = ?1 AND tu.generation = g.generation"
      "   AND tu.step = 'tune'"
      " LEFT JOIN tune_runs t ON t.id = (SELECT max(id) FROM tune_runs"
      "   WHERE result_weights_id = tu.ref_id)"
      " ORDER BY g.generation" },
    { "train_child", 1,
      "SELECT r.id, r.kind, r.params, (SELECT count(*) FROM games WHERE run_id = r.id) AS games"
      " FROM runs r WHERE r.id > ?1 AND (r.params LIKE '% train_run=' || ?1 || ' %'"
      "   OR r.params LIKE '% train_run=' || ?1)"
      " ORDER BY r.id DESC LIMIT 1" },
    { "game_analysis", 1,
      "SELECT run_id, item_id, fen, score, pv FROM analyses WHERE item_id LIKE ?1 || '%'"
      " ORDER BY run_id DESC, id" },
};

#define NBROWSE ((int)(sizeof browse_queries / sizeof browse_queries[0]))

static void bind_param(Store *s, sqlite3_stmt *st, int col, const StoreCell *p)
{
    switch (p->type) {
    case STORE_CELL_INT: store_bind_int(s, st, col, p->i); break;
    case STORE_CELL_REAL: store_bind_real(s, st, col, p->r); break;
    case STORE_CELL_TEXT: store_bind_text(s, st, col, p->text); break;
    default: store_bind_null(s, st, col); break;
    }
}

bool store_browse_rows(Store *s, const char *query, const StoreCell *params, int nparams,
                       StoreRowFn row, void *ctx)
{
    if (!store_ready(s))
        return false;
    const struct BrowseQuery *q = NULL;
    for (int i = 0; query && i < NBROWSE; i++)
        if (strcmp(browse_queries[i].name, query) == 0)
            q = &browse_queries[i];
    if (!q)
        return store_fail(s, "store_browse_rows: unknown query '%s'", query ? query : "(null)");
    if (nparams != q->nparams || (nparams > 0 && !params))
        return store_fail(s, "store_browse_rows %s: %d parameters, not %d", q->name, q->nparams,
                          nparams);
    sqlite3_stmt *st = store_prepare(s, q->sql, q->name);
    if (!st)
        return false;
    for (int i = 0; i < nparams; i++)
        bind_param(s, st, i + 1, &params[i]);
    bool ok = (s->bind_rc == SQLITE_OK || store_fail_db(s, q->name)) && store_read_begin(s);
    if (ok) {
        ok = store_walk_rows(s, st, q->name, NULL, row, ctx);
        sqlite3_reset(st);
        store_read_end(s);
    }
    sqlite3_finalize(st);
    return ok;
}
