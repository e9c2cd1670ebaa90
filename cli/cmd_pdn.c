/* `dama pdn export` and `dama pdn import`: games as PDN 3.0 files, every game dama plays. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "interrupt.h"
#include "pdn_export.h"
#include "pdn_import_files.h"
#include "store_open.h"
#include "variant.h"
#include "version.h"

/* argv[0] is "export". */
static int run_export(int argc, char **argv)
{
    const char *db_path = "dama.db", *out = NULL;
    int64_t run_id = 0, game_id = 0;
    EngineContext ec;
    engine_context_init(&ec);
    const CliOption options[] = {
        TEXT_ARG("db", &db_path),
        ID_ARG("run", &run_id),
        ID_ARG("game", &game_id),
        TEXT_ARG("out", &out),
        CALL_ARG("variant", &ec, engine_context_variant),
        CALL_ARG("rules", &ec, engine_context_rules),
        { 0 },
    };
    int code = cli_parse(argc, argv, "pdn", options, 0);
    if (code >= 0)
        return code;
    if (run_id > 0 && game_id > 0)
        return cli_usage_error("pdn export takes --run or --game, not both");
    if (ec.fen)
        return cli_usage_error("pdn export takes no --fen: each game has its own start");
    struct stat st;
    if (out && stat(out, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_usage_error("--out %s is a directory: pdn export writes one file", out);
    if (!engine_context_finish(&ec))
        return EXIT_USAGE;
    Store *store = cli_open_store_readonly(db_path);
    if (!store)
        return EXIT_RUNTIME;
    PdnExport job = { .store = store, .db_path = db_path, .variant = ec.variant, .rules = &ec.rules,
                      .run_id = run_id, .game_id = game_id, .out = out,
                      .stop = interrupt_flag() };
    int64_t n;
    char err[1024];
    code = pdn_export_run(&job, &n, err, sizeof err);
    store_close(store);
    if (code)
        fprintf(stderr, "dama: %s\n", err);
    else if (out && strcmp(out, "-") != 0)
        printf("pdn export games %lld file %s\n", (long long)n, out);
    return code;
}

/* argv[0] is "import". */
static int run_import(int argc, char **argv)
{
    const char *db_path = "dama.db";
    EngineContext ec;
    engine_context_init(&ec);
    const CliOption options[] = {
        TEXT_ARG("db", &db_path),
        CALL_ARG("variant", &ec, engine_context_variant),
        CALL_ARG("rules", &ec, engine_context_rules),
        { 0 },
    };
    int code = cli_parse(argc, argv, "pdn", options, argc);
    if (code >= 0)
        return code;
    if (optind >= argc)
        return cli_usage_error("pdn import needs one or more PDN files (see 'dama pdn --help')");
    if (ec.fen)
        return cli_usage_error("pdn import takes no --fen: each game has its own start");
    if (!engine_context_finish(&ec))
        return EXIT_USAGE;
    Store *store = cli_open_store(db_path);
    if (!store)
        return EXIT_RUNTIME;
    PdnImportConfig cfg = { .variant = ec.variant, .rules = ec.rules, .errors = stderr,
                            .stop = interrupt_flag(), .engine_version = dama_engine_version() };
    char err[1024];
    code = pdn_import_files(store, db_path, &cfg, argv + optind, argc - optind, stdout, err, sizeof err);
    if (code && err[0])
        fprintf(stderr, "dama: %s\n", err);
    store_close(store);
    return code;
}

static int run_pdn(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("pdn needs export or import (see 'dama pdn --help')");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_print_help("pdn");
    if (strcmp(argv[1], "export") == 0)
        return run_export(argc - 1, argv + 1);
    if (strcmp(argv[1], "import") == 0)
        return run_import(argc - 1, argv + 1);
    return cli_usage_error("unknown pdn subcommand '%s' (export or import; see 'dama pdn --help')", argv[1]);
}

const Command cmd_pdn = {
    "pdn", "export games to PDN files, import PDN games into the database",
    run_pdn,
};
