/* `dama tune`: fit the evaluation weights to stored game results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "interrupt.h"
#include "tune_options.h"
#include "tune_job.h"
#include "variant.h"

/* "3,5,9" into run ids; -1 for bad text, -2 when out of memory. */
static int parse_run_list(const char *text, int64_t **ids)
{
    int n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ',';
    *ids = calloc((size_t)n, sizeof **ids);
    if (!*ids)
        return -2;
    int count = 0;
    for (const char *p = text; *p;) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v <= 0 || (*end && *end != ','))
            return -1;
        (*ids)[count++] = v;
        p = *end ? end + 1 : end;
    }
    return count;
}

static int tune_with_start(TuneConfig *cfg, const char *db, const char *out_path, const char *runs_text,
                           long last);

static int run_tune(int argc, char **argv)
{
    const char *db = "dama.db", *out_path = "tuned-weights.txt", *runs_text = NULL, *start_path = NULL;
    long last = 0;
    /* The options whose default depends on the evaluation, known once START is read. */
    bool batch_given = false, lr_given = false, reg_given = false, patience_given = false;
    const Variant *variant = &turkish_variant;
    EvalChoice eval = EVAL_AS_GIVEN;
    TuneConfig cfg;
    tune_default_config(&cfg, variant->eval);
    char err[512];
    const CliOption options[] = {
        TEXT_ARG("db", &db),
        TEXT_ARG("runs", &runs_text),
        LONG_ARG("last-generations", &last, 1, 1000),
        TEXT_ARG("out", &out_path),
        INT_ARG("epochs", &cfg.epochs, 1, 1000000),
        { .name = "lr", .kind = ARG_CALL, .dest = &cfg.learning_rate, .call = tune_option_real, .seen = &lr_given },
        { .name = "batch", .kind = ARG_SIZE, .dest = &cfg.batch, .min = 0, .max = 1000000000L, .seen = &batch_given },
        CALL_ARG("validation", &cfg.validation, tune_option_real),
        THREADS_ARG("threads", &cfg.threads),
        TEXT_ARG("weights", &start_path), /* read once the variant is known */
        INT_ARG("skip-plies", &cfg.skip_plies, 0, 1000),
        { .name = "patience", .kind = ARG_INT, .dest = &cfg.patience, .min = 0, .max = 1000000, .seen = &patience_given },
        CALL_ARG("lambda", &cfg.lambda, tune_option_real),
        { .name = "reg", .kind = ARG_CALL, .dest = &cfg.reg, .call = tune_option_real, .seen = &reg_given },
        SET_ARG("dedup", &cfg.dedup),
        CLEAR_ARG("no-dedup", &cfg.dedup),
        CALL_ARG("variant", &variant, cli_option_variant),
        CALL_ARG("eval", &eval, tune_option_eval),
        { 0 },
    };
    int code = cli_parse(argc, argv, "tune", options, 0);
    if (code >= 0)
        return code;
    /* The variant's games and weights; the other options keep their values. */
    cfg.variant = variant->name;
    interrupt_flag(); /* the fit stops on Ctrl-C or SIGTERM (exit 130): reading --start too */
    if (!start_weights(&cfg.start, variant, start_path ? start_path : "default", eval, err, sizeof err))
        return cli_usage_error("%s", err);
    TuneConfig defaults; /* the evaluation's: a linear or a pattern fit (tune.h) */
    tune_default_config(&defaults, cfg.start.spec);
    if (!batch_given)
        cfg.batch = defaults.batch;
    if (!lr_given)
        cfg.learning_rate = defaults.learning_rate;
    if (!reg_given)
        cfg.reg = defaults.reg;
    if (!patience_given)
        cfg.patience = defaults.patience;
    code = tune_with_start(&cfg, db, out_path, runs_text, last);
    weights_free(&cfg.start);
    return code;
}

/* The rest of run_tune, once the options and the starting weights are read. */
static int tune_with_start(TuneConfig *cfg_, const char *db, const char *out_path, const char *runs_text,
                           long last)
{
    TuneConfig cfg = *cfg_; /* a copy: the run list below is this call's */
    if (runs_text && last)
        return cli_usage_error("give --runs or --last-generations, not both");
    int64_t *ids = NULL;
    if (runs_text && (cfg.nruns = parse_run_list(runs_text, &ids)) < 0) {
        free(ids);
        if (cfg.nruns == -2)
            return cli_runtime_error("out of memory");
        return cli_usage_error("bad value '%s' for --runs: expected run ids like 3,5,9", runs_text);
    }
    TuneJob job = { .db = db, .out_path = out_path, .runs = runs_text ? ids : NULL, .nruns = cfg.nruns,
                    .last = last, .show = isatty(STDERR_FILENO), .stop = interrupt_flag() };
    int code = tune_job_run(&cfg, &job);
    if (code == EXIT_OK)
        printf("weights written to %s\n", out_path);
    free(ids);
    return code;
}

const Command cmd_tune = {
    "tune", "fit the evaluation weights to the stored games (Texel method)",
    "usage: dama tune [--variant NAME] [--db FILE]\n"
    "                 [--runs LIST | --last-generations K] [--out FILE] [--epochs E]\n"
    "                 [--lr X] [--batch B] [--validation F] [--threads T] [--weights\n"
    "                 START] [--skip-plies P] [--patience N] [--lambda L] [--eval\n"
    "                 linear|pattern] [--reg R] [--no-dedup]\n"
    "\n"
    "Loads the quiet positions (no capture pending) of the chosen self-play runs,\n"
    "drops repeated positions, labels each with its game's result from the side to\n"
    "move, fits the logistic scale K, then descends with (lazy, sparse) Adam, holding\n"
    "out whole games for validation and stopping when the validation loss stops\n"
    "improving.  Writes the weights file and records the run, the weights and the fit\n"
    "in the database (so it opens it to write; it never creates one).\n"
    "The database, the runs and the --out path are checked before the fit starts.\n"
    "\n"
    "  -v, --variant NAME   {GAMES}: only that game's runs are learnt from\n"
    "  --db FILE            database (default dama.db); it must exist\n"
    "  --runs LIST          self-play or match run ids, comma separated, used\n"
    "                       whatever their status (default: every run that ended\n"
    "                       'done' and has games)\n"
    "  --last-generations K the K most recent self-play runs\n"
    "  --out FILE           weights file to write (default tuned-weights.txt)\n"
    "  --weights START      starting weights (default: built-in hand-set weights)\n"
    "  --eval KIND          linear or pattern: the evaluation to fit (default: that\n"
    "                       of START); with pattern, linear START keeps its values\n"
    "                       and the pattern weights start at 0\n"
    "  --epochs E           at most E passes (default 300)\n"
    "  --lr X               Adam step in hundredths of a man (default 1; 0.25 for a\n"
    "                       pattern evaluation)\n"
    "  --batch B            positions per step, 0 = full batch (default: 0 for a\n"
    "                       linear evaluation, 16384 for a pattern one, whose data is\n"
    "                       large)\n"
    "  --validation F       share of games held out (default 0.1)\n"
    "  --patience N         epochs without improvement before stopping (default 50;\n"
    "                       10 for a pattern evaluation)\n"
    "  --skip-plies P       ignore the first P plies of every game (default 8)\n"
    "  --threads T          threads for the gradient (default and most: the CPUs;\n"
    "                       more are lowered to that)\n"
    "  --lambda L           blend each result with the stored search score's\n"
    "                       prediction: label = (1-L) result + L sigmoid(K score)\n"
    "                       (default 0)\n"
    "  --reg R              pull toward the start weights: adds R (w - w_start)^2 per\n"
    "                       weight to the loss, applied to the weights a step touches\n"
    "                       (default 0; 1e-9 for a pattern evaluation: it keeps\n"
    "                       rarely seen pattern weights near their start)\n"
    "  --dedup              drop every repeat of a position already loaded, keeping\n"
    "                       the first: openings and forced lines repeat across games\n"
    "                       and would weigh many times over (the default; the count\n"
    "                       is printed)\n"
    "  --no-dedup           keep repeated positions\n",
    run_tune,
};
