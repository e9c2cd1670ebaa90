/* `dama annotate`: games with each move's score, the mistakes marked and the better line,
 * as PDN (comments and NAGs) and CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate_job.h"
#include "commands.h"
#include "interrupt.h"
#include "search.h"
#include "variant.h"
#include "version.h"
#include "weights.h"
#include "weights_store.h"

enum {
    OPT_N_DEPTH = OPT_FIRST_FREE, OPT_N_NODES, OPT_N_MOVETIME, OPT_N_WEIGHTS, OPT_N_HASH, OPT_N_IN, OPT_N_GAME,
    OPT_N_RUN, OPT_N_DB, OPT_N_OUT, OPT_N_CSV, OPT_N_THREADS
};

/* The default level: deep enough to see a piece hung to a multi-capture, a few seconds a
 * game on one core. */
#define ANNOTATE_DEFAULT_DEPTH 10

typedef struct AnnotateOptions {
    SearchLimits limits;
    const char *weights_name, *in, *db, *out, *csv;
    long hash_mb;
    int threads;
    int64_t game, run;
} AnnotateOptions;

static int annotate_option(AnnotateOptions *o, int opt, const char *arg)
{
    uint64_t u;
    switch (opt) {
    case OPT_N_DEPTH: return cli_search_limit(&o->limits, "--depth", arg) ? 1 : -1;
    case OPT_N_NODES: return cli_search_limit(&o->limits, "--nodes", arg) ? 1 : -1;
    case OPT_N_MOVETIME: return cli_search_limit(&o->limits, "--movetime", arg) ? 1 : -1;
    case OPT_N_HASH: return cli_long("--hash", arg, 1, 65536, &o->hash_mb) ? 1 : -1;
    case OPT_N_WEIGHTS: o->weights_name = arg; return 1;
    case OPT_N_IN: o->in = arg; return 1;
    case OPT_N_DB: o->db = arg; return 1;
    case OPT_N_OUT: o->out = arg; return 1;
    case OPT_N_CSV: o->csv = arg; return 1;
    case OPT_N_THREADS: return cli_threads(arg, &o->threads) ? 1 : -1;
    case OPT_N_GAME:
    case OPT_N_RUN: {
        const char *name = opt == OPT_N_GAME ? "--game" : "--run";
        if (!cli_u64(name, arg, &u))
            return -1;
        if (u == 0 || u > INT64_MAX)
            return cli_usage_error("bad value '%s' for %s: expected a positive number", arg, name), -1;
        *(opt == OPT_N_GAME ? &o->game : &o->run) = (int64_t)u;
        return 1;
    }
    default:
        return 0;
    }
}

/* The job (analysis/annotate_job.c): the PDN on stdout or --out, the summary on stderr. */
static int annotate(const EngineContext *ctx, AnnotateOptions *o, const Weights *weights)
{
    AnnotateJob job = {
        .variant = ctx->variant, .rules = ctx->rules, .weights = weights, .weights_name = o->weights_name,
        .limits = o->limits, .hash_mb = o->hash_mb, .threads = o->threads,
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
    static const struct option longopts[] = {
        ENGINE_LONG_OPTIONS,
        { "depth", required_argument, 0, OPT_N_DEPTH },
        { "nodes", required_argument, 0, OPT_N_NODES },
        { "movetime", required_argument, 0, OPT_N_MOVETIME },
        { "weights", required_argument, 0, OPT_N_WEIGHTS },
        { "hash", required_argument, 0, OPT_N_HASH },
        { "in", required_argument, 0, OPT_N_IN },
        { "game", required_argument, 0, OPT_N_GAME },
        { "run", required_argument, 0, OPT_N_RUN },
        { "db", required_argument, 0, OPT_N_DB },
        { "out", required_argument, 0, OPT_N_OUT },
        { "csv", required_argument, 0, OPT_N_CSV },
        { "threads", required_argument, 0, OPT_N_THREADS },
        { 0, 0, 0, 0 },
    };
    EngineContext ctx;
    engine_context_init(&ctx);
    AnnotateOptions o = { .hash_mb = 16 };
    int opt, r;
    while ((opt = cli_getopt(argc, argv, longopts)) != -1) {
        if (opt == OPT_HELP)
            return cli_print_help("annotate");
        if (opt == '?')
            return EXIT_USAGE;
        if ((r = engine_context_option(&ctx, opt, optarg)) < 0)
            return EXIT_USAGE;
        if (r == 0 && annotate_option(&o, opt, optarg) < 0)
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama annotate --help')", argv[optind]);
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
    char err[512];
    if (!weights_by_name(&weights, ctx.variant, o.weights_name ? o.weights_name : "best", err,
                                  sizeof err))
        return cli_usage_error("%s", err);
    int code = annotate(&ctx, &o, &weights);
    weights_free(&weights);
    return code;
}

#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x)
const Command cmd_annotate = {
    "annotate", "mark a game's mistakes by the score each move lost, with the better line",
    "usage: dama annotate (--in FILE.pdn | --game ID | --run R) [--db FILE]\n"
    "                     [--out FILE.pdn] [--csv FILE.csv] [--threads T]\n"
    "                     [--depth D | --nodes N | --movetime MS] [--weights FILE]\n"
    "                     [--hash MB] [--variant NAME] [--rules OPTIONS]\n"
    "\n"
    "Searches every position of the games (each on its own, in parallel; with --nodes\n"
    "the results do not depend on --threads) and gives each move, from the mover's\n"
    "view in hundredths of a man, its score before (the position's) and after (minus\n"
    "the next position's), the loss between them with both scores capped at +-500,\n"
    "and a mark: ?! (PDN $6) from a loss of 50, ? ($2) from 100, ?? ($4) from 200.\n"
    "The search's best move and an only legal move are never marked; a marked move's\n"
    "comment names the best move and its line (docs/annotate.md).\n"
    "\n"
    "  --in FILE.pdn    the games of a PDN file\n"
    "  --game ID        a stored game\n"
    "  --run R          every game of run R\n"
    "  --db FILE        the database of --game/--run (default dama.db); the searched\n"
    "                   positions are stored in it as a run of kind 'analysis', which\n"
    "                   the replay page of 'dama serve' shows as marks\n"
    "  --out FILE.pdn   the annotated games as PDN: after each move a comment\n"
    "                   {before -> after} and, when marked, its NAG and the best line\n"
    "                   (default: stdout)\n"
    "  --csv FILE.csv   one row per move: game_id,ply,move,mover,score_before,\n"
    "                   score_after,loss,mark,best_move,best_line (docs/csv.md)\n"
    "  --threads T      positions searched at once (default: the CPUs)\n"
    "  --depth D        search depth (default " TEXT_OF(ANNOTATE_DEFAULT_DEPTH) " when no limit is given)\n"
    "  --nodes N        stop each search after N nodes\n"
    "  --movetime MS    search each position for MS milliseconds\n"
    "  --weights FILE   evaluation weights: a file, 'best' (default), 'default',\n"
    "                   'material'\n"
    "  --hash MB        transposition table per thread (default 16)\n"
    "  -v, --variant NAME  {GAMES}\n"
    "  --rules OPTIONS  the variant's rule options (see 'dama analyze --help')\n"
    "  --fen, --moves   not used: the games give their positions\n",
    run_annotate,
};
