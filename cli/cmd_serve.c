/* `dama serve`: the web page and its JSON API (server/) on a local port, until Ctrl-C. */
#include <stdio.h>
#include <unistd.h>

#include "commands.h"
#include "serve.h"
#include "variant.h"

#define SERVE_PORT_DEFAULT 8080
#define SERVE_HASH_DEFAULT 16
#define SERVE_HASH_MAX 1024
#define SERVE_MOVETIME_DEFAULT 30000
#define SERVE_NODES_DEFAULT 50000000
#define SERVE_SEARCHES_MAX 64

typedef struct ServeArgs {
    const Variant *variant;
    const char *db, *host, *weights_name, *web, *egdb_dir;
    long port, hash, movetime, searches;
    uint64_t nodes;
} ServeArgs;

/* --max-nodes: at least 1, into the uint64_t option->dest. */
static bool max_nodes_option(const CliOption *option, const char *value)
{
    if (!cli_u64("--max-nodes", value, option->dest))
        return false;
    if (*(uint64_t *)option->dest == 0)
        return cli_usage_error("--max-nodes 0: a search needs at least 1 node"), false;
    return true;
}

/* Reads serve's options into a (defaults first).  -1: go on; else an exit code. */
static int parse_args(int argc, char **argv, ServeArgs *a)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *a = (ServeArgs){
        .variant = &turkish_variant, .db = "dama.db", .host = "127.0.0.1",
        .port = SERVE_PORT_DEFAULT, .hash = SERVE_HASH_DEFAULT, .movetime = SERVE_MOVETIME_DEFAULT,
        .searches = cores < 1 ? 1 : cores > SERVE_SEARCHES_MAX ? SERVE_SEARCHES_MAX : cores,
        .nodes = SERVE_NODES_DEFAULT,
    };
    const CliOption options[] = {
        CALL_ARG("variant", &a->variant, cli_option_variant),
        LONG_ARG("port", &a->port, 0, 65535),
        TEXT_ARG("db", &a->db),
        TEXT_ARG("host", &a->host),
        TEXT_ARG("weights", &a->weights_name),
        TEXT_ARG("web", &a->web),
        LONG_ARG("hash", &a->hash, 1, SERVE_HASH_MAX),
        LONG_ARG("max-movetime", &a->movetime, 1, 86400000L),
        CALL_ARG("max-nodes", &a->nodes, max_nodes_option),
        LONG_ARG("max-searches", &a->searches, 1, SERVE_SEARCHES_MAX),
        TEXT_ARG("egdb", &a->egdb_dir),
        { 0 },
    };
    return cli_parse(argc, argv, "serve", options, 0);
}

static int run_serve(int argc, char **argv)
{
    ServeArgs a;
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    ServeConfig cfg = {
        .variant = a.variant, .weights_name = a.weights_name, .db = a.db, .host = a.host, .web = a.web,
        .egdb_dir = a.egdb_dir, .port = (int)a.port, .hash_mb = (size_t)a.hash,
        .cap = { .movetime_ms = (int)a.movetime, .nodes = a.nodes }, .searches = (int)a.searches,
    };
    char err[1024];
    switch (serve_run(&cfg, stdout, err, sizeof err)) {
    case SERVE_STOPPED: return EXIT_INTERRUPTED;
    case SERVE_BAD_INPUT: return cli_usage_error("%s", err);
    default: return cli_runtime_error("%s", err);
    }
}

const Command cmd_serve = {
    "serve", "the web page: play against the engine, browse games, watch training",
    run_serve,
};
