/* Drop-out expansion of an opening book by search (book_expand.h, docs/book.md). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "book_expand.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "variant.h"

/* ---- The tree ---- */

typedef struct Node {
    Position pos;
    uint64_t key;
    int raw;             /* a leaf's search score, from its side to move */
    int value;           /* raw, or the negamax of the children (tree_values) */
    int first, nchildren; /* an expanded node's edges: Tree.edges[first ..] */
    bool expanded;
    bool terminal;       /* no legal move: never expanded */
    int ply;             /* the fewest plies from the root (tree_plies) */
    int64_t cost;        /* of the cheapest path from the root (tree_costs); -1: none */
    int dev;             /*   the score that path gives up */
    uint8_t mark;        /* tree_values' walk: 0 not seen, 1 on the path, 2 done */
} Node;

typedef struct Edge {
    Move move;
    int child;
} Edge;

typedef struct Tree {
    const Variant *v;
    Rules rules;
    Node *nodes;
    int n, cap;
    Edge *edges;
    int nedges, ecap;
    int *slots;          /* open addressing by key: node index + 1, 0 empty */
    size_t nslots;       /* a power of two, at least twice n */
    int expanded;
    MoveList *list;      /* scratch */
} Tree;

static bool tree_init(Tree *t, const Variant *v)
{
    *t = (Tree){ .v = v, .rules = v->rules_default() };
    t->nslots = 1024;
    t->slots = calloc(t->nslots, sizeof *t->slots);
    t->list = malloc(sizeof *t->list);
    return t->slots && t->list;
}

static void tree_free(Tree *t)
{
    free(t->nodes);
    free(t->edges);
    free(t->slots);
    free(t->list);
    *t = (Tree){ 0 };
}

static int tree_find(const Tree *t, const Position *pos, uint64_t key)
{
    for (size_t i = key & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
        int s = t->slots[i];
        if (s == 0) return -1;
        if (t->nodes[s - 1].key == key && position_equal(&t->nodes[s - 1].pos, pos)) return s - 1;
    }
}

static void slot_put(int *slots, size_t nslots, uint64_t key, int index)
{
    size_t i = key & (nslots - 1);
    while (slots[i]) i = (i + 1) & (nslots - 1);
    slots[i] = index + 1;
}

/* A new leaf for pos with its search score; its index, or -1 when memory runs out. */
static int tree_add(Tree *t, const Position *pos, uint64_t key, int raw)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 1024;
        Node *grown = realloc(t->nodes, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        t->nodes = grown;
        t->cap = cap;
    }
    if ((size_t)(t->n + 1) * 2 > t->nslots) {
        size_t nslots = t->nslots * 2;
        int *slots = calloc(nslots, sizeof *slots);
        if (!slots) return -1;
        for (int i = 0; i < t->n; i++) slot_put(slots, nslots, t->nodes[i].key, i);
        free(t->slots);
        t->slots = slots;
        t->nslots = nslots;
    }
    t->v->generate(pos, &t->rules, t->list);
    t->nodes[t->n] = (Node){ .pos = *pos, .key = key, .raw = raw, .value = raw, .terminal = t->list->count == 0,
                             .cost = -1 };
    slot_put(t->slots, t->nslots, key, t->n);
    return t->n++;
}

static bool tree_reserve_edges(Tree *t, int more)
{
    if (t->nedges + more <= t->ecap) return true;
    int cap = t->ecap ? t->ecap : 4096;
    while (cap < t->nedges + more) cap *= 2;
    Edge *grown = realloc(t->edges, (size_t)cap * sizeof *grown);
    if (!grown) return false;
    t->edges = grown;
    t->ecap = cap;
    return true;
}

/* A total order of positions for ties: by key, then by the bitboards (a key collision). */
static int position_order(const Node *a, const Node *b)
{
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    const uint64_t x[5] = { a->pos.men[0], a->pos.men[1], a->pos.kings[0], a->pos.kings[1], (uint64_t)a->pos.side };
    const uint64_t y[5] = { b->pos.men[0], b->pos.men[1], b->pos.kings[0], b->pos.kings[1], (uint64_t)b->pos.side };
    for (int i = 0; i < 5; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* ---- Values, plies, costs: recomputed from the whole tree after each expansion ---- */

typedef struct Frame {
    int node, next;
} Frame;

/* Negamax from the root, depth first in move order (an explicit stack: a path may be long).
 * A child on the current path (a cycle through kings' moves) counts as a draw, 0; a node
 * reached again later keeps the value it got.  Scores stay within +-SCORE_WIN. */
static bool tree_values(Tree *t)
{
    for (int i = 0; i < t->n; i++) t->nodes[i].mark = 0;
    Frame *stack = malloc((size_t)t->n * sizeof *stack);
    if (!stack) return false;
    int depth = 0;
    stack[depth++] = (Frame){ 0, 0 };
    t->nodes[0].mark = 1;
    t->nodes[0].value = -SCORE_INF;
    while (depth > 0) {
        Frame *f = &stack[depth - 1];
        Node *u = &t->nodes[f->node];
        if (!u->expanded) { /* only the root before its expansion */
            u->value = u->raw;
            u->mark = 2;
            depth--;
            continue;
        }
        if (f->next < u->nchildren) {
            int c = t->edges[u->first + f->next++].child;
            Node *child = &t->nodes[c];
            int got;
            if (child->mark == 2) {
                got = -child->value;
            } else if (child->mark == 1) {
                got = 0;
            } else if (!child->expanded) {
                child->value = child->raw;
                child->mark = 2;
                got = -child->raw;
            } else {
                child->mark = 1;
                child->value = -SCORE_INF;
                stack[depth++] = (Frame){ c, 0 };
                continue;
            }
            if (got > u->value) u->value = got;
            continue;
        }
        u->mark = 2;
        depth--;
        if (depth > 0) {
            Node *parent = &t->nodes[stack[depth - 1].node];
            if (-u->value > parent->value) parent->value = -u->value;
        }
    }
    free(stack);
    return true;
}

/* The fewest plies from the root, breadth first through the expanded nodes. */
static bool tree_plies(Tree *t)
{
    int *queue = malloc((size_t)t->n * sizeof *queue);
    if (!queue) return false;
    for (int i = 0; i < t->n; i++) t->nodes[i].ply = -1;
    int head = 0, tail = 0;
    t->nodes[0].ply = 0;
    queue[tail++] = 0;
    while (head < tail) {
        const Node *u = &t->nodes[queue[head++]];
        for (int k = 0; k < u->nchildren; k++) {
            Node *c = &t->nodes[t->edges[u->first + k].child];
            if (c->ply < 0) {
                c->ply = u->ply + 1;
                queue[tail++] = t->edges[u->first + k].child;
            }
        }
    }
    free(queue);
    return true;
}

/* What the mover gives up by playing to child rather than the best move (never below 0:
 * a cycle's draw may have made the parent's value lower than the move's). */
static int deviation(const Node *parent, const Node *child)
{
    int d = parent->value + child->value; /* value(parent) - (-value(child)) */
    return d > 0 ? d : 0;
}

typedef struct HeapItem {
    int64_t cost;
    int dev, node;
} HeapItem;

static bool heap_less(const HeapItem *a, const HeapItem *b)
{
    return a->cost != b->cost ? a->cost < b->cost : a->dev < b->dev;
}

/* Dijkstra from the root: each node's cheapest (cost, then deviation) path, a move costing
 * its deviation plus BOOK_EXPAND_PLY_COST.  The pair is a sum of non-negative parts, so the
 * result does not depend on the order nodes are settled in. */
static bool tree_costs(Tree *t)
{
    size_t cap = (size_t)t->nedges + 2, n = 0;
    HeapItem *heap = malloc(cap * sizeof *heap);
    bool *settled = calloc((size_t)t->n, sizeof *settled);
    if (!heap || !settled) {
        free(heap);
        free(settled);
        return false;
    }
    for (int i = 0; i < t->n; i++) t->nodes[i].cost = -1;
    t->nodes[0].cost = 0;
    t->nodes[0].dev = 0;
    heap[n++] = (HeapItem){ 0, 0, 0 };
    while (n > 0) {
        HeapItem top = heap[0];
        heap[0] = heap[--n];
        for (size_t i = 0;;) { /* sift down */
            size_t l = 2 * i + 1, r = l + 1, m = i;
            if (l < n && heap_less(&heap[l], &heap[m])) m = l;
            if (r < n && heap_less(&heap[r], &heap[m])) m = r;
            if (m == i) break;
            HeapItem x = heap[i];
            heap[i] = heap[m];
            heap[m] = x;
            i = m;
        }
        if (settled[top.node]) continue;
        settled[top.node] = true;
        const Node *u = &t->nodes[top.node];
        for (int k = 0; k < u->nchildren; k++) {
            int c = t->edges[u->first + k].child;
            Node *child = &t->nodes[c];
            if (settled[c]) continue;
            int d = deviation(u, child);
            HeapItem item = { top.cost + d + BOOK_EXPAND_PLY_COST, top.dev + d, c };
            HeapItem now = { child->cost, child->dev, c };
            if (child->cost >= 0 && !heap_less(&item, &now)) continue;
            child->cost = item.cost;
            child->dev = item.dev;
            if (n == cap) { /* each edge pushes at most once: not reached */
                free(heap);
                free(settled);
                return false;
            }
            size_t i = n++;
            heap[i] = item;
            while (i > 0 && heap_less(&heap[i], &heap[(i - 1) / 2])) { /* sift up */
                HeapItem x = heap[i];
                heap[i] = heap[(i - 1) / 2];
                heap[(i - 1) / 2] = x;
                i = (i - 1) / 2;
            }
        }
    }
    free(heap);
    free(settled);
    return true;
}

static bool tree_update(Tree *t)
{
    return tree_values(t) && tree_plies(t) && tree_costs(t);
}

/* The leaf to expand next, or -1: first every leaf before full_plies (by ply, then key),
 * then the cheapest leaf before max_ply within the margin (by cost, then key). */
static int tree_pick(const Tree *t, const BookExpandOptions *opt)
{
    int best = -1;
    for (int i = 0; i < t->n; i++) {
        const Node *u = &t->nodes[i];
        if (u->expanded || u->terminal || u->ply < 0 || u->ply >= opt->full_plies) continue;
        if (best < 0 || u->ply < t->nodes[best].ply
            || (u->ply == t->nodes[best].ply && position_order(u, &t->nodes[best]) < 0))
            best = i;
    }
    if (best >= 0) return best;
    for (int i = 0; i < t->n; i++) {
        const Node *u = &t->nodes[i];
        if (u->expanded || u->terminal || u->cost < 0 || u->ply >= opt->max_ply || u->dev > opt->margin) continue;
        if (best < 0 || u->cost < t->nodes[best].cost
            || (u->cost == t->nodes[best].cost && position_order(u, &t->nodes[best]) < 0))
            best = i;
    }
    return best;
}

/* ---- Searching and expanding ---- */

typedef struct Expander {
    const BookExpandOptions *opt;
    Tree tree;
    Searcher **searchers;
    int threads;
    SearchLimits limits;
    int64_t searched;
} Expander;

/* The score of a fresh search of pos (a pure function of pos); false when interrupted. */
static bool search_one(Searcher *s, const Position *pos, const SearchLimits *limits, int *score)
{
    searcher_clear(s);
    SearchInfo info = search(s, pos, NULL, 0, limits, NULL, NULL);
    if (info.interrupted) return false;
    int v = info.score;
    *score = v > SCORE_WIN ? SCORE_WIN : v < -SCORE_WIN ? -SCORE_WIN : v; /* int16 room to negate */
    return true;
}

enum { EXPAND_DONE, EXPAND_STOPPED, EXPAND_NO_MEMORY };

/* Expands node u: every legal move a child, the new ones searched (in parallel).  An
 * interrupted search leaves the tree as it was. */
static int expand(Expander *e, int u)
{
    Tree *t = &e->tree;
    MoveList *list = malloc(sizeof *list);
    if (!list) return EXPAND_NO_MEMORY;
    t->v->generate(&t->nodes[u].pos, &t->rules, list);
    int n = list->count;
    Position *next = malloc((size_t)n * sizeof *next);
    uint64_t *keys = malloc((size_t)n * sizeof *keys);
    int *child = malloc((size_t)n * sizeof *child), *fresh = malloc((size_t)n * sizeof *fresh);
    int *scores = malloc((size_t)n * sizeof *scores);
    int result = EXPAND_NO_MEMORY;
    if (!next || !keys || !child || !fresh || !scores || !tree_reserve_edges(t, n)) goto done;
    int nfresh = 0;
    for (int i = 0; i < n; i++) {
        next[i] = t->nodes[u].pos;
        t->v->make(&next[i], &list->moves[i]);
        keys[i] = position_key(&next[i]);
        child[i] = tree_find(t, &next[i], keys[i]);
        bool seen = false; /* two moves to one new position: searched once */
        for (int j = 0; j < nfresh && !seen; j++)
            seen = keys[fresh[j]] == keys[i] && position_equal(&next[fresh[j]], &next[i]);
        if (child[i] < 0 && !seen) fresh[nfresh++] = i;
    }
    int stopped = 0;
    int threads = e->threads < nfresh ? e->threads : nfresh > 0 ? nfresh : 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int k = 0; k < nfresh; k++) {
        Searcher *s = e->searchers[omp_get_thread_num()];
        if (!search_one(s, &next[fresh[k]], &e->limits, &scores[fresh[k]])) {
#pragma omp atomic write
            stopped = 1;
        }
    }
    if (stopped) {
        result = EXPAND_STOPPED;
        goto done;
    }
    e->searched += nfresh;
    for (int k = 0; k < nfresh; k++)
        if (tree_add(t, &next[fresh[k]], keys[fresh[k]], scores[fresh[k]]) < 0) goto done;
    Node *node = &t->nodes[u];
    node->first = t->nedges;
    node->nchildren = n;
    node->expanded = true;
    for (int i = 0; i < n; i++)
        t->edges[t->nedges++] = (Edge){ list->moves[i], child[i] >= 0 ? child[i] : tree_find(t, &next[i], keys[i]) };
    t->expanded++;
    result = EXPAND_DONE;
done:
    free(list);
    free(next);
    free(keys);
    free(child);
    free(fresh);
    free(scores);
    return result;
}

/* ---- The tree as a book, and back ---- */

static int compare_nodes(const void *a, const void *b)
{
    return position_order(*(const Node *const *)a, *(const Node *const *)b);
}

/* Best first, then by the move's text. */
static int compare_moves(const void *a, const void *b)
{
    const MoveStats *x = a, *y = b;
    if (x->score != y->score) return x->score > y->score ? -1 : 1;
    return strcmp(x->text, y->text);
}

static void params_of(const BookExpandOptions *opt, Book *b)
{
    *b = (Book){ .variant = opt->variant, .version = 2, .source = BOOK_SOURCE_SEARCH, .min_games = 0,
                 .margin = opt->margin };
    b->search = (BookSearchParams){ opt->nodes, opt->full_plies, opt->max_ply, weights_hash(opt->weights) };
}

/* The expanded nodes as a search book (values current: tree_update); false with err. */
static bool tree_book(const Tree *t, const BookExpandOptions *opt, Book *b, char *err, size_t errlen)
{
    params_of(opt, b);
    const Node **order = malloc(((size_t)t->expanded + 1) * sizeof *order);
    int nmoves = 0, k = 0;
    for (int i = 0; order && i < t->n; i++)
        if (t->nodes[i].expanded) {
            order[k++] = &t->nodes[i];
            nmoves += t->nodes[i].nchildren;
        }
    b->positions = calloc((size_t)k + 1, sizeof *b->positions);
    b->moves = calloc((size_t)nmoves + 1, sizeof *b->moves);
    if (!order || !b->positions || !b->moves) {
        free(order);
        book_free(b);
        snprintf(err, errlen, "%s: out of memory", opt->out);
        return false;
    }
    qsort(order, (size_t)k, sizeof *order, compare_nodes);
    for (int i = 0; i < k; i++) {
        const Node *u = order[i];
        if (i > 0 && u->key == order[i - 1]->key) { /* a file cannot hold it */
            free(order);
            book_free(b);
            snprintf(err, errlen, "%s: two positions share the key %016" PRIx64, opt->out, u->key);
            return false;
        }
        b->positions[i] = (BookPosition){ u->key, u->pos, u->ply, 0, b->nmoves, u->nchildren };
        for (int j = 0; j < u->nchildren; j++) {
            const Edge *e = &t->edges[u->first + j];
            MoveStats *m = &b->moves[b->nmoves + j];
            *m = (MoveStats){ .move = e->move, .nscores = 1, .score = -t->nodes[e->child].value };
            move_to_text_in(t->v, &u->pos, &t->rules, &e->move, m->text, sizeof m->text);
        }
        qsort(b->moves + b->nmoves, (size_t)u->nchildren, sizeof *b->moves, compare_moves);
        b->nmoves += u->nchildren;
    }
    b->npositions = k;
    free(order);
    return true;
}

static int refuse(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return BOOK_EXPAND_REFUSED;
}

/* The options of the book in the file against this run's: a resume must use the same. */
static int check_params(const Book *b, const BookExpandOptions *opt, char *err, size_t errlen)
{
    const char *path = opt->out;
    if (b->source != BOOK_SOURCE_SEARCH)
        return refuse(err, errlen, "%s: a book from games, not from book expand: it cannot be resumed", path);
    if (b->variant != opt->variant)
        return refuse(err, errlen, "%s: a book of %s, not %s", path, b->variant->name, opt->variant->name);
    Book want;
    params_of(opt, &want);
    const char *what = NULL;
    char had[64], asked[64];
    if (b->search.nodes != want.search.nodes) {
        what = "--nodes";
        snprintf(had, sizeof had, "%" PRIu64, b->search.nodes);
        snprintf(asked, sizeof asked, "%" PRIu64, want.search.nodes);
    } else if (b->margin != want.margin || b->search.full_plies != want.search.full_plies
               || b->search.max_ply != want.search.max_ply) {
        bool m = b->margin != want.margin, f = !m && b->search.full_plies != want.search.full_plies;
        what = m ? "--margin" : f ? "--full-plies" : "--max-ply";
        snprintf(had, sizeof had, "%d", m ? b->margin : f ? b->search.full_plies : b->search.max_ply);
        snprintf(asked, sizeof asked, "%d", m ? want.margin : f ? want.search.full_plies : want.search.max_ply);
    } else if (b->search.weights != want.search.weights) {
        what = "--weights";
        snprintf(had, sizeof had, "%016" PRIx64, b->search.weights);
        snprintf(asked, sizeof asked, "%016" PRIx64, want.search.weights);
    }
    if (what)
        return refuse(err, errlen, "%s: built with %s %s, not %s: resume it with the options it was built with",
                      path, what, had, asked);
    return BOOK_EXPAND_OK;
}

/* The tree of a search book: the start position, each P line an expanded node whose
 * every move leads to a child, a child without a P line a leaf of score -(its M score).
 * Refused unless writing the tree back gives the file's own book (a file some other build
 * or an edit made would not resume to the same bytes). */
static int tree_load(Expander *e, const Book *b, char *err, size_t errlen)
{
    const BookExpandOptions *opt = e->opt;
    Tree *t = &e->tree;
    MoveList *list = malloc(sizeof *list);
    if (!list) return snprintf(err, errlen, "%s: out of memory", opt->out), BOOK_EXPAND_FAILED;
    int result = BOOK_EXPAND_OK;
    for (int u = 0; u < t->n && result == BOOK_EXPAND_OK; u++) { /* breadth first: t->n grows */
        const BookPosition *p = book_find(b, &t->nodes[u].pos);
        if (!p) continue;
        Position pos = t->nodes[u].pos;
        t->v->generate(&pos, &t->rules, list);
        if (!tree_reserve_edges(t, list->count)) {
            result = BOOK_EXPAND_FAILED;
            break;
        }
        int first = t->nedges;
        for (int i = 0; i < list->count && result == BOOK_EXPAND_OK; i++) {
            int j = p->first;
            while (j < p->first + p->nmoves && !move_same(&b->moves[j].move, &list->moves[i])) j++;
            if (j == p->first + p->nmoves) { /* book_read checks that every move is listed */
                result = refuse(err, errlen, "%s: a move of a position is missing", opt->out);
                break;
            }
            Position next = pos;
            t->v->make(&next, &list->moves[i]);
            uint64_t key = position_key(&next);
            int c = tree_find(t, &next, key);
            if (c < 0 && (c = tree_add(t, &next, key, -b->moves[j].score)) < 0) result = BOOK_EXPAND_FAILED;
            else t->edges[t->nedges++] = (Edge){ list->moves[i], c };
        }
        t->nodes[u].first = first;
        t->nodes[u].nchildren = list->count;
        t->nodes[u].expanded = true;
        t->expanded++;
    }
    free(list);
    if (result == BOOK_EXPAND_FAILED) return snprintf(err, errlen, "%s: out of memory", opt->out), result;
    if (result != BOOK_EXPAND_OK) return result;
    if (t->expanded != b->npositions)
        return refuse(err, errlen, "%s: %d of its positions are not reached from the start position", opt->out,
                      b->npositions - t->expanded);
    if (!tree_update(t)) return snprintf(err, errlen, "%s: out of memory", opt->out), BOOK_EXPAND_FAILED;
    Book back;
    if (!tree_book(t, opt, &back, err, errlen)) return BOOK_EXPAND_FAILED;
    char *a = NULL, *z = NULL;
    size_t alen = 0, zlen = 0;
    bool formatted = book_format(b, &a, &alen) && book_format(&back, &z, &zlen);
    bool same = formatted && alen == zlen && memcmp(a, z, alen) == 0;
    free(a);
    free(z);
    book_free(&back);
    if (!formatted) return snprintf(err, errlen, "%s: out of memory", opt->out), BOOK_EXPAND_FAILED;
    if (!same)
        return refuse(err, errlen, "%s: its scores or plies are not those of its own tree (edited, or built by "
                      "another version of dama?): it cannot be resumed", opt->out);
    return BOOK_EXPAND_OK;
}

/* ---- The run ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool save(const Expander *e, char *err, size_t errlen)
{
    Book b;
    if (!tree_book(&e->tree, e->opt, &b, err, errlen)) return false;
    bool ok = book_write(&b, e->opt->out, err, errlen);
    book_free(&b);
    return ok;
}

static void progress(const Expander *e, int resumed, double t0, double now)
{
    const BookExpandOptions *opt = e->opt;
    if (!opt->progress) return;
    double elapsed = now - t0;
    int done = e->tree.expanded - resumed, left = opt->positions - e->tree.expanded;
    fprintf(opt->progress, "book expand: expanded %d/%d searched %" PRId64 " elapsed %.0fs", e->tree.expanded,
            opt->positions, e->searched, elapsed);
    if (done > 0 && left > 0) fprintf(opt->progress, " eta %.0fs", elapsed / done * left);
    fputc('\n', opt->progress);
    fflush(opt->progress);
}

int book_expand(const BookExpandOptions *opt, BookExpandStats *stats, char *err, size_t errlen)
{
    double t0 = now_seconds();
    *stats = (BookExpandStats){ 0 };
    err[0] = '\0';
    struct stat st;
    bool exists = stat(opt->out, &st) == 0;
    if (exists && !opt->resume)
        return refuse(err, errlen, "%s: the file exists: give --resume to continue it, or remove it", opt->out);
    Expander e = { .opt = opt, .limits = { .nodes = opt->nodes } };
    e.threads = opt->threads > 0 ? opt->threads : omp_get_max_threads();
    if (e.threads < 1) e.threads = 1;
    int result = BOOK_EXPAND_FAILED;
    Book file = { 0 };
    if (!tree_init(&e.tree, opt->variant)) goto no_memory;
    e.searchers = calloc((size_t)e.threads, sizeof *e.searchers);
    if (!e.searchers) goto no_memory;
    Rules rules = opt->variant->rules_default();
    for (int i = 0; i < e.threads; i++) {
        if (!(e.searchers[i] = searcher_new(opt->variant, &rules, opt->weights, BOOK_EXPAND_HASH_MB))) {
            snprintf(err, errlen, "%s: out of memory for %d searches of a %d MB table", opt->out, e.threads,
                     BOOK_EXPAND_HASH_MB);
            goto end;
        }
        e.searchers[i]->stop_request = opt->stop;
    }
    Position start;
    opt->variant->start(&start);
    if (tree_add(&e.tree, &start, position_key(&start), 0) < 0) goto no_memory;
    if (exists) {
        if (!book_read(&file, opt->out, opt->stop, err, errlen)) {
            result = opt->stop && atomic_load(opt->stop) ? BOOK_EXPAND_INTERRUPTED : BOOK_EXPAND_REFUSED;
            goto end;
        }
        if ((result = check_params(&file, opt, err, errlen)) != BOOK_EXPAND_OK) goto end;
        if (file.npositions > 0 && !book_find(&file, &start)) {
            result = refuse(err, errlen, "%s: the start position is not in the book", opt->out);
            goto end;
        }
        if ((result = tree_load(&e, &file, err, errlen)) != BOOK_EXPAND_OK) goto end;
        result = BOOK_EXPAND_FAILED;
    } else if (!tree_update(&e.tree)) {
        goto no_memory;
    }
    int resumed = stats->resumed = e.tree.expanded;
    double last_save = now_seconds(), last_progress = last_save;
    bool stopped = false;
    while (e.tree.expanded < opt->positions) {
        if (opt->stop && atomic_load(opt->stop)) {
            stopped = true;
            break;
        }
        int u = tree_pick(&e.tree, opt);
        if (u < 0) {
            stats->exhausted = true;
            break;
        }
        int r = expand(&e, u);
        if (r == EXPAND_NO_MEMORY) goto no_memory;
        if (r == EXPAND_STOPPED) {
            stopped = true;
            break;
        }
        if (!tree_update(&e.tree)) goto no_memory;
        double now = now_seconds();
        if (now - last_progress >= BOOK_EXPAND_PROGRESS_SECONDS) {
            progress(&e, resumed, t0, now);
            last_progress = now;
        }
        if (now - last_save >= BOOK_EXPAND_SAVE_SECONDS) {
            if (!save(&e, err, errlen)) goto end;
            last_save = now;
        }
    }
    progress(&e, resumed, t0, now_seconds());
    if (!save(&e, err, errlen)) goto end;
    result = stopped ? BOOK_EXPAND_INTERRUPTED : BOOK_EXPAND_OK;
    goto end;
no_memory:
    snprintf(err, errlen, "%s: out of memory", opt->out);
    result = BOOK_EXPAND_FAILED;
end:
    stats->expanded = e.tree.expanded;
    stats->moves = 0;
    for (int i = 0; i < e.tree.n; i++) stats->moves += e.tree.nodes[i].expanded ? e.tree.nodes[i].nchildren : 0;
    stats->searched = e.searched;
    stats->seconds = now_seconds() - t0;
    book_free(&file);
    for (int i = 0; e.searchers && i < e.threads; i++) searcher_free(e.searchers[i]);
    free(e.searchers);
    tree_free(&e.tree);
    return result;
}
