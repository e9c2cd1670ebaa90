/* Games people played (dama play, dama serve): each finished game with its run in one
 * transaction, so the file never holds half a game or an empty run. */
#include <stdio.h>
#include <string.h>

#include "store_internal.h"

#define PLAY_KIND "play"

/* A new run of kind 'play', done at once: it holds finished games only. */
static int64_t play_run_insert(Store *s, const char *variant, const PlayRunInfo *info)
{
    sqlite3_stmt *st = store_prepare(s, "INSERT INTO runs (kind, params, engine_version, bench_signature,"
                                        " weights_id, ended_at, status, variant) VALUES ('" PLAY_KIND "', ?1,"
                                        " ?2, ?3, ?4, " STORE_NOW ", 'done', ?5)", "store_play_game_put run");
    if (!st)
        return -1;
    store_bind_text(s, st, 1, info->params);
    store_bind_text(s, st, 2, info->engine_version);
    store_bind_text(s, st, 3, info->bench_signature);
    store_bind_id(s, st, 4, info->weights_id);
    store_bind_text(s, st, 5, variant);
    int64_t id = -1;
    if (store_step(s, st) == SQLITE_DONE)
        id = sqlite3_last_insert_rowid(s->db);
    else
        store_fail_db(s, "store_play_game_put run");
    sqlite3_finalize(st);
    return id;
}

/* The run a game joins must be a 'play' run of its variant. */
static bool play_run_fits(Store *s, int64_t run_id, const char *variant)
{
    sqlite3_stmt *st = store_prepare(s, "SELECT kind, variant FROM runs WHERE id = ?1",
                                     "store_play_game_put run");
    if (!st)
        return false;
    store_bind_int(s, st, 1, run_id);
    int rc = store_step(s, st);
    bool ok = false;
    if (rc == SQLITE_ROW) {
        const char *kind = (const char *)sqlite3_column_text(st, 0);
        const char *stored = (const char *)sqlite3_column_text(st, 1);
        if (!kind || strcmp(kind, PLAY_KIND) != 0)
            store_fail(s, "store_play_game_put: run %lld is a %s run, not a play run", (long long)run_id,
                       kind ? kind : "(none)");
        else if (!stored || strcmp(stored, variant) != 0)
            store_fail(s, "store_play_game_put: run %lld plays %s, not %s", (long long)run_id,
                       stored ? stored : "(none)", variant);
        else
            ok = true;
    } else if (rc == SQLITE_DONE) {
        store_fail(s, "store_play_game_put: no run %lld", (long long)run_id);
    } else {
        store_fail_db(s, "store_play_game_put run");
    }
    sqlite3_finalize(st);
    return ok;
}

static bool play_game_locked(Store *s, const PlayRunInfo *info, const char *opening_fen, const GameRecord *game,
                             int64_t *run_id, int64_t *game_id)
{
    if (*run_id > 0 ? !play_run_fits(s, *run_id, game->variant)
                    : (*run_id = play_run_insert(s, game->variant, info)) <= 0)
        return false;
    GameRecord rec = *game;
    rec.run_id = *run_id;
    if (opening_fen && (rec.opening_id = store_opening_find_or_insert(s, game->variant, opening_fen, PLAY_KIND)) < 0)
        return false;
    sqlite3_stmt *st = store_stmt(s, STMT_PDN_NEXT_INDEX); /* the run's next game index */
    store_bind_int(s, st, 1, rec.run_id);
    int rc = store_step(s, st);
    if (rc == SQLITE_ROW)
        rec.game_index = (int)sqlite3_column_int64(st, 0);
    store_done(st);
    if (rc != SQLITE_ROW)
        return store_fail_db(s, "numbering a played game");
    rec.has_index = true;
    return store_game_valid(s, &rec, 0, false) && store_game_insert(s, &rec, 0, game_id);
}

bool store_play_game_put(Store *s, const PlayRunInfo *info, const char *opening_fen, const GameRecord *game,
                         int64_t *run_id, int64_t *game_id)
{
    if (!store_ready(s))
        return false;
    if (!info || !game || !run_id)
        return store_fail(s, "store_play_game_put: bad arguments");
    if (!store_variant_given(s, game->variant, "store_play_game_put"))
        return false;
    int64_t run_before = *run_id;
    if (!store_begin_write(s))
        return false;
    if (play_game_locked(s, info, opening_fen, game, run_id, game_id)
        && store_commit(s))
        return true;
    store_rollback(s);
    *run_id = run_before; /* a run made in the transaction is gone with it */
    return false;
}
