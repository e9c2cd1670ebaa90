/* The database views: stored games, runs and the training journal.  Every request opens
 * the file read-only through the store (WAL: a running `dama train` is never blocked, and
 * each answer sees the file as it is now). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate_input.h"
#include "api_json.h"
#include "notation.h"
#include "position.h"
#include "server.h"
#include "store.h"
#include "variant.h"

#define GAMES_LIMIT_DEFAULT 50
#define GAMES_LIMIT_MAX 1000

static Store *db_open(const Server *srv, HttpReply *reply)
{
    char err[512];
    Store *s = store_open_readonly(srv->db_path, err, sizeof err);
    if (!s)
        reply_error(reply, 500, "%s", err);
    return s;
}

static void db_failed(Store *s, HttpReply *reply)
{
    reply_error(reply, 500, "database: %s", store_error(s));
}

/* The API's name of a stored result ('white', 'black', 'draw', 'unfinished': an imported
 * game without a result). */
static const char *api_result(const char *stored)
{
    if (!stored)
        return NULL;
    if (strcmp(stored, "white") == 0)
        return "white-wins";
    if (strcmp(stored, "black") == 0)
        return "black-wins";
    if (strcmp(stored, "none") == 0) /* result_name(RESULT_NONE) */
        return "unfinished";
    return stored;
}

/* ---- rows into objects ---- */

/* The API's field name of each column (NULL: left out); a "?" prefix makes an integer
 * column a boolean, a "!" prefix a stored result. */
typedef struct RowShape {
    const char *const *fields;
    int nfields;
    json_t *rows;   /* array the objects are appended to */
} RowShape;

static json_t *cell_json(const StoreCell *c, char kind)
{
    switch (c->type) {
    case STORE_CELL_INT: return kind == '?' ? json_boolean(c->i != 0) : json_integer(c->i);
    case STORE_CELL_REAL: return json_real(c->r);
    case STORE_CELL_TEXT: return json_string(kind == '!' ? api_result(c->text) : c->text);
    default: return json_null();
    }
}

static int shape_row(void *ctx, int ncols, const StoreCell *cells)
{
    RowShape *shape = ctx;
    json_t *o = json_object();
    for (int i = 0; i < ncols && i < shape->nfields; i++) {
        const char *f = shape->fields[i];
        if (!f)
            continue;
        char kind = (f[0] == '?' || f[0] == '!') ? f[0] : 0;
        json_t *v = cell_json(&cells[i], kind);
        json_object_set_new(o, kind ? f + 1 : f, v ? v : json_null());
    }
    json_array_append_new(shape->rows, o);
    return 0;
}

/* The rows of a browse query as an array of objects; NULL after a 500. */
static json_t *browse(Store *s, const char *query, const StoreCell *params, int nparams,
                      const char *const *fields, int nfields, HttpReply *reply)
{
    RowShape shape = { fields, nfields, json_array() };
    if (!store_browse_rows(s, query, params, nparams, shape_row, &shape)) {
        json_decref(shape.rows);
        db_failed(s, reply);
        return NULL;
    }
    return shape.rows;
}

#define FIELDS(a) a, (int)(sizeof a / sizeof a[0])

static StoreCell cell_int(int64_t i) { return (StoreCell){ .type = STORE_CELL_INT, .i = i }; }
static StoreCell cell_text(const char *t)
{
    return t ? (StoreCell){ .type = STORE_CELL_TEXT, .text = t } : (StoreCell){ .type = STORE_CELL_NULL };
}

/* A query parameter that is a whole number in min..max (absent: def); false after a 400. */
static bool query_int(const HttpRequest *req, const char *name, int64_t min, int64_t max,
                      int64_t def, int64_t *out, HttpReply *reply)
{
    const char *text = http_query(req, name);
    *out = def;
    if (!text || !text[0])
        return true;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end || v < min || v > max) {
        reply_error(reply, 400, "parameter %s must be a whole number from %lld to %lld", name,
                    (long long)min, (long long)max);
        return false;
    }
    *out = v;
    return true;
}

/* The variant filter of a query: absent or empty = every variant; false after a 400. */
static bool query_variant(const Server *srv, const HttpRequest *req, const char **out,
                          HttpReply *reply)
{
    const char *name = http_query(req, "variant");
    *out = NULL;
    if (!name || !name[0])
        return true;
    const Variant *v = request_variant(srv, name, reply);
    *out = v ? v->name : NULL;
    return v != NULL;
}

/* ---- /api/db/games ---- */

static const char *const game_fields[] = { "id", "run", "variant", "!result", "reason", "plies",
                                           "opening", "opening_id", "run_kind" };

void route_db_games(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    const char *variant, *result = http_query(req, "result"), *opening = http_query(req, "opening");
    int64_t run, limit, offset;
    if (!query_variant(srv, req, &variant, reply) ||
        !query_int(req, "run", 1, INT64_MAX, 0, &run, reply) ||
        !query_int(req, "limit", 1, GAMES_LIMIT_MAX, GAMES_LIMIT_DEFAULT, &limit, reply) ||
        !query_int(req, "offset", 0, INT64_MAX, 0, &offset, reply))
        return;
    /* result: the API's names or the stored ones */
    const char *stored = NULL;
    if (result && result[0]) {
        if (strcmp(result, "white-wins") == 0 || strcmp(result, "white") == 0)
            stored = "white";
        else if (strcmp(result, "black-wins") == 0 || strcmp(result, "black") == 0)
            stored = "black";
        else if (strcmp(result, "draw") == 0)
            stored = "draw";
        else if (strcmp(result, "unfinished") == 0)
            stored = "unfinished";
        else {
            reply_error(reply, 400, "parameter result must be white-wins, black-wins, draw or unfinished");
            return;
        }
    }
    /* opening: an id, or the opening's FEN */
    int64_t opening_id = 0;
    const char *opening_fen = NULL;
    if (opening && opening[0]) {
        char *end;
        long long id = strtoll(opening, &end, 10);
        if (*end == '\0' && id > 0)
            opening_id = id;
        else
            opening_fen = opening;
    }
    Store *s = db_open(srv, reply);
    if (!s)
        return;
    StoreCell params[7] = { cell_text(variant), cell_int(run), cell_text(stored), cell_int(opening_id),
                            cell_text(opening_fen), cell_int(limit), cell_int(offset) };
    static const char *const total_field[] = { "total" };
    json_t *total = browse(s, "games_total", params, 5, FIELDS(total_field), reply);
    json_t *games = total ? browse(s, "games", params, 7, FIELDS(game_fields), reply) : NULL;
    if (games)
        reply_json(reply, 200,
                   json_pack("{s:O,s:o,s:I,s:I}", "total",
                             json_object_get(json_array_get(total, 0), "total"), "games", games,
                             "limit", (json_int_t)limit, "offset", (json_int_t)offset));
    json_decref(total);
    store_close(s);
}

/* ---- /api/db/games/N ---- */

/* The moves of a stored game replayed from its start: the FEN after each ply.  A move the
 * rules refuse (a database written by another build) ends the list there. */
static json_t *replay_fens(const Variant *v, const Rules *rules, Position pos, const char *moves)
{
    json_t *fens = json_array();
    char *copy = strdup(moves ? moves : "");
    char *save = NULL;
    for (char *tok = copy ? strtok_r(copy, " ", &save) : NULL; tok; tok = strtok_r(NULL, " ", &save)) {
        Move m;
        char err[256], fen[1024];
        if (!move_from_text(v, &pos, rules, tok, &m, err, sizeof err))
            break;
        v->make(&pos, &m);
        position_to_fen(&pos, v, fen, sizeof fen);
        json_array_append_new(fens, json_string(fen));
    }
    free(copy);
    return fens;
}

static json_t *split_moves(const char *moves)
{
    json_t *a = json_array();
    for (const char *p = moves ? moves : ""; *p;) {
        size_t n = strcspn(p, " ");
        if (n > 0)
            json_array_append_new(a, json_stringn(p, n));
        p += n;
        while (*p == ' ')
            p++;
    }
    return a;
}

/* The start of a stored game: its first position, else its opening, else the variant's. */
static void game_start(Store *s, const Variant *v, const StoredGame *g, Position *start)
{
    v->start(start);
    if (g->rec.npositions > 0) {
        *start = g->positions[0].pos;
        return;
    }
    StoredPdn pdn;
    char err[256];
    if (store_pdn_read(s, g->id, &pdn) && pdn.opening_fen)
        position_from_fen(start, v, pdn.opening_fen, err, sizeof err);
    store_pdn_free(&pdn);
}

/* ---- a stored game's annotation ---- */

typedef struct AnalysisRows {
    const char *prefix;       /* "gameG:ply" */
    char **fens;              /* the game's positions, n + 1 */
    BatchResult *r;           /* the rows of run that match their position */
    int n;
    int64_t run;              /* the run being read (newest first); 0 before the first */
} AnalysisRows;

static bool analysis_complete(const AnalysisRows *a)
{
    for (int i = 0; i <= a->n; i++)
        if (!a->r[i].done)
            return false;
    return true;
}

/* Rows come newest run first: the first run that has every position of the game stops
 * the walk.  A row of another file's "game G" (analyze --in) names other positions: its
 * FEN does not match, and its run is never complete. */
static int analysis_row(void *ctx, int ncols, const StoreCell *c)
{
    AnalysisRows *a = ctx;
    if (ncols < 5 || c[0].type != STORE_CELL_INT || c[1].type != STORE_CELL_TEXT || c[2].type != STORE_CELL_TEXT
        || c[3].type != STORE_CELL_INT)
        return 0;
    if (c[0].i != a->run) {
        if (a->run != 0 && analysis_complete(a))
            return 1;
        for (int i = 0; i <= a->n; i++) {
            free(a->r[i].pv);
            a->r[i] = (BatchResult){ .done = false };
        }
        a->run = c[0].i;
    }
    char *end;
    long ply = strtol(c[1].text + strlen(a->prefix), &end, 10);
    if (*end || ply < 0 || ply > a->n || strcmp(c[2].text, a->fens[ply]) != 0 || a->r[ply].done)
        return 0;
    a->r[ply].pv = strdup(c[4].type == STORE_CELL_TEXT ? c[4].text : "");
    a->r[ply].score = (int)c[3].i;
    a->r[ply].done = a->r[ply].pv != NULL;
    return 0;
}

/* The marks of `dama annotate` from the game's newest analysis (docs/annotate.md): one
 * object a move, or null when no analysis covers every position of the game. */
static json_t *annotation_json(Store *s, const Variant *v, const Rules *rules, const StoredGame *g,
                               const Position *start)
{
    AnnotateGame game = { 0 };
    char err[512], prefix[48], fen[1024];
    if (!annotate_game_moves(v, rules, start, g->moves, &game, err, sizeof err)) {
        free(game.moves);
        return json_null();
    }
    int n = game.nmoves;
    snprintf(prefix, sizeof prefix, "game%lld:ply", (long long)g->id);
    AnalysisRows a = { prefix, calloc((size_t)n + 1, sizeof(char *)), calloc((size_t)n + 1, sizeof(BatchResult)), n, 0 };
    bool ok = a.fens && a.r;
    Position pos = *start;
    for (int i = 0; i <= n && ok; i++) {
        position_to_fen(&pos, v, fen, sizeof fen);
        ok = (a.fens[i] = strdup(fen)) != NULL;
        if (i < n)
            v->make(&pos, &game.moves[i]);
    }
    StoreCell param = { .type = STORE_CELL_TEXT, .text = prefix, .len = (int)strlen(prefix) };
    ok = ok && store_browse_rows(s, "game_analysis", &param, 1, analysis_row, &a) && analysis_complete(&a);
    json_t *out = json_null();
    AnnotatedMove *m = NULL;
    if (ok && annotate_game(v, rules, &annotate_thresholds_default, &game, a.r, &m)) {
        json_decref(out);
        out = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(out, json_pack("{s:i,s:s,s:s,s:i,s:i,s:i,s:s,s:s,s:s}", "ply", m[i].ply, "move",
                                                 m[i].move, "mover", m[i].mover == WHITE ? "white" : "black",
                                                 "before", m[i].before, "after", m[i].after, "loss", m[i].loss,
                                                 "mark", annotate_mark_text(m[i].mark), "best", m[i].best,
                                                 "line", m[i].line));
        annotated_moves_free(m, n);
    }
    for (int i = 0; i <= n; i++) {
        if (a.fens)
            free(a.fens[i]);
        if (a.r)
            free(a.r[i].pv);
    }
    free(a.fens);
    free(a.r);
    free(game.moves);
    return out;
}

static json_t *stored_game_json(Store *s, const StoredGame *g)
{
    const Variant *v = variant_by_name(g->rec.variant);
    if (!v)
        return NULL;
    Rules rules = rules_default(v);
    Position start;
    game_start(s, v, g, &start);
    char fen[1024];
    position_to_fen(&start, v, fen, sizeof fen);
    /* scores[i]: the search's score when ply i was chosen, from white's view */
    json_t *scores = json_array();
    for (int i = 0; i < g->rec.plies; i++) {
        const StoredPosition *p = i < g->rec.npositions ? &g->positions[i] : NULL;
        json_array_append_new(scores, p && p->has_score
                                          ? json_integer(p->pos.side == WHITE ? p->score : -p->score)
                                          : json_null());
    }
    return json_pack("{s:I,s:I,s:s,s:s,s:o,s:i,s:s,s:o,s:o,s:o,s:I,s:o}", "id", (json_int_t)g->id,
                     "run", (json_int_t)g->rec.run_id, "variant", v->name, "result",
                     api_result(result_name(g->rec.result)), "reason",
                     g->reason ? json_string(g->reason) : json_null(), "plies", g->rec.plies,
                     "start_fen", fen, "moves", split_moves(g->moves), "fens",
                     replay_fens(v, &rules, start, g->moves), "scores", scores, "created",
                     (json_int_t)g->created_at, "annotation", annotation_json(s, v, &rules, g, &start));
}

void route_db_game(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req;
    Store *s = db_open(srv, reply);
    if (!s)
        return;
    int found = store_has_id(s, "games", args->id);
    StoredGame g;
    memset(&g, 0, sizeof g);
    if (found < 0)
        db_failed(s, reply);
    else if (found == 0)
        reply_error(reply, 404, "no game %lld in the database", (long long)args->id);
    else if (!store_game_read(s, args->id, &g))
        db_failed(s, reply);
    else {
        json_t *o = stored_game_json(s, &g);
        if (o)
            reply_json(reply, 200, o);
        else
            reply_error(reply, 500, "game %lld: unknown variant %s", (long long)args->id,
                        g.rec.variant);
    }
    store_game_free(&g);
    store_close(s);
}

/* ---- /api/runs, /api/runs/N ---- */

static const char *const run_fields[] = { "id", "kind", "variant", "status", "started", "finished",
                                          "games", "generation", "elo", "elo_low", "elo_high",
                                          "?promoted", "params", "train_run" };

/* The number of KEY=N in a run's params (games=N: what self-play and matches plan;
 * generation=G: the training step); 0 when absent. */
static int64_t param_int(const char *params, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = params; p && *p; p++)
        if ((p == params || p[-1] == ' ') && strncmp(p, key, n) == 0 && p[n] == '=')
            return strtoll(p + n + 1, NULL, 10);
    return 0;
}

/* Adds "planned" (from the params) to every run of runs. */
static void add_planned(json_t *runs)
{
    size_t i;
    json_t *run;
    json_array_foreach(runs, i, run)
        json_object_set_new(run, "planned",
                            json_integer(param_int(json_string_value(json_object_get(run, "params")), "games")));
}

void route_runs(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    const char *variant;
    if (!query_variant(srv, req, &variant, reply))
        return;
    Store *s = db_open(srv, reply);
    if (!s)
        return;
    StoreCell params[2] = { cell_text(variant), cell_int(0) };
    json_t *runs = browse(s, "runs", params, 2, FIELDS(run_fields), reply);
    if (runs) {
        add_planned(runs);
        reply_json(reply, 200, json_pack("{s:o}", "runs", runs));
    }
    store_close(s);
}

void route_run(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)req;
    Store *s = db_open(srv, reply);
    if (!s)
        return;
    StoreCell params[2] = { cell_text(NULL), cell_int(args->id) };
    StoreCell id = cell_int(args->id);
    static const char *const loss_fields[] = { "tune_run", "epoch", "train", "validation" };
    static const char *const length_fields[] = { "plies", "games" };
    json_t *runs = browse(s, "runs", params, 2, FIELDS(run_fields), reply);
    json_t *loss = runs ? browse(s, "run_loss", &id, 1, FIELDS(loss_fields), reply) : NULL;
    json_t *lengths = loss ? browse(s, "run_lengths", &id, 1, FIELDS(length_fields), reply) : NULL;
    if (lengths && json_array_size(runs) == 0)
        reply_error(reply, 404, "no run %lld in the database", (long long)args->id);
    else if (lengths) {
        add_planned(runs);
        json_t *run = json_incref(json_array_get(runs, 0));
        json_object_set(run, "loss", loss);
        json_object_set(run, "lengths", lengths);
        json_object_set_new(run, "progress",
                            json_pack("{s:O,s:O}", "games", json_object_get(run, "games"),
                                      "planned", json_object_get(run, "planned")));
        reply_json(reply, 200, run);
    }
    json_decref(runs);
    json_decref(loss);
    json_decref(lengths);
    store_close(s);
}

/* ---- /api/training ---- */

static const char *const generation_fields[] = { "generation", "elo", "elo_low", "elo_high",
                                                 "?promoted", "loss", "train_loss", "selfplay_run",
                                                 "match_run", "candidate_weights", "positions",
                                                 "fit_seconds" };

/* What the running train run is doing now: its newest step's run and its games. */
static json_t *training_current(Store *s, int64_t train_id, HttpReply *reply, bool *failed)
{
    static const char *const child_fields[] = { "run", "kind", "params", "games" };
    StoreCell id = cell_int(train_id);
    json_t *rows = browse(s, "train_child", &id, 1, FIELDS(child_fields), reply);
    *failed = rows == NULL;
    json_t *child = json_array_get(rows, 0);
    const char *params = child ? json_string_value(json_object_get(child, "params")) : NULL;
    int64_t generation = param_int(params, "generation");
    json_t *current = json_pack("{s:I,s:o,s:o,s:o,s:o,s:I}", "train_run", (json_int_t)train_id,
                                "run", json_incref(child ? json_object_get(child, "run") : json_null()),
                                "kind", json_incref(child ? json_object_get(child, "kind") : json_null()),
                                "generation", generation > 0 ? json_integer(generation) : json_null(),
                                "games", child ? json_incref(json_object_get(child, "games")) : json_integer(0),
                                "planned", (json_int_t)param_int(params, "games"));
    json_decref(rows);
    return current;
}

void route_training(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply)
{
    (void)args;
    const Variant *v = request_variant(srv, http_query(req, "variant"), reply);
    int64_t train_id;
    if (!v || !query_int(req, "run", 1, INT64_MAX, 0, &train_id, reply))
        return;
    Store *s = db_open(srv, reply);
    if (!s)
        return;
    static const char *const last_fields[] = { "id", "status" };
    StoreCell name = cell_text(v->name);
    json_t *last = NULL;
    bool running = false, failed = false;
    if (train_id == 0) {
        last = browse(s, "train_last", &name, 1, FIELDS(last_fields), reply);
        failed = last == NULL;
        json_t *row = json_array_get(last, 0);
        train_id = row ? json_integer_value(json_object_get(row, "id")) : 0;
        running = row && strcmp(json_string_value(json_object_get(row, "status")), "running") == 0;
    }
    json_t *generations = NULL, *current = NULL;
    if (!failed && train_id > 0) {
        StoreCell id = cell_int(train_id);
        generations = browse(s, "generations", &id, 1, FIELDS(generation_fields), reply);
        failed = generations == NULL;
        if (!failed && running)
            current = training_current(s, train_id, reply, &failed);
    }
    if (!failed)
        reply_json(reply, 200,
                   json_pack("{s:s,s:o,s:o,s:o}", "variant", v->name, "train_run",
                             train_id > 0 ? json_integer(train_id) : json_null(), "generations",
                             generations ? json_incref(generations) : json_array(), "current",
                             current ? json_incref(current) : json_null()));
    json_decref(last);
    json_decref(generations);
    json_decref(current);
    store_close(s);
}
