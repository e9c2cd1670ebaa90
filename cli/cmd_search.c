/* `dama analyze` (one position, or a batch) and `dama bench` (the search's signature). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "batch_job.h"
#include "bench.h"
#include "commands.h"
#include "store_open.h"
#include "egdb_search.h"
#include "game.h"
#include "interrupt.h"
#include "notation.h"
#include "position.h"
#include "position_job.h"
#include "search.h"
#include "variant.h"
#include "version.h"
#include "weights.h"
#include "weights_store.h"

typedef struct SearchOptions {
    SearchLimits limits;
    Weights weights;
    const char *weights_name; /* NULL = built-in */
    long hash_mb;             /* 0 = the command's default */
    const char *egdb_dir;     /* --egdb (analyze) */
    Egdb *egdb;               /*   opened by search_options_finish; NULL: none usable */
} SearchOptions;

/* The weights of variant v: the file or name of --weights, or else fallback ("best" for
 * analyze, "default" for bench, whose node count is the search's signature); false after
 * printing the error. */
static bool search_options_finish(SearchOptions *so, const Variant *v, const char *fallback)
{
    return cli_weights(&so->weights, v, so->weights_name, fallback);
}

static void report_iteration(void *ctx, const SearchInfo *info)
{
    const Variant *v = ctx;
    char score[32], text[128];
    printf("info depth %d score %s nodes %llu nps %.0f pv", info->depth,
           score_to_text(info->score, score, sizeof score), (unsigned long long)info->nodes,
           info->seconds > 0 ? (double)info->nodes / info->seconds : 0.0);
    for (int i = 0; i < info->pv_length; i++) /* a move carries its whole path: no position needed */
        printf(" %s", move_to_text(v, &info->pv[i], text, sizeof text));
    putchar('\n');
    fflush(stdout);
}

/* The batch options of `dama analyze`. */
typedef struct BatchOptions {
    const char *in, *format, *db, *out;
    int threads;
    bool strict;
    int64_t game, run, sample;
    uint64_t seed;
    int plies[64];
    int nplies;
} BatchOptions;

/* --plies LIST into the BatchOptions option->dest. */
static bool plies_option(const CliOption *option, const char *value)
{
    BatchOptions *bo = option->dest;
    bo->nplies = 0;
    const char *p = value;
    for (;;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > MAX_GAME_PLIES || bo->nplies == 64 || (*end && *end != ','))
            return cli_usage_error("bad value '%s' for --plies: expected up to 64 plies from 0 to %d "
                                   "separated by commas, like 10,20,30", value, MAX_GAME_PLIES), false;
        bo->plies[bo->nplies++] = (int)v;
        if (!*end)
            return true;
        p = end + 1;
    }
}

/* --format: fen or pdn. */
static bool format_option(const CliOption *option, const char *value)
{
    if (strcmp(value, "fen") != 0 && strcmp(value, "pdn") != 0)
        return cli_usage_error("bad value '%s' for --format: expected fen or pdn", value), false;
    *(const char **)option->dest = value;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

/* `dama analyze --in/--game/--run`: the options checked, then the job (analysis/batch_job.c)
 * reads every position first (bad lines reported), searches them in parallel, and writes
 * the CSV and, with a database, the analyses. */
static int run_batch(EngineContext *ctx, SearchOptions *so, BatchOptions *bo)
{
    int sources = (bo->in != NULL) + (bo->game > 0) + (bo->run > 0);
    if (sources != 1)
        return cli_usage_error("give one of --in FILE, --game ID or --run R (see 'dama analyze --help')");
    if (ctx->fen)
        return cli_usage_error("--fen analyses one position; it does not combine with --in, --game or --run");
    const char *format = bo->format ? bo->format : bo->in && ends_with(bo->in, ".pdn") ? "pdn" : "fen";
    bool pdn = strcmp(format, "pdn") == 0;
    if (bo->format && !bo->in)
        return cli_usage_error("--format applies to --in FILE");
    if (bo->sample && !bo->run)
        return cli_usage_error("--sample N needs --run R");
    if (bo->nplies && !pdn && !bo->game)
        return cli_usage_error("--plies selects positions of games: use it with --format pdn or --game");
    if (!so->limits.depth && !so->limits.nodes && !so->limits.movetime_ms)
        so->limits.depth = 12;
    if (!so->hash_mb)
        so->hash_mb = 16;
    BatchJob job = {
        .variant = ctx->variant, .rules = ctx->rules,
        .weights = &so->weights, .weights_name = so->weights_name,
        .limits = so->limits, .threads = bo->threads, .hash_mb = so->hash_mb, .egdb = so->egdb,
        .in = bo->in, .pdn = pdn, .game = bo->game, .run = bo->run, .sample = bo->sample,
        .seed = bo->seed, .plies = { bo->plies, bo->nplies }, .strict = bo->strict,
        .db = bo->db, .out = bo->out, .engine_version = dama_engine_version(),
        .progress = isatty(STDERR_FILENO), .stop = interrupt_flag(),
    };
    BatchJobReport report;
    char err[1024];
    int code = batch_job_run(&job, stderr, &report, err, sizeof err);
    if (code) {
        if (err[0])
            fprintf(stderr, "dama: %s\n", err);
        return code;
    }
    fprintf(stderr, "analyzed %d positions, %d bad line%s\n", report.count, report.bad,
            report.bad == 1 ? "" : "s");
    return report.bad > 0 ? EXIT_USAGE : EXIT_OK;
}

static int analyze_position(const EngineContext *ctx, SearchOptions *so, int threads, const char *book_path);

static int run_analyze(int argc, char **argv)
{
    const char *book_path = NULL;
    EngineContext ctx;
    engine_context_init(&ctx);
    SearchOptions so = { .hash_mb = 0 };
    BatchOptions bo = { .threads = 0 };
    bool batch = false; /* a batch option was given */
    const CliOption options[] = {
        ENGINE_OPTIONS(&ctx),
        SEARCH_LIMIT_OPTIONS(&so.limits),
        TEXT_ARG("weights", &so.weights_name), /* read once the variant is known */
        LONG_ARG("hash", &so.hash_mb, 1, 65536),
        { .name = "in", .kind = ARG_TEXT, .dest = &bo.in, .seen = &batch },
        { .name = "format", .kind = ARG_CALL, .dest = &bo.format, .call = format_option, .seen = &batch },
        { .name = "db", .kind = ARG_TEXT, .dest = &bo.db, .seen = &batch },
        { .name = "out", .kind = ARG_TEXT, .dest = &bo.out, .seen = &batch },
        /* a batch's positions at once, or one position's search threads */
        { .name = "threads", .kind = ARG_THREADS, .dest = &bo.threads },
        { .name = "strict", .kind = ARG_SET, .dest = &bo.strict, .seen = &batch },
        { .name = "game", .kind = ARG_ID, .dest = &bo.game, .seen = &batch },
        { .name = "run", .kind = ARG_ID, .dest = &bo.run, .seen = &batch },
        { .name = "sample", .kind = ARG_ID, .dest = &bo.sample, .seen = &batch },
        { .name = "seed", .kind = ARG_U64, .dest = &bo.seed, .seen = &batch },
        { .name = "plies", .kind = ARG_CALL, .dest = &bo, .call = plies_option, .seen = &batch },
        TEXT_ARG("book", &book_path),
        TEXT_ARG("egdb", &so.egdb_dir),
        { 0 },
    };
    int code = cli_parse(argc, argv, "analyze", options, 0);
    if (code >= 0)
        return code;
    if (batch) {
        if (!bo.in && !bo.game && !bo.run)
            return cli_usage_error("the batch options (--out, --db, --strict, ...) need "
                                   "--in FILE, --game ID or --run R (see 'dama analyze --help')");
        if (ctx.moves_text)
            return cli_usage_error("--moves is for one position: a batch's positions come from "
                                   "--in, --game or --run");
        if (book_path)
            return cli_usage_error("--book is for one position, not a batch");
    }
    /* Both ways stop on Ctrl-C or SIGTERM (exit 130), from the reading of --weights on. */
    interrupt_flag();
    if (!engine_context_finish(&ctx) || !search_options_finish(&so, ctx.variant, "best"))
        return EXIT_USAGE;
    if (so.egdb_dir)
        so.egdb = egdb_open_checked(so.egdb_dir, ctx.variant, &ctx.rules);
    code = batch ? run_batch(&ctx, &so, &bo) : analyze_position(&ctx, &so, bo.threads, book_path);
    egdb_close(so.egdb);
    weights_free(&so.weights);
    return code;
}

/* analyze without batch options: one position, its best move (analysis/position_job.c). */
static int analyze_position(const EngineContext *ctx, SearchOptions *so, int threads, const char *book_path)
{
    PositionJob job = {
        .variant = ctx->variant, .rules = ctx->rules, .game = &ctx->game, .weights = &so->weights,
        .limits = so->limits, .hash_mb = so->hash_mb ? so->hash_mb : 64, .egdb = so->egdb,
        .book_path = book_path, .report = report_iteration, .report_ctx = (void *)ctx->variant,
        .stop = interrupt_flag(), .threads = threads,
    };
    if (!job.limits.depth && !job.limits.nodes && !job.limits.movetime_ms)
        job.limits.depth = 12;
    char err[1024];
    int code = position_job_run(&job, stdout, err, sizeof err);
    if (code == EXIT_USAGE)
        return cli_usage_error("--book: %s", err);
    if (code == EXIT_RUNTIME)
        return cli_runtime_error("%s", err);
    return code;
}

static void print_bench_line(void *ctx, int index, const Position *pos, const SearchInfo *info)
{
    const Variant *v = ctx;
    char text[128], score[32];
    (void)pos;
    printf("%2d %-14s %-8s nodes %10llu  %s\n", index + 1,
           info->pv_length ? move_to_text(v, &info->pv[0], text, sizeof text) : "none",
           score_to_text(info->score, score, sizeof score), (unsigned long long)info->nodes,
           v->bench_fens[index]);
}

static int run_bench(int argc, char **argv)
{
    EngineContext ctx;
    engine_context_init(&ctx);
    SearchOptions so = { .limits = { .depth = BENCH_DEPTH } };
    const CliOption options[] = {
        CALL_ARG("depth", &so.limits, cli_option_search_limit),
        TEXT_ARG("weights", &so.weights_name),
        CALL_ARG("variant", &ctx, engine_context_variant),
        { 0 },
    };
    int code = cli_parse(argc, argv, "bench", options, 0);
    if (code >= 0)
        return code;
    if (!engine_context_finish(&ctx) || !search_options_finish(&so, ctx.variant, "default"))
        return EXIT_USAGE;
    uint64_t nodes;
    double seconds;
    char err[512];
    bool ok = bench_run(ctx.variant, &so.weights, so.limits.depth, print_bench_line, (void *)ctx.variant,
                        &nodes, &seconds, err, sizeof err);
    weights_free(&so.weights);
    if (!ok)
        return cli_runtime_error("%s", err);
    printf("bench %llu nodes %.0f nps\n", (unsigned long long)nodes, seconds > 0 ? (double)nodes / seconds : 0.0);
    return EXIT_OK;
}

const Command cmd_analyze = {
    "analyze", "search a position, or a batch of positions into CSV and the database",
    run_analyze,
};

const Command cmd_bench = {
    "bench", "search a fixed set of positions; the node count is the search's signature",
    run_bench,
};
