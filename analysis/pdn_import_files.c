/* The files of a PDN import, one after another, into one run (pdn_import_files.h). */
#include <string.h>

#include "pdn_import_files.h"
#include "variant.h"

/* "pdn import rules=R files=A,B,...": the run's params (cut at the buffer's end). */
static void import_params(const PdnImportConfig *cfg, char *const *paths, int n, char *params, size_t len)
{
    char rules[256];
    cfg->variant->rules_describe(&cfg->rules, rules, sizeof rules);
    int used = snprintf(params, len, "pdn import rules=%s files=", rules);
    for (int i = 0; i < n && used >= 0 && (size_t)used < len; i++)
        used += snprintf(params + used, len - (size_t)used, "%s%s", i > 0 ? "," : "", paths[i]);
}

/* The files in order: an exit code (a bad game or file sets *bad, the next file is read). */
static int import_each(Store *store, const char *db_path, const PdnImportConfig *cfg, char *const *paths,
                       int n, FILE *out, int64_t *run_id, bool *bad, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        if (cfg->stop && atomic_load(cfg->stop)) { /* the files done so far stay imported */
            snprintf(err, errlen, "interrupted before %s", paths[i]);
            return 130;
        }
        PdnImportCounts c = { 0 };
        char why[512];
        int rc = pdn_import_file(store, cfg, paths[i], run_id, &c, why, sizeof why);
        if (rc == 2) {
            fprintf(cfg->errors, "%s\n", why);
            *bad = true;
            continue;
        }
        if (rc == 130) { /* the files done so far stay imported, this one is not */
            snprintf(err, errlen, "interrupted: %s not imported", paths[i]);
            return 130;
        }
        if (rc) {
            snprintf(err, errlen, "%s: %s", db_path, why);
            return 1;
        }
        *bad |= c.bad > 0;
        fprintf(out, "pdn import %s games %d imported %d already %d bad %d\n", paths[i], c.games, c.imported,
                c.duplicates, c.bad);
        fflush(out);
    }
    return 0;
}

int pdn_import_files(Store *store, const char *db_path, PdnImportConfig *cfg, char *const *paths, int n,
                     FILE *out, char *err, size_t errlen)
{
    char params[512];
    import_params(cfg, paths, n, params, sizeof params);
    cfg->params = params;
    err[0] = '\0';
    int64_t run_id = 0;
    bool bad = false;
    int code = import_each(store, db_path, cfg, paths, n, out, &run_id, &bad, err, errlen);
    const char *status = code == 0 ? "done" : code == 130 ? "interrupted" : "failed";
    if (run_id > 0 && !store_run_end(store, run_id, status) && code == 0) {
        snprintf(err, errlen, "%s: %s", db_path, store_error(store));
        code = 1;
    }
    cfg->params = NULL; /* it pointed here */
    return code == 0 && bad ? 2 : code;
}
