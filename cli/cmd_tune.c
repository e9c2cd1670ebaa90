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

enum { OPT_DB_T = OPT_FIRST_FREE, OPT_RUNS, OPT_LAST, OPT_OUT, OPT_EPOCHS, OPT_LR, OPT_BATCH_T,
       OPT_VALIDATION, OPT_THREADS_T, OPT_WEIGHTS_T, OPT_SKIP, OPT_PATIENCE, OPT_LAMBDA, OPT_EVAL_TU,
       OPT_REG, OPT_DEDUP, OPT_NO_DEDUP };

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

static const struct option tune_longopts[] = {
    { "db", required_argument, 0, OPT_DB_T },
    { "runs", required_argument, 0, OPT_RUNS },
    { "last-generations", required_argument, 0, OPT_LAST },
    { "out", required_argument, 0, OPT_OUT },
    { "epochs", required_argument, 0, OPT_EPOCHS },
    { "lr", required_argument, 0, OPT_LR },
    { "batch", required_argument, 0, OPT_BATCH_T },
    { "validation", required_argument, 0, OPT_VALIDATION },
    { "threads", required_argument, 0, OPT_THREADS_T },
    { "weights", required_argument, 0, OPT_WEIGHTS_T },
    { "skip-plies", required_argument, 0, OPT_SKIP },
    { "patience", required_argument, 0, OPT_PATIENCE },
    { "lambda", required_argument, 0, OPT_LAMBDA },
    { "reg", required_argument, 0, OPT_REG },
    { "dedup", no_argument, 0, OPT_DEDUP },
    { "no-dedup", no_argument, 0, OPT_NO_DEDUP },
    { "variant", required_argument, 0, OPT_VARIANT },
    { "eval", required_argument, 0, OPT_EVAL_TU },
    { "help", no_argument, 0, OPT_HELP },
    { 0, 0, 0, 0 },
};

static int run_tune(int argc, char **argv)
{
    const char *db = "dama.db", *out_path = "tuned-weights.txt", *runs_text = NULL, *start_path = NULL;
    long last = 0, n;
    /* The options whose default depends on the evaluation, known once START is read. */
    bool batch_given = false, lr_given = false, reg_given = false, patience_given = false;
    const Variant *variant = &turkish_variant;
    EvalChoice eval = EVAL_AS_GIVEN;
    TuneConfig cfg;
    tune_default_config(&cfg, variant->eval);
    char err[512];
    int o;
    while ((o = cli_getopt(argc, argv, tune_longopts)) != -1) {
        switch (o) {
        case OPT_HELP: return cli_print_help("tune");
        case OPT_DB_T: db = optarg; break;
        case OPT_RUNS: runs_text = optarg; break;
        case OPT_LAST: if (!cli_long("--last-generations", optarg, 1, 1000, &last)) return EXIT_USAGE; break;
        case OPT_OUT: out_path = optarg; break;
        case OPT_EPOCHS: if (!cli_long("--epochs", optarg, 1, 1000000, &n)) return EXIT_USAGE; cfg.epochs = (int)n; break;
        case OPT_PATIENCE: if (!cli_long("--patience", optarg, 0, 1000000, &n)) return EXIT_USAGE; cfg.patience = (int)n; patience_given = true; break;
        case OPT_SKIP: if (!cli_long("--skip-plies", optarg, 0, 1000, &n)) return EXIT_USAGE; cfg.skip_plies = (int)n; break;
        case OPT_BATCH_T:
            if (!cli_long("--batch", optarg, 0, 1000000000L, &n))
                return EXIT_USAGE;
            cfg.batch = (size_t)n;
            batch_given = true;
            break;
        case OPT_THREADS_T: if (!cli_threads(optarg, &cfg.threads)) return EXIT_USAGE; break;
        case OPT_LR:
            if (!tune_real_parse(TUNE_OPT_LR, optarg, &cfg.learning_rate))
                return EXIT_USAGE;
            lr_given = true;
            break;
        case OPT_LAMBDA: if (!tune_real_parse(TUNE_OPT_LAMBDA, optarg, &cfg.lambda)) return EXIT_USAGE; break;
        case OPT_REG:
            if (!tune_real_parse(TUNE_OPT_REG, optarg, &cfg.reg))
                return EXIT_USAGE;
            reg_given = true;
            break;
        case OPT_DEDUP: cfg.dedup = true; break;
        case OPT_NO_DEDUP: cfg.dedup = false; break;
        case OPT_VALIDATION:
            if (!tune_real_parse(TUNE_OPT_VALIDATION, optarg, &cfg.validation))
                return EXIT_USAGE;
            break;
        case OPT_WEIGHTS_T: start_path = optarg; break; /* read once the variant is known */
        case OPT_VARIANT: if (!(variant = cli_variant(optarg))) return EXIT_USAGE; break;
        case OPT_EVAL_TU: if (!eval_choice_parse(optarg, &eval)) return EXIT_USAGE; break;
        default: return EXIT_USAGE;
        }
    }
    /* The variant's games and weights; the other options keep their values. */
    cfg.variant = variant->name;
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama tune --help')", argv[optind]);
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
    int code = tune_with_start(&cfg, db, out_path, runs_text, last);
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
