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
    "usage: dama match --a WEIGHTS_A | --engine-a CMD  --b WEIGHTS_B | --engine-b CMD\n"
    "                  [--db FILE] [--games N] [--threads T]\n"
    "                  [--nodes K | --depth D | --movetime MS | --clock S+I]\n"
    "                  [--openings FILE | --random-plies P]\n"
    "                  [--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05] [--resume]\n"
    "                  [--name-a NAME] [--name-b NAME] [--egdb-a|-b DIR]\n"
    "       (a side may also be a DXP engine: --dxp-a|--dxp-b HOST:PORT\n"
    "        [--dxp-command-a|-b CMD])\n"
    "\n"
    "Plays game pairs on the same opening with colours swapped and prints\n"
    "  match games N wins W draws D losses L penta [LL,LD,DD+WL,WD,WW] (A's view)\n"
    "  elo E [LOW, HIGH] los P%\n"
    "  sprt elo0 X elo1 Y llr Z [LOWER, UPPER] accept-H1|accept-H0|continue\n"
    "On a terminal, a line a finished game on stderr: its number, White - Black, the\n"
    "result (2-0, 0-2, 1-1) and why, A's running W-D-L and the Elo so far.  Only\n"
    "whole pairs count, in pair order: a game whose twin did not finish (interrupted,\n"
    "or an odd --games) is stored but left out, and so are pairs after the SPRT\n"
    "decided.  The Elo interval (95 %) and the SPRT use the pair (pentanomial)\n"
    "results; the LLR is fishtest's (regularised, exact multinomial).  Before 10\n"
    "pairs there is no estimate ('elo n/a: too few pairs (N < 10) score S%') and no\n"
    "verdict; after that --sprt stops the match as soon as the log-likelihood ratio\n"
    "crosses a bound.  Everything is stored.  A perfect score has no finite Elo: 'elo\n"
    "n/a: every game won (above B at 95 %, one-sided)' gives the bound it allows\n"
    "(stored as elo_low; elo and elo_high NULL); an interval end the sample cannot\n"
    "bound is +inf or -inf (stored NULL).  WEIGHTS may be a file, 'default' (built-in\n"
    "hand-set), 'material' (material only) or 'best' (the shipped pattern weights,\n"
    "data/weights/VARIANT-pattern.txt).\n"
    "\n"
    "  --a FILE, --b FILE the two weight sets\n"
    "  --engine-a CMD, --engine-b CMD  an outside Hub engine for that side instead\n"
    "                     (e.g. --engine-b 'bin/dama hub'); the run's params name it\n"
    "                     (b=engine:NAME(CMD)); its games are stored with no weights\n"
    "  --name-a NAME, --name-b NAME  the sides' names (default: an engine's\n"
    "                     own, from its 'id name=' line, else the weights as given;\n"
    "                     two equal names get ' (A)' and ' (B)'): in the run's params\n"
    "                     (name_a=, name_b=, percent-encoded), each game's White and\n"
    "                     Black (PDN tags; white_name, black_name in games.csv) and\n"
    "                     the progress lines\n"
    "  --dxp-a HOST:PORT, --dxp-b HOST:PORT  a DXP engine for that side\n"
    "                     (International only, one connection: --threads 1); dama\n"
    "                     initiates each game (docs/dxp.md)\n"
    "  --dxp-command-a CMD, --dxp-command-b CMD  start CMD (/bin/sh -c) first and\n"
    "                     connect to it, again after a crash or a time forfeit (e.g.\n"
    "                     'bin/dama dxp --listen 27532'); its game time is --clock's,\n"
    "                     else --engine-timeout's, in whole minutes\n"
    "  --egdb-a DIR, --egdb-b DIR  endgame databases that side's search alone\n"
    "                     probes (no adjudication: the databases on against off)\n"
    "  --sprt SPEC        sequential test of elo1 against elo0 (default: off)\n"
    "  --resume           continue the last match run (the same options): only the\n"
    "                     games not yet stored are played\n"
    "  --games N          games to play (default 100); played in pairs with colours\n"
    "                     swapped\n"
    "  --noise CP         evaluation noise, in hundredths of a man (default 0)\n"
    RUN_OPTIONS_HELP
    OUTSIDE_ENGINE_OPTIONS_HELP,
    run_match,
};
