/* The Hub engine's parameters (hub_state.h): the id and param lines of `hub`, set-param's
 * checks, and the engine built from the parameters by init (rules, weights, book, hash
 * table). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egdb_search.h"
#include "hub_state.h"
#include "hub_text.h"
#include "version.h"
#include "weights_store.h"

void hub_send_identity(Hub *h)
{
    HubWriter w = { 0 };
    hub_writer_start(&w, "id");
    hub_writer_arg(&w, "name", "dama");
    hub_writer_arg(&w, "version", dama_version());
    hub_writer_arg(&w, "author", "the dama developers");
    hub_send_line(h, &w);

    char values[256];
    hub_variant_values(values, sizeof values);
    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "variant");
    hub_writer_arg(&w, "value", h->params.variant->name);
    hub_writer_arg(&w, "type", "enum");
    hub_writer_arg(&w, "values", values);
    hub_send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "hash");
    hub_writer_argf(&w, "value", "%ld", h->params.hash_mb);
    hub_writer_arg(&w, "type", "int");
    hub_writer_arg(&w, "min", "1");
    hub_writer_argf(&w, "max", "%d", HUB_HASH_MAX);
    hub_send_line(h, &w);

    /* Lazy SMP (engine/search.h): from one thread to one a core. */
    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "threads");
    hub_writer_argf(&w, "value", "%d", h->params.threads > 0 ? h->params.threads : 1);
    hub_writer_arg(&w, "type", "int");
    hub_writer_arg(&w, "min", "1");
    hub_writer_argf(&w, "max", "%d", hub_threads_max());
    hub_send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "weights");
    hub_writer_arg(&w, "value", h->params.weights);
    hub_writer_arg(&w, "type", "string");
    hub_send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "rules");
    hub_writer_arg(&w, "value", h->params.rules);
    hub_writer_arg(&w, "type", "string");
    hub_send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "book");
    hub_writer_arg(&w, "value", h->params.book);
    hub_writer_arg(&w, "type", "string");
    hub_send_line(h, &w);

    hub_writer_start(&w, "param");
    hub_writer_arg(&w, "name", "egdb");
    hub_writer_arg(&w, "value", h->params.egdb);
    hub_writer_arg(&w, "type", "string");
    hub_send_line(h, &w);

    hub_writer_start(&w, "wait");
    hub_send_line(h, &w);
    hub_writer_free(&w);
}

int hub_threads_max(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > SEARCH_THREADS_MAX ? SEARCH_THREADS_MAX : (int)cores;
}

/* A parameter's new value (checked now, used by the next init); false after an error line. */
bool hub_set_param(Hub *h, HubParams *p, const char *name, const char *value)
{
    if (strcmp(name, "variant") == 0) {
        char why[256];
        const Variant *v = hub_variant_by_name(value, why, sizeof why);
        if (!v) {
            snprintf(p->refused_variant, sizeof p->refused_variant, "%.*s", (int)strcspn(value, "\"\n"), value);
            hub_send_error(h, "set-param: %s; no game is played until one of them is set", why);
            return false;
        }
        p->variant = v;
        p->refused_variant[0] = '\0';
    } else if (strcmp(name, "hash") == 0) {
        char *end;
        long mb = strtol(value, &end, 10);
        if (end == value || *end || mb < 1 || mb > HUB_HASH_MAX) {
            hub_send_error(h, "set-param: hash is a whole number of MB from 1 to %d, not '%s'", HUB_HASH_MAX, value);
            return false;
        }
        p->hash_mb = mb;
    } else if (strcmp(name, "threads") == 0) {
        char *end;
        long threads = strtol(value, &end, 10);
        if (end == value || *end || threads < 1 || threads > hub_threads_max()) {
            hub_send_error(h, "set-param: threads is a whole number from 1 to %d (the cores), not '%s'",
                           hub_threads_max(), value);
            return false;
        }
        p->threads = (int)threads;
    } else if (strcmp(name, "weights") == 0) {
        if (strlen(value) >= sizeof p->weights) {
            hub_send_error(h, "set-param: the weights path is too long");
            return false;
        }
        snprintf(p->weights, sizeof p->weights, "%s", value);
    } else if (strcmp(name, "rules") == 0) {
        if (strlen(value) >= sizeof p->rules) {
            hub_send_error(h, "set-param: the rules text is too long");
            return false;
        }
        snprintf(p->rules, sizeof p->rules, "%s", value);
    } else if (strcmp(name, "book") == 0) {
        if (strlen(value) >= sizeof p->book) {
            hub_send_error(h, "set-param: the book path is too long");
            return false;
        }
        snprintf(p->book, sizeof p->book, "%s", value);
    } else if (strcmp(name, "egdb") == 0) {
        if (strlen(value) >= sizeof p->egdb) {
            hub_send_error(h, "set-param: the egdb path is too long");
            return false;
        }
        snprintf(p->egdb, sizeof p->egdb, "%s", value);
    } /* an unknown parameter is ignored, as the protocol asks */
    return true;
}

/* Builds the engine from the parameters: rules, weights, hash table, a new game at the
 * start.  The hash table is kept when its size and variant stay.  False after an error line;
 * the previous engine (if any) is kept then. */
bool hub_build_engine(Hub *h)
{
    const Variant *v = h->params.variant;
    char err[600];
    if (h->params.refused_variant[0]) {
        char games[256];
        hub_send_error(h, "the variant '%s' was refused: set-param name=variant to one dama plays "
                       "first (%s)", h->params.refused_variant, hub_game_list(games, sizeof games));
        return false;
    }
    Rules rules = rules_default(v);
    if (h->params.rules[0] && !rules_parse(v, &rules, h->params.rules, err, sizeof err)) {
        hub_send_error(h, "rules: %s", err);
        return false;
    }
    Book book = { 0 };
    if (h->params.book[0] && !book_read(&book, h->params.book, NULL, err, sizeof err)) {
        hub_send_error(h, "book: %s", err);
        return false;
    }
    if (h->params.book[0] && book.variant != v) {
        hub_send_error(h, "book: %s is a book of %s, not %s", h->params.book, book.variant->name, v->name);
        book_free(&book);
        return false;
    }
    Weights weights;
    if (!weights_by_name(&weights, v, h->params.weights[0] ? h->params.weights : "best",
                                  err, sizeof err)) {
        hub_send_error(h, "weights: %s", err);
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
            hub_send_error(h, "out of memory for a %ld MB hash table", h->params.hash_mb);
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
    int threads = h->params.threads > 0 ? h->params.threads : 1;
    if (!searcher_set_threads(h->searcher, threads)) {
        hub_send_error(h, "out of memory for %d search threads", threads);
        return false;
    }
    /* The endgame databases: a missing or damaged one is said on stderr and not used. */
    egdb_close(h->egdb);
    h->egdb = h->params.egdb[0] ? egdb_open_checked(h->params.egdb, v, &rules) : NULL;
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
bool hub_engine_ready(Hub *h)
{
    return (h->searcher && !h->dirty && !h->params.refused_variant[0]) || hub_build_engine(h);
}
