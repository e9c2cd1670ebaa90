/* `dama egdb build|probe|verify`: endgame databases from the command line. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "egdb_build.h"
#include "egdb_probe.h"
#include "egdb_verify.h"
#include "interrupt.h"
#include "variant.h"

/* The options a subcommand takes besides --variant, --rules and --dir. */
enum { EGDB_POSITION = 1, EGDB_PIECES = 2, EGDB_QUIET = 4, EGDB_THREADS = 8 };

typedef struct EgdbArgs {
    EngineContext ctx;
    const char *dir;
    long pieces;
    int threads; /* 0: the CPUs */
    bool variant_given;
    bool quiet;
} EgdbArgs;

/* Reads the options of one subcommand (argv[0] is its name), those of which and the
 * shared ones: -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, int which, EgdbArgs *a)
{
    *a = (EgdbArgs){ .dir = NULL };
    engine_context_init(&a->ctx);
    a->ctx.rules_only = true;
    CliOption options[10] = { /* room for every option and the end mark */
        { .name = "variant", .kind = ARG_CALL, .dest = &a->ctx, .call = engine_context_variant,
          .seen = &a->variant_given },
        CALL_ARG("rules", &a->ctx, engine_context_rules),
    };
    int n = 2;
    if (which & EGDB_POSITION) {
        options[n++] = (CliOption)TEXT_ARG("fen", &a->ctx.fen);
        options[n++] = (CliOption)TEXT_ARG("moves", &a->ctx.moves_text);
    }
    if (which & EGDB_PIECES)
        options[n++] = (CliOption)LONG_ARG("pieces", &a->pieces, 2, EGDB_MAX_PIECES);
    options[n++] = (CliOption)TEXT_ARG("dir", &a->dir);
    if (which & EGDB_QUIET)
        options[n++] = (CliOption)SET_ARG("quiet", &a->quiet);
    if (which & EGDB_THREADS)
        options[n++] = (CliOption)THREADS_ARG("threads", &a->threads);
    int code = cli_parse(argc, argv, "egdb", options, 0);
    if (code >= 0)
        return code;
    if (!a->dir)
        return cli_usage_error("egdb %s needs --dir DIR (see 'dama egdb --help')", argv[0]);
    return engine_context_finish(&a->ctx) ? -1 : EXIT_USAGE;
}

static int run_build(int argc, char **argv)
{
    EgdbArgs a;
    int status = parse_args(argc, argv, EGDB_PIECES | EGDB_QUIET | EGDB_THREADS, &a);
    if (status >= 0)
        return status;
    if (a.pieces == 0)
        return cli_usage_error("egdb build needs --pieces N (2 to %d)", EGDB_MAX_PIECES);
    Egdb *db = egdb_open(a.ctx.variant, &a.ctx.rules, a.dir);
    if (!db)
        return cli_runtime_error("out of memory");
    EgdbBuildOptions opt = { .pieces = (int)a.pieces, .stop = interrupt_flag(),
                             .progress = a.quiet ? NULL : stderr, .threads = a.threads };
    char err[4400];
    int result = egdb_build(db, &opt, err, sizeof err);
    egdb_close(db);
    if (result == EGDB_BUILD_INTERRUPTED) {
        fprintf(stderr, "dama: egdb build interrupted; the classes written so far are kept, "
                        "the same command resumes\n");
        return EXIT_INTERRUPTED;
    }
    if (result != EGDB_BUILD_OK)
        return cli_runtime_error("egdb build: %s", err);
    return EXIT_OK;
}

static int run_probe(int argc, char **argv)
{
    EgdbArgs a;
    int status = parse_args(argc, argv, EGDB_POSITION, &a);
    if (status >= 0)
        return status;
    Egdb *db = egdb_open(a.ctx.variant, &a.ctx.rules, a.dir);
    if (!db)
        return cli_runtime_error("out of memory");
    int value = egdb_probe(db, &a.ctx.pos);
    egdb_close(db);
    if (value == EGDB_UNKNOWN) {
        printf("unknown\n");
        return cli_runtime_error("no usable endgame database in %s holds this position", a.dir);
    }
    printf("%s\n", egdb_value_name(value));
    return EXIT_OK;
}

static int run_verify(int argc, char **argv)
{
    EgdbArgs a;
    int status = parse_args(argc, argv, EGDB_PIECES | EGDB_THREADS, &a);
    if (status >= 0)
        return status;
    EgdbVerifyTotals t;
    if (!egdb_verify_dir(a.variant_given ? a.ctx.variant : NULL, &a.ctx.rules, a.dir,
                         a.pieces ? (int)a.pieces : EGDB_MAX_PIECES, a.threads, stdout, &t))
        return cli_runtime_error("out of memory");
    int classes = t.classes, failures = t.failures;
    if (classes == 0)
        return cli_runtime_error("no endgame database files in %s", a.dir);
    printf("verified classes %d failed %d\n", classes, failures);
    return failures ? EXIT_RUNTIME : EXIT_OK;
}

static int run_egdb(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("egdb needs a subcommand: build, probe or verify (see 'dama egdb --help')");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        EgdbArgs a; /* read with every subcommand's options, which the help names */
        return parse_args(argc, argv, EGDB_POSITION | EGDB_PIECES | EGDB_QUIET | EGDB_THREADS, &a);
    }
    if (strcmp(argv[1], "build") == 0)
        return run_build(argc - 1, argv + 1);
    if (strcmp(argv[1], "probe") == 0)
        return run_probe(argc - 1, argv + 1);
    if (strcmp(argv[1], "verify") == 0)
        return run_verify(argc - 1, argv + 1);
    return cli_usage_error("unknown egdb subcommand '%s' (see 'dama egdb --help')", argv[1]);
}

const Command cmd_egdb = {
    "egdb", "endgame databases: build, probe and verify win/draw/loss tables",
    run_egdb,
};
