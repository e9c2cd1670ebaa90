/* `dama serve`'s run once its options are read: the weights of every variant, the page's
 * directory, the HTTP server and its database, until Ctrl-C or SIGTERM. */
#ifndef DAMA_SERVE_H
#define DAMA_SERVE_H

#include <stddef.h>
#include <stdio.h>

#include "search.h"
#include "types.h"

/* libjs-dygraphs' files, which the page's charts load. */
#define SERVE_DYGRAPHS_DIR "/usr/share/javascript/dygraphs"

typedef struct ServeConfig {
    const Variant *variant;   /* what a request naming none gets */
    const char *weights_name; /* its weights (NULL: the shipped best; the others' always) */
    const char *db, *host;
    const char *web;          /* the page's files; NULL: bin/../web next to dama, else ./web */
    const char *egdb_dir;     /* NULL: none */
    int port;                 /* 0: any free port */
    size_t hash_mb;
    SearchLimits cap;         /* the bound of every search */
    int searches;             /* searches at once */
} ServeConfig;

typedef enum ServeEnd {
    SERVE_STOPPED,   /* Ctrl-C or SIGTERM, after serving */
    SERVE_BAD_INPUT, /* a --web, --weights or address it cannot use: err says which */
    SERVE_FAILED,    /* err says why (the database, the port, memory) */
} ServeEnd;

/* Serves until Ctrl-C or SIGTERM, writing "serving http://HOST:PORT/" to out once the
 * database is ready; listens first, so an address it cannot have leaves no new database
 * behind. */
ServeEnd serve_run(const ServeConfig *cfg, FILE *out, char *err, size_t errlen);

#endif
