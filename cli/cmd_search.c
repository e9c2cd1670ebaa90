/* `dama analyze` (one position) and `dama bench` (the search's signature). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "commands.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "variant.h"
#include "weights.h"

enum { OPT_DEPTH = OPT_FIRST_FREE, OPT_NODES, OPT_MOVETIME, OPT_WEIGHTS, OPT_HASH };

#define SEARCH_LONG_OPTIONS \
    { "depth", required_argument, 0, OPT_DEPTH }, \
    { "nodes", required_argument, 0, OPT_NODES }, \
    { "movetime", required_argument, 0, OPT_MOVETIME }, \
    { "weights", required_argument, 0, OPT_WEIGHTS }, \
    { "hash", required_argument, 0, OPT_HASH }

typedef struct SearchOptions {
    SearchLimits limits;
    Weights weights;
    long hash_mb;
} SearchOptions;

/* Handles --depth/--nodes/--movetime/--weights/--hash: 1 used, 0 not ours, -1 error. */
static int search_option(SearchOptions *so, int opt, const char *arg)
{
    long n;
    char err[512];
    switch (opt) {
    case OPT_DEPTH:
        if (!cli_long("--depth", arg, 1, MAX_PLY - 2, &n)) return -1;
        so->limits.depth = (int)n;
        return 1;
    case OPT_NODES:
        if (!cli_u64("--nodes", arg, &so->limits.nodes)) return -1;
        return 1;
    case OPT_MOVETIME:
        if (!cli_long("--movetime", arg, 1, 86400000L, &n)) return -1;
        so->limits.movetime_ms = (int)n;
        return 1;
    case OPT_HASH:
        if (!cli_long("--hash", arg, 1, 65536, &n)) return -1;
        so->hash_mb = n;
        return 1;
    case OPT_WEIGHTS:
        if (!weights_load(&so->weights, arg, err, sizeof err)) {
            cli_usage_error("%s", err);
            return -1;
        }
        return 1;
    default:
        return 0;
    }
}

typedef struct AnalyzeReport {
    const Variant *v;
    const Position *root;
} AnalyzeReport;

/* "d3-d4 d6-d5 ...": the PV played out from the root so each move is written in context. */
static void print_pv(const Variant *v, const Position *root, const Move *pv, int n)
{
    char text[128];
    for (int i = 0; i < n; i++)
        printf(" %s", move_to_text(v, &pv[i], text, sizeof text));
    (void)root;
}

static void report_iteration(void *ctx, const SearchInfo *info)
{
    const AnalyzeReport *r = ctx;
    char score[32];
    printf("info depth %d score %s nodes %llu nps %.0f pv", info->depth,
           score_to_text(info->score, score, sizeof score), (unsigned long long)info->nodes,
           info->seconds > 0 ? (double)info->nodes / info->seconds : 0.0);
    print_pv(r->v, r->root, info->pv, info->pv_length);
    putchar('\n');
    fflush(stdout);
}

static int run_analyze(int argc, char **argv)
{
    static const struct option longopts[] = {
        ENGINE_LONG_OPTIONS,
        SEARCH_LONG_OPTIONS,
        { 0, 0, 0, 0 },
    };
    EngineContext ctx;
    engine_context_init(&ctx);
    SearchOptions so = { .hash_mb = 64 };
    weights_default(&so.weights);
    int o, r;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("analyze");
        if (o == '?')
            return EXIT_USAGE;
        if ((r = engine_context_option(&ctx, o, optarg)) < 0)
            return EXIT_USAGE;
        if (r == 0 && search_option(&so, o, optarg) < 0)
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama analyze --help')", argv[optind]);
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    if (!so.limits.depth && !so.limits.nodes && !so.limits.movetime_ms)
        so.limits.depth = 12;

    Searcher *s = searcher_new(ctx.variant, &ctx.rules, &so.weights, (size_t)so.hash_mb);
    if (!s)
        return cli_runtime_error("out of memory for a %ld MB hash table", so.hash_mb);
    AnalyzeReport rep = { ctx.variant, &ctx.pos };
    SearchInfo info = search(s, &ctx.pos, NULL, 0, &so.limits, report_iteration, &rep);
    char text[128];
    if (info.pv_length > 0)
        printf("bestmove %s\n", move_to_text(ctx.variant, &info.pv[0], text, sizeof text));
    else
        printf("bestmove none\n");
    searcher_free(s);
    return EXIT_OK;
}

static void print_bench_line(void *ctx, int index, const Position *pos, const SearchInfo *info)
{
    const Variant *v = ctx;
    char text[128], score[32];
    (void)pos;
    printf("%2d %-14s %-8s nodes %10llu  %s\n", index + 1,
           info->pv_length ? move_to_text(v, &info->pv[0], text, sizeof text) : "none",
           score_to_text(info->score, score, sizeof score), (unsigned long long)info->nodes,
           bench_positions[index]);
}

static int run_bench(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "depth", required_argument, 0, OPT_DEPTH },
        { "help", no_argument, 0, OPT_HELP },
        { 0, 0, 0, 0 },
    };
    SearchOptions so = { .hash_mb = 16, .limits = { .depth = 11 } };
    weights_default(&so.weights);
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("bench");
        if (o == '?' || search_option(&so, o, optarg) < 0)
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama bench --help')", argv[optind]);
    const Variant *v = &turkish_variant;
    Rules rules = rules_default();
    Searcher *s = searcher_new(v, &rules, &so.weights, (size_t)so.hash_mb);
    if (!s)
        return cli_runtime_error("out of memory for the hash table");
    double seconds;
    uint64_t nodes = bench_run(s, so.limits.depth, &seconds, print_bench_line, (void *)v);
    searcher_free(s);
    printf("bench %llu nodes %.0f nps\n", (unsigned long long)nodes, seconds > 0 ? (double)nodes / seconds : 0.0);
    return EXIT_OK;
}

const Command cmd_analyze = {
    "analyze", "search a position and print the best move",
    "usage: dama analyze [--fen FEN] [--weights FILE] [--depth D | --nodes N | --movetime MS]\n"
    "                    [--rules OPTIONS] [--hash MB]\n"
    "\n"
    "Searches the position by iterative deepening and prints one line per iteration,\n"
    "  info depth D score S nodes N nps X pv MOVES\n"
    "then 'bestmove MOVE'.  S is in hundredths of a man from the side to move, or winN/lossN\n"
    "for a forced win or loss in N plies.  A search limited by --nodes is deterministic.\n"
    "\n"
    "  --fen FEN        position (default: start)\n"
    "  --weights FILE   evaluation weights (default: the built-in hand-set weights, the same\n"
    "                   as data/weights/turkish.txt)\n"
    "  --depth D        iterations up to depth D (default 12 when no limit is given)\n"
    "  --nodes N        stop after N nodes\n"
    "  --movetime MS    stop after MS milliseconds\n"
    "  --hash MB        transposition table size (default 64)\n"
    "  --rules OPTIONS  promotion=man|stop|king, kvm=draw|win, noprogress=N\n",
    run_analyze,
};

const Command cmd_bench = {
    "bench", "search a fixed set of positions; the node count is the search's signature",
    "usage: dama bench [--depth D]\n"
    "\n"
    "Searches a fixed set of openings, middlegames and endgames with kings to depth D\n"
    "(default 11), each with a fresh hash table, and prints last: bench N nodes X nps.\n"
    "N changes only when the search or evaluation changes.\n",
    run_bench,
};
