/* Shared plumbing of the pipeline commands. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "pipeline.h"
#include "variant.h"

#ifndef DAMA_VERSION
#define DAMA_VERSION "dev"
#endif

/* The one piece of process-wide state: set by the signal handler, read by the workers. */
static atomic_bool interrupted;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, true);
}

const atomic_bool *pipeline_interrupt_flag(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return &interrupted;
}

const char *pipeline_engine_version(void) { return "dama " DAMA_VERSION; }

/* The bench set is compiled in and pinned by tests/test_search.c, so a failure here is a
 * broken build: it stops the command before anything is written. */
void pipeline_bench_signature(char *buf, size_t len)
{
    char err[512];
    if (!bench_signature(buf, len, err, sizeof err)) {
        cli_runtime_error("%s", err);
        exit(EXIT_RUNTIME);
    }
}

char *weights_to_text(const Weights *w)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    bool ok = weights_write(w, f);
    if (fclose(f) != 0 || !ok) {
        free(text);
        return NULL;
    }
    return text;
}

int64_t pipeline_store_weights(Store *store, const Weights *w, int generation, int64_t parent,
                               const char *note)
{
    char *text = weights_to_text(w);
    if (!text)
        return -1;
    int64_t id = store_weights_put(store, "turkish", generation, parent, text, note);
    free(text);
    return id;
}

static Store *open_with(Store *(*open)(const char *, char *, size_t), const char *path)
{
    char err[512];
    Store *s = open(path, err, sizeof err);
    if (!s)
        cli_runtime_error("%s", err);
    return s;
}

Store *pipeline_open_store(const char *path) { return open_with(store_open, path); }
Store *pipeline_open_store_readonly(const char *path) { return open_with(store_open_readonly, path); }

bool pipeline_weights_by_name(Weights *w, const char *name, char *err, size_t errlen)
{
    if (strcmp(name, "default") == 0) {
        weights_default(w);
        return true;
    }
    if (strcmp(name, "material") == 0) {
        weights_material_only(w);
        return true;
    }
    return weights_load(w, name, err, errlen);
}
