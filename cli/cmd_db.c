/* `dama db merge`: database files (self-play shards from many machines) folded into one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "interrupt.h"
#include "merge_shards.h"
#include "store_open.h"
#include "variant.h"

/* DAMA_TEST_MERGE_STALL: the tests' way to kill or interrupt a merge inside its
 * transaction; a Ctrl-C ends the stall, and the merge then rolls back. */
static void stall_before_commit(void *ctx)
{
    const atomic_bool *stop = ctx;
    fprintf(stderr, "dama: merge stalled before its commit (DAMA_TEST_MERGE_STALL)\n");
    fflush(stderr);
    while (!atomic_load(stop))
        usleep(10000);
}

/* The shards merged in order (store/merge_shards.c): an exit code, the error printed. */
static int merge_all(Store *store, char **shards, int n, MergeTotals *t)
{
    MergeHooks hooks = { .stop = interrupt_flag() };
    if (getenv("DAMA_TEST_MERGE_STALL")) {
        hooks.before_commit = stall_before_commit;
        hooks.ctx = (void *)hooks.stop;
    }
    char err[1024];
    int code = store_merge_shards(store, shards, n, &hooks, isatty(STDERR_FILENO) ? stderr : NULL, t, err,
                                  sizeof err);
    if (code)
        fprintf(stderr, "dama: %s\n", err);
    return code;
}

/* --variant: a variant's name, or NULL for "any". */
static bool merge_variant_option(const CliOption *option, const char *value)
{
    const Variant *v = strcmp(value, "any") == 0 ? NULL : cli_variant(value);
    *(const char **)option->dest = v ? v->name : NULL;
    return v || strcmp(value, "any") == 0;
}

static int run_merge(int argc, char **argv)
{
    const char *into = NULL, *variant = turkish_variant.name;
    const CliOption options[] = {
        TEXT_ARG("into", &into),
        CALL_ARG("variant", &variant, merge_variant_option),
        { 0 },
    };
    int code = cli_parse(argc, argv, "db", options, argc);
    if (code >= 0)
        return code;
    if (!into)
        return cli_usage_error("db merge needs --into FILE (see 'dama db --help')");
    if (optind >= argc)
        return cli_usage_error("db merge needs at least one SHARD.db to merge (see 'dama db --help')");
    char **shards = argv + optind;
    int n = argc - optind;
    /* Every shard is checked before the target is touched: bad input leaves it as it was. */
    char err[1024];
    code = store_merge_check_all(into, shards, n, variant, err, sizeof err);
    if (code != EXIT_OK)
        return fprintf(stderr, "dama: %s\n", err), code;
    double start = cli_now_seconds();
    Store *store = cli_open_store(into);
    if (!store)
        return EXIT_RUNTIME;
    MergeTotals t = { 0 };
    code = merge_all(store, shards, n, &t);
    store_close(store);
    double seconds = cli_now_seconds() - start;
    if (code == EXIT_OK)
        printf("merged shards %d runs %lld games %lld positions %lld skipped-games %lld differing-games %lld "
               "time %.2f positions/s %.0f\n", n, (long long)t.runs, (long long)t.games, (long long)t.positions,
               (long long)t.skipped_games, (long long)t.differing_games, seconds,
               seconds > 0 ? t.positions / seconds : 0.0);
    return code;
}

static int run_db(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("db needs a subcommand: merge (see 'dama db --help')");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_print_help("db");
    if (strcmp(argv[1], "merge") == 0)
        return run_merge(argc - 1, argv + 1);
    return cli_usage_error("unknown db subcommand '%s' (see 'dama db --help')", argv[1]);
}

const Command cmd_db = {
    "db", "database files: merge self-play shards (and any dama files) into one",
    run_db,
};
