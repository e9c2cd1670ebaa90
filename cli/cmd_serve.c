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
    "usage: dama serve [--port 8080] [--host 127.0.0.1] [--db FILE] [--variant NAME]\n"
    "                  [--weights FILE] [--web DIR] [--hash MB] [--max-movetime MS]\n"
    "                  [--max-nodes N] [--max-searches N] [--egdb DIR]\n"
    "\n"
    "Serves the page of web/ and its JSON API (README.md, \"JSON API\") on\n"
    "http://HOST:PORT/ until Ctrl-C or SIGTERM (exit 130), and prints\n"
    "'serving http://HOST:PORT/' when it listens.  Nothing is fetched from the\n"
    "network: the charts use the Debian package libjs-dygraphs\n"
    "(" SERVE_DYGRAPHS_DIR ").\n"
    "\n"
    "  --port N        the port (default 8080; 0: a free port, printed)\n"
    "  --host ADDR     the address to listen on (default 127.0.0.1: this machine)\n"
    "  --db FILE       the database: finished games are saved in it (a run of kind\n"
    "                  'play'), and its games, runs and training are shown (default\n"
    "                  dama.db; created when missing; read while `dama train` writes)\n"
    "  --variant NAME  the variant of a request that names none (default turkish)\n"
    "  --weights FILE  the engine's weights for --variant (default best: the shipped\n"
    "                  weights); the other variant plays with its shipped weights\n"
    "  --web DIR       the page's files (default: web/ beside the binary's folder)\n"
    "  --hash MB       transposition table of each engine search (default 16)\n"
    "  --max-movetime MS  every search's time at most, whatever a request asks\n"
    "                  (default 30000)\n"
    "  --max-nodes N   every search's nodes at most (default 50000000)\n"
    "  --max-searches N  searches at once (default: one a core); up to 64 more wait,\n"
    "                  beyond that a request is answered 503\n"    "  --egdb DIR      endgame databases ('dama egdb build') every engine search\n"
    "                  probes, of each variant found there (default rules only); a\n"
    "                  missing or damaged one is reported and not used\n"
    "\n"
    "A search stops when its client goes away.  Connections: README.md, \"JSON API\".\n",
    run_serve,
};
