/* `dama match`: two weight sets on paired openings; Elo, LOS and an SPRT that stops early. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "store_open.h"
#include "engine_player.h"
#include "game.h"
#include "match_dxp.h"
#include "run_jobs.h"
#include "run_options.h"
#include "tune_options.h"
#include "weights_store.h"

/* A name the user gave: one line of printable text, short enough for a PDN tag. */
static bool name_option(const CliOption *option, const char *name)
{
    char dashed[16];
    snprintf(dashed, sizeof dashed, "--%s", option->name);
    *(const char **)option->dest = name;
    if (!name[0])
        return cli_usage_error("%s: empty name", dashed), false;
    if (strlen(name) > MATCH_SIDE_NAME_MAX)
        return cli_usage_error("%s: a name of at most %d bytes", dashed, MATCH_SIDE_NAME_MAX), false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < ' ' || *p == 0x7f)
            return cli_usage_error("%s: a control character in the name", dashed), false;
    return true;
}

/* Checks that each side is exactly one of weights, a Hub engine or a DXP engine (a DXP
 * side's address becomes its command).  -1: go on; else an exit code. */
static int check_sides(RunOptions *ro, const char *paths[2], const char *commands[2], MatchDxp *dxp)
{
    for (int i = 0; i < 2; i++) {
        if (dxp->address[i] || dxp->command[i]) { /* a DXP side stands for an outside engine */
            if (paths[i] || commands[i])
                return cli_usage_error("--dxp-%c cannot be combined with --%c or --engine-%c: a side is "
                                       "weights, a Hub engine or a DXP engine", "ab"[i], "ab"[i], "ab"[i]);
            if (!match_dxp_check(ro, i, dxp))
                return EXIT_USAGE;
            commands[i] = dxp->address[i]; /* an outside side from here on */
        }
        if (paths[i] && commands[i])
            return cli_usage_error("--%s and --engine-%s cannot be combined: a side is weights or "
                                   "an outside engine", i ? "b" : "a", i ? "b" : "a");
        if (!paths[i] && !commands[i])
            return cli_usage_error("match needs --a and --b weights files ('default', 'material' "
                                   "and 'best' name the built-in sets), or --engine-a/--engine-b "
                                   "commands for outside engines");
        if (commands[i] && !commands[i][0])
            return cli_usage_error("--engine-%s: empty command", i ? "b" : "a");
    }
    return -1;
}

/* The rest of run_match, once the options are read: loads w (freed by the caller). */
static int match_with_weights(RunOptions *ro, const SprtConfig *sprt, const char *const paths[2],
                              const char *const commands[2], const char *const given[2],
                              const MatchDxp *dxp, bool resume, Weights w[2])
{
    for (int i = 0; i < 2; i++) /* an engine's side keeps weights to probe random openings */
        if (!cli_weights(&w[i], ro->run.cfg.setup.variant, paths[i], "default"))
            return EXIT_USAGE;
    EngineConfig engines[2];
    if (!run_options_engine_sides(ro, (bool[2]){ commands[0] != NULL, commands[1] != NULL }))
        return EXIT_USAGE;
    for (int i = 0; i < 2; i++) {
        if (!commands[i])
            continue;
        int code = dxp->address[i] ? match_dxp_side(ro, i, dxp, &engines[i])
                                   : match_start_engine(ro, i, commands[i], &engines[i]);
        if (code != EXIT_OK)
            return code;
        ro->run.cfg.engine[i] = &engines[i];
    }
    char names[2][MATCH_SIDE_NAME_MAX + 8];
    match_side_names(given, paths, engines, commands, names);
    ro->run.cfg.names[0] = names[0];
    ro->run.cfg.names[1] = names[1];
    return match_job(&ro->run, sprt, w, paths, resume ? RESUME_REQUIRED : RESUME_NEVER);
}

static int run_match(int argc, char **argv)
{
    RunOptions ro;
    bool resume = false;
    run_options_init(&ro);
    const char *paths[2] = { NULL, NULL }, *commands[2] = { NULL, NULL }, *given[2] = { NULL, NULL };
    MatchDxp dxp = { { NULL, NULL }, { NULL, NULL } };
    SprtConfig sprt = { .enabled = false, .alpha = 0.05, .beta = 0.05 };
    const CliOption options[] = {
        RUN_OPTIONS(&ro),
        TEXT_ARG("a", &paths[0]),
        TEXT_ARG("b", &paths[1]),
        CALL_ARG("sprt", &sprt, sprt_option),
        SET_ARG("resume", &resume),
        TEXT_ARG("engine-a", &commands[0]),
        TEXT_ARG("engine-b", &commands[1]),
        CALL_ARG("name-a", &given[0], name_option),
        CALL_ARG("name-b", &given[1], name_option),
        TEXT_ARG("dxp-a", &dxp.address[0]),
        TEXT_ARG("dxp-b", &dxp.address[1]),
        TEXT_ARG("dxp-command-a", &dxp.command[0]),
        TEXT_ARG("dxp-command-b", &dxp.command[1]),
        TEXT_ARG("egdb-a", &ro.egdb_side_dir[0]),
        TEXT_ARG("egdb-b", &ro.egdb_side_dir[1]),
        OUTSIDE_ENGINE_OPTIONS(&ro),
        { 0 },
    };
    int status = cli_parse(argc, argv, "match", options, 0);
    if (status >= 0)
        return status;
    status = check_sides(&ro, paths, commands, &dxp);
    if (status >= 0)
        return status;
    if (ro.run.cfg.games % 2)
        return cli_usage_error("--games %d: a match plays pairs of games (colours swapped), so "
                               "give an even number", ro.run.cfg.games);
    if (!run_options_finish(&ro))
        return EXIT_USAGE;
    Weights w[2] = { 0 };
    int code = match_with_weights(&ro, &sprt, paths, commands, given, &dxp, resume, w);
    weights_free(&w[0]);
    weights_free(&w[1]);
    run_options_free(&ro);
    return code;
}

const Command cmd_match = {
    "match", "play two weight sets (or outside engines) against each other; Elo, LOS and SPRT",
    run_match,
};
