/* Batch analysis, its inputs: positions from a FEN file, PDN games or the database. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "batch.h"
#include "notation.h"
#include "position.h"
#include "text_input.h"
#include "variant.h"

void batch_list_init(BatchList *l, FILE *errors, bool strict)
{
    memset(l, 0, sizeof *l);
    l->errors = errors;
    l->strict = strict;
}

void batch_list_free(BatchList *l)
{
    for (int i = 0; i < l->count; i++) {
        free(l->items[i].id);
        free(l->items[i].fen);
    }
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}

/* Appends a position with its id (copied); false when out of memory. */
static bool add_item(BatchList *l, const Variant *v, const Position *pos, const char *id)
{
    if (l->count == l->cap) {
        if (l->cap > INT_MAX / 2)
            return false;
        int cap = l->cap ? 2 * l->cap : 64;
        BatchItem *items = realloc(l->items, (size_t)cap * sizeof *items);
        if (!items)
            return false;
        l->items = items;
        l->cap = cap;
    }
    char fen[256];
    position_to_fen(pos, v, fen, sizeof fen);
    BatchItem *it = &l->items[l->count];
    it->pos = *pos;
    it->id = strdup(id);
    it->fen = strdup(fen);
    if (!it->id || !it->fen) {
        free(it->id);
        free(it->fen);
        return false;
    }
    l->count++;
    return true;
}

static int out_of_memory(char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory");
    return 1;
}

static bool plies_selected(const BatchPlies *p, long ply)
{
    if (!p || p->n == 0)
        return true;
    for (int i = 0; i < p->n; i++)
        if (p->ply[i] == ply)
            return true;
    return false;
}

/* Reports a bad line; returns true when the batch must stop (strict). */
static bool bad_line(BatchList *l, const char *path, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool bad_line(BatchList *l, const char *path, long line, const char *fmt, ...)
{
    l->bad++;
    if (l->errors) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(l->errors, "%s:%ld: ", path, line);
        vfprintf(l->errors, fmt, ap);
        fputc('\n', l->errors);
        va_end(ap);
    }
    return l->strict;
}

/* ---- FEN lists ---- */

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static char *trim(char *s)
{
    while (is_space(*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && is_space(s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* One line of a FEN list (NUL-terminated, no NUL inside: checked by text_prepare). */
static int fen_line(BatchList *l, const Variant *v, const char *name, long lineno, char *line,
                    char *err, size_t errlen)
{
    char *text = trim(line);
    if (!text[0] || text[0] == '#')
        return 0;
    char *id = strchr(text, ';');
    if (id) {
        *id++ = '\0';
        id = trim(id);
        text = trim(text);
    }
    char num[32], why[256];
    if (!id || !id[0]) {
        snprintf(num, sizeof num, "%ld", lineno);
        id = num;
    }
    if (!text[0])
        return bad_line(l, name, lineno, "missing position before ';'") ? 2 : 0;
    Position pos;
    if (!position_from_fen(&pos, v, text, why, sizeof why))
        return bad_line(l, name, lineno, "%s", why) ? 2 : 0;
    return add_item(l, v, &pos, id) ? 0 : out_of_memory(err, errlen);
}

int batch_read_fen_text(BatchList *l, const Variant *v, const char *name, const char *text,
                        size_t len, char *err, size_t errlen)
{
    err[0] = '\0';
    if (!text_prepare(name, &text, &len, err, errlen))
        return 2;
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int code = 0;
    for (const char *p = text, *stop = text + len; p < stop && !code;) {
        const char *nl = memchr(p, '\n', (size_t)(stop - p));
        size_t n = (size_t)((nl ? nl : stop) - p);
        if (n + 1 > cap) {
            char *grown = realloc(line, n + 1);
            if (!grown) {
                code = out_of_memory(err, errlen);
                break;
            }
            line = grown;
            cap = n + 1;
        }
        memcpy(line, p, n);
        line[n] = '\0';
        p = nl ? nl + 1 : stop;
        code = fen_line(l, v, name, ++lineno, line, err, errlen);
    }
    free(line);
    return code;
}

int batch_read_fen_file(BatchList *l, const Variant *v, const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    if (!text_file_read(path, 0, &text, &len, err, errlen))
        return 2;
    int code = batch_read_fen_text(l, v, path, text, len, err, errlen);
    free(text);
    return code;
}

/* ---- PDN ---- */

/* Longest move-text token and tag value read; longer ones are bad lines, never cut. */
#define PDN_TOKEN_MAX 127
#define PDN_VALUE_MAX 511

typedef struct PdnGame {
    long number;         /* 1-based index in the file */
    long line;           /* where the game (or its FEN tag) starts */
    char fen[PDN_VALUE_MAX + 1]; /* the FEN tag; "" = start */
    bool fen_too_long;   /* the FEN tag did not fit fen */
    int gametype;        /* the GameType tag's number (20 International, 30 Turkish); 0 = none */
    long gametype_line;
    bool started;        /* the start position is set up */
    bool broken;         /* a bad FEN or move: the rest of the game is skipped */
    bool any;            /* the game has a tag or a move */
    Position pos;
    long ply;
} PdnGame;

typedef struct PdnReader {
    BatchList *l;
    const Variant *v;
    const Rules *rules;
    const char *path;
    const BatchPlies *plies;
    char *err;
    size_t errlen;
    PdnGame g;
} PdnReader;

/* Adds the current position when its ply is selected: 0, 2 (stop) or 1 (out of memory). */
static int pdn_take(PdnReader *r)
{
    if (!plies_selected(r->plies, r->g.ply))
        return 0;
    char id[64];
    snprintf(id, sizeof id, "game%ld:ply%ld", r->g.number, r->g.ply);
    return add_item(r->l, r->v, &r->g.pos, id) ? 0 : out_of_memory(r->err, r->errlen);
}

/* A bad move, FEN tag or construct in the current game: the rest of the game is skipped. */
static int pdn_bad(PdnReader *r, long line, const char *what, const char *why)
{
    r->g.broken = true;
    return bad_line(r->l, r->path, line, "game %ld: %s: %s", r->g.number, what, why) ? 2 : 0;
}

/* Sets up the start position of the game when not yet done. */
static int pdn_start(PdnReader *r)
{
    PdnGame *g = &r->g;
    if (g->started || g->broken)
        return 0;
    g->started = true;
    g->ply = 0;
    char why[256];
    if (g->gametype && g->gametype != r->v->pdn_gametype) {
        const Variant *other = NULL;
        for (int i = 0; variant_at(i); i++)
            if (variant_at(i)->pdn_gametype == g->gametype)
                other = variant_at(i);
        if (g->gametype < 0)
            snprintf(why, sizeof why, "not a game type number (%s is %d)", r->v->name, r->v->pdn_gametype);
        else if (other)
            snprintf(why, sizeof why, "%d is %s draughts, not %s (give --variant %s)", g->gametype,
                     other->name, r->v->name, other->name);
        else
            snprintf(why, sizeof why, "%d is no game dama plays (%s is %d)", g->gametype, r->v->name,
                     r->v->pdn_gametype);
        return pdn_bad(r, g->gametype_line, "GameType", why);
    }
    if (g->fen_too_long) {
        snprintf(why, sizeof why, "longer than %d characters", PDN_VALUE_MAX);
        return pdn_bad(r, g->line, "FEN tag", why);
    }
    if (!g->fen[0])
        r->v->start(&g->pos);
    else if (!position_from_fen(&g->pos, r->v, g->fen, why, sizeof why))
        return pdn_bad(r, g->line, "FEN tag", why);
    return pdn_take(r);
}

/* Ends the current game (a game with tags but no moves gives its start position). */
static int pdn_finish(PdnReader *r)
{
    int code = 0;
    if (r->g.any && !r->g.started)
        code = pdn_start(r);
    long number = r->g.number;
    bool any = r->g.any;
    memset(&r->g, 0, sizeof r->g);
    r->g.number = any ? number + 1 : number;
    return code;
}

static void pdn_begin_game(PdnReader *r, long line)
{
    if (!r->g.any) {
        r->g.any = true;
        r->g.line = line;
    }
}

static bool is_result(const char *t)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*",
                                            "2-2", "0-4", "4-0", "1/2", NULL };
    for (int i = 0; results[i]; i++)
        if (strcmp(t, results[i]) == 0)
            return true;
    return false;
}

/* One move-text token of n bytes (n >= 1). */
static int pdn_token(PdnReader *r, const char *text, size_t n, long line)
{
    char tok[PDN_TOKEN_MAX + 1];
    if (n > PDN_TOKEN_MAX) {
        pdn_begin_game(r, line);
        int code = pdn_start(r);
        if (code || r->g.broken)
            return code;
        char quoted[100], what[128], why[64];
        snprintf(what, sizeof what, "move '%s'", text_quote(quoted, sizeof quoted, text, n, 20));
        snprintf(why, sizeof why, "longer than %d characters", PDN_TOKEN_MAX);
        return pdn_bad(r, line, what, why);
    }
    memcpy(tok, text, n);
    tok[n] = '\0';
    if (is_result(tok))
        return pdn_finish(r);
    if (tok[0] == '$')
        return 0;
    char *p = tok;
    while (*p >= '0' && *p <= '9')
        p++;
    if (p > tok && *p == '.') { /* a move number: "12." or "12..." possibly glued to a move */
        while (*p == '.')
            p++;
        memmove(tok, p, strlen(p) + 1);
    }
    n = strlen(tok);
    while (n > 0 && (tok[n - 1] == '!' || tok[n - 1] == '?'))
        tok[--n] = '\0';
    if (!n)
        return 0;
    pdn_begin_game(r, line);
    int code = pdn_start(r);
    if (code || r->g.broken)
        return code;
    Move m;
    char why[512], quoted[4 * PDN_TOKEN_MAX + 4], what[sizeof quoted + 16];
    if (!move_from_text(r->v, &r->g.pos, r->rules, tok, &m, why, sizeof why)) {
        snprintf(what, sizeof what, "move '%s'", text_quote(quoted, sizeof quoted, tok, n, PDN_TOKEN_MAX));
        return pdn_bad(r, line, what, why);
    }
    r->v->make(&r->g.pos, &m);
    r->g.ply++;
    return pdn_take(r);
}

/* A tag "[Name "value"]" at text (text[0] == '['): the length consumed, or 0 when the tag
 * is not closed before the end of the text. */
static size_t pdn_tag(PdnReader *r, const char *text, size_t len, long *line)
{
    size_t i = 1;
    char name[32];
    size_t nl = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    while (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '"' && text[i] != ']'
           && text[i] != '\n') {
        if (nl + 1 < sizeof name)
            name[nl++] = text[i];
        i++;
    }
    name[nl] = '\0';
    char value[PDN_VALUE_MAX + 1];
    size_t vl = 0;
    bool too_long = false;
    while (i < len && text[i] != '"' && text[i] != ']') {
        if (text[i] == '\n')
            (*line)++;
        i++;
    }
    if (i < len && text[i] == '"') {
        for (i++; i < len && text[i] != '"'; i++) {
            if (text[i] == '\\' && i + 1 < len)
                i++;
            if (text[i] == '\n')
                (*line)++;
            if (vl < PDN_VALUE_MAX)
                value[vl++] = text[i];
            else
                too_long = true;
        }
        if (i < len)
            i++; /* the closing quote */
    }
    value[vl] = '\0';
    while (i < len && text[i] != ']') {
        if (text[i] == '\n')
            (*line)++;
        i++;
    }
    if (i == len)
        return 0;
    if (strcasecmp(name, "FEN") == 0) {
        while (vl > 0 && (value[vl - 1] == '.' || value[vl - 1] == ' '))
            value[--vl] = '\0';
        memcpy(r->g.fen, value, vl + 1);
        r->g.fen_too_long = too_long;
        r->g.line = *line;
    } else if (strcasecmp(name, "GameType") == 0) {
        /* "20" or in full "20,W,10,10,N2,0": the number names the game */
        int number = 0;
        for (size_t k = 0; k < vl && value[k] >= '0' && value[k] <= '9' && number < 1000; k++)
            number = number * 10 + (value[k] - '0');
        r->g.gametype = number > 0 ? number : -1;
        r->g.gametype_line = *line;
    }
    return i + 1;
}

/* Where a move-text token ends. */
static bool pdn_delimiter(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '[' || c == '{' || c == '('
        || c == ';';
}

/* A {comment} or (variation), nested, at text[*i]: skips it; false when it is not closed. */
static bool pdn_skip_group(const char *text, size_t len, size_t *i, long *line)
{
    char open = text[*i], close = open == '{' ? '}' : ')';
    long depth = 0;
    for (; *i < len; (*i)++) {
        if (text[*i] == '\n')
            (*line)++;
        if (text[*i] == open)
            depth++;
        else if (text[*i] == close && --depth == 0) {
            (*i)++;
            return true;
        }
    }
    return false;
}

int batch_read_pdn_text(BatchList *l, const Variant *v, const Rules *rules, const char *name,
                        const char *text, size_t len, const BatchPlies *plies, char *err,
                        size_t errlen)
{
    err[0] = '\0';
    if (!text_prepare(name, &text, &len, err, errlen))
        return 2;
    PdnReader r = { l, v, rules, name, plies, err, errlen, { .number = 1 } };
    long line = 1;
    int code = 0;
    bool line_start = true;
    for (size_t i = 0; i < len && !code;) {
        char c = text[i];
        if (c == '\n') {
            line++;
            i++;
            line_start = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        bool at_line_start = line_start;
        line_start = false;
        long start_line = line;
        if ((c == '%' && at_line_start) || c == ';') { /* an escape line, a comment line */
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '[') {
            if (r.g.started)
                code = pdn_finish(&r); /* a tag after moves begins the next game */
            if (code)
                break;
            pdn_begin_game(&r, line);
            size_t used = pdn_tag(&r, text + i, len - i, &line);
            if (!used) {
                code = pdn_bad(&r, start_line, "tag", "'[' not closed by ']'");
                break;
            }
            i += used;
        } else if (c == '{' || c == '(') {
            if (!pdn_skip_group(text, len, &i, &line)) {
                code = pdn_bad(&r, start_line, c == '{' ? "comment" : "variation",
                               c == '{' ? "'{' not closed by '}'" : "'(' not closed by ')'");
                break;
            }
        } else {
            size_t start = i;
            while (i < len && !pdn_delimiter(text[i]))
                i++;
            code = pdn_token(&r, text + start, i - start, line);
        }
    }
    if (!code)
        code = pdn_finish(&r);
    return code;
}

int batch_read_pdn_file(BatchList *l, const Variant *v, const Rules *rules, const char *path,
                        const BatchPlies *plies, char *err, size_t errlen)
{
    char *text;
    size_t len;
    if (!text_file_read(path, 0, &text, &len, err, errlen))
        return 2;
    int code = batch_read_pdn_text(l, v, rules, path, text, len, plies, err, errlen);
    free(text);
    return code;
}

/* ---- positions from the database ---- */

int batch_add_game(BatchList *l, Store *s, const Variant *v, int64_t game_id,
                   const BatchPlies *plies, char *err, size_t errlen)
{
    err[0] = '\0';
    int found = store_has_id(s, "games", game_id);
    if (found < 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return 1;
    }
    if (!found) {
        snprintf(err, errlen, "no game %lld in the database", (long long)game_id);
        return 2;
    }
    StoredGame g;
    if (!store_game_read(s, game_id, &g)) {
        snprintf(err, errlen, "%s", store_error(s));
        return 1;
    }
    int code = 0;
    if (strcmp(g.rec.variant, v->name) != 0) {
        snprintf(err, errlen, "game %lld is a %s game, not %s", (long long)game_id, g.rec.variant, v->name);
        code = 2;
    }
    for (int i = 0; i < g.rec.npositions && !code; i++) {
        if (!plies_selected(plies, i))
            continue;
        char id[64];
        snprintf(id, sizeof id, "game%lld:ply%d", (long long)game_id, i);
        if (!add_item(l, v, &g.positions[i].pos, id))
            code = out_of_memory(err, errlen);
    }
    store_game_free(&g);
    return code;
}

typedef struct Sampled {
    uint64_t key;
    int64_t game;
    int ply;
    Position pos;
} Sampled;

typedef struct Sampler {
    Sampled *heap;       /* max-heap on key while sampling (all rows when n is 0) */
    int64_t n, count, cap;
    uint64_t seed;
    bool oom;
} Sampler;

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static void sift_down(Sampled *h, int64_t n, int64_t i)
{
    for (;;) {
        int64_t big = i, a = 2 * i + 1, b = a + 1;
        if (a < n && h[a].key > h[big].key)
            big = a;
        if (b < n && h[b].key > h[big].key)
            big = b;
        if (big == i)
            return;
        Sampled t = h[i];
        h[i] = h[big];
        h[big] = t;
        i = big;
    }
}

static int sample_position(void *ctx, int64_t game_id, int ply, const Position *pos, int score,
                           bool has_score, int result)
{
    Sampler *sm = ctx;
    (void)score, (void)has_score, (void)result;
    Sampled e = { mix64(mix64(sm->seed ^ (uint64_t)game_id) + (uint64_t)ply), game_id, ply, *pos };
    if (sm->n > 0 && sm->count == sm->n) {
        if (e.key >= sm->heap[0].key)
            return 0;
        sm->heap[0] = e;
        sift_down(sm->heap, sm->count, 0);
        return 0;
    }
    if (sm->count == sm->cap) {
        int64_t cap = sm->cap ? 2 * sm->cap : 256;
        if (sm->n > 0 && cap > sm->n)
            cap = sm->n;
        Sampled *h = realloc(sm->heap, (size_t)cap * sizeof *h);
        if (!h) {
            sm->oom = true;
            return 1;
        }
        sm->heap = h;
        sm->cap = cap;
    }
    int64_t i = sm->count++;
    sm->heap[i] = e;
    if (sm->n > 0) /* sift up */
        while (i > 0 && sm->heap[(i - 1) / 2].key < sm->heap[i].key) {
            Sampled t = sm->heap[i];
            sm->heap[i] = sm->heap[(i - 1) / 2];
            sm->heap[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    return 0;
}

static int by_game_ply(const void *a, const void *b)
{
    const Sampled *x = a, *y = b;
    if (x->game != y->game)
        return x->game < y->game ? -1 : 1;
    return (x->ply > y->ply) - (x->ply < y->ply);
}

int batch_add_run_sample(BatchList *l, Store *s, const Variant *v, int64_t run_id, int64_t n,
                         uint64_t seed, char *err, size_t errlen)
{
    err[0] = '\0';
    char variant[32] = "";
    int found = store_run_info(s, run_id, NULL, 0, NULL, 0, NULL, variant, sizeof variant);
    if (found < 0) {
        snprintf(err, errlen, "%s", store_error(s));
        return 1;
    }
    if (!found) {
        snprintf(err, errlen, "no run %lld in the database", (long long)run_id);
        return 2;
    }
    if (strcmp(variant, v->name) != 0) {
        snprintf(err, errlen, "run %lld plays %s, not %s", (long long)run_id, variant, v->name);
        return 2;
    }
    Sampler sm = { .n = n > 0 ? n : 0, .seed = seed };
    bool ok = store_positions_foreach(s, v->name, &run_id, 1, false, sample_position, &sm);
    int code = 0;
    if (sm.oom)
        code = out_of_memory(err, errlen);
    else if (!ok) {
        snprintf(err, errlen, "%s", store_error(s));
        code = 1;
    }
    if (!code && sm.n > 0)
        qsort(sm.heap, (size_t)sm.count, sizeof *sm.heap, by_game_ply);
    for (int64_t i = 0; !code && i < sm.count; i++) {
        char id[64];
        snprintf(id, sizeof id, "game%lld:ply%d", (long long)sm.heap[i].game, sm.heap[i].ply);
        if (!add_item(l, v, &sm.heap[i].pos, id))
            code = out_of_memory(err, errlen);
    }
    free(sm.heap);
    return code;
}

/* ---- searching ---- */
