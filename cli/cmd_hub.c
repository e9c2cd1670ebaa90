/* `dama hub`: an engine speaking the Hub protocol, version 2 (the help below sums it up),
 * for both variants.  The main thread reads commands; a search runs in its own thread, so
 * that ping, stop and ponder-hit are answered while it thinks.  Everything the engine
 * prints goes through one lock, a whole line at a time. */
#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "book_file.h"
#include "commands.h"
#include "egdb_option.h"
#include "egdb_search.h"
#include "game.h"
#include "hub_line.h"
#include "hub_text.h"
#include "line_reader.h"
#include "search.h"
#include "time_manager.h"
#include "variant.h"
#include "version.h"
#include "pipeline.h"
#include "weights.h"

#define HUB_HASH_DEFAULT 64
#define HUB_HASH_MAX 4096

/* What the user may set (param lines). */
typedef struct HubParams {
    const Variant *variant;
    /* The last variant the GUI asked for and dama refused ("" when none was): until a
     * variant dama plays is set, init, pos and go answer with an error, so the engine
     * never plays a game the GUI did not ask for. */
    char refused_variant[64];
    long hash_mb;
    char weights[1024]; /* "" = built-in */
    char rules[256];    /* "" = the official rules */
    char book[1024];    /* an opening book file (docs/book.md); "" = none */
    char egdb[1024];    /* an endgame database directory (docs/egdb.md); "" = none */
} HubParams;

/* The search limit of `level`: the last level line, whole. */
typedef struct HubLevel {
    int depth;
    uint64_t nodes;
    double move_time;   /* seconds; 0 = none */
    double time, inc;   /* the clock, seconds; timed when has_time */
    int moves;          /* moves to the next time control; 0 = not given */
    bool has_time;
    bool infinite;
} HubLevel;

enum GoMode { GO_THINK, GO_PONDER, GO_ANALYZE };

typedef struct Hub {
    HubParams params;
    bool dirty;                  /* params changed since the engine was built */
    /* The engine, built by init from params; lives until quit. */
    const Variant *variant;
    Rules rules;
    Weights weights;
    Book book;                   /* empty when no book is set */
    Egdb *egdb;                  /* NULL when none is set or usable */
    Searcher *searcher;
    long searcher_hash;
    Game *game;
    bool have_pos;
    HubLevel level;

    /* The search in progress.  Only the main thread starts and joins it. */
    pthread_t thread;
    bool searching;
    int mode;
    SearchLimits limits;
    atomic_bool stop;            /* the Searcher's stop_request */
    atomic_bool finishing;       /* the search thread is past the search, printing done */
    double ponder_budget;        /* seconds after ponder-hit (0: none) */
    double deadline;             /* monotonic seconds when the main thread stops it; 0 none */
    pthread_mutex_t lock;        /* guards hold and output */
    pthread_cond_t released;
    bool hold;                   /* done waits for stop (analyze, infinite, ponder) */
} Hub;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sends one line; out of memory while building it sends what there is. */
static void send_line(Hub *h, const HubWriter *w)
{
    pthread_mutex_lock(&h->lock);
    printf("%s\n", hub_writer_text(w));
    fflush(stdout);
    pthread_mutex_unlock(&h->lock);
}

static void send_error(Hub *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void send_error(Hub *h, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    HubWriter w = { 0 };
    hub_writer_start(&w, "error");
    hub_writer_arg(&w, "message", message);
    send_line(h, &w);
    hub_writer_free(&w);
}

static void send_word(Hub *h, const char *word)
{
    HubWriter w = { 0 };
    hub_writer_start(&w, word);
    send_line(h, &w);
    hub_writer_free(&w);
}

/* ---- Start-up and parameters ---- */

static void send_identity(Hub *h)
{
    HubWriter w = { 0 };
    hub_writer_start(&w, "id");
    hub_writer_arg(&w, "name", "dama");
    hub_writer_arg(&w, "version", dama_version());
    hub_writer_arg(&w, "author", "the dama developers");
    send_line(h, &w);

    char values[256];
    /* "normal" is Scan's and the Hub GUI's name of International: listed, so that a GUI
     * looking for its name among the values finds it. */
    snprintf(values, sizeof values, "%s normal %s", international_variant.name, turkish_variant.name);
    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "variant");
    hub_writer_arg(&w, "value", h->params.variant->name);
    hub_writer_arg(&w, "type", "enum");
    hub_writer_arg(&w, "values", values);
    send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "hash");
    hub_writer_argf(&w, "value", "%ld", h->params.hash_mb);
    hub_writer_arg(&w, "type", "int");
    hub_writer_arg(&w, "min", "1");
    hub_writer_argf(&w, "max", "%d", HUB_HASH_MAX);
    send_line(h, &w);

    /* The search is single-threaded: 1 is all there is to choose. */
    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "threads");
    hub_writer_arg(&w, "value", "1");
    hub_writer_arg(&w, "type", "int");
    hub_writer_arg(&w, "min", "1");
    hub_writer_arg(&w, "max", "1");
    send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "weights");
    hub_writer_arg(&w, "value", h->params.weights);
    hub_writer_arg(&w, "type", "string");
    send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "rules");
    hub_writer_arg(&w, "value", h->params.rules);
    hub_writer_arg(&w, "type", "string");
    send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "book");
    hub_writer_arg(&w, "value", h->params.book);
    hub_writer_arg(&w, "type", "string");
    send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "egdb");
    hub_writer_arg(&w, "value", h->params.egdb);
    hub_writer_arg(&w, "type", "string");
    send_line(h, &w);

    hub_writer_start(&w, "wait");
    send_line(h, &w);
    hub_writer_free(&w);
}

/* A parameter's new value (checked now, used by the next init); false after an error line. */
static bool set_param(Hub *h, HubParams *p, const char *name, const char *value)
{
    if (strcmp(name, "variant") == 0) {
        char why[256];
        const Variant *v = hub_variant_by_name(value, why, sizeof why);
        if (!v) {
            snprintf(p->refused_variant, sizeof p->refused_variant, "%.*s", (int)strcspn(value, "\"\n"), value);
            send_error(h, "set-param: %s; no game is played until one of them is set", why);
            return false;
        }
        p->variant = v;
        p->refused_variant[0] = '\0';
    } else if (strcmp(name, "hash") == 0) {
        char *end;
        long mb = strtol(value, &end, 10);
        if (end == value || *end || mb < 1 || mb > HUB_HASH_MAX) {
            send_error(h, "set-param: hash is a whole number of MB from 1 to %d, not '%s'", HUB_HASH_MAX, value);
            return false;
        }
        p->hash_mb = mb;
    } else if (strcmp(name, "threads") == 0) {
        if (strcmp(value, "1") != 0) {
            send_error(h, "set-param: threads can only be 1 (the search is single-threaded), not '%s'", value);
            return false;
        }
    } else if (strcmp(name, "weights") == 0) {
        if (strlen(value) >= sizeof p->weights) {
            send_error(h, "set-param: the weights path is too long");
            return false;
        }
        snprintf(p->weights, sizeof p->weights, "%s", value);
    } else if (strcmp(name, "rules") == 0) {
        if (strlen(value) >= sizeof p->rules) {
            send_error(h, "set-param: the rules text is too long");
            return false;
        }
        snprintf(p->rules, sizeof p->rules, "%s", value);
    } else if (strcmp(name, "book") == 0) {
        if (strlen(value) >= sizeof p->book) {
            send_error(h, "set-param: the book path is too long");
            return false;
        }
        snprintf(p->book, sizeof p->book, "%s", value);
    } else if (strcmp(name, "egdb") == 0) {
        if (strlen(value) >= sizeof p->egdb) {
            send_error(h, "set-param: the egdb path is too long");
            return false;
        }
        snprintf(p->egdb, sizeof p->egdb, "%s", value);
    } /* an unknown parameter is ignored, as the protocol asks */
    return true;
}

/* Builds the engine from the parameters: rules, weights, hash table, a new game at the
 * start.  The hash table is kept when its size and variant stay.  False after an error line;
 * the previous engine (if any) is kept then. */
static bool build_engine(Hub *h)
{
    const Variant *v = h->params.variant;
    char err[600];
    if (h->params.refused_variant[0]) {
        send_error(h, "the variant '%s' was refused: set-param name=variant value=international "
                   "(or normal) or turkish first", h->params.refused_variant);
        return false;
    }
    Rules rules = rules_default(v);
    if (h->params.rules[0] && !rules_parse(v, &rules, h->params.rules, err, sizeof err)) {
        send_error(h, "rules: %s", err);
        return false;
    }
    Book book = { 0 };
    if (h->params.book[0] && !book_read(&book, h->params.book, NULL, err, sizeof err)) {
        send_error(h, "book: %s", err);
        return false;
    }
    if (h->params.book[0] && book.variant != v) {
        send_error(h, "book: %s is a book of %s, not %s", h->params.book, book.variant->name, v->name);
        book_free(&book);
        return false;
    }
    Weights weights;
    if (!pipeline_weights_by_name(&weights, v, h->params.weights[0] ? h->params.weights : "best",
                                  err, sizeof err)) {
        send_error(h, "weights: %s", err);
        book_free(&book);
        return false;
    }
    book_free(&h->book);
    h->book = book;
    /* The searcher reads the weights through its pointer to h->weights: replaced in place. */
    weights_free(&h->weights);
    if (!h->searcher || h->variant != v || h->searcher_hash != h->params.hash_mb) {
        searcher_free(h->searcher);
        h->searcher = NULL;
        h->weights = weights;
        h->searcher = searcher_new(v, &rules, &h->weights, (size_t)h->params.hash_mb);
        if (!h->searcher) {
            send_error(h, "out of memory for a %ld MB hash table", h->params.hash_mb);
            h->variant = NULL;
            return false;
        }
        h->searcher->stop_request = &h->stop;
        h->searcher_hash = h->params.hash_mb;
    } else {
        h->weights = weights;
        h->searcher->rules = rules;
        searcher_clear(h->searcher);
    }
    /* The endgame databases: a missing or damaged one is said on stderr and not used. */
    egdb_close(h->egdb);
    h->egdb = h->params.egdb[0] ? cli_egdb_open(h->params.egdb, v, &rules) : NULL;
    egdb_search_attach(h->searcher, h->egdb);
    h->variant = v;
    h->rules = rules;
    Position start;
    v->start(&start);
    game_init(h->game, v, &rules, &start);
    h->have_pos = true;
    h->dirty = false;
    return true;
}

/* The engine for a command that needs one: built on first use, rebuilt after set-param. */
static bool engine_ready(Hub *h)
{
    return (h->searcher && !h->dirty && !h->params.refused_variant[0]) || build_engine(h);
}

/* ---- Position and level ---- */

static void cmd_pos(Hub *h, const HubLine *line)
{
    if (!engine_ready(h))
        return;
    const Variant *v = h->variant;
    const char *text = hub_line_value(line, "pos");
    bool start = hub_line_has(line, "start") || (text && strcmp(text, "start") == 0);
    Position pos;
    char err[512];
    h->have_pos = false; /* a bad pos leaves none: the GUI's next go gets an error, not a
                            search of a position it did not mean */
    if (start)
        v->start(&pos);
    else if (!text) {
        send_error(h, "pos: expected pos=POSITION or start");
        return;
    } else if (!hub_position_from_text(v, text, &pos, err, sizeof err)) {
        send_error(h, "pos: %s", err);
        return;
    }
    game_init(h->game, v, &h->rules, &pos);
    const char *moves = hub_line_value(line, "moves");
    if (moves) {
        char *copy = strdup(moves), *save = NULL;
        if (!copy) {
            send_error(h, "pos: out of memory");
            return;
        }
        int n = 0;
        for (char *m = strtok_r(copy, " \t", &save); m; m = strtok_r(NULL, " \t", &save)) {
            Move move;
            n++;
            if (!hub_move_from_text(v, &h->game->pos, &h->rules, m, &move, err, sizeof err)) {
                send_error(h, "pos: move %d: %s", n, err);
                free(copy);
                return;
            }
            if (!game_play(h->game, &move)) {
                send_error(h, "pos: more than %d moves", MAX_GAME_PLIES);
                free(copy);
                return;
            }
        }
        free(copy);
    }
    h->have_pos = true;
}

/* A number of seconds: a non-negative real. */
static bool seconds_value(Hub *h, const char *name, const char *text, double *out)
{
    char *end;
    double x = text ? strtod(text, &end) : 0;
    if (!text || end == text || *end || !(x >= 0) || x > 1e7) {
        send_error(h, "level: %s is a number of seconds, not '%s'", name, text ? text : "(none)");
        return false;
    }
    *out = x;
    return true;
}

static bool count_value(Hub *h, const char *name, const char *text, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long x = text && *text != '-' ? strtoull(text, &end, 10) : 0;
    if (!text || *text == '-' || end == text || *end || x < 1 || x > max) {
        send_error(h, "level: %s is a whole number from 1 to %llu, not '%s'", name,
                   (unsigned long long)max, text ? text : "(none)");
        return false;
    }
    *out = x;
    return true;
}

static void cmd_level(Hub *h, const HubLine *line)
{
    HubLevel l = { 0 };
    uint64_t n;
    const char *t;
    if ((t = hub_line_value(line, "depth")) || hub_line_has(line, "depth")) {
        if (!count_value(h, "depth", t, SEARCH_DEPTH_MAX, &n))
            return;
        l.depth = (int)n;
    }
    if ((t = hub_line_value(line, "nodes")) || hub_line_has(line, "nodes")) {
        if (!count_value(h, "nodes", t, UINT64_MAX, &n))
            return;
        l.nodes = n;
    }
    if (hub_line_has(line, "move-time") && !seconds_value(h, "move-time", hub_line_value(line, "move-time"), &l.move_time))
        return;
    if (hub_line_has(line, "time")) {
        if (!seconds_value(h, "time", hub_line_value(line, "time"), &l.time))
            return;
        l.has_time = true;
    }
    if (hub_line_has(line, "inc") && !seconds_value(h, "inc", hub_line_value(line, "inc"), &l.inc))
        return;
    if ((t = hub_line_value(line, "moves")) || hub_line_has(line, "moves")) {
        if (!count_value(h, "moves", t, 10000, &n))
            return;
        l.moves = (int)n;
    }
    l.infinite = hub_line_has(line, "infinite");
    h->level = l;
}

/* The hub's level as a time control (engine/time_manager.h); the overhead covers reading
 * the pipe, writing the answer and the GUI. */
#define HUB_OVERHEAD_MS 20

static TimeBudget level_budget(const HubLevel *l)
{
    TimeControl tc = { .overhead_ms = HUB_OVERHEAD_MS };
    if (l->move_time > 0)
        tc.move_ms = (int64_t)ceil(l->move_time * 1000);
    else if (l->has_time) {
        tc.time_ms = (int64_t)floor(l->time * 1000);
        tc.inc_ms = (int64_t)floor(l->inc * 1000);
        tc.moves_to_go = l->moves;
    }
    return time_budget(&tc);
}

/* ---- The search ---- */

static void pv_text(const Variant *v, const SearchInfo *info, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < info->pv_length && n + HUB_MOVE_MAX + 1 < len; i++) {
        char m[HUB_MOVE_MAX];
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", hub_move_to_text(v, &info->pv[i], m, sizeof m));
    }
}

static void report_info(void *ctx, const SearchInfo *info)
{
    Hub *h = ctx;
    char score[32], pv[MAX_PLY * (HUB_MOVE_MAX + 1)];
    hub_score_to_text(info->score, score, sizeof score);
    pv_text(h->variant, info, pv, sizeof pv);
    HubWriter w = { 0 };
    hub_writer_start(&w, "info");
    hub_writer_argf(&w, "depth", "%d", info->depth);
    hub_writer_arg(&w, "score", score);
    hub_writer_argf(&w, "nodes", "%llu", (unsigned long long)info->nodes);
    hub_writer_argf(&w, "time", "%.3f", info->seconds);
    hub_writer_argf(&w, "nps", "%.2f", info->seconds > 0 ? (double)info->nodes / info->seconds / 1e6 : 0.0);
    hub_writer_arg(&w, "pv", pv);
    send_line(h, &w);
    hub_writer_free(&w);
}

static void *search_thread(void *arg)
{
    Hub *h = arg;
    Game *g = h->game;
    h->searcher->root_endgame_plies = g->endgame_plies;
    const uint64_t *history = &g->keys[g->ply - g->since_capture];
    SearchInfo info = search(h->searcher, &g->pos, history, g->since_capture, &h->limits, report_info, h);

    /* Analysis, an infinite level and an unanswered ponder answer only when told to stop. */
    pthread_mutex_lock(&h->lock);
    while (h->hold && !atomic_load(&h->stop))
        pthread_cond_wait(&h->released, &h->lock);
    pthread_mutex_unlock(&h->lock);
    atomic_store(&h->finishing, true);

    Move best;
    if (info.pv_length > 0)
        best = info.pv[0];
    else { /* stopped within the first iteration: any legal move is better than none */
        MoveList list;
        h->variant->generate(&g->pos, &h->rules, &list);
        best = list.moves[0];
    }
    char move[HUB_MOVE_MAX];
    HubWriter w = { 0 };
    hub_writer_start(&w, "done");
    hub_writer_arg(&w, "move", hub_move_to_text(h->variant, &best, move, sizeof move));
    if (info.pv_length > 1)
        hub_writer_arg(&w, "ponder", hub_move_to_text(h->variant, &info.pv[1], move, sizeof move));
    send_line(h, &w);
    hub_writer_free(&w);
    return NULL;
}

/* Joins a search that has ended (or is printing done); true when none runs any more. */
static bool search_over(Hub *h)
{
    if (h->searching && atomic_load(&h->finishing)) {
        pthread_join(h->thread, NULL);
        h->searching = false;
    }
    return !h->searching;
}

static void stop_search(Hub *h)
{
    if (!h->searching)
        return;
    pthread_mutex_lock(&h->lock);
    atomic_store(&h->stop, true);
    pthread_cond_broadcast(&h->released);
    pthread_mutex_unlock(&h->lock);
    h->deadline = 0;
}

static void cmd_go(Hub *h, const HubLine *line)
{
    if (!engine_ready(h))
        return;
    if (!h->have_pos) {
        send_error(h, "go: no position (the last pos was refused)");
        return;
    }
    MoveList list;
    h->variant->generate(&h->game->pos, &h->rules, &list);
    if (list.count == 0) {
        send_error(h, "go: the side to move has no legal move: the game is over");
        return;
    }
    int mode = hub_line_has(line, "analyze") ? GO_ANALYZE : hub_line_has(line, "ponder") ? GO_PONDER : GO_THINK;
    Move book_move;
    if (mode == GO_THINK && book_choose(&h->book, &h->game->pos, &h->rules, BOOK_BEST, 0, &book_move)) {
        char move[HUB_MOVE_MAX];
        HubWriter w = { 0 };
        hub_writer_start(&w, "done");
        hub_writer_arg(&w, "move", hub_move_to_text(h->variant, &book_move, move, sizeof move));
        send_line(h, &w);
        hub_writer_free(&w);
        return;
    }
    const HubLevel *l = &h->level;
    SearchLimits limits = { .depth = l->depth, .nodes = l->nodes };
    TimeBudget budget = level_budget(l);
    h->ponder_budget = 0;
    if (mode == GO_THINK && !l->infinite) {
        limits.movetime_ms = (int)budget.hard_ms;
        limits.soft_ms = (int)budget.soft_ms;
    } else if (mode == GO_PONDER && !l->infinite) { /* counted from ponder-hit */
        h->ponder_budget = (double)(budget.soft_ms > 0 ? budget.soft_ms : budget.hard_ms) / 1000.0;
    }
    if (mode == GO_ANALYZE)
        limits = (SearchLimits){ 0 };
    h->limits = limits;
    h->mode = mode;
    h->hold = mode != GO_THINK || l->infinite;
    h->deadline = 0;
    atomic_store(&h->stop, false);
    atomic_store(&h->finishing, false);
    if (pthread_create(&h->thread, NULL, search_thread, h) != 0) {
        send_error(h, "go: cannot start the search thread");
        return;
    }
    h->searching = true;
}

static void cmd_ponder_hit(Hub *h)
{
    if (!h->searching || h->mode != GO_PONDER)
        return;
    h->mode = GO_THINK;
    pthread_mutex_lock(&h->lock);
    h->hold = h->level.infinite;
    pthread_cond_broadcast(&h->released);
    pthread_mutex_unlock(&h->lock);
    if (h->ponder_budget > 0)
        h->deadline = now_seconds() + h->ponder_budget;
}

/* ---- The command loop ---- */

static void free_hub(Hub *h)
{
    searcher_free(h->searcher);
    weights_free(&h->weights);
    book_free(&h->book);
    egdb_close(h->egdb);
    free(h->game);
    pthread_mutex_destroy(&h->lock);
    pthread_cond_destroy(&h->released);
}

/* Handles one line; false on quit. */
static bool handle_line(Hub *h, const char *text)
{
    HubLine line;
    char err[256];
    if (!hub_line_parse(&line, text, err, sizeof err)) {
        send_error(h, "%s", err);
        hub_line_free(&line);
        return true;
    }
    const char *c = line.command;
    bool go_on = true;
    /* A search told to stop ends within milliseconds: a command right after stop waits for
     * it rather than finding the engine busy. */
    if (h->searching && atomic_load(&h->stop) && strcmp(c, "ping") != 0) {
        pthread_join(h->thread, NULL);
        h->searching = false;
    }
    search_over(h);
    if (strcmp(c, "quit") == 0) {
        go_on = false;
    } else if (strcmp(c, "ping") == 0) {
        send_word(h, "pong");
    } else if (strcmp(c, "stop") == 0) {
        stop_search(h);
    } else if (strcmp(c, "ponder-hit") == 0) {
        cmd_ponder_hit(h);
    } else if (!*c) {
        /* a blank line */
    } else if (h->searching && (strcmp(c, "hub") == 0 || strcmp(c, "init") == 0 || strcmp(c, "set-param") == 0
                                || strcmp(c, "new-game") == 0 || strcmp(c, "pos") == 0
                                || strcmp(c, "level") == 0 || strcmp(c, "go") == 0)) {
        send_error(h, "%s: a search is running (only ping, stop, ponder-hit and quit now)", c);
    } else if (strcmp(c, "hub") == 0) {
        send_identity(h);
    } else if (strcmp(c, "set-param") == 0) {
        const char *name = hub_line_value(&line, "name"), *value = hub_line_value(&line, "value");
        if (!name || !value)
            send_error(h, "set-param: expected name=NAME value=VALUE");
        else if (set_param(h, &h->params, name, value))
            h->dirty = true;
    } else if (strcmp(c, "init") == 0) {
        /* The GUI waits for ready: a parameter that cannot be used is reported, then the
         * engine starts with its default instead; but never with another game than the
         * one asked for (a refused variant: an error and no ready). */
        bool built = build_engine(h);
        if (!built && !h->params.refused_variant[0]) {
            h->params.weights[0] = h->params.rules[0] = '\0';
            h->params.hash_mb = HUB_HASH_DEFAULT;
            send_error(h, "init: using the built-in weights, the official rules and a %d MB hash table",
                       HUB_HASH_DEFAULT);
            built = build_engine(h);
        }
        if (built)
            send_word(h, "ready");
    } else if (strcmp(c, "new-game") == 0) {
        if (engine_ready(h)) {
            searcher_clear(h->searcher);
            Position start;
            h->variant->start(&start);
            game_init(h->game, h->variant, &h->rules, &start);
            h->have_pos = true;
        }
    } else if (strcmp(c, "pos") == 0) {
        cmd_pos(h, &line);
    } else if (strcmp(c, "level") == 0) {
        cmd_level(h, &line);
    } else if (strcmp(c, "go") == 0) {
        cmd_go(h, &line);
    } /* anything else is ignored, as the protocol asks */
    hub_line_free(&line);
    return go_on;
}

static int serve(Hub *h)
{
    LineReader in;
    line_reader_init(&in, STDIN_FILENO);
    in.max_line = HUB_LINE_MAX;
    int code = EXIT_OK;
    for (;;) {
        int timeout = -1;
        if (h->deadline > 0) {
            double left = h->deadline - now_seconds();
            timeout = left > 0 ? (int)ceil(left * 1000) : 0;
        }
        char *text;
        int got = line_reader_next(&in, timeout, &text);
        if (got == LINE_TIMEOUT) { /* a pondering search that ran out of its budget */
            if (h->deadline > 0 && now_seconds() >= h->deadline)
                stop_search(h);
            continue;
        }
        if (got == LINE_TOO_LONG) { /* no Hub line is this long: the other side is no GUI */
            send_error(h, "a line longer than %d bytes: not the Hub protocol", HUB_LINE_MAX);
            code = cli_usage_error("standard input: a line longer than the %d KiB limit of a Hub line",
                                   HUB_LINE_MAX / 1024);
            break;
        }
        if (got == LINE_END || !handle_line(h, text))
            break;
    }
    /* quit, or the GUI is gone: stop at once */
    stop_search(h);
    if (h->searching)
        pthread_join(h->thread, NULL);
    line_reader_free(&in);
    return code;
}

static int run_hub(int argc, char **argv)
{
    enum { OPT_HASH = OPT_FIRST_FREE, OPT_WEIGHTS, OPT_BOOK, OPT_EGDB };
    static const struct option longopts[] = {
        { "variant", required_argument, 0, OPT_VARIANT },
        { "rules", required_argument, 0, OPT_RULES },
        { "hash", required_argument, 0, OPT_HASH },
        { "weights", required_argument, 0, OPT_WEIGHTS },
        { "book", required_argument, 0, OPT_BOOK },
        { "egdb", required_argument, 0, OPT_EGDB },
        { "help", no_argument, 0, OPT_HELP },
        { 0, 0, 0, 0 },
    };
    Hub *h = calloc(1, sizeof *h);
    if (!h || !(h->game = malloc(sizeof *h->game))) {
        free(h);
        return cli_runtime_error("out of memory");
    }
    h->params.variant = &turkish_variant;
    h->params.hash_mb = HUB_HASH_DEFAULT;
    h->level.move_time = 1; /* until the GUI sends a level */
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->released, NULL);
    int o, code = -1;
    long n;
    while (code < 0 && (o = cli_getopt(argc, argv, longopts)) != -1) {
        switch (o) {
        case OPT_HELP: code = cli_print_help("hub"); break;
        case OPT_VARIANT:
            if (!(h->params.variant = cli_variant(optarg)))
                code = EXIT_USAGE;
            break;
        case OPT_HASH:
            if (!cli_long("--hash", optarg, 1, HUB_HASH_MAX, &n))
                code = EXIT_USAGE;
            h->params.hash_mb = n;
            break;
        case OPT_EGDB:
            if (strlen(optarg) >= sizeof h->params.egdb)
                code = cli_usage_error("--egdb: too long");
            else
                snprintf(h->params.egdb, sizeof h->params.egdb, "%s", optarg);
            break;
        case OPT_WEIGHTS:
        case OPT_BOOK:
        case OPT_RULES: {
            char *dst = o == OPT_WEIGHTS ? h->params.weights : o == OPT_BOOK ? h->params.book : h->params.rules;
            size_t size = o == OPT_WEIGHTS ? sizeof h->params.weights
                          : o == OPT_BOOK  ? sizeof h->params.book : sizeof h->params.rules;
            if (strlen(optarg) >= size)
                code = cli_usage_error("%s: too long", o == OPT_WEIGHTS ? "--weights" : o == OPT_BOOK ? "--book" : "--rules");
            else
                snprintf(dst, size, "%s", optarg);
            break;
        }
        default: code = EXIT_USAGE; break;
        }
    }
    if (code < 0 && optind != argc)
        code = cli_usage_error("unexpected argument '%s' (see 'dama hub --help')", argv[optind]);
    if (code < 0) {
        /* The command line's values are checked now, so a mistake shows before any GUI. */
        char err[600];
        Rules rules = rules_default(h->params.variant);
        Weights w;
        /* the names match and the engine itself take (best, default, material, a file) */
        if (h->params.rules[0] && !rules_parse(h->params.variant, &rules, h->params.rules, err, sizeof err))
            code = cli_usage_error("--rules: %s", err);
        else if (h->params.weights[0]
                 && !pipeline_weights_by_name(&w, h->params.variant, h->params.weights, err, sizeof err))
            code = cli_usage_error("%s", err);
        else if (h->params.weights[0])
            weights_free(&w);
        Book book;
        if (code < 0 && h->params.book[0]) {
            if (!book_read(&book, h->params.book, pipeline_interrupt_flag(), err, sizeof err))
                code = cli_usage_error("%s", err);
            else if (book.variant != h->params.variant)
                code = cli_usage_error("--book: %s is a book of %s, not %s", h->params.book, book.variant->name,
                                       h->params.variant->name);
            book_free(&book); /* read again by init, as a set-param book is */
        }
    }
    if (code < 0)
        code = serve(h);
    free_hub(h);
    free(h);
    return code;
}

const Command cmd_hub = {
    "hub", "an engine for Hub and other GUIs speaking the Hub protocol (version 2)",
    "usage: dama hub [--variant NAME] [--hash MB] [--rules OPTIONS]\n"
    "                [--weights FILE|best|default|material] [--book BOOK]\n"
    "                [--egdb DIR]\n"
    "\n"
    "Plays through the Hub protocol, version 2 (the Hub GUI, Scan's protocol), for\n"
    "both variants: commands on stdin, one a line, answers on stdout.  The options\n"
    "give the parameters' defaults (variant turkish, hash 64).  A line is a command\n"
    "then name=value arguments (a value with spaces or '=' in double quotes) or bare\n"
    "flags.  Unknown commands and arguments are ignored; a line that cannot be read,\n"
    "or a value that is wrong, gets 'error message=\"...\"' and the engine goes on.\n"
    "A line longer than 64 KiB is no Hub line: the engine says so and ends (exit 2).\n"
    "\n"
    "Commands:\n"
    "  hub                 answers 'id name=dama version=...', one 'param' line a\n"
    "                      parameter, then 'wait'\n"
    "  set-param name=N value=V   sets a parameter (used from the next init, pos or\n"
    "                             go)\n"
    "  init                builds the engine (weights, hash table), answers 'ready';\n"
    "                      a parameter it cannot use (a weights file that does not\n"
    "                      read) gets an error line, and the defaults stand in for\n"
    "                      them\n"
    "  new-game            clears the hash table; the position is the start\n"
    "  pos start | pos pos=POSITION [moves=\"M1 M2 ...\"]\n"
    "                      the position, and the moves played from it: the game's\n"
    "                      history, so repetitions and the draw counters see them\n"
    "  level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite\n"
    "                      the limit of the next searches (seconds may be fractions;\n"
    "                      each level line replaces the last one; before any:\n"
    "                      move-time=1)\n"
    "  go think            searches and answers 'done move=M [ponder=M]'\n"
    "  go ponder           the same, the opponent's expected move already played: the\n"
    "                      clock starts at 'ponder-hit' (done only after it, or after\n"
    "                      stop)\n"
    "  go analyze          searches until 'stop', whatever the level\n"
    "  stop                ends the search soon: done comes with the best move so far\n"
    "  ping                answers 'pong', even during a search\n"
    "  quit                ends the engine; so does the end of input, at once\n"
    "During a search the engine prints 'info depth=D score=S nodes=N time=T nps=M\n"
    "pv=\"...\"' after each completed iteration: score in men from the side to move, on\n"
    "Scan's scale: an evaluation within +-89.99 (-0.01), a forced win in n plies 100\n"
    "- n/100 (99.95: a win in 5 plies), a loss the same negative; time in seconds,\n"
    "nps in millions of nodes a second.\n"
    "\n"
    "Parameters:\n"
    "  variant  international (or normal, Scan's name, or standard) | turkish;\n"
    "           another name is an error, and until a variant dama plays is set,\n"
    "           init, pos and go answer with an error rather than play another game\n"
    "  hash     the hash table in MB (1-4096), kept for the whole session\n"
    "  threads  1: the search runs on one thread\n"
    "  weights  a weights file of the variant (see 'dama weights'), or best, default\n"
    "           or material; empty: best, the shipped pattern weights built in\n"
    "  rules    the variant's rule options, as --rules (empty: the official rules)\n"
    "  book     an opening book ('dama book build'; empty: none): go plays the\n"
    "           book's best move at once while the position is in it (go ponder\n"
    "           and go analyze search)\n"
    "  egdb     an endgame database directory ('dama egdb build'; empty: none): the\n"
    "           search probes it; a missing or damaged one is reported on stderr\n"
    "           and not used\n"
    "\n"
    "Positions: the side to move (W or B), then one character a square: w, b a man,\n"
    "W, B a king, e empty.  International: squares 1 to 50, e.g. the start\n"
    "  Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n"
    "Turkish (dama's extension): 64 squares row by row from the top as White sees the\n"
    "board: a8, b8, ..., h8, a7, ..., h1.  'pos start' (or pos=start) is the\n"
    "variant's start.  Moves: quiet 32-28 (Turkish d3-d4); a capture names from, to\n"
    "and every captured square, no landing square between: 28x19x23 (Turkish\n"
    "d3xd7xd4xd6).  Captured squares are read in any order and written in ascending\n"
    "order (Turkish a1, b1, ..., h8); a capture with fewer of them (even just 28x19)\n"
    "is read when only one legal move fits.\n"
    "\n"
    "Time (engine/time_manager.c, the one time manager): move-time=S searches S\n"
    "seconds less a margin (5 %, at most 0.02 s), all of it: an iteration cut by the\n"
    "time still counts once it has searched the previous best move.  With a clock,\n"
    "(time - reserve) / moves left + 0.8 inc is the target (moves left: moves=, or 30\n"
    "when not given; reserve 0.02 s + 5 % of the clock, at most 0.12 s); no\n"
    "iteration is started that is predicted (from the growth of the last two) to end\n"
    "after the target; the hard limit, checked inside the search, is 3 times the\n"
    "target and never more than half of the clock (all of it, less the reserve, when\n"
    "moves=1), so the engine does not lose on time.  depth and nodes are exact and\n"
    "combine with the clock (the first limit reached stops the search).  When\n"
    "pondering, the target counts from ponder-hit.\n",
    run_hub,
};
