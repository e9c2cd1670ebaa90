/* The Hub protocol engine, version 2 (`dama hub --help` sums the protocol up), for both
 * variants: commands read from standard input, one a line, answers on standard output.
 * The command loop (hub_engine.c) reads on the calling thread; a search runs in its own
 * (hub_search.c), so that ping, stop and ponder-hit are answered while it thinks.  The
 * option parsing of `dama hub` is the CLI's (cli/cmd_hub.c); this room holds the protocol's
 * both sides (the client is engine_player.c). */
#ifndef DAMA_HUB_ENGINE_H
#define DAMA_HUB_ENGINE_H

#include <stdbool.h>

#include "variant.h"

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
    int threads;        /* search threads, 1 to hub_threads_max(); 0 counts as 1 */
    char weights[1024]; /* "" = built-in */
    char rules[256];    /* "" = the official rules */
    char book[1024];    /* an opening book file (docs/book.md); "" = none */
    char egdb[1024];    /* an endgame database directory (docs/egdb.md); "" = none */
} HubParams;

/* The most threads a search may use: the machine's cores (at least 1). */
int hub_threads_max(void);

/* How a session ended. */
typedef enum HubEnd {
    HUB_END_QUIT,           /* quit, or the end of input */
    HUB_END_LINE_TOO_LONG,  /* a line longer than HUB_LINE_MAX: the other side is no GUI */
    HUB_END_NO_MEMORY,      /* the engine could not be allocated */
} HubEnd;

/* Serves the protocol on stdin and stdout until it ends, starting from the parameters in
 * defaults (the command line's; set-param changes them for the session). */
HubEnd hub_engine_run(const HubParams *defaults);

#endif
