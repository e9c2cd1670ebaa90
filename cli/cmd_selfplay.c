/* `dama selfplay`: the engine plays itself and every game goes into the database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "store_open.h"
#include "run_options.h"
#include "run_jobs.h"
#include "weights_store.h"

/* --shard K/N into the RunnerConfig option->dest; false after the error. */
static bool shard_option(const CliOption *option, const char *value)
{
    RunnerConfig *c = option->dest;
    char tail;
    if (sscanf(value, "%d/%d%c", &c->shard, &c->shards, &tail) != 2 || c->shards < 1 || c->shards > 1000000
        || c->shard < 1 || c->shard > c->shards)
        return cli_usage_error("bad value '%s' for --shard: expected K/N with 1 <= K <= N", value), false;
    return true;
}

static int run_selfplay(int argc, char **argv)
{
    bool resume = false;
    RunOptions ro;
    run_options_init(&ro);
    ro.run.cfg.setup.noise = 10;
    const char *weights_path = NULL; /* read once the variant is known */
    const CliOption options[] = {
        RUN_OPTIONS(&ro),
        TEXT_ARG("weights", &weights_path),
        SET_ARG("resume", &resume),
        CALL_ARG("shard", &ro.run.cfg, shard_option),
        { 0 },
    };
    int code = cli_parse(argc, argv, "selfplay", options, 0);
    if (code >= 0)
        return code;
    if (!run_options_finish(&ro))
        return EXIT_USAGE;
    Weights weights;
    if (!cli_weights(&weights, ro.run.cfg.setup.variant, weights_path, "default")) {
        run_options_free(&ro);
        return EXIT_USAGE;
    }
    const char *weights_note = weights_path ? weights_path : "built-in hand-set weights";
    code = selfplay_job(&ro.run, &weights, weights_note, resume ? RESUME_REQUIRED : RESUME_NEVER);
    run_options_free(&ro);
    weights_free(&weights);
    return code;
}

const Command cmd_selfplay = {
    "selfplay", "play the engine against itself and store every game and position",
    "usage: dama selfplay [--db FILE] [--games N] [--threads T]\n"
    "                     [--nodes K | --depth D] [--weights FILE] [--openings FILE |\n"
    "                     --random-plies P] [--seed S] [--shard K/N] [--resume]\n"
    "\n"
    "Plays N games in parallel, each opening twice with colours swapped, and stores\n"
    "every game and position in the SQLite file.  A run is reproducible: game i uses\n"
    "seed S+i.  Ctrl-C stops starting games, saves the finished ones and exits with\n"
    "code 130; --resume then plays the games still missing.\n"
    "Prints last: selfplay run R games N white W draws D black B mars M positions P\n"
    "time S ...  (games: those played by this call; ' shard K/N' ends the line of a\n"
    "shard)\n"
    "\n"
    "  --weights FILE     evaluation weights (default: the built-in hand-set weights)\n"
    "  --resume           continue the last selfplay run (the same options): only the\n"
    "                     games not yet stored are played\n"
    "  --games N          games of the whole run (default 100), also with --shard;\n"
    "                     played in pairs with colours swapped\n"
    "  --shard K/N        play shard K of N (1 <= K <= N): the K-th of N contiguous\n"
    "                     blocks of the run's P = (games+1)/2 pairs, pairs (K-1)*P/N\n"
    "                     to K*P/N - 1 (rounded down), with the game indices and\n"
    "                     seeds of the whole run: N shards on any machines are\n"
    "                     exactly the games of the one run, and 'dama db merge' folds\n"
    "                     them into it; --resume continues a shard\n"
    "  --noise CP         evaluation noise, in hundredths of a man (default 10)\n"
    RUN_OPTIONS_HELP,
    run_selfplay,
};
