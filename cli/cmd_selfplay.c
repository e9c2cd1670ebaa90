/* `dama selfplay`: the engine plays itself and every game goes into the database. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "merge.h"
#include "pipeline.h"
#include "run_options.h"
#include "variant.h"

enum { OPT_WEIGHTS_S = OPT_RUN_FIRST_FREE, OPT_RESUME_S, OPT_SHARD_S };

int pipeline_selfplay(Store *store, RunOptions *ro, const Weights *weights, int64_t weights_id,
                      const char *params, RunResume resume, int64_t *run_id_out)
{
    RunnerConfig *c = &ro->cfg;
    PipelineRun run;
    int code = pipeline_run_open(store, ro->db_path, "selfplay", params, weights_id, c, resume, &run);
    if (code != EXIT_OK)
        return code;
    /* The run's identity leaves out the shard: every shard of a run names the same run. */
    char *identity = run_options_identity(ro);
    bool oom = !identity, identified = !oom && store_run_identify(store, run.id, identity, c->shard, c->shards);
    free(identity);
    if (!identified) {
        pipeline_run_close(store, ro->db_path, &run, "failed", false);
        return cli_runtime_error("%s: %s", ro->db_path, oom ? "out of memory" : store_error(store));
    }
    c->weights[0] = c->weights[1] = weights;
    c->weights_id[0] = c->weights_id[1] = weights_id;
    c->store = store;
    c->run_id = run.id;
    c->stored = run.stored;
    c->stop = pipeline_interrupt_flag();
    c->label = "selfplay";
    c->on_pair = NULL;
    c->describe = NULL;
    RunnerTotals t;
    bool ok = runner_play(c, &t);
    c->stored = NULL;
    int64_t run_id = run.id;
    bool ended = pipeline_run_close(store, ro->db_path, &run,
                                    !ok ? "failed" : t.interrupted ? "interrupted" : "done", ok);
    /* What is stored, not what was played: a batch lost to a failed write is not counted. */
    printf("selfplay run %lld games %d white %d draws %d black %d mars %d positions %lld "
           "time %.1f games/s %.2f db %.1f%%",
           (long long)run_id, t.games, t.white_wins, t.draws, t.black_wins, t.mars, t.positions,
           t.seconds, t.seconds > 0 ? t.games / t.seconds : 0.0,
           t.seconds > 0 ? 100.0 * t.db_seconds / t.seconds : 0.0);
    if (t.resumed)
        printf(" resumed %d stored", t.resumed);
    if (c->shards)
        printf(" shard %d/%d", c->shard, c->shards);
    printf("\n");
    fflush(stdout);
    if (run_id_out)
        *run_id_out = run_id;
    if (!ok)
        return cli_runtime_error("%s: %s (%d games of run %lld are stored; --resume continues it)",
                                 ro->db_path, t.error, t.resumed + t.games, (long long)run_id);
    if (!ended)
        return EXIT_RUNTIME;
    if (t.interrupted) {
        fprintf(stderr, "dama: interrupted: %d games of run %lld are stored in %s; the same "
                "command with --resume continues it\n", t.resumed + t.games, (long long)run_id,
                ro->db_path);
        return EXIT_INTERRUPTED;
    }
    return EXIT_OK;
}

static int run_selfplay(int argc, char **argv)
{
    static const struct option longopts[] = {
        RUN_LONG_OPTIONS,
        { "weights", required_argument, 0, OPT_WEIGHTS_S },
        { "resume", no_argument, 0, OPT_RESUME_S },
        { "shard", required_argument, 0, OPT_SHARD_S },
        { 0, 0, 0, 0 },
    };
    bool resume = false;
    int shard = 0, shards = 0;
    RunOptions ro;
    run_options_init(&ro);
    ro.cfg.setup.noise = 10;
    const char *weights_path = NULL;
    char err[512];
    int o, r;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("selfplay");
        if (o == '?')
            return EXIT_USAGE;
        if (o == OPT_RESUME_S) {
            resume = true;
            continue;
        }
        if (o == OPT_SHARD_S) {
            char tail;
            if (sscanf(optarg, "%d/%d%c", &shard, &shards, &tail) != 2 || shards < 1 || shards > 1000000 ||
                shard < 1 || shard > shards)
                return cli_usage_error("bad value '%s' for --shard: expected K/N with 1 <= K <= N", optarg);
            continue;
        }
        if (o == OPT_WEIGHTS_S) {
            weights_path = optarg; /* read once the variant is known */
            continue;
        }
        if ((r = run_options_parse(&ro, o, optarg)) < 0)
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama selfplay --help')", argv[optind]);
    if (!run_options_finish(&ro))
        return EXIT_USAGE;
    ro.cfg.shard = shard;
    ro.cfg.shards = shards;
    Weights weights;
    if (!pipeline_weights_by_name(&weights, ro.cfg.setup.variant, weights_path ? weights_path : "default", err, sizeof err)) {
        run_options_free(&ro);
        return cli_usage_error("%s", err);
    }
    const char *weights_note = weights_path ? weights_path : "built-in hand-set weights";

    Store *store = pipeline_open_store(ro.db_path);
    if (!store) {
        run_options_free(&ro);
        weights_free(&weights);
        return EXIT_RUNTIME;
    }
    int code = EXIT_OK;
    int64_t weights_id = pipeline_store_weights(store, &weights, 0, 0, weights_note);
    char params[1024];
    run_options_describe(&ro, params, sizeof params);
    size_t n = strlen(params);
    n += (size_t)snprintf(params + n, sizeof params - n, " weights=%lld", (long long)weights_id);
    if (shards && n < sizeof params)
        snprintf(params + n, sizeof params - n, " shard=%d/%d", shard, shards);
    if (weights_id < 0)
        code = cli_runtime_error("%s: %s", ro.db_path, store_error(store));
    else
        code = pipeline_selfplay(store, &ro, &weights, weights_id, params,
                                 resume ? RESUME_REQUIRED : RESUME_NEVER, NULL);
    store_close(store);
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
