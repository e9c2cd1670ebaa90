/* A match's standing from its file, through the export's named queries (runs, games,
 * matches): one read snapshot each, the columns found by name. */
#include "match_standing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "variant.h"

/* The columns a walk wants, found in the query's header by name (-1: absent). */
enum { COLUMNS_MAX = 6 };
typedef struct Columns {
    const char *name[COLUMNS_MAX];
    int at[COLUMNS_MAX];
    int n;
} Columns;

static int find_columns(void *ctx, int ncols, const char *const *names)
{
    Columns *c = ctx;
    for (int k = 0; k < c->n; k++) {
        c->at[k] = -1;
        for (int j = 0; j < ncols; j++)
            if (strcmp(names[j], c->name[k]) == 0)
                c->at[k] = j;
    }
    return 0;
}

static const StoreCell *cell(const Columns *c, int k, const StoreCell *cells)
{
    static const StoreCell null_cell = { .type = STORE_CELL_NULL };
    return c->at[k] >= 0 ? &cells[c->at[k]] : &null_cell;
}

static bool cell_is(const StoreCell *c, const char *text)
{
    return c->type == STORE_CELL_TEXT && strcmp(c->text, text) == 0;
}

/* The games=N word of a run's params (the first word, as run_settings_describe writes it;
 * looked for anywhere, after a space). */
static int64_t planned_games(const char *params)
{
    for (const char *p = params; p && (p = strstr(p, "games=")); p++)
        if (p == params || p[-1] == ' ')
            return strtoll(p + 6, NULL, 10);
    return 0;
}

/* ---- The match runs of the file ---- */

typedef struct RunList {
    Columns cols; /* run_id, kind, status, params */
    const Variant *variant;
    int64_t only;
    MatchStanding *runs;
    size_t n, cap;
    bool failed;
} RunList;

static int add_run(void *ctx, int ncols, const StoreCell *cells)
{
    (void)ncols;
    RunList *l = ctx;
    const StoreCell *id = cell(&l->cols, 0, cells), *status = cell(&l->cols, 2, cells);
    if (!cell_is(cell(&l->cols, 1, cells), "match") || id->type != STORE_CELL_INT
        || (l->only > 0 && id->i != l->only))
        return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        MatchStanding *r = realloc(l->runs, cap * sizeof *r);
        if (!r) {
            l->failed = true;
            return 1;
        }
        l->runs = r;
        l->cap = cap;
    }
    MatchStanding *m = &l->runs[l->n++];
    *m = (MatchStanding){ .run_id = id->i };
    snprintf(m->variant, sizeof m->variant, "%s", l->variant->name);
    snprintf(m->status, sizeof m->status, "%s", status->type == STORE_CELL_TEXT ? status->text : "?");
    const StoreCell *params = cell(&l->cols, 3, cells);
    m->planned = params->type == STORE_CELL_TEXT ? planned_games(params->text) : 0;
    return 0;
}

static int by_run_id(const void *a, const void *b)
{
    int64_t x = ((const MatchStanding *)a)->run_id, y = ((const MatchStanding *)b)->run_id;
    return (x > y) - (x < y);
}

/* ---- One run's games: A's points by game index, then the whole pairs ---- */

typedef struct GamePoints {
    int64_t index;
    double a_points;
} GamePoints;

typedef struct GameScores {
    Columns cols;      /* game_index, result */
    GamePoints *games; /* the finished games with an index, as stored */
    size_t n, cap;
    int64_t stored;
    bool failed;
} GameScores;

static int add_game(void *ctx, int ncols, const StoreCell *cells)
{
    (void)ncols;
    GameScores *g = ctx;
    const StoreCell *index = cell(&g->cols, 0, cells), *result = cell(&g->cols, 1, cells);
    g->stored++;
    double white = cell_is(result, "white") ? 1.0 : cell_is(result, "black") ? 0.0
                 : cell_is(result, "draw") ? 0.5 : -1.0;
    if (index->type != STORE_CELL_INT || index->i < 0 || white < 0)
        return 0; /* a match's games carry their index and a result */
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 64;
        GamePoints *p = realloc(g->games, cap * sizeof *p);
        if (!p) {
            g->failed = true;
            return 1;
        }
        g->games = p;
        g->cap = cap;
    }
    /* the runner's rule: A has White in a pair's first game */
    g->games[g->n++] = (GamePoints){ index->i, index->i % 2 == 0 ? white : 1.0 - white };
    return 0;
}

static int by_index(const void *a, const void *b)
{
    int64_t x = ((const GamePoints *)a)->index, y = ((const GamePoints *)b)->index;
    return (x > y) - (x < y);
}

static bool count_pairs(Store *store, MatchStanding *m)
{
    GameScores g = { .cols = { { "game_index", "result" }, { -1, -1 }, 2 } };
    if (!store_export_rows(store, "games", m->variant, m->run_id, find_columns, add_game, &g) || g.failed) {
        free(g.games);
        return false;
    }
    m->stored = g.stored;
    if (g.n) /* qsort's array may not be NULL, even empty */
        qsort(g.games, g.n, sizeof *g.games, by_index);
    for (size_t k = 0; k + 1 < g.n; k++) {
        const GamePoints *first = &g.games[k], *second = &g.games[k + 1];
        if (first->index % 2 != 0 || second->index != first->index + 1)
            continue; /* a pair's lone game */
        m->penta[(int)(2 * (first->a_points + second->a_points) + 0.5)]++;
        for (int j = 0; j < 2; j++) {
            double p = (j ? second : first)->a_points;
            m->wins += p == 1.0;
            m->draws += p == 0.5;
            m->losses += p == 0.0;
        }
        k++;
    }
    m->games = m->wins + m->draws + m->losses;
    free(g.games);
    return true;
}

/* ---- The row a match writes at its end ---- */

typedef struct MatchRow {
    Columns cols; /* games, a_wins, draws, b_wins, penta */
    MatchStanding *m;
} MatchRow;

static int take_row(void *ctx, int ncols, const StoreCell *cells)
{
    (void)ncols;
    MatchRow *r = ctx;
    const StoreCell *penta = cell(&r->cols, 4, cells);
    long long p[PENTA_N];
    if (penta->type != STORE_CELL_TEXT
        || sscanf(penta->text, "%lld,%lld,%lld,%lld,%lld", &p[0], &p[1], &p[2], &p[3], &p[4]) != PENTA_N)
        return 0;
    MatchStanding *m = r->m;
    for (int k = 0; k < PENTA_N; k++)
        m->penta[k] = p[k];
    m->games = cell(&r->cols, 0, cells)->i;
    m->wins = cell(&r->cols, 1, cells)->i;
    m->draws = cell(&r->cols, 2, cells)->i;
    m->losses = cell(&r->cols, 3, cells)->i;
    m->final = true;
    return 0;
}

int match_standings(Store *store, int64_t run_id, MatchStandingFn fn, void *ctx)
{
    RunList l = { .cols = { { "run_id", "kind", "status", "params" }, { -1, -1, -1, -1 }, 4 },
                  .only = run_id };
    for (int v = 0; variant_at(v); v++) {
        l.variant = variant_at(v);
        if (!store_export_rows(store, "runs", l.variant->name, run_id, find_columns, add_run, &l) || l.failed) {
            free(l.runs);
            return -1;
        }
    }
    if (l.n)
        qsort(l.runs, l.n, sizeof *l.runs, by_run_id);
    int reported = 0;
    for (size_t i = 0; i < l.n; i++) {
        MatchStanding *m = &l.runs[i];
        MatchRow row = { .cols = { { "games", "a_wins", "draws", "b_wins", "penta" }, { -1, -1, -1, -1, -1 }, 5 },
                         .m = m };
        /* the games' pairs, then the row in their place when the match wrote one */
        if (!count_pairs(store, m)
            || !store_export_rows(store, "matches", m->variant, m->run_id, find_columns, take_row, &row)) {
            reported = -1;
            break;
        }
        reported++;
        if (fn(ctx, m))
            break;
    }
    free(l.runs);
    return reported;
}
