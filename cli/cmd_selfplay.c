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
    run_selfplay,
};
