/* The opening explorer's query: what followed a position in the stored games (store.h). */
#include "game.h"
#include "store_internal.h"

#define NEXT_SQL                                                                                \
    "SELECT p.game_id, n.white_men, n.white_kings, n.black_men, n.black_kings, n.side, n.score," \
    " g.result FROM positions p"                                                                 \
    " JOIN positions n ON n.game_id = p.game_id AND n.ply = p.ply + 1"                           \
    " JOIN games g ON g.id = p.game_id"                                                          \
    " WHERE g.variant = ?1 AND p.white_men = ?2 AND p.white_kings = ?3 AND p.black_men = ?4"     \
    " AND p.black_kings = ?5 AND p.side = ?6 AND g.result <> 'unfinished'"                       \
    " ORDER BY p.game_id, p.ply"

bool store_next_positions(Store *s, const char *variant, const Position *pos, StoreNextFn cb, void *ctx)
{
    if (!store_ready(s)) return false;
    if (!store_variant_given(s, variant, "store_next_positions")) return false;
    if (!pos || !cb) return store_fail(s, "store_next_positions: bad arguments");
    if (!store_read_begin(s)) return false;
    sqlite3_stmt *st = store_prepare(s, NEXT_SQL, "store_next_positions");
    bool ok = st != NULL;
    if (ok) {
        store_bind_text(s, st, 1, variant);
        store_bind_int(s, st, 2, store_u2i(pos->men[WHITE]));
        store_bind_int(s, st, 3, store_u2i(pos->kings[WHITE]));
        store_bind_int(s, st, 4, store_u2i(pos->men[BLACK]));
        store_bind_int(s, st, 5, store_u2i(pos->kings[BLACK]));
        store_bind_int(s, st, 6, pos->side);
        int rc;
        while ((rc = store_step(s, st)) == SQLITE_ROW) {
            Position next;
            store_column_position(st, 1, &next);
            bool has_score = sqlite3_column_type(st, 6) != SQLITE_NULL;
            int result = store_result_from_text(sqlite3_column_text(st, 7));
            if (result < 0 || result == RESULT_NONE) { /* the statement leaves unfinished games out */
                ok = store_fail(s, "game %lld: unknown result", (long long)sqlite3_column_int64(st, 0));
                break;
            }
            if (cb(ctx, sqlite3_column_int64(st, 0), &next, has_score ? sqlite3_column_int(st, 6) : 0, has_score,
                   result))
                break;
        }
        if (ok && rc != SQLITE_ROW && rc != SQLITE_DONE)
            ok = store_fail_db(s, "store_next_positions");
        sqlite3_finalize(st);
    }
    store_read_end(s);
    return ok;
}
