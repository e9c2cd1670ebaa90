/* `dama annotate`: games with each move's score, the mistakes marked and the better line,
 * as PDN (comments and NAGs) and CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate_job.h"
#include "commands.h"
#include "egdb_search.h"
#include "store_open.h"
#include "interrupt.h"
#include "search.h"
#include "variant.h"
#include "version.h"
#include "weights.h"
#include "weights_store.h"

typedef struct AnnotateOptions {
    SearchLimits limits;
    const char *weights_name, *in, *db, *out, *csv, *egdb_dir;
    long hash_mb;
    int threads;
    int64_t game, run;
} AnnotateOptions;

/* The job (analysis/annotate_job.c): the PDN on stdout or --out, the summary on stderr. */
static int annotate(const EngineContext *ctx, AnnotateOptions *o, const Weights *weights, Egdb *egdb)
{
    AnnotateJob job = {
        .variant = ctx->variant, .rules = ctx->rules, .weights = weights, .weights_name = o->weights_name,
        .limits = o->limits, .hash_mb = o->hash_mb, .threads = o->threads, .egdb = egdb,
        .in = o->in, .db = o->db, .game = o->game, .run = o->run, .out = o->out, .csv = o->csv,
        .engine_version = dama_engine_version(), .progress = isatty(STDERR_FILENO),
        .stop = interrupt_flag(),
    };
    char err[1024];
    int code = annotate_job_run(&job, stdout, stderr, err, sizeof err);
    if (code && err[0])
        fprintf(stderr, "dama: %s\n", err);
    return code;
}

static int run_annotate(int argc, char **argv)
{
    EngineContext ctx;
    engine_context_init(&ctx);
    AnnotateOptions o = { .hash_mb = 16 };
    const CliOption options[] = {
        ENGINE_OPTIONS(&ctx),
        SEARCH_LIMIT_OPTIONS(&o.limits),
        TEXT_ARG("weights", &o.weights_name),
        LONG_ARG("hash", &o.hash_mb, 1, 65536),
        TEXT_ARG("in", &o.in),
        ID_ARG("game", &o.game),
        ID_ARG("run", &o.run),
        TEXT_ARG("db", &o.db),
        TEXT_ARG("out", &o.out),
        TEXT_ARG("csv", &o.csv),
        THREADS_ARG("threads", &o.threads),
        TEXT_ARG("egdb", &o.egdb_dir),
        { 0 },
    };
    int code = cli_parse(argc, argv, "annotate", options, 0);
    if (code >= 0)
        return code;
    if ((o.in != NULL) + (o.game > 0) + (o.run > 0) != 1)
        return cli_usage_error("give one of --in FILE.pdn, --game ID or --run R (see 'dama annotate --help')");
    if (ctx.fen || ctx.moves_text)
        return cli_usage_error("--fen and --moves do not apply: the games come from --in, --game or --run");
    if (o.in && o.db)
        return cli_usage_error("--db reads --game or --run; a file's games are annotated without it");
    if (!o.limits.depth && !o.limits.nodes && !o.limits.movetime_ms)
        o.limits.depth = ANNOTATE_DEFAULT_DEPTH;
    interrupt_flag();
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    Weights weights;
    if (!cli_weights(&weights, ctx.variant, o.weights_name, "best"))
        return EXIT_USAGE;
    /* a missing or damaged database is reported and left unused, as in analyze */
    Egdb *egdb = o.egdb_dir ? egdb_open_checked(o.egdb_dir, ctx.variant, &ctx.rules) : NULL;
    code = annotate(&ctx, &o, &weights, egdb);
    egdb_close(egdb);
    weights_free(&weights);
    return code;
}

const Command cmd_annotate = {
    "annotate", "mark a game's mistakes by the score each move lost, with the better line",
    run_annotate,
};
