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

typedef struct TrainOptions {
    RunOptions ro; /* self-play settings: tc.run points to ro.run */
    TrainConfig tc;
} TrainOptions;

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

/* --gauntlet: an outside engine's command, not empty. */
static bool gauntlet_option(const CliOption *option, const char *value)
{
    if (!value[0])
        return cli_usage_error("--gauntlet: empty command"), false;
    *(const char **)option->dest = value;
    return true;
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
    TrainConfig *tc = &to.tc;
    const CliOption options[] = {
        RUN_OPTIONS(&to.ro),
        INT_ARG("generations", &tc->generations, 1, 100000),
        INT_ARG("match-games", &tc->match_games, 2, 10000000),
        TEXT_ARG("start", &tc->start),
        INT_ARG("window", &tc->window, 1, 64),
        CALL_ARG("sprt", &tc->sprt, sprt_option),
        TEXT_ARG("out", &tc->out_path),
        SET_ARG("resume", &tc->resume),
        INT_ARG("epochs", &tc->epochs, 1, 1000000),
        INT_ARG("match-noise", &tc->match_noise, 0, 1000),
        INT_ARG("final-games", &tc->final_games, 0, 10000000),
        CALL_ARG("gauntlet", &tc->gauntlet, gauntlet_option),
        INT_ARG("gauntlet-games", &tc->gauntlet_games, 2, 10000000),
        CALL_ARG("eval", &tc->eval, tune_option_eval),
        CALL_ARG("lambda", &tc->lambda, tune_option_real),
        { .name = "lr", .kind = ARG_CALL, .dest = &tc->learning_rate, .call = tune_option_real, .seen = &tc->lr_given },
        { .name = "reg", .kind = ARG_CALL, .dest = &tc->reg, .call = tune_option_real, .seen = &tc->reg_given },
        OUTSIDE_ENGINE_OPTIONS(&to.ro),
        { 0 },
    };
    int code = cli_parse(argc, argv, "train", options, 0);
    if (code >= 0)
        return code;
    code = check_even_games(&to.tc);
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
