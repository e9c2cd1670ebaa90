/* `dama play`: a person against the engine (or two people) in the terminal.  This file
 * reads the options, the weights and the database; the game itself is play/terminal_game.c. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "egdb_search.h"
#include "human_game.h"
#include "interrupt.h"
#include "store_open.h"
#include "weights_store.h"
#include "terminal_game.h"
#include "variant.h"

/* The engine's level when none is given: about half a second, the same moves every time. */
#define PLAY_DEFAULT_NODES 400000

/* --color: the person's side (white, black or both) into the int option->dest. */
static bool color_option(const CliOption *option, const char *value)
{
    int *human = option->dest;
    if (strcmp(value, "white") == 0) *human = WHITE;
    else if (strcmp(value, "black") == 0) *human = BLACK;
    else if (strcmp(value, "both") == 0) *human = HUMAN_BOTH;
    else return cli_usage_error("bad value '%s' for --color: expected white, black or both", value), false;
    return true;
}

/* --nodes: a positive count (the engine must move). */
static bool nodes_option(const CliOption *option, const char *value)
{
    if (!cli_option_search_limit(option, value))
        return false;
    if (((SearchLimits *)option->dest)->nodes == 0)
        return cli_usage_error("bad value '%s' for --nodes: expected a positive number", value), false;
    return true;
}

/* The exit code of a session's end, its reason printed on stderr. */
static int play_exit_code(int end, const char *err)
{
    switch (end) {
    case TERMINAL_GAME_ENDED: return EXIT_OK;
    case TERMINAL_GAME_BAD_INPUT: return cli_usage_error("%s", err);
    case TERMINAL_GAME_INTERRUPTED:
        fflush(stdout);
        cli_runtime_error("%s", err);
        return EXIT_INTERRUPTED;
    default: return cli_runtime_error("%s", err);
    }
}

static int run_play(int argc, char **argv)
{
    EngineContext ctx;
    engine_context_init(&ctx);
    TerminalGameOptions po = { .human = WHITE, .weights_name = "best" };
    const char *egdb_path = NULL;
    const CliOption options[] = {
        CALL_ARG("variant", &ctx, engine_context_variant),
        CALL_ARG("rules", &ctx, engine_context_rules),
        TEXT_ARG("fen", &ctx.fen),
        CALL_ARG("color", &po.human, color_option),
        CALL_ARG("depth", &po.level, cli_option_search_limit),
        CALL_ARG("nodes", &po.level, nodes_option),
        CALL_ARG("movetime", &po.level, cli_option_search_limit),
        TEXT_ARG("weights", &po.weights_name),
        LONG_ARG("turn-seconds", &po.turn_seconds, 1, 86400L),
        TEXT_ARG("db", &po.db),
        SET_ARG("ascii", &po.ascii),
        TEXT_ARG("egdb", &egdb_path),
        { 0 },
    };
    int code = cli_parse(argc, argv, "play", options, 0);
    if (code >= 0)
        return code;
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    if (!po.level.depth && !po.level.nodes && !po.level.movetime_ms)
        po.level.nodes = PLAY_DEFAULT_NODES;

    Weights weights;
    char err[512];
    interrupt_flag(); /* from the reading of --weights on, Ctrl-C or SIGTERM: exit 130 */
    if (!cli_weights(&weights, ctx.variant, po.weights_name, NULL))
        return EXIT_USAGE;
    Store *store = NULL;
    if (po.db && !(store = cli_open_store(po.db))) {
        weights_free(&weights);
        return EXIT_RUNTIME;
    }
    /* Ctrl-C ends the session, and stops dama's search too. */
    const atomic_bool *stop = interrupt_flag();
    if (egdb_path && po.human != HUMAN_BOTH)
        po.egdb = egdb_open_checked(egdb_path, ctx.variant, &ctx.rules);
    int end = terminal_game_run(&po, ctx.variant, &ctx.rules, &ctx.pos, &weights, store, stop, err,
                                sizeof err);
    egdb_close(po.egdb);
    store_close(store);
    weights_free(&weights);
    code = play_exit_code(end, err);
    fflush(stdout);
    return code;
}

const Command cmd_play = {
    "play", "play a game against dama (or two people) in the terminal",
    run_play,
};
