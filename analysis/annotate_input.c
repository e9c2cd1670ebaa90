/* Annotated games, their input: games from a PDN file or the database, as moves. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "annotate_input.h"
#include "notation.h"
#include "pdn_game.h"
#include "position.h"
#include "text_input.h"
#include "variant.h"

void annotate_games_free(AnnotateGames *gs)
{
    for (int i = 0; i < gs->n; i++)
        annotate_game_free(&gs->games[i]);
    free(gs->games);
    memset(gs, 0, sizeof *gs);
}

/* A new zeroed game at the end; NULL when out of memory. */
static AnnotateGame *games_push(AnnotateGames *gs)
{
    if (gs->n == gs->cap) {
        if (gs->cap > INT_MAX / 2)
            return NULL;
        int cap = gs->cap ? 2 * gs->cap : 8;
        AnnotateGame *p = realloc(gs->games, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        gs->games = p;
        gs->cap = cap;
    }
    AnnotateGame *g = &gs->games[gs->n++];
    memset(g, 0, sizeof *g);
    return g;
}

static bool add_tag(AnnotateGame *g, const char *name, const char *value)
{
    StorePdnTag *p = realloc(g->tags, (size_t)(g->ntags + 1) * sizeof *p);
    if (!p)
        return false;
    g->tags = p;
    p[g->ntags].name = strdup(name);
    p[g->ntags].value = strdup(value);
    if (!p[g->ntags].name || !p[g->ntags].value) {
        free(p[g->ntags].name);
        free(p[g->ntags].value);
        return false;
    }
    g->ntags++;
    return true;
}

static bool is_start(const Variant *v, const Position *pos)
{
    Position start;
    v->start(&start);
    return position_equal(&start, pos);
}

static int out_of_memory(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    return 1;
}

/* ---- PDN ---- */

typedef struct PdnAnnotate {
    AnnotateGames *gs;
    const Variant *v;
    const Rules *rules;
    const char *path;
    const atomic_bool *stop;
    char *err;
    size_t errlen;
} PdnAnnotate;

static int pdn_annotate_game(void *ctx, const PdnGame *pg)
{
    PdnAnnotate *b = ctx;
    if (b->stop && atomic_load(b->stop)) {
        snprintf(b->err, b->errlen, "%s: interrupted while reading", b->path);
        return 130;
    }
    if (pg->syntax) {
        snprintf(b->err, b->errlen, "%s:%ld: game %ld: %s: %s", b->path, pg->syntax_line, pg->number,
                 pg->syntax_what, pg->syntax_why);
        return 2;
    }
    PdnProblem p;
    Position pos;
    if (!pdn_game_start(b->v, pg, &pos, NULL, &p)) {
        snprintf(b->err, b->errlen, "%s:%ld: game %ld: %s: %s", b->path, p.line, pg->number, p.what, p.why);
        return 2;
    }
    AnnotateGame *g = games_push(b->gs);
    char id[32];
    snprintf(id, sizeof id, "%ld", pg->number);
    if (!g || !(g->id = strdup(id)) || !(g->moves = malloc((size_t)(pg->nmoves + 1) * sizeof *g->moves)))
        return out_of_memory(b->err, b->errlen);
    g->start = pos;
    g->setup = !is_start(b->v, &pos);
    g->result = pdn_result_from_text(pg->result);
    for (int i = 0; i < pg->ntags; i++) {
        const char *name = pg->tags[i].name;
        if (strcasecmp(name, "Result") != 0 && strcasecmp(name, "GameType") != 0
            && strcasecmp(name, "FEN") != 0 && !add_tag(g, name, pg->tags[i].value))
            return out_of_memory(b->err, b->errlen);
    }
    for (int i = 0; i < pg->nitems; i++) {
        if (pg->items[i].kind != PDN_MOVE)
            continue;
        Move m;
        if (!pdn_game_move(b->v, b->rules, &pos, &pg->items[i], &m, &p)) {
            snprintf(b->err, b->errlen, "%s:%ld: game %ld: %s: %s", b->path, p.line, pg->number, p.what, p.why);
            return 2;
        }
        g->moves[g->nmoves++] = m;
        b->v->make(&pos, &m);
    }
    return 0;
}

int annotate_read_pdn_file(AnnotateGames *gs, const Variant *v, const Rules *rules, const char *path,
                           const atomic_bool *stop, char *err, size_t errlen)
{
    err[0] = '\0';
    char *text;
    size_t len;
    const TextLimit limit = { "a PDN file", TEXT_FILE_MAX, stop };
    if (!text_file_read(path, &limit, &text, &len, err, errlen))
        return stop && atomic_load(stop) ? 130 : 2;
    const char *t = text;
    int code = 2;
    if (text_prepare(path, &t, &len, err, errlen)) {
        PdnAnnotate b = { gs, v, rules, path, stop, err, errlen };
        code = pdn_read_text(t, len, pdn_annotate_game, &b, err, errlen);
    }
    free(text);
    if (code == 0 && gs->n == 0) {
        snprintf(err, errlen, "%s: no games in the file", path);
        code = 2;
    }
    return code;
}

/* ---- the database ---- */

bool annotate_game_moves(const Variant *v, const Rules *rules, const Position *start, const char *moves,
                         AnnotateGame *g, char *err, size_t errlen)
{
    size_t n = 0;
    for (const char *p = moves ? moves : ""; *p; p++)
        n += *p != ' ' && (p[1] == ' ' || p[1] == '\0');
    free(g->moves);
    g->nmoves = 0;
    if (!(g->moves = malloc((n + 1) * sizeof *g->moves))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    g->start = *start;
    g->setup = !is_start(v, start);
    Position pos = *start;
    for (const char *p = moves ? moves : ""; *p;) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (len == 0)
            break;
        char tok[256], why[256];
        if (len >= sizeof tok) {
            snprintf(err, errlen, "stored move %d is too long", g->nmoves + 1);
            return false;
        }
        memcpy(tok, p, len);
        tok[len] = '\0';
        p += len;
        if (!move_from_text(v, &pos, rules, tok, &g->moves[g->nmoves], why, sizeof why)) {
            snprintf(err, errlen, "stored move %d '%s' is not legal: %s", g->nmoves + 1, tok, why);
            return false;
        }
        v->make(&pos, &g->moves[g->nmoves++]);
    }
    return true;
}

int annotate_add_stored(AnnotateGames *gs, Store *s, const Variant *v, const Rules *rules, int64_t game_id,
                        char *err, size_t errlen)
{
    err[0] = '\0';
    int found = store_has_id(s, "games", game_id);
    if (found <= 0) {
        if (found < 0)
            snprintf(err, errlen, "%s", store_error(s));
        else
            snprintf(err, errlen, "no game %lld in the database", (long long)game_id);
        return found < 0 ? 1 : 2;
    }
    StoredGame sg;
    StoredPdn pdn;
    memset(&pdn, 0, sizeof pdn);
    if (!store_game_read(s, game_id, &sg) || !store_pdn_read(s, game_id, &pdn)) {
        snprintf(err, errlen, "%s", store_error(s));
        store_game_free(&sg);
        store_pdn_free(&pdn);
        return 1;
    }
    int code = 0;
    if (strcmp(sg.rec.variant, v->name) != 0) {
        snprintf(err, errlen, "game %lld is a %s game, not %s", (long long)game_id, sg.rec.variant, v->name);
        code = 2;
    }
    AnnotateGame *g = code ? NULL : games_push(gs);
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)game_id);
    if (!code && (!g || !(g->id = strdup(id))))
        code = out_of_memory(err, errlen);
    if (!code) {
        Position start;
        if (sg.rec.npositions > 0)
            start = sg.positions[0].pos;
        else
            v->start(&start);
        g->result = sg.rec.result;
        char why[512];
        if (!annotate_game_moves(v, rules, &start, sg.moves, g, why, sizeof why)) {
            snprintf(err, errlen, "game %lld: %s", (long long)game_id, why);
            code = 1;
        }
        for (int i = 0; i < pdn.ntags && !code; i++)
            if (!add_tag(g, pdn.tags[i].name, pdn.tags[i].value))
                code = out_of_memory(err, errlen);
    }
    store_game_free(&sg);
    store_pdn_free(&pdn);
    return code;
}

int annotate_add_run(AnnotateGames *gs, Store *s, const Variant *v, const Rules *rules, int64_t run_id,
                     char *err, size_t errlen)
{
    err[0] = '\0';
    int found = store_has_id(s, "runs", run_id);
    if (found <= 0) {
        if (found < 0)
            snprintf(err, errlen, "%s", store_error(s));
        else
            snprintf(err, errlen, "no run %lld in the database", (long long)run_id);
        return found < 0 ? 1 : 2;
    }
    int64_t *ids;
    int64_t n = store_pdn_game_ids(s, v->name, run_id, &ids);
    if (n < 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return 1;
    }
    if (n == 0) {
        snprintf(err, errlen, "run %lld has no %s games", (long long)run_id, v->name);
        return 2;
    }
    int code = 0;
    for (int64_t i = 0; i < n && !code; i++)
        code = annotate_add_stored(gs, s, v, rules, ids[i], err, errlen);
    free(ids);
    return code;
}
