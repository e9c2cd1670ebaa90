/* `dama export`: tables and statistics of the database as CSV files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "export_job.h"
#include "interrupt.h"
#include "store_open.h"
#include "variant.h"

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --k: a number above 0 (at most 10) into the double option->dest. */
static bool k_option(const CliOption *option, const char *value)
{
    char *end;
    errno = 0;
    double k = strtod(value, &end);
    if (errno || end == value || *end || !(k > 0) || k > 10)
        return cli_usage_error("bad value '%s' for --k: expected a number above 0", value), false;
    *(double *)option->dest = k;
    return true;
}

static int run_export(int argc, char **argv)
{
    const char *db_path = "dama.db", *out = NULL;
    ExportOptions eo = { .variant = &turkish_variant, .k = EXPORT_DEFAULT_K, .bucket = EXPORT_DEFAULT_BUCKET, .warnings = stderr };
    const CliOption options[] = {
        TEXT_ARG("db", &db_path),
        ID_ARG("run", &eo.run_id),
        TEXT_ARG("out", &out),
        CALL_ARG("k", &eo.k, k_option),
        INT_ARG("bucket", &eo.bucket, 1, 10000),
        SET_ARG("include-unfinished", &eo.include_unfinished),
        CALL_ARG("variant", &eo.variant, cli_option_variant),
        { 0 },
    };
    int code = cli_parse(argc, argv, "export", options, 1);
    if (code >= 0)
        return code;
    const char *what = optind < argc ? argv[optind] : NULL;
    if (what && strcmp(what, "all") != 0 && !export_known(what)) {
        char list[256] = "";
        for (int i = 0; export_names[i]; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", export_names[i]);
        return cli_usage_error("unknown export '%s' (one of: %s, all)", what, list);
    }
    if (!out)
        return cli_usage_error("export needs --out FILE.csv (or --out DIR/ for every table, one file each)");
    size_t outlen = strlen(out);
    bool dir = (outlen > 0 && out[outlen - 1] == '/') || is_directory(out);
    if (!dir && (!what || strcmp(what, "all") == 0))
        return cli_usage_error("name what to export (see 'dama export --help'), or give --out DIR/ "
                               "for all of it");

    /* Read-only: a database is never created, migrated or changed by exporting it. */
    Store *store = cli_open_store_readonly(db_path);
    if (!store)
        return EXIT_RUNTIME;
    eo.stop = interrupt_flag_unblocked(); /* Ctrl-C and SIGTERM stop it between rows */
    char err[1024];
    code = export_job_run(store, db_path, what, &eo, out, dir, stdout, err, sizeof err);
    if (code)
        fprintf(stderr, "dama: %s\n", err);
    store_close(store);
    return code;
}

const Command cmd_export = {
    "export", "write tables and statistics of the database to CSV files",
    run_export,
};
