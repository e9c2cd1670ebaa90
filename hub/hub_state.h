/* What the files of the Hub engine share (hub_engine.h is the room's face): the engine's
 * state and the functions one file gives the others.  Everything the engine prints goes
 * through hub_send_line, under one lock, a whole line at a time. */
#ifndef DAMA_HUB_STATE_H
#define DAMA_HUB_STATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "book_file.h"
#include "game.h"
#include "hub_engine.h"
#include "hub_line.h"
#include "search.h"
#include "time_manager.h"
#include "weights.h"

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

/* hub_output.c: one line out; an error line; a line of one word. */
void hub_send_line(Hub *h, const HubWriter *w);
void hub_send_error(Hub *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hub_send_word(Hub *h, const char *word);

/* hub_params.c: the id and param lines; a parameter's new value (false after an error
 * line); the engine built from the parameters; the engine for a command that needs one. */
void hub_send_identity(Hub *h);
bool hub_set_param(Hub *h, HubParams *p, const char *name, const char *value);
bool hub_build_engine(Hub *h);
bool hub_engine_ready(Hub *h);

/* hub_position.c: the pos command. */
void hub_cmd_pos(Hub *h, const HubLine *line);

/* hub_level.c: the level command; a level as the time manager's budget. */
void hub_cmd_level(Hub *h, const HubLine *line);
TimeBudget hub_level_budget(const HubLevel *l);

/* hub_search.c: the monotonic clock in seconds; the search thread's start (go), its
 * ponder-hit, its stop and its join once it has ended (true when none runs any more). */
double hub_now_seconds(void);
void hub_cmd_go(Hub *h, const HubLine *line);
void hub_cmd_ponder_hit(Hub *h);
void hub_stop_search(Hub *h);
bool hub_search_over(Hub *h);

#endif
