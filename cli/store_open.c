/* The database and the weights opened for a command (store_open.h). */
#include "cli.h"
#include "store_open.h"
#include "weights_store.h"

static Store *open_with(Store *(*open)(const char *, char *, size_t), const char *path)
{
    char err[512];
    Store *s = open(path, err, sizeof err);
    if (!s)
        cli_runtime_error("%s", err);
    return s;
}

Store *cli_open_store(const char *path) { return open_with(store_open, path); }
Store *cli_open_store_readonly(const char *path) { return open_with(store_open_readonly, path); }

bool cli_weights(Weights *w, const Variant *v, const char *name, const char *fallback)
{
    char err[512];
    if (!weights_by_name(w, v, name ? name : fallback, err, sizeof err))
        return cli_usage_error("%s", err), false;
    return true;
}
