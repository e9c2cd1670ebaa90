/* Batch analysis, its inputs: positions from a FEN file, PDN games or the database. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "pdn_game.h"
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

/* The list grows by doubling. */
bool batch_list_add(BatchList *l, const Variant *v, const Position *pos, const char *id)
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
    return batch_list_add(l, v, &pos, id) ? 0 : out_of_memory(err, errlen);
}

/* A file at the size limit takes seconds to check: a stop is looked at every few thousand
 * lines (or games), and ends the reading with "NAME: interrupted while reading". */
static bool interrupted(const BatchList *l, const char *name, char *err, size_t errlen)
{
    if (!l->stop || !atomic_load(l->stop))
        return false;
    snprintf(err, errlen, "%s: interrupted while reading", name);
    return true;
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
        if (lineno % 4096 == 4095 && interrupted(l, name, err, errlen)) {
            code = 130;
            break;
        }
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
    const TextLimit limit = { "a positions file", TEXT_FILE_MAX, l->stop };
    if (!text_file_read(path, &limit, &text, &len, err, errlen))
        return l->stop && atomic_load(l->stop) ? 130 : 2;
    int code = batch_read_fen_text(l, v, path, text, len, err, errlen);
    free(text);
    return code;
}

/* ---- PDN ---- */

typedef struct PdnBatch {
    BatchList *l;
    const Variant *v;
    const Rules *rules;
    const char *path;
    const BatchPlies *plies;
    char *err;
    size_t errlen;
} PdnBatch;

/* Adds a game's position when its ply is selected: 0 or 1 (out of memory). */
static int pdn_take(PdnBatch *b, long number, long ply, const Position *pos)
{
    if (!plies_selected(b->plies, ply))
        return 0;
    char id[64];
    snprintf(id, sizeof id, "game%ld:ply%ld", number, ply);
    return batch_list_add(b->l, b->v, pos, id) ? 0 : out_of_memory(b->err, b->errlen);
}

/* A bad move, tag or construct: 0, or 2 when the batch must stop (strict). */
static int pdn_bad(PdnBatch *b, long number, long line, const char *what, const char *why)
{
    return bad_line(b->l, b->path, line, "game %ld: %s: %s", number, what, why) ? 2 : 0;
}

/* Every position of one game (or the selected plies) up to its first bad move; a game with
 * tags but no moves gives its start position. */
static int pdn_batch_game(void *ctx, const PdnGame *g)
{
    PdnBatch *b = ctx;
    if (interrupted(b->l, b->path, b->err, b->errlen))
        return 130;
    PdnProblem p;
    Position pos;
    long ply = 0;
    bool started = false, broken = false;
    int code = 0;
    for (int i = 0; i < g->nitems && !broken && !code; i++) {
        if (g->items[i].kind != PDN_MOVE)
            continue;
        if (!started) {
            started = true;
            if (!pdn_game_start(b->v, g, &pos, NULL, &p)) {
                broken = true;
                code = pdn_bad(b, g->number, p.line, p.what, p.why);
                break;
            }
            if ((code = pdn_take(b, g->number, ply, &pos)))
                break;
        }
        Move m;
        if (!pdn_game_move(b->v, b->rules, &pos, &g->items[i], &m, &p)) {
            broken = true;
            code = pdn_bad(b, g->number, p.line, p.what, p.why);
            break;
        }
        b->v->make(&pos, &m);
        code = pdn_take(b, g->number, ++ply, &pos);
    }
    if (code)
        return code;
    if (g->syntax)
        return pdn_bad(b, g->number, g->syntax_line, g->syntax_what, g->syntax_why);
    if (started)
        return 0;
    if (!pdn_game_start(b->v, g, &pos, NULL, &p))
        return pdn_bad(b, g->number, p.line, p.what, p.why);
    return pdn_take(b, g->number, 0, &pos);
}

int batch_read_pdn_text(BatchList *l, const Variant *v, const Rules *rules, const char *name,
                        const char *text, size_t len, const BatchPlies *plies, char *err,
                        size_t errlen)
{
    err[0] = '\0';
    if (!text_prepare(name, &text, &len, err, errlen))
        return 2;
    PdnBatch b = { l, v, rules, name, plies, err, errlen };
    return pdn_read_text(text, len, pdn_batch_game, &b, err, errlen);
}

int batch_read_pdn_file(BatchList *l, const Variant *v, const Rules *rules, const char *path,
                        const BatchPlies *plies, char *err, size_t errlen)
{
    char *text;
    size_t len;
    const TextLimit limit = { "a PDN file", TEXT_FILE_MAX, l->stop };
    if (!text_file_read(path, &limit, &text, &len, err, errlen))
        return l->stop && atomic_load(l->stop) ? 130 : 2;
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
        if (!batch_list_add(l, v, &g.positions[i].pos, id))
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
        if (!batch_list_add(l, v, &sm.heap[i].pos, id))
            code = out_of_memory(err, errlen);
    }
    free(sm.heap);
    return code;
}

/* ---- searching ---- */
