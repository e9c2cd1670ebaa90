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

enum { OPT_PLAY_COLOR = OPT_FIRST_FREE, OPT_DEPTH, OPT_NODES, OPT_MOVETIME, OPT_WEIGHTS, OPT_PLAY_TURN_SECONDS,
       OPT_PLAY_DB, OPT_PLAY_ASCII, OPT_PLAY_EGDB };

/* The engine's level when none is given: about half a second, the same moves every time. */
#define PLAY_DEFAULT_NODES 400000

static int play_option(TerminalGameOptions *po, int o, const char *arg)
{
    long n;
    switch (o) {
    case OPT_PLAY_COLOR:
        if (strcmp(arg, "white") == 0) po->human = WHITE;
        else if (strcmp(arg, "black") == 0) po->human = BLACK;
        else if (strcmp(arg, "both") == 0) po->human = HUMAN_BOTH;
        else return cli_usage_error("bad value '%s' for --color: expected white, black or both", arg), -1;
        return 1;
    case OPT_DEPTH: return cli_search_limit(&po->level, "--depth", arg) ? 1 : -1;
    case OPT_NODES:
        if (!cli_search_limit(&po->level, "--nodes", arg)) return -1;
        if (po->level.nodes == 0)
            return cli_usage_error("bad value '%s' for --nodes: expected a positive number", arg), -1;
        return 1;
    case OPT_MOVETIME: return cli_search_limit(&po->level, "--movetime", arg) ? 1 : -1;
    case OPT_PLAY_TURN_SECONDS:
        if (!cli_long("--turn-seconds", arg, 1, 86400L, &n)) return -1;
        po->turn_seconds = n;
        return 1;
    case OPT_WEIGHTS: po->weights_name = arg; return 1;
    case OPT_PLAY_DB: po->db = arg; return 1;
    case OPT_PLAY_ASCII: po->ascii = true; return 1;
    default: return 0;
    }
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
    static const struct option longopts[] = {
        { "variant", required_argument, 0, OPT_VARIANT },
        { "rules", required_argument, 0, OPT_RULES },
        { "fen", required_argument, 0, OPT_FEN },
        { "help", no_argument, 0, OPT_HELP },
        { "color", required_argument, 0, OPT_PLAY_COLOR },
        { "depth", required_argument, 0, OPT_DEPTH },
        { "nodes", required_argument, 0, OPT_NODES },
        { "movetime", required_argument, 0, OPT_MOVETIME },
        { "weights", required_argument, 0, OPT_WEIGHTS },
        { "turn-seconds", required_argument, 0, OPT_PLAY_TURN_SECONDS },
        { "db", required_argument, 0, OPT_PLAY_DB },
        { "ascii", no_argument, 0, OPT_PLAY_ASCII },
        { "egdb", required_argument, 0, OPT_PLAY_EGDB },
        { 0, 0, 0, 0 },
    };
    EngineContext ctx;
    engine_context_init(&ctx);
    TerminalGameOptions po = { .human = WHITE, .weights_name = "best" };
    const char *egdb_path = NULL; /* --egdb */
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("play");
        if (o == '?')
            return EXIT_USAGE;
        if (o == OPT_PLAY_EGDB) {
            egdb_path = optarg;
            continue;
        }
        int used = play_option(&po, o, optarg);
        if (used < 0 || (used == 0 && engine_context_option(&ctx, o, optarg) <= 0))
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama play --help')", argv[optind]);
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    if (!po.level.depth && !po.level.nodes && !po.level.movetime_ms)
        po.level.nodes = PLAY_DEFAULT_NODES;

    Weights weights;
    char err[512];
    interrupt_flag(); /* from the reading of --weights on, Ctrl-C or SIGTERM: exit 130 */
    if (!weights_by_name(&weights, ctx.variant, po.weights_name, err, sizeof err))
        return cli_usage_error("%s", err);
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
    int code = play_exit_code(end, err);
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
