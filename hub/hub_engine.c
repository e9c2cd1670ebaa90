/* The Hub engine's command loop (hub_engine.h): lines read from stdin with a timeout (a
 * pondering search's deadline), each command handled in turn; only ping, stop, ponder-hit
 * and quit while a search runs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hub_state.h"
#include "line_reader.h"

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
        hub_send_error(h, "%s", err);
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
    hub_search_over(h);
    if (strcmp(c, "quit") == 0) {
        go_on = false;
    } else if (strcmp(c, "ping") == 0) {
        hub_send_word(h, "pong");
    } else if (strcmp(c, "stop") == 0) {
        hub_stop_search(h);
    } else if (strcmp(c, "ponder-hit") == 0) {
        hub_cmd_ponder_hit(h);
    } else if (!*c) {
        /* a blank line */
    } else if (h->searching && (strcmp(c, "hub") == 0 || strcmp(c, "init") == 0 || strcmp(c, "set-param") == 0
                                || strcmp(c, "new-game") == 0 || strcmp(c, "pos") == 0
                                || strcmp(c, "level") == 0 || strcmp(c, "go") == 0)) {
        hub_send_error(h, "%s: a search is running (only ping, stop, ponder-hit and quit now)", c);
    } else if (strcmp(c, "hub") == 0) {
        hub_send_identity(h);
    } else if (strcmp(c, "set-param") == 0) {
        const char *name = hub_line_value(&line, "name"), *value = hub_line_value(&line, "value");
        if (!name || !value)
            hub_send_error(h, "set-param: expected name=NAME value=VALUE");
        else if (hub_set_param(h, &h->params, name, value))
            h->dirty = true;
    } else if (strcmp(c, "init") == 0) {
        /* The GUI waits for ready: a parameter that cannot be used is reported, then the
         * engine starts with its default instead; but never with another game than the
         * one asked for (a refused variant: an error and no ready). */
        bool built = hub_build_engine(h);
        if (!built && !h->params.refused_variant[0]) {
            h->params.weights[0] = h->params.rules[0] = '\0';
            h->params.hash_mb = HUB_HASH_DEFAULT;
            h->params.threads = 1;
            hub_send_error(h, "init: using the built-in weights, the official rules, a %d MB hash table "
                       "and one thread", HUB_HASH_DEFAULT);
            built = hub_build_engine(h);
        }
        if (built)
            hub_send_word(h, "ready");
    } else if (strcmp(c, "new-game") == 0) {
        if (hub_engine_ready(h)) {
            searcher_clear(h->searcher);
            Position start;
            h->variant->start(&start);
            game_init(h->game, h->variant, &h->rules, &start);
            h->have_pos = true;
        }
    } else if (strcmp(c, "pos") == 0) {
        hub_cmd_pos(h, &line);
    } else if (strcmp(c, "level") == 0) {
        hub_cmd_level(h, &line);
    } else if (strcmp(c, "go") == 0) {
        hub_cmd_go(h, &line);
    } /* anything else is ignored, as the protocol asks */
    hub_line_free(&line);
    return go_on;
}

static HubEnd serve(Hub *h)
{
    LineReader in;
    line_reader_init(&in, STDIN_FILENO);
    in.max_line = HUB_LINE_MAX;
    HubEnd end = HUB_END_QUIT;
    for (;;) {
        int timeout = -1;
        if (h->deadline > 0) {
            double left = h->deadline - hub_now_seconds();
            timeout = left > 0 ? (int)ceil(left * 1000) : 0;
        }
        char *text;
        int got = line_reader_next(&in, timeout, &text);
        if (got == LINE_TIMEOUT) { /* a pondering search that ran out of its budget */
            if (h->deadline > 0 && hub_now_seconds() >= h->deadline)
                hub_stop_search(h);
            continue;
        }
        if (got == LINE_TOO_LONG) { /* no Hub line is this long: the other side is no GUI */
            hub_send_error(h, "a line longer than %d bytes: not the Hub protocol", HUB_LINE_MAX);
            end = HUB_END_LINE_TOO_LONG;
            break;
        }
        if (got == LINE_END || !handle_line(h, text))
            break;
    }
    /* quit, or the GUI is gone: stop at once */
    hub_stop_search(h);
    if (h->searching)
        pthread_join(h->thread, NULL);
    line_reader_free(&in);
    return end;
}

HubEnd hub_engine_run(const HubParams *defaults)
{
    Hub *h = calloc(1, sizeof *h);
    if (!h || !(h->game = malloc(sizeof *h->game))) {
        free(h);
        return HUB_END_NO_MEMORY;
    }
    h->params = *defaults;
    h->level.move_time = 1; /* until the GUI sends a level */
    pthread_mutex_init(&h->lock, NULL);
    pthread_cond_init(&h->released, NULL);
    HubEnd end = serve(h);
    free_hub(h);
    free(h);
    return end;
}
