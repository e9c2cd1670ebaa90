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
    run_train,
};
