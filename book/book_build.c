/* An opening book from the database's games (book_build.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_build.h"
#include "position.h"
#include "variant.h"

/* One game leaving a position: the position, where, and what followed. */
typedef struct Edge {
    uint64_t key;
    Position pos;
    int ply;
    MoveSample next;
} Edge;

typedef struct Walk {
    const BookBuildOptions *opt;
    Edge *edges;
    size_t n, cap;
    bool have_prev, out_of_memory;
    int64_t prev_game;
    int prev_ply;
    Position prev;
} Walk;

static int on_position(void *ctx, int64_t game_id, int ply, const Position *pos, int score, bool has_score,
                       int result)
{
    Walk *w = ctx;
    if (w->have_prev && w->prev_game == game_id && w->prev_ply + 1 == ply) {
        if (w->n == w->cap) {
            size_t cap = w->cap ? w->cap * 2 : 4096;
            Edge *grown = realloc(w->edges, cap * sizeof *grown);
            if (!grown) {
                w->out_of_memory = true;
                return 1;
            }
            w->edges = grown;
            w->cap = cap;
        }
        w->edges[w->n++] = (Edge){ position_key(&w->prev), w->prev, w->prev_ply,
                                   { *pos, game_id, result, score, has_score } };
    }
    w->have_prev = w->opt->max_ply == 0 || ply < w->opt->max_ply; /* the last ply's next still counts */
    w->prev_game = game_id;
    w->prev_ply = ply;
    w->prev = *pos;
    return 0;
}

static int compare_edges(const void *a, const void *b)
{
    const Edge *x = a, *y = b;
    if (x->key != y->key) return (x->key > y->key) - (x->key < y->key);
    if (x->next.game_id != y->next.game_id)
        return (x->next.game_id > y->next.game_id) - (x->next.game_id < y->next.game_id);
    return (x->ply > y->ply) - (x->ply < y->ply); /* a game's passes in order: its first counts */
}

/* Book order: best average score first, then more games, then the move's text. */
static int compare_book_moves(const void *a, const void *b)
{
    const MoveStats *x = a, *y = b;
    if (x->score != y->score) return y->score - x->score;
    if (x->games != y->games) return y->games - x->games;
    return strcmp(x->text, y->text);
}

static bool grow(void **items, int *cap, int need, size_t size)
{
    if (need <= *cap) return true;
    int c = *cap ? *cap * 2 : 1024;
    while (c < need) c *= 2;
    void *g = realloc(*items, (size_t)c * size);
    if (!g) return false;
    *items = g;
    *cap = c;
    return true;
}

/* The moves of one position (edges [first, last), one key) that stay in the book, appended to
 * out; false when memory runs out. */
static bool add_position(const BookBuildOptions *opt, Edge *e, size_t count, Book *out, int *pcap, int *mcap,
                         MoveSample *samples, int64_t *ids, MoveStats *stats, BookBuildStats *bs)
{
    const Variant *v = opt->variant;
    Rules rules = v->rules_default();
    int n = 0, ply = e[0].ply;
    for (size_t i = 0; i < count; i++) {
        if (!position_equal(&e[i].pos, &e[0].pos)) continue; /* a key collision: the first position only */
        samples[n] = e[i].next;
        ids[n++] = e[i].next.game_id;
        if (e[i].ply < ply) ply = e[i].ply;
    }
    int games = move_stats_distinct_games(ids, n);
    if (games < opt->min_games) return true;
    int unmatched;
    int nstats = move_stats_collect(v, &rules, &e[0].pos, samples, n, stats, MAX_MOVES, &unmatched);
    if (nstats < 0) return false;
    bs->unmatched += unmatched;
    int best = 0, kept = 0;
    bool any = false;
    for (int i = 0; i < nstats; i++)
        if (stats[i].games >= opt->min_games && stats[i].nscores > 0 && (!any || stats[i].score > best)) {
            best = stats[i].score;
            any = true;
        }
    for (int i = 0; any && i < nstats; i++)
        if (stats[i].games >= opt->min_games && stats[i].nscores > 0 && stats[i].score >= best - opt->margin)
            stats[kept++] = stats[i];
    if (kept == 0) return true;
    qsort(stats, (size_t)kept, sizeof *stats, compare_book_moves);
    if (!grow((void **)&out->positions, pcap, out->npositions + 1, sizeof *out->positions)
        || !grow((void **)&out->moves, mcap, out->nmoves + kept, sizeof *out->moves))
        return false;
    out->positions[out->npositions++] = (BookPosition){ e[0].key, e[0].pos, ply, games, out->nmoves, kept };
    memcpy(out->moves + out->nmoves, stats, (size_t)kept * sizeof *stats);
    out->nmoves += kept;
    return true;
}

bool book_build(Store *s, const BookBuildOptions *opt, Book *out, BookBuildStats *stats, char *err, size_t errlen)
{
    *out = (Book){ .variant = opt->variant, .version = 1, .source = BOOK_SOURCE_GAMES, .min_games = opt->min_games,
                   .margin = opt->margin };
    *stats = (BookBuildStats){ 0 };
    Walk w = { .opt = opt };
    if (!store_positions_foreach(s, opt->variant->name, NULL, 0, false, on_position, &w)) {
        snprintf(err, errlen, "%s", store_error(s));
        free(w.edges);
        return false;
    }
    bool ok = !w.out_of_memory;
    qsort(w.edges, w.n, sizeof *w.edges, compare_edges);
    stats->positions_seen = (int64_t)w.n;
    /* Room for the largest group of one key. */
    size_t largest = 0;
    for (size_t i = 0, j; i < w.n; i = j) {
        for (j = i; j < w.n && w.edges[j].key == w.edges[i].key; j++) {}
        if (j - i > largest) largest = j - i;
    }
    MoveSample *samples = malloc((largest + 1) * sizeof *samples);
    int64_t *ids = malloc((largest + 1) * sizeof *ids);
    MoveStats *ms = malloc(MAX_MOVES * sizeof *ms);
    ok = ok && samples && ids && ms;
    int pcap = 0, mcap = 0;
    for (size_t i = 0, j; ok && i < w.n; i = j) {
        for (j = i; j < w.n && w.edges[j].key == w.edges[i].key; j++) {}
        stats->distinct++;
        ok = add_position(opt, &w.edges[i], j - i, out, &pcap, &mcap, samples, ids, ms, stats);
    }
    free(samples);
    free(ids);
    free(ms);
    free(w.edges);
    if (!ok) {
        book_free(out);
        snprintf(err, errlen, "out of memory while building the book");
    }
    return ok;
}

bool book_build_file(const char *db_path, const BookBuildOptions *opt, const char *out_path, Book *out,
                     BookBuildStats *stats, char *err, size_t errlen)
{
    Store *store = store_open_readonly(db_path, err, errlen);
    if (!store)
        return false;
    char why[1024];
    bool ok = book_build(store, opt, out, stats, why, sizeof why);
    store_close(store);
    if (!ok)
        return snprintf(err, errlen, "book build: %s: %s", db_path, why), false;
    if (book_write(out, out_path, err, errlen))
        return true;
    book_free(out);
    return false;
}
