/* Shared plumbing of the pipeline commands. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "pipeline.h"
#include "variant.h"
#include "version.h"

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

const char *pipeline_engine_version(void) { return dama_engine_version(); }

void pipeline_bench_signature(char *buf, size_t len)
{
    Weights w;
    weights_default(&w);
    Rules rules = rules_default();
    Searcher *s = searcher_new(&turkish_variant, &rules, &w, 1);
    if (!s) {
        snprintf(buf, len, "unknown");
        return;
    }
    double seconds;
    uint64_t nodes = bench_run(s, 6, &seconds, NULL, NULL);
    snprintf(buf, len, "bench depth 6: %llu", (unsigned long long)nodes);
    searcher_free(s);
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

Store *pipeline_open_store(const char *path)
{
    char err[512];
    Store *s = store_open(path, err, sizeof err);
    if (!s)
        cli_runtime_error("%s", err);
    return s;
}

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
