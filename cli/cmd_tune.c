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

/* Where the positions come from or go (--data, --save-data). */
typedef struct DataFiles {
    const char *load, *save;
} DataFiles;

static int tune_with_start(TuneConfig *cfg, const char *db, const char *out_path, const char *runs_text,
                           long last, DataFiles files);

static int run_tune(int argc, char **argv)
{
    const char *db = "dama.db", *out_path = "tuned-weights.txt", *runs_text = NULL, *start_path = NULL;
    long last = 0;
    DataFiles files = { 0 };
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
        TEXT_ARG("data", &files.load),
        TEXT_ARG("save-data", &files.save),
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
        CLEAR_ARG("terms", &cfg.pattern_keys),
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
    code = tune_with_start(&cfg, db, out_path, runs_text, last, files);
    weights_free(&cfg.start);
    return code;
}

/* The rest of run_tune, once the options and the starting weights are read. */
static int tune_with_start(TuneConfig *cfg_, const char *db, const char *out_path, const char *runs_text,
                           long last, DataFiles files)
{
    TuneConfig cfg = *cfg_; /* a copy: the run list below is this call's */
    if (runs_text && last)
        return cli_usage_error("give --runs or --last-generations, not both");
    if (files.load && files.save)
        return cli_usage_error("give --data or --save-data, not both");
    if (files.load && (runs_text || last))
        return cli_usage_error("--data fits the file's positions: its runs were chosen by --save-data");
    cfg.data_path = files.load;
    int64_t *ids = NULL;
    if (runs_text && (cfg.nruns = parse_run_list(runs_text, &ids)) < 0) {
        free(ids);
        if (cfg.nruns == -2)
            return cli_runtime_error("out of memory");
        return cli_usage_error("bad value '%s' for --runs: expected run ids like 3,5,9", runs_text);
    }
    TuneJob job = { .db = db, .out_path = out_path, .runs = runs_text ? ids : NULL, .nruns = cfg.nruns,
                    .last = last, .save_path = files.save, .show = isatty(STDERR_FILENO),
                    .stop = interrupt_flag() };
    int code = tune_job_run(&cfg, &job);
    if (code == EXIT_OK)
        printf("%s written to %s\n", files.save ? "positions" : "weights", files.save ? files.save : out_path);
    free(ids);
    return code;
}

const Command cmd_tune = {
    "tune", "fit the evaluation weights to the stored games (Texel method)",
    run_tune,
};
