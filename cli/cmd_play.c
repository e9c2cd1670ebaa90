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
    "usage: dama play [--variant NAME] [--color white|black|both] [--fen FEN]\n"
    "                 [--rules OPTIONS] [--depth D | --nodes N | --movetime MS]\n"
    "                 [--weights FILE] [--turn-seconds S] [--db FILE] [--ascii]\n"
    "                 [--egdb DIR]\n"
    "\n"
    "Plays a game in the terminal: the board is drawn (white pieces \u25cb, kings \u25ce; black\n"
    "\u25cf, kings \u25c9; the last move's squares in [brackets]) and moves are typed one a\n"
    "line, in long form (d3xd5xf5) or short (d3xf5, in International 26x37).  An\n"
    "illegal move is refused with the reason and the pieces that may move.  dama\n"
    "answers with its move, its evaluation (hundredths of a man, or winN/lossN for a\n"
    "result forced in N plies), the depth, the nodes and its principal variation.\n"
    "Commands: help, moves (the legal moves), board, flip, pdn (the game so far),\n"
    "resign, quit.\n"
    "\n"
    "Standard input may be a pipe: then each line read is echoed after the prompt,\n"
    "and the end of input ends the session (an unfinished game is not saved).  No\n"
    "escape codes.\n"
    "\n"
    "  -v, --variant NAME  {GAMES}\n"
    "  --color SIDE     the side you play: white (default), black, or both (two\n"
    "                   people)\n"
    "  --fen FEN        start position (default: start)\n"
    "  --rules OPTIONS  the variant's rule options (see 'dama perft --help')\n"
    "  --depth D, --nodes N, --movetime MS\n"
    "                   dama's level (default --nodes 400000, about half a second)\n"
    "  --weights FILE   dama's evaluation: a file, 'best' (default: the shipped\n"
    "                   weights), 'default' or 'material'\n"
    "  --turn-seconds S thinking time a turn: when yours runs out, a move is played\n"
    "                   for you (dama's choice at a small search); a second time-out\n"
    "                   in a row loses the game on time\n"
    "  --db FILE        save the finished game into this database (a run of kind\n"
    "                   'play')\n"
    "  --ascii          pieces as w W b B and empty squares as '.'\n"
    "  --egdb DIR       endgame databases ('dama egdb build') dama's search probes; a\n"
    "                   missing or damaged one is reported and not used\n"
    "\n"
    "Exit codes: 0 the session ended (game over, quit or end of input), 1 the game\n"
    "could not be saved, 2 bad usage, 130 interrupted (Ctrl-C or SIGTERM, even while\n"
    "dama thinks; the game is not saved).\n",
    run_play,
};
