/* `dama train`: the loop.  Each generation plays self-play games with the best weights,
 * tunes a candidate on the recent games, and promotes it only if an SPRT match accepts it.
 * Every finished step is written to the training journal, so `--resume` continues an
 * interrupted run where it stopped. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "pipeline.h"
#include "run_options.h"
#include "tune.h"
#include "variant.h"

enum { OPT_GENERATIONS = OPT_RUN_FIRST_FREE, OPT_MATCH_GAMES, OPT_START, OPT_WINDOW, OPT_SPRT_T,
       OPT_OUT_T, OPT_RESUME, OPT_EPOCHS_T, OPT_MATCH_NOISE, OPT_FINAL_GAMES, OPT_GAUNTLET,
       OPT_GAUNTLET_GAMES, OPT_EVAL_T, OPT_LAMBDA_T, OPT_LR_T, OPT_REG_T };

typedef struct TrainOptions {
    RunOptions ro;            /* self-play settings; the matches use them with their own games */
    int generations, match_games, match_noise, final_games, window, epochs, gauntlet_games;
    const char *start, *out_path;
    const char *gauntlet;     /* an outside engine's command, or NULL */
    EngineConfig gauntlet_engine;
    SprtConfig sprt;
    bool resume;
    EvalChoice eval;          /* --eval */
    double lambda;            /* --lambda: the tuner's blend of results and search scores */
    double learning_rate, reg; /* --lr, --reg: the tuner's, when given (else its defaults) */
    bool lr_given, reg_given;
} TrainOptions;

/* fmt's text at the end of the params text in buf (len bytes), as much as fits. */
static void params_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void params_append(char *buf, size_t len, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

/* Seeds: generation g's self-play and match, and the final match (g = 0), never overlap
 * while a run has fewer than 1000003 games per step. */
static uint64_t step_seed(const TrainOptions *to, int gen, bool match)
{
    return to->ro.cfg.seed + (uint64_t)gen * 1000003u + (match ? 500000u : 0u);
}

static bool load_weights_id(Store *store, const Variant *v, int64_t id, Weights *w)
{
    char err[512];
    bool ok = pipeline_load_stored_weights(store, v, id, w, err, sizeof err);
    if (!ok)
        cli_runtime_error("%s", err);
    return ok;
}

static bool journal(Store *store, int64_t train_id, int gen, const char *step, int64_t ref,
                    int64_t best, int64_t candidate, const char *outcome)
{
    TrainStep ts = { .ref_id = ref, .best_weights_id = best, .candidate_weights_id = candidate };
    snprintf(ts.outcome, sizeof ts.outcome, "%s", outcome ? outcome : "");
    if (store_train_step_put(store, train_id, gen, step, &ts))
        return true;
    cli_runtime_error("%s", store_error(store));
    return false;
}

/* A match of the training run: A against B with the match settings, continued when an
 * interrupted run left it unfinished.  tag names it in the run's params. */
static int train_match(Store *store, TrainOptions *to, int64_t train_id, int gen, int games,
                       const SprtConfig *sprt, const Weights *a, int64_t a_id, const Weights *b,
                       int64_t b_id, MatchOutcome *mo)
{
    RunOptions ro = to->ro;
    ro.cfg.games = games;
    ro.cfg.seed = step_seed(to, gen, true);
    ro.cfg.setup.noise = to->match_noise;
    char params[1024];
    int64_t ids[2] = { a_id, b_id };
    match_params(&ro, sprt, ids, params, sizeof params);
    if (gen > 0)
        params_append(params, sizeof params, " train_run=%lld generation=%d", (long long)train_id, gen);
    else
        params_append(params, sizeof params, " train_run=%lld final", (long long)train_id);
    return pipeline_match(store, &ro, sprt, a, a_id, b, b_id, params, RESUME_IF_SAME, mo);
}

/* The gauntlet: weights (the start at generation 0, else the newly promoted best) against
 * the outside engine, stored as a plain match run tagged gauntlet=1 (the journal's steps
 * cannot name it), continued like any train match when an interrupted run left it
 * unfinished. */
static int gauntlet_match(Store *store, TrainOptions *to, int64_t train_id, int gen, int64_t weights_id)
{
    Weights w;
    if (!load_weights_id(store, to->ro.cfg.setup.variant, weights_id, &w))
        return EXIT_RUNTIME;
    RunOptions ro = to->ro;
    ro.cfg.games = to->gauntlet_games;
    ro.cfg.seed = step_seed(to, gen, true) + 250000u;
    ro.cfg.setup.noise = to->match_noise;
    ro.cfg.engine[1] = &to->gauntlet_engine;
    SprtConfig none = { .enabled = false, .alpha = 0.05, .beta = 0.05 };
    char params[1024];
    int64_t ids[2] = { weights_id, 0 };
    match_params(&ro, &none, ids, params, sizeof params);
    params_append(params, sizeof params, " train_run=%lld generation=%d gauntlet=1", (long long)train_id, gen);
    printf("generation %d: gauntlet of weights %lld against %s\n", gen, (long long)weights_id,
           to->gauntlet_engine.name);
    fflush(stdout);
    MatchOutcome mo;
    int code = pipeline_match(store, &ro, &none, &w, weights_id, &w, 0, params, RESUME_IF_SAME, &mo);
    weights_free(&w);
    if (code == EXIT_OK) {
        char elo[96];
        match_elo_text(&mo.elo, elo, sizeof elo);
        printf("generation %d: gauntlet: weights %lld against %s: %s over %d games (match run %lld)\n",
               gen, (long long)weights_id, to->gauntlet_engine.name, elo, mo.games, (long long)mo.run_id);
        fflush(stdout);
    }
    return code;
}

static int generation_steps(Store *store, TrainOptions *to, int64_t train_id, int gen, int64_t *best_id,
                            const Weights *best);

/* One generation; *best_id is updated on promotion.  Returns an exit code. */
static int train_generation(Store *store, TrainOptions *to, int64_t train_id, int gen, int64_t *best_id)
{
    Weights best;
    if (!load_weights_id(store, to->ro.cfg.setup.variant, *best_id, &best))
        return EXIT_RUNTIME;
    int code = generation_steps(store, to, train_id, gen, best_id, &best);
    weights_free(&best);
    return code;
}

/* The steps of train_generation with the best weights loaded. */
static int generation_steps(Store *store, TrainOptions *to, int64_t train_id, int gen, int64_t *best_id,
                            const Weights *best)
{
    TrainStep ts;

    /* Step 1. Self-play with the best weights; an interrupted one plays its missing games. */
    int found = store_train_step_get(store, train_id, gen, "selfplay", &ts);
    if (found < 0)
        return cli_runtime_error("%s", store_error(store));
    if (!found) {
        RunOptions ro = to->ro;
        ro.cfg.seed = step_seed(to, gen, false); /* new games each generation */
        char params[1024];
        run_options_describe(&ro, params, sizeof params);
        params_append(params, sizeof params, " weights=%lld train_run=%lld generation=%d",
                 (long long)*best_id, (long long)train_id, gen);
        int64_t run_id;
        int code = pipeline_selfplay(store, &ro, best, *best_id, params, RESUME_IF_SAME, &run_id);
        if (code != EXIT_OK || !journal(store, train_id, gen, "selfplay", run_id, *best_id, 0, NULL))
            return code != EXIT_OK ? code : EXIT_RUNTIME;
    }

    /* Step 2. Tune a candidate on the self-play of the last `window` generations. */
    found = store_train_step_get(store, train_id, gen, "tune", &ts);
    if (found < 0)
        return cli_runtime_error("%s", store_error(store));
    int64_t candidate_id = found ? ts.ref_id : 0;
    if (!found) {
        int64_t runs[64];
        int nruns = 0;
        for (int g = gen; g >= 1 && g > gen - to->window && nruns < 64; g--) {
            TrainStep sp;
            if (store_train_step_get(store, train_id, g, "selfplay", &sp) == 1)
                runs[nruns++] = sp.ref_id;
        }
        TuneConfig cfg;
        tune_default_config(&cfg, best->spec);
        cfg.start = *best; /* borrowed */
        cfg.run_ids = runs;
        cfg.nruns = nruns;
        cfg.threads = to->ro.cfg.threads;
        cfg.epochs = to->epochs;
        cfg.lambda = to->lambda;
        if (to->lr_given)
            cfg.learning_rate = to->learning_rate;
        if (to->reg_given)
            cfg.reg = to->reg;
        int code = pipeline_tune(store, &cfg, *best_id, gen, NULL, to->ro.cfg.progress,
                                 pipeline_interrupt_flag(), &candidate_id);
        if (code != EXIT_OK || !journal(store, train_id, gen, "tune", candidate_id, *best_id, candidate_id, NULL))
            return code != EXIT_OK ? code : EXIT_RUNTIME;
    }

    /* Step 3. Candidate (A) against the best (B), stopped by the SPRT. */
    found = store_train_step_get(store, train_id, gen, "match", &ts);
    if (found < 0)
        return cli_runtime_error("%s", store_error(store));
    char verdict[16];
    if (found) {
        snprintf(verdict, sizeof verdict, "%s", ts.outcome);
    } else if (candidate_id == *best_id) {
        /* The fit found nothing better than where it started: nothing to test. */
        printf("generation %d: the tuned weights equal the best weights; no match\n", gen);
        snprintf(verdict, sizeof verdict, "unchanged");
        if (!journal(store, train_id, gen, "match", 0, *best_id, candidate_id, verdict))
            return EXIT_RUNTIME;
    } else {
        Weights candidate;
        if (!load_weights_id(store, to->ro.cfg.setup.variant, candidate_id, &candidate))
            return EXIT_RUNTIME;
        MatchOutcome mo;
        int code = train_match(store, to, train_id, gen, to->match_games, &to->sprt, &candidate,
                               candidate_id, best, *best_id, &mo);
        weights_free(&candidate);
        snprintf(verdict, sizeof verdict, "%s", mo.verdict == SPRT_ACCEPT_H1 ? "accept-H1"
                                               : mo.verdict == SPRT_ACCEPT_H0 ? "accept-H0" : "continue");
        if (code != EXIT_OK || !journal(store, train_id, gen, "match", mo.run_id, *best_id, candidate_id, verdict))
            return code != EXIT_OK ? code : EXIT_RUNTIME;
    }

    /* Step 4. Promote only on evidence; a promoted candidate meets the gauntlet first, so
     * that a run interrupted in it plays it again (its missing games) on resume. */
    bool promote = strcmp(verdict, "accept-H1") == 0;
    if (promote && to->gauntlet) {
        int code = gauntlet_match(store, to, train_id, gen, candidate_id);
        if (code != EXIT_OK)
            return code;
    }
    if (!journal(store, train_id, gen, "decision", 0, *best_id, candidate_id, promote ? "promoted" : "rejected"))
        return EXIT_RUNTIME;
    if (candidate_id == *best_id) /* said above: no candidate, nothing rejected */
        printf("generation %d: the best weights stay %lld\n", gen, (long long)*best_id);
    else
        printf("generation %d: candidate %lld %s (best was %lld)\n", gen, (long long)candidate_id,
               promote ? "promoted" : "rejected", (long long)*best_id);
    fflush(stdout);
    if (promote)
        *best_id = candidate_id;
    return EXIT_OK;
}

/* One stored match row, read back for the summary. */
typedef struct MatchRow {
    int cols[6];              /* games, elo, elo_low, elo_high, llr, verdict */
    double value[5];
    char verdict[16];
    bool found;
} MatchRow;

static const char *const match_row_names[6] = { "games", "elo", "elo_low", "elo_high", "llr", "verdict" };

static int match_row_header(void *ctx, int ncols, const char *const *names)
{
    MatchRow *mr = ctx;
    for (int k = 0; k < 6; k++) {
        mr->cols[k] = -1;
        for (int i = 0; i < ncols; i++)
            if (strcmp(names[i], match_row_names[k]) == 0)
                mr->cols[k] = i;
        if (mr->cols[k] < 0)
            return 1;
    }
    return 0;
}

static int match_row(void *ctx, int ncols, const StoreCell *cells)
{
    MatchRow *mr = ctx;
    (void)ncols;
    for (int k = 0; k < 5; k++) {
        const StoreCell *c = &cells[mr->cols[k]];
        mr->value[k] = c->type == STORE_CELL_INT ? (double)c->i : c->type == STORE_CELL_REAL ? c->r : NAN;
    }
    const StoreCell *v = &cells[mr->cols[5]];
    snprintf(mr->verdict, sizeof mr->verdict, "%s", v->type == STORE_CELL_TEXT ? v->text : "");
    mr->found = true;
    return 0; /* the last row of the run wins: a resumed match may have written two */
}

/* What each generation decided, from the journal and the match rows (so a resumed run
 * reports its earlier generations too). */
static int print_summary(Store *store, const char *variant, int64_t train_id, int generations)
{
    printf("summary of train run %lld:\n", (long long)train_id);
    for (int gen = 1; gen <= generations; gen++) {
        TrainStep match, decision;
        if (store_train_step_get(store, train_id, gen, "match", &match) != 1 ||
            store_train_step_get(store, train_id, gen, "decision", &decision) != 1)
            return cli_runtime_error("train run %lld: generation %d is not in the journal: %s",
                                     (long long)train_id, gen, store_error(store));
        MatchRow mr = { .found = false };
        if (match.ref_id > 0 && !store_export_rows(store, "matches", variant, match.ref_id, match_row_header,
                                                   match_row, &mr))
            return cli_runtime_error("%s", store_error(store));
        if (mr.found) {
            /* A match of too few pairs stored no estimate (NULL: NaN here). */
            EloEstimate e = match_elo_from_stored(mr.value[0], mr.value[1], mr.value[2], mr.value[3]);
            char elo[96];
            match_elo_text(&e, elo, sizeof elo);
            printf("  generation %d: %s: %s llr %.2f over %.0f games (%s)\n", gen,
                   decision.outcome, elo, mr.value[4], mr.value[0], mr.verdict);
        } else
            printf("  generation %d: %s: %s\n", gen, decision.outcome,
                   strcmp(match.outcome, "unchanged") == 0 ? "the tuned weights equal the best; no match"
                                                           : "no match recorded");
    }
    return EXIT_OK;
}

/* The best weights against the starting weights: did the training work? */
static int final_match(Store *store, TrainOptions *to, int64_t train_id, int64_t start_id, int64_t best_id)
{
    if (to->final_games == 0) {
        printf("final match skipped (--final-games 0)\n");
        return EXIT_OK;
    }
    if (best_id == start_id) {
        printf("final: no generation was promoted; the best weights are the starting weights\n");
        return EXIT_OK;
    }
    Weights best = { 0 }, start = { 0 };
    const Variant *v = to->ro.cfg.setup.variant;
    if (!load_weights_id(store, v, best_id, &best) || !load_weights_id(store, v, start_id, &start)) {
        weights_free(&best);
        return EXIT_RUNTIME;
    }
    SprtConfig none = { .enabled = false, .alpha = 0.05, .beta = 0.05 };
    MatchOutcome mo;
    int code = train_match(store, to, train_id, 0, to->final_games, &none, &best, best_id, &start,
                           start_id, &mo);
    weights_free(&best);
    weights_free(&start);
    char elo[96];
    match_elo_text(&mo.elo, elo, sizeof elo);
    if (code == EXIT_OK)
        printf("final: best weights %lld against the starting weights %lld: %s over %d games\n",
               (long long)best_id, (long long)start_id, elo, mo.games);
    return code;
}

/* Replays the journal of a resumed run: the best weights after its decided generations,
 * and the first generation that is not decided yet. */
static int resume_point(Store *store, int64_t train_id, int64_t start_id, int64_t *best_id)
{
    *best_id = start_id;
    for (int gen = 1;; gen++) {
        TrainStep ts;
        int found = store_train_step_get(store, train_id, gen, "decision", &ts);
        if (found <= 0)
            return found < 0 ? -1 : gen;
        if (strcmp(ts.outcome, "promoted") == 0)
            *best_id = ts.candidate_weights_id;
    }
}

static int train(Store *store, TrainOptions *to, const Weights *start)
{
    char err[512], status[32], params[2048], desc[1024];
    int64_t start_id = pipeline_store_weights(store, start, 0, 0, to->start);
    if (start_id < 0)
        return cli_runtime_error("%s: %s", to->ro.db_path, store_error(store));
    run_options_describe(&to->ro, desc, sizeof desc);
    /* What a resumed run must repeat; --generations may grow on resume. */
    snprintf(params, sizeof params, "%s match_games=%d match_noise=%d final_games=%d window=%d "
             "epochs=%d start=%s sprt=%g,%g,%g,%g", desc, to->match_games, to->match_noise,
             to->final_games, to->window, to->epochs, to->start, to->sprt.elo0, to->sprt.elo1,
             to->sprt.alpha, to->sprt.beta);
    /* The options below are written only when given: earlier runs keep their params. */
    if (to->gauntlet)
        params_append(params, sizeof params, " gauntlet=%s gauntlet_games=%d", to->gauntlet, to->gauntlet_games);
    if (to->eval == EVAL_PATTERN)
        params_append(params, sizeof params, " eval=pattern");
    if (to->lambda > 0)
        params_append(params, sizeof params, " lambda=%g", to->lambda);
    if (to->lr_given)
        params_append(params, sizeof params, " lr=%g", to->learning_rate);
    if (to->reg_given)
        params_append(params, sizeof params, " reg=%g", to->reg);

    int64_t train_id = 0, best_id = start_id;
    int first_gen = 1;
    if (to->resume) {
        char old_params[2048];
        train_id = store_last_run(store, "train", to->ro.cfg.setup.variant->name, status, sizeof status,
                                  old_params, sizeof old_params);
        if (train_id < 0)
            return cli_runtime_error("%s: %s", to->ro.db_path, store_error(store));
        if (train_id == 0)
            return cli_usage_error("%s: no training run to resume", to->ro.db_path);
        if (strcmp(old_params, params) != 0)
            return cli_usage_error("--resume needs the options of the interrupted run: %s", old_params);
        first_gen = resume_point(store, train_id, start_id, &best_id);
        if (first_gen < 0)
            return cli_runtime_error("%s: %s", to->ro.db_path, store_error(store));
        printf("resuming training run %lld at generation %d\n", (long long)train_id, first_gen);
    } else {
        char signature[64];
        pipeline_bench_signature(to->ro.cfg.setup.variant, signature, sizeof signature);
        train_id = store_run_begin(store, "train", to->ro.cfg.setup.variant->name, params, pipeline_engine_version(), signature, start_id);
        if (train_id < 0)
            return cli_runtime_error("%s: %s", to->ro.db_path, store_error(store));
    }

    int code = EXIT_OK;
    if (to->gauntlet) {
        /* The baseline: the start weights against the engine, before generation 1's self-play
         * (whose journal step says it was played). */
        TrainStep ts;
        int found = store_train_step_get(store, train_id, 1, "selfplay", &ts);
        if (found < 0)
            return cli_runtime_error("%s", store_error(store));
        if (!found)
            code = gauntlet_match(store, to, train_id, 0, start_id);
    }
    for (int gen = first_gen; gen <= to->generations && code == EXIT_OK; gen++) {
        printf("generation %d/%d\n", gen, to->generations);
        fflush(stdout);
        code = train_generation(store, to, train_id, gen, &best_id);
    }
    if (code == EXIT_OK) {
        Weights best = { 0 };
        if (!load_weights_id(store, to->ro.cfg.setup.variant, best_id, &best))
            code = EXIT_RUNTIME;
        else if (!weights_save(&best, to->out_path, err, sizeof err))
            code = cli_runtime_error("%s", err);
        else
            printf("train run %lld: best weights %lld written to %s\n", (long long)train_id,
                   (long long)best_id, to->out_path);
        weights_free(&best);
    }
    if (code == EXIT_OK)
        code = final_match(store, to, train_id, start_id, best_id);
    if (code == EXIT_OK)
        code = print_summary(store, to->ro.cfg.setup.variant->name, train_id, to->generations);
    const char *end = code == EXIT_OK ? "done" : code == EXIT_INTERRUPTED ? "interrupted" : "failed";
    /* A failure has said why already; its status may not be writable (a full disk). */
    if (!store_run_end(store, train_id, end) && code == EXIT_OK)
        code = cli_runtime_error("%s: train run %lld could not be marked %s: %s", to->ro.db_path,
                                 (long long)train_id, end, store_error(store));
    if (code == EXIT_INTERRUPTED)
        fprintf(stderr, "dama: interrupted: run 'dama train --resume' with the same options to continue\n");
    return code;
}

static int run_train(int argc, char **argv)
{
    static const struct option longopts[] = {
        RUN_LONG_OPTIONS,
        { "generations", required_argument, 0, OPT_GENERATIONS },
        { "match-games", required_argument, 0, OPT_MATCH_GAMES },
        { "start", required_argument, 0, OPT_START },
        { "window", required_argument, 0, OPT_WINDOW },
        { "sprt", required_argument, 0, OPT_SPRT_T },
        { "out", required_argument, 0, OPT_OUT_T },
        { "resume", no_argument, 0, OPT_RESUME },
        { "epochs", required_argument, 0, OPT_EPOCHS_T },
        { "match-noise", required_argument, 0, OPT_MATCH_NOISE },
        { "final-games", required_argument, 0, OPT_FINAL_GAMES },
        { "gauntlet", required_argument, 0, OPT_GAUNTLET },
        { "gauntlet-games", required_argument, 0, OPT_GAUNTLET_GAMES },
        { "eval", required_argument, 0, OPT_EVAL_T },
        { "lambda", required_argument, 0, OPT_LAMBDA_T },
        { "lr", required_argument, 0, OPT_LR_T },
        { "reg", required_argument, 0, OPT_REG_T },
        OUTSIDE_ENGINE_LONG_OPTIONS,
        { 0, 0, 0, 0 },
    };
    TrainOptions to = { .generations = 3, .match_games = 200, .final_games = 200, .window = 2,
                        .epochs = 300, .start = "default", .out_path = "best-weights.txt",
                        .gauntlet_games = 100 };
    run_options_init(&to.ro);
    to.ro.cfg.games = 200;
    to.ro.cfg.setup.noise = 10; /* self-play: a pair's two games must differ */
    char err[512];
    sprt_parse(&to.sprt, "elo0=0,elo1=20,alpha=0.05,beta=0.05", err, sizeof err);
    long n;
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        switch (o) {
        case OPT_HELP: return cli_print_help("train");
        case '?': return EXIT_USAGE;
        case OPT_GENERATIONS: if (!cli_long("--generations", optarg, 1, 100000, &n)) return EXIT_USAGE; to.generations = (int)n; break;
        case OPT_MATCH_GAMES: if (!cli_long("--match-games", optarg, 2, 10000000, &n)) return EXIT_USAGE; to.match_games = (int)n; break;
        case OPT_WINDOW: if (!cli_long("--window", optarg, 1, 64, &n)) return EXIT_USAGE; to.window = (int)n; break;
        case OPT_EPOCHS_T: if (!cli_long("--epochs", optarg, 1, 1000000, &n)) return EXIT_USAGE; to.epochs = (int)n; break;
        case OPT_MATCH_NOISE: if (!cli_long("--match-noise", optarg, 0, 1000, &n)) return EXIT_USAGE; to.match_noise = (int)n; break;
        case OPT_FINAL_GAMES: if (!cli_long("--final-games", optarg, 0, 10000000, &n)) return EXIT_USAGE; to.final_games = (int)n; break;
        case OPT_GAUNTLET_GAMES: if (!cli_long("--gauntlet-games", optarg, 2, 10000000, &n)) return EXIT_USAGE; to.gauntlet_games = (int)n; break;
        case OPT_GAUNTLET:
            if (!optarg[0])
                return cli_usage_error("--gauntlet: empty command");
            to.gauntlet = optarg;
            break;
        case OPT_START: to.start = optarg; break;
        case OPT_OUT_T: to.out_path = optarg; break;
        case OPT_RESUME: to.resume = true; break;
        case OPT_EVAL_T: if (!pipeline_eval_parse(optarg, &to.eval)) return EXIT_USAGE; break;
        case OPT_LAMBDA_T: if (!pipeline_tune_real(TUNE_OPT_LAMBDA, optarg, &to.lambda)) return EXIT_USAGE; break;
        case OPT_LR_T:
            if (!pipeline_tune_real(TUNE_OPT_LR, optarg, &to.learning_rate))
                return EXIT_USAGE;
            to.lr_given = true;
            break;
        case OPT_REG_T:
            if (!pipeline_tune_real(TUNE_OPT_REG, optarg, &to.reg))
                return EXIT_USAGE;
            to.reg_given = true;
            break;
        case OPT_SPRT_T:
            if (!sprt_parse(&to.sprt, optarg, err, sizeof err))
                return cli_usage_error("%s", err);
            break;
        default:
            if (run_options_parse(&to.ro, o, optarg) < 0)
                return EXIT_USAGE;
        }
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama train --help')", argv[optind]);
    if (to.gauntlet_games % 2)
        return cli_usage_error("--gauntlet-games %d: a match plays pairs of games (colours "
                               "swapped), so give an even number", to.gauntlet_games);
    if (to.match_games % 2 || to.final_games % 2)
        return cli_usage_error("--%s %d: a match plays pairs of games (colours swapped), so give "
                               "an even number", to.match_games % 2 ? "match-games" : "final-games",
                               to.match_games % 2 ? to.match_games : to.final_games);
    if (!run_options_finish(&to.ro))
        return EXIT_USAGE;
    Weights start;
    if (!pipeline_start_weights(&start, to.ro.cfg.setup.variant, to.start, to.eval, err, sizeof err)) {
        run_options_free(&to.ro);
        return cli_usage_error("%s", err);
    }
    /* the gauntlet engine is side B of its matches */
    int started = !run_options_engine_sides(&to.ro, (bool[2]){ false, to.gauntlet != NULL }) ? EXIT_USAGE
                  : to.gauntlet ? match_start_engine(&to.ro, 1, to.gauntlet, &to.gauntlet_engine)
                                : EXIT_OK;
    if (started != EXIT_OK) {
        run_options_free(&to.ro);
        weights_free(&start);
        return started;
    }
    Store *store = pipeline_open_store(to.ro.db_path);
    int code = store ? train(store, &to, &start) : EXIT_RUNTIME;
    store_close(store);
    run_options_free(&to.ro);
    weights_free(&start);
    return code;
}

const Command cmd_train = {
    "train", "the training loop: self-play, tune, match, promote on evidence",
    "usage: dama train [--db FILE] [--generations G] [--games N] [--match-games M]\n"
    "                  [--nodes K] [--threads T] [--start WEIGHTS] [--window W]\n"
    "                  [--sprt elo0=0,elo1=20,alpha=0.05,beta=0.05] [--out FILE]\n"
    "                  [--resume] [--gauntlet CMD [--gauntlet-games N]] [--eval\n"
    "                  linear|pattern] [--epochs E] [--lambda L] [--lr X] [--reg R]\n"
    "\n"
    "For each generation: self-play N games with the best weights, tune a candidate\n"
    "on the games of the last W generations, match it against the best (at most M\n"
    "games, stopped by the SPRT), and promote it only when the SPRT accepts it.\n"
    "Every step is recorded; after Ctrl-C, the same command with --resume continues\n"
    "where it stopped, and gives the same weights as a run never stopped (node or\n"
    "depth limits; --threads does not matter).  The best weights are written to FILE,\n"
    "then a final match measures them against the starting weights, and a summary\n"
    "lists every generation's decision.  Generation g's self-play uses seeds from S +\n"
    "1000003 g, its match from S + 1000003 g + 500000 and the final match from S +\n"
    "500000 (S = --seed).\n"
    "\n"
    "  --generations G    generations to run (default 3)\n"
    "  --games N          self-play games per generation (default 200)\n"
    "  --noise CP         evaluation noise in self-play, hundredths of a man (default\n"
    "                     10)\n"
    "  --match-games M    most games of each promotion match (default 200)\n"
    "  --match-noise CP   evaluation noise in the matches (default 0)\n"
    "  --final-games N    games of the final match of the best weights against the\n"
    "                     start weights, which says whether the training worked\n"
    "                     (default 200; 0 skips it)\n"
    "  --start WEIGHTS    first best weights: a file, 'default', 'material' or 'best'\n"
    "                     (default: default)\n"
    "  --window W         generations of self-play a candidate learns from (default\n"
    "                     2)\n"
    "  --sprt SPEC        promotion test (default\n"
    "                     elo0=0,elo1=20,alpha=0.05,beta=0.05)\n"
    "  --epochs E         most tuning epochs (default 300)\n"
    "  --lambda L         tune on results blended with the stored search scores, as\n"
    "                     'dama tune --lambda' (default 0: results only)\n"
    "  --lr X             the tuner's Adam step in hundredths of a man, as 'dama tune\n"
    "                     --lr' (default 1; 0.25 for a pattern evaluation)\n"
    "  --reg R            the tuner's pull toward the best weights it starts from, as\n"
    "                     'dama tune --reg' (default 0; 1e-9 for a pattern\n"
    "                     evaluation)\n"
    "  --out FILE         where the best weights go (default best-weights.txt)\n"
    "  --resume           continue the last training run in the database (same\n"
    "                     options; a larger --generations extends a finished run)\n"
    "  --gauntlet CMD     an outside Hub engine (e.g. 'bin/dama hub', or Scan) as a\n"
    "                     fixed yardstick: the start weights play it before\n"
    "                     generation 1, and each promoted candidate after its match,\n"
    "                     N games each with the match settings (no SPRT); stored as\n"
    "                     match runs with params train_run=R generation=G gauntlet=1\n"
    "                     (generation 0: the start weights)\n"
    "  --gauntlet-games N games of each gauntlet (default 100)\n"
    "  --eval KIND        linear or pattern: the evaluation to train (default: that\n"
    "                     of the --start weights); with pattern, linear start weights\n"
    "                     keep their values and the pattern weights start at 0\n"
    RUN_OPTIONS_HELP
    OUTSIDE_ENGINE_OPTIONS_HELP,
    run_train,
};
