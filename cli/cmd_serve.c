/* `dama serve`: the web page and its JSON API (server/) on a local port, until Ctrl-C. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "egdb_search.h"
#include "game_table.h"
#include "http.h"
#include "interrupt.h"
#include "server.h"
#include "store.h"
#include "store_open.h"
#include "variant.h"
#include "weights_store.h"

#define SERVE_PORT_DEFAULT 8080
#define SERVE_HASH_DEFAULT 16
#define SERVE_HASH_MAX 1024
#define SERVE_MOVETIME_DEFAULT 30000
#define SERVE_NODES_DEFAULT 50000000
#define SERVE_SEARCHES_MAX 64
#define DYGRAPHS_DIR "/usr/share/javascript/dygraphs"

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* web/ next to the binary's directory (bin/../web), else ./web. */
static void find_web_dir(char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (snprintf(buf, len, "%s/../web", exe) < (int)len && is_dir(buf))
                return;
        }
    }
    snprintf(buf, len, "web");
}

/* The weights of every variant: name for the --variant, the shipped best for the others. */
static bool load_weights(const Variant *chosen, const char *name, Weights *weights,
                         const Weights **by_variant)
{
    for (int i = 0; i < SERVER_MAX_VARIANTS && variant_at(i); i++) {
        const Variant *v = variant_at(i);
        if (!v->eval)
            continue;
        char err[512];
        const char *which = v == chosen && name ? name : "best";
        if (!weights_by_name(&weights[i], v, which, err, sizeof err)) {
            cli_usage_error("--weights %s: %s", which, err);
            return false;
        }
        by_variant[i] = &weights[i];
    }
    return true;
}

/* The database exists with this build's schema before the first reader opens it. */
static bool prepare_db(const char *path)
{
    Store *s = cli_open_store(path);
    store_close(s);
    return s != NULL;
}

/* Listens first, so that an address or port it cannot have leaves no new database behind;
 * the URL is said once the database is ready. */
static int serve(Server *srv, const char *host, int port, const char *db)
{
    char err[512];
    bool bad_address;
    HttpServer *http = http_start(host, port, server_handle, srv, srv->search_workers, err,
                                  sizeof err, &bad_address);
    if (!http)
        return bad_address ? cli_usage_error("%s", err) : cli_runtime_error("%s", err);
    if (!prepare_db(db)) {
        http_stop(http);
        return EXIT_RUNTIME;
    }
    const char *bracket = strchr(host, ':') ? "[" : "";
    printf("serving http://%s%s%s:%d/\n", bracket, host, *bracket ? "]" : "", http_port(http));
    fflush(stdout);
    /* Requests run on the server's threads; this one waits for Ctrl-C or SIGTERM. */
    while (!atomic_load(srv->stop)) {
        struct timespec tick = { 0, 50 * 1000 * 1000 };
        nanosleep(&tick, NULL);
    }
    http_stop(http);
    return EXIT_INTERRUPTED;
}

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
    const Variant *variant = a.variant;
    const char *db = a.db, *host = a.host, *weights_name = a.weights_name, *web = a.web, *egdb_dir = a.egdb_dir;
    long port = a.port, hash = a.hash, movetime = a.movetime, searches = a.searches;
    uint64_t nodes = a.nodes;
    char web_dir[PATH_MAX];
    if (web) {
        if (!is_dir(web))
            return cli_usage_error("--web %s: not a directory", web);
        snprintf(web_dir, sizeof web_dir, "%s", web);
    } else {
        find_web_dir(web_dir, sizeof web_dir);
    }
    Weights weights[SERVER_MAX_VARIANTS];
    memset(weights, 0, sizeof weights);
    Server srv = {
        .db_path = db,
        .web_dir = web_dir,
        .dygraphs_dir = DYGRAPHS_DIR,
        .default_variant = variant,
        .hash_mb = (size_t)hash,
        .search_cap = { .movetime_ms = (int)movetime, .nodes = nodes },
        .search_workers = (int)searches,
    };
    if (egdb_dir)
        egdb_open_each(egdb_dir, srv.egdb, SERVER_MAX_VARIANTS);
    int code = EXIT_USAGE;
    if (load_weights(variant, weights_name, weights, srv.weights)) {
        code = EXIT_RUNTIME;
        srv.stop = interrupt_flag();
        signal(SIGPIPE, SIG_IGN); /* a browser that hangs up is that request's failure only */
        srv.games = game_table_new();
        pthread_mutex_init(&srv.save_lock, NULL);
        if (srv.games)
            code = serve(&srv, host, (int)port, db);
        else
            cli_runtime_error("out of memory");
        game_table_free(srv.games);
        pthread_mutex_destroy(&srv.save_lock);
    }
    for (int i = 0; i < SERVER_MAX_VARIANTS; i++) {
        weights_free(&weights[i]);
        egdb_close(srv.egdb[i]);
    }
    return code;
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
    "(" DYGRAPHS_DIR ").\n"
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
