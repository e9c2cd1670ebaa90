/* The search's probe hook and the adjudication of a game by the databases (egdb_search.h). */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "egdb_search.h"
#include "position.h"
#include "variant.h"

_Static_assert((int)SEARCH_PROBE_WIN == (int)EGDB_WIN && (int)SEARCH_PROBE_DRAW == (int)EGDB_DRAW
               && (int)SEARCH_PROBE_LOSS == (int)EGDB_LOSS && (int)SEARCH_PROBE_UNKNOWN == EGDB_UNKNOWN,
               "the search's probe values are the database's");

static int probe_for_search(void *ctx, const Position *pos) { return egdb_probe(ctx, pos); }

bool egdb_search_attach(Searcher *s, Egdb *db)
{
    s->egdb = (SearchProbe){ 0 };
    if (!db || egdb_variant(db) != s->variant)
        return false;
    char rules[128];
    s->variant->rules_describe(&s->rules, rules, sizeof rules);
    if (strcmp(rules, egdb_rules_text(db)) != 0)
        return false;
    s->egdb = (SearchProbe){ probe_for_search, db, egdb_max_pieces(db) };
    return true;
}

int egdb_adjudicate(Egdb *db, const Game *game)
{
    const Position *pos = &game->pos;
    if (!db || popcount(position_occupied(pos)) > egdb_max_pieces(db))
        return RESULT_NONE;
    int value = egdb_probe(db, pos);
    if (value == EGDB_DRAW)
        return RESULT_DRAW;
    if (value != EGDB_WIN && value != EGDB_LOSS)
        return RESULT_NONE;
    DrawCounts doubled = { 2 * game->since_capture, 0, 2 * game->endgame_plies };
    if (game_end(game->variant, pos, &game->rules, true, doubled).result != RESULT_NONE)
        return RESULT_NONE; /* the counters may still draw it: play on */
    int winner = value == EGDB_WIN ? pos->side : !pos->side;
    return winner == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
}

Egdb *egdb_open_checked(const char *dir, const Variant *v, const Rules *rules)
{
    Egdb *db = egdb_open(v, rules, dir);
    if (!db) {
        fprintf(stderr, "dama: endgame database %s: out of memory; not used\n", dir);
        return NULL;
    }
    if (egdb_max_pieces(db) == 0) {
        fprintf(stderr, "dama: endgame database %s: no %s database files there ('dama egdb build "
                "--variant %s --dir %s' makes them); not used\n", dir, v->name, v->name, dir);
        egdb_close(db);
        return NULL;
    }
    return db;
}

void egdb_open_each(const char *dir, Egdb **by_variant, int n)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        by_variant[i] = NULL;
        const Variant *v = variant_at(i);
        if (!v)
            continue;
        Rules rules = rules_default(v);
        Egdb *db = egdb_open(v, &rules, dir);
        if (db && egdb_max_pieces(db) > 0) {
            by_variant[i] = db;
            found++;
        } else {
            egdb_close(db);
        }
    }
    if (!found)
        fprintf(stderr, "dama: endgame database %s: no database files there ('dama egdb build' makes "
                "them); not used\n", dir);
}
