/* `dama train`: its options and help; the loop itself is train/training.c. */
#include "commands.h"
#include "run_options.h"
#include "store_open.h"
#include "training.h"
#include "train_status.h"
#include "tune_options.h"

/* A training step's status is the command's exit code. */
_Static_assert((int)TRAIN_OK == EXIT_OK && (int)TRAIN_FAILED == EXIT_RUNTIME &&
               (int)TRAIN_REFUSED == EXIT_USAGE && (int)TRAIN_INTERRUPTED == EXIT_INTERRUPTED,
               "train statuses are exit codes");

enum { OPT_GENERATIONS = OPT_RUN_FIRST_FREE, OPT_MATCH_GAMES, OPT_START, OPT_WINDOW, OPT_SPRT_T,
       OPT_OUT_T, OPT_RESUME, OPT_EPOCHS_T, OPT_MATCH_NOISE, OPT_FINAL_GAMES, OPT_GAUNTLET,
       OPT_GAUNTLET_GAMES, OPT_EVAL_T, OPT_LAMBDA_T, OPT_LR_T, OPT_REG_T };

typedef struct TrainOptions {
    RunOptions ro; /* self-play settings: tc.run points to ro.run */
    TrainConfig tc;
} TrainOptions;

static const struct option train_longopts[] = {
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

static void train_options_init(TrainOptions *to)
{
    run_options_init(&to->ro);
    to->ro.run.cfg.games = 200;
    to->ro.run.cfg.setup.noise = 10; /* self-play: a pair's two games must differ */
    to->tc = (TrainConfig){ .run = &to->ro.run, .generations = 3, .match_games = 200, .final_games = 200,
                            .window = 2, .epochs = 300, .start = "default", .out_path = "best-weights.txt",
                            .gauntlet_games = 100 };
    char err[512];
    sprt_parse(&to->tc.sprt, "elo0=0,elo1=20,alpha=0.05,beta=0.05", err, sizeof err);
}

/* A whole number option into *out; false after the usage error. */
static bool int_option(const char *name, const char *arg, long min, long max, int *out)
{
    long n;
    if (!cli_long(name, arg, min, max, &n))
        return false;
    *out = (int)n;
    return true;
}

/* Handles option o of train's own; false after printing the usage error. */
static bool train_option(TrainOptions *to, int o, const char *arg)
{
    TrainConfig *tc = &to->tc;
    char err[512];
    switch (o) {
    case OPT_GENERATIONS: return int_option("--generations", arg, 1, 100000, &tc->generations);
    case OPT_MATCH_GAMES: return int_option("--match-games", arg, 2, 10000000, &tc->match_games);
    case OPT_WINDOW: return int_option("--window", arg, 1, 64, &tc->window);
    case OPT_EPOCHS_T: return int_option("--epochs", arg, 1, 1000000, &tc->epochs);
    case OPT_MATCH_NOISE: return int_option("--match-noise", arg, 0, 1000, &tc->match_noise);
    case OPT_FINAL_GAMES: return int_option("--final-games", arg, 0, 10000000, &tc->final_games);
    case OPT_GAUNTLET_GAMES: return int_option("--gauntlet-games", arg, 2, 10000000, &tc->gauntlet_games);
    case OPT_GAUNTLET:
        if (!arg[0])
            return cli_usage_error("--gauntlet: empty command"), false;
        tc->gauntlet = arg;
        return true;
    case OPT_START: tc->start = arg; return true;
    case OPT_OUT_T: tc->out_path = arg; return true;
    case OPT_RESUME: tc->resume = true; return true;
    case OPT_EVAL_T: return eval_choice_parse(arg, &tc->eval);
    case OPT_LAMBDA_T: return tune_real_parse(TUNE_OPT_LAMBDA, arg, &tc->lambda);
    case OPT_LR_T: return (tc->lr_given = tune_real_parse(TUNE_OPT_LR, arg, &tc->learning_rate));
    case OPT_REG_T: return (tc->reg_given = tune_real_parse(TUNE_OPT_REG, arg, &tc->reg));
    case OPT_SPRT_T:
        if (!sprt_parse(&tc->sprt, arg, err, sizeof err))
            return cli_usage_error("%s", err), false;
        return true;
    default:
        return run_options_parse(&to->ro, o, arg) >= 0;
    }
}

/* The game counts a match can play: pairs of games. */
static int check_even_games(const TrainConfig *tc)
{
    if (tc->gauntlet_games % 2)
        return cli_usage_error("--gauntlet-games %d: a match plays pairs of games (colours "
                               "swapped), so give an even number", tc->gauntlet_games);
    if (tc->match_games % 2 || tc->final_games % 2)
        return cli_usage_error("--%s %d: a match plays pairs of games (colours swapped), so give "
                               "an even number", tc->match_games % 2 ? "match-games" : "final-games",
                               tc->match_games % 2 ? tc->match_games : tc->final_games);
    return EXIT_OK;
}

/* Once the options are read: the start weights, the gauntlet engine, the database. */
static int train_with_options(TrainOptions *to)
{
    TrainConfig *tc = &to->tc;
    char err[512];
    Weights start;
    if (!start_weights(&start, tc->run->cfg.setup.variant, tc->start, tc->eval, err, sizeof err))
        return cli_usage_error("%s", err);
    /* the gauntlet engine is side B of its matches */
    int code = !run_options_engine_sides(&to->ro, (bool[2]){ false, tc->gauntlet != NULL }) ? EXIT_USAGE
               : tc->gauntlet ? match_start_engine(&to->ro, 1, tc->gauntlet, &tc->gauntlet_engine)
                              : EXIT_OK;
    if (code == EXIT_OK) {
        Store *store = cli_open_store(tc->run->db_path);
        code = store ? train_run(store, tc, &start) : EXIT_RUNTIME;
        store_close(store);
    }
    weights_free(&start);
    return code;
}

static int run_train(int argc, char **argv)
{
    TrainOptions to;
    train_options_init(&to);
    int o;
    while ((o = cli_getopt(argc, argv, train_longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("train");
        if (o == '?' || !train_option(&to, o, optarg))
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama train --help')", argv[optind]);
    int code = check_even_games(&to.tc);
    if (code != EXIT_OK)
        return code;
    if (!run_options_finish(&to.ro))
        return EXIT_USAGE;
    code = train_with_options(&to);
    run_options_free(&to.ro);
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
