/* `dama annotate`: games with each move's score, the mistakes marked and the better line,
 * as PDN (comments and NAGs) and CSV. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "annotate.h"
#include "annotate_input.h"
#include "commands.h"
#include "csv_writer.h"
#include "interrupt.h"
#include "notation.h"
#include "pdn_write.h"
#include "search.h"
#include "store_open.h"
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

/* Reads the games: 0 or an exit code (the error printed). */
static int read_games(const EngineContext *ctx, const AnnotateOptions *o, AnnotateGames *gs)
{
    char err[1024];
    int code;
    if (o->in) {
        code = annotate_read_pdn_file(gs, ctx->variant, &ctx->rules, o->in, pipeline_interrupt_flag(), err,
                                      sizeof err);
    } else {
        const char *db = o->db ? o->db : "dama.db";
        if (access(db, F_OK) != 0)
            return cli_runtime_error("%s: no such database", db);
        Store *s = pipeline_open_store_readonly(db);
        if (!s)
            return EXIT_RUNTIME;
        code = o->game ? annotate_add_stored(gs, s, ctx->variant, &ctx->rules, o->game, err, sizeof err)
                       : annotate_add_run(gs, s, ctx->variant, &ctx->rules, o->run, err, sizeof err);
        store_close(s);
    }
    if (code && err[0])
        fprintf(stderr, "dama: %s\n", err);
    return code;
}

static int write_outputs(const EngineContext *ctx, const AnnotateOptions *o, const AnnotateGames *gs,
                         const BatchResult *results)
{
    const Variant *v = ctx->variant;
    char err[512];
    FILE *pdn = stdout;
    if (o->out && strcmp(o->out, "-") != 0 && !(pdn = fopen(o->out, "w")))
        return cli_runtime_error("%s: cannot write: %s", o->out, strerror(errno));
    CsvWriter w;
    bool csv = o->csv != NULL;
    if (csv && !csv_writer_open(&w, o->csv, err, sizeof err)) {
        if (pdn != stdout)
            fclose(pdn);
        return cli_runtime_error("%s", err);
    }
    if (csv)
        csv_header(&w, annotate_csv_columns, ANNOTATE_CSV_NCOLUMNS);
    int code = EXIT_OK, offset = 0, marks[4] = { 0 };
    for (int i = 0; i < gs->n && code == EXIT_OK; i++) {
        const AnnotateGame *g = &gs->games[i];
        AnnotatedMove *m = NULL;
        StorePdnNote *notes = NULL;
        int nnotes = 0;
        if (!annotate_game(v, &ctx->rules, &annotate_thresholds_default, g, results + offset, &m)
            || !annotate_notes(m, g->nmoves, &notes, &nnotes)) {
            annotated_moves_free(m, g->nmoves);
            code = cli_runtime_error("out of memory");
            break;
        }
        offset += g->nmoves + 1;
        /* The moves in the long form, as pdn_write_game reads them. */
        char *moves = malloc((size_t)g->nmoves * 128 + 1);
        size_t len = 0;
        if (moves) {
            moves[0] = '\0';
            for (int k = 0; k < g->nmoves; k++) {
                char text[128];
                move_to_text(v, &g->moves[k], text, sizeof text);
                len += (size_t)sprintf(moves + len, "%s%s", k ? " " : "", text);
            }
        }
        PdnGameOut out = { v, &ctx->rules, &g->start, g->setup, moves, g->result, g->tags, g->ntags, notes, nnotes };
        if (!moves)
            code = cli_runtime_error("out of memory");
        else if (!pdn_write_game(pdn, &out, err, sizeof err))
            code = cli_runtime_error("game %s: %s", g->id, err);
        for (int k = 0; k < g->nmoves && csv; k++) {
            csv_text(&w, g->id);
            csv_int(&w, m[k].ply);
            csv_text(&w, m[k].move);
            csv_text(&w, m[k].mover == WHITE ? "white" : "black");
            csv_int(&w, m[k].before);
            csv_int(&w, m[k].after);
            csv_int(&w, m[k].loss);
            csv_text(&w, annotate_mark_text(m[k].mark));
            csv_text(&w, m[k].best);
            csv_text(&w, m[k].line);
            csv_end_row(&w);
        }
        for (int k = 0; k < g->nmoves; k++)
            marks[m[k].mark]++;
        free(moves);
        annotate_notes_free(notes, nnotes);
        annotated_moves_free(m, g->nmoves);
    }
    if (csv && code == EXIT_OK && !csv_writer_commit(&w, err, sizeof err))
        code = cli_runtime_error("%s", err);
    else if (csv && code != EXIT_OK)
        csv_writer_abort(&w);
    if (fflush(pdn) != 0 || (pdn != stdout && fclose(pdn) != 0))
        code = code ? code : cli_runtime_error("%s: cannot write: %s", o->out ? o->out : "stdout", strerror(errno));
    if (code == EXIT_OK)
        fprintf(stderr, "annotated %d game%s: %d ?!, %d ?, %d ??\n", gs->n, gs->n == 1 ? "" : "s",
                marks[MARK_INACCURACY], marks[MARK_MISTAKE], marks[MARK_BLUNDER]);
    return code;
}

/* A stored game's annotation is its positions' analysis: one run of kind 'analysis', what
 * the replay page reads back (`dama serve`). */
static int store_results(const EngineContext *ctx, const AnnotateOptions *o, const Weights *weights,
                         const BatchList *list, const BatchResult *results, time_t started)
{
    const char *db = o->db ? o->db : "dama.db";
    char why[512];
    if (!store_path_writable(db, why, sizeof why)) {
        fprintf(stderr, "dama: %s: the annotation will not be stored: cannot write the database: %s\n", db, why);
        return EXIT_OK;
    }
    Store *s = pipeline_open_store(db);
    if (!s)
        return EXIT_RUNTIME;
    char params[1024], signature[64];
    snprintf(params, sizeof params, "annotate source=%s:%lld depth=%d nodes=%llu movetime=%d weights=%s",
             o->game ? "game" : "run", (long long)(o->game ? o->game : o->run), o->limits.depth,
             (unsigned long long)o->limits.nodes, o->limits.movetime_ms,
             o->weights_name ? o->weights_name : "best");
    if (!cli_bench_signature(ctx->variant, signature, sizeof signature)) {
        store_close(s);
        return EXIT_RUNTIME;
    }
    int64_t weights_id = pipeline_store_weights(s, weights, 0, 0, o->weights_name ? o->weights_name
                                                                                  : "built-in best weights");
    int64_t run = weights_id < 0 ? -1
                  : batch_store(s, ctx->variant, list, results, params, dama_engine_version(), signature,
                                weights_id, (int64_t)started);
    int code = run < 0 ? cli_runtime_error("%s: %s", db, store_error(s)) : EXIT_OK;
    store_close(s);
    return code;
}

static int annotate(const EngineContext *ctx, AnnotateOptions *o, const Weights *weights)
{
    AnnotateGames gs = { 0 };
    int code = read_games(ctx, o, &gs);
    if (code) {
        annotate_games_free(&gs);
        return code;
    }
    time_t started = time(NULL);
    BatchList list;
    batch_list_init(&list, stderr, true);
    if (!annotate_positions(ctx->variant, gs.games, gs.n, &list)) {
        batch_list_free(&list);
        annotate_games_free(&gs);
        return cli_runtime_error("out of memory");
    }
    BatchConfig cfg = {
        .variant = ctx->variant,
        .rules = ctx->rules,
        .weights = weights,
        .limits = o->limits,
        .threads = o->threads,
        .hash_mb = (size_t)o->hash_mb,
        .progress = isatty(STDERR_FILENO),
        .stop = pipeline_interrupt_flag(),
    };
    BatchResult *results = NULL;
    bool interrupted = false;
    char err[512];
    if (!batch_run(&cfg, &list, &results, &interrupted, err, sizeof err))
        code = cli_runtime_error("%s", err);
    else if (interrupted)
        code = (fprintf(stderr, "dama: interrupted: nothing written\n"), EXIT_INTERRUPTED);
    if (code == EXIT_OK)
        code = write_outputs(ctx, o, &gs, results);
    if (code == EXIT_OK && !o->in)
        code = store_results(ctx, o, weights, &list, results, started);
    batch_results_free(results, list.count);
    batch_list_free(&list);
    annotate_games_free(&gs);
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
    pipeline_interrupt_flag();
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    Weights weights;
    char err[512];
    if (!pipeline_weights_by_name(&weights, ctx.variant, o.weights_name ? o.weights_name : "best", err,
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
