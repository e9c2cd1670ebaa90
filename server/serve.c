/* `dama serve`'s run (serve.h): from its settings to a server that answers until Ctrl-C. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "egdb_search.h"
#include "game_table.h"
#include "interrupt.h"
#include "serve.h"
#include "server.h"
#include "store.h"
#include "variant.h"
#include "weights_store.h"

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

/* The weights of every variant: name for the chosen one, the shipped best for the others. */
static bool load_weights(const Variant *chosen, const char *name, Weights *weights,
                         const Weights **by_variant, char *err, size_t errlen)
{
    for (int i = 0; i < SERVER_MAX_VARIANTS && variant_at(i); i++) {
        const Variant *v = variant_at(i);
        if (!v->eval)
            continue;
        char why[512];
        const char *which = v == chosen && name ? name : "best";
        if (!weights_by_name(&weights[i], v, which, why, sizeof why)) {
            snprintf(err, errlen, "--weights %s: %s", which, why);
            return false;
        }
        by_variant[i] = &weights[i];
    }
    return true;
}

/* Listens first, so that an address or port it cannot have leaves no new database behind;
 * the URL is said once the database (with this build's schema) is ready. */
static ServeEnd serve(Server *srv, const char *host, int port, FILE *out, char *err, size_t errlen)
{
    bool bad_address;
    HttpServer *http = http_start(host, port, server_handle, srv, srv->search_workers, err, errlen,
                                  &bad_address);
    if (!http)
        return bad_address ? SERVE_BAD_INPUT : SERVE_FAILED;
    Store *store = store_open(srv->db_path, err, errlen);
    store_close(store);
    if (!store) {
        http_stop(http);
        return SERVE_FAILED;
    }
    const char *bracket = strchr(host, ':') ? "[" : "";
    fprintf(out, "serving http://%s%s%s:%d/\n", bracket, host, *bracket ? "]" : "", http_port(http));
    fflush(out);
    /* Requests run on the server's threads; this one waits for Ctrl-C or SIGTERM. */
    while (!atomic_load(srv->stop)) {
        struct timespec tick = { 0, 50 * 1000 * 1000 };
        nanosleep(&tick, NULL);
    }
    http_stop(http);
    return SERVE_STOPPED;
}

ServeEnd serve_run(const ServeConfig *cfg, FILE *out, char *err, size_t errlen)
{
    char web_dir[PATH_MAX];
    if (cfg->web) {
        if (!is_dir(cfg->web))
            return snprintf(err, errlen, "--web %s: not a directory", cfg->web), SERVE_BAD_INPUT;
        snprintf(web_dir, sizeof web_dir, "%s", cfg->web);
    } else {
        find_web_dir(web_dir, sizeof web_dir);
    }
    Weights weights[SERVER_MAX_VARIANTS];
    memset(weights, 0, sizeof weights);
    Server srv = {
        .db_path = cfg->db, .web_dir = web_dir, .dygraphs_dir = SERVE_DYGRAPHS_DIR,
        .default_variant = cfg->variant, .hash_mb = cfg->hash_mb, .search_cap = cfg->cap,
        .search_workers = cfg->searches,
    };
    if (cfg->egdb_dir)
        egdb_open_each(cfg->egdb_dir, srv.egdb, SERVER_MAX_VARIANTS);
    ServeEnd end = SERVE_BAD_INPUT;
    if (load_weights(cfg->variant, cfg->weights_name, weights, srv.weights, err, errlen)) {
        end = SERVE_FAILED;
        srv.stop = interrupt_flag();
        signal(SIGPIPE, SIG_IGN); /* a browser that hangs up is that request's failure only */
        srv.games = game_table_new();
        pthread_mutex_init(&srv.save_lock, NULL);
        if (srv.games)
            end = serve(&srv, cfg->host, cfg->port, out, err, errlen);
        else
            snprintf(err, errlen, "out of memory");
        game_table_free(srv.games);
        pthread_mutex_destroy(&srv.save_lock);
    }
    for (int i = 0; i < SERVER_MAX_VARIANTS; i++) {
        weights_free(&weights[i]);
        egdb_close(srv.egdb[i]);
    }
    return end;
}
