/* `dama dxp`: dama as a DamExchange (DXP) engine, International draughts only (docs/dxp.md).
 * The options are parsed here; the sessions are dxp/'s: --listen, the follower
 * (dxp/dxp_follower.h), playing the games the initiator asks for, one connection after
 * another; --connect, the initiator (dxp/dxp_initiator.h), playing N games with colours
 * alternating. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "store_open.h"
#include "dxp_follower.h"
#include "dxp_initiator.h"
#include "dxp_link.h"
#include "interrupt.h"
#include "version.h"
#include "weights_store.h"
#include "variant.h"
#include "weights.h"

#define DXP_DEFAULT_MINUTES 5
#define DXP_DEFAULT_TIMEOUT_MS 300000L
#define DXP_DEFAULT_HASH_MB 64

typedef struct DxpOptions {
    const char *listen, *connect;
    const char *weights_name;
    SearchLimits level;      /* all zero: dama plays by the game's clock */
    long games, minutes, timeout_ms, hash_mb;
    bool once;
} DxpOptions;

/* A session's end as the command's exit code; option is the address's option. */
static int session_code(DxpEnd end, const char *option, const char *err)
{
    switch (end) {
    case DXP_END_OK: return EXIT_OK;
    case DXP_END_INTERRUPTED: return EXIT_INTERRUPTED;
    case DXP_END_NO_LINK: return cli_runtime_error("%s: %s", option, err);
    default: return cli_runtime_error("out of memory");
    }
}

static int run_listen(const DxpOptions *opt, const Variant *v, const Rules *rules, const Weights *w)
{
    char host[256], port[16], err[256], name[128];
    if (!dxp_address_parse(opt->listen, host, port, err, sizeof err))
        return cli_usage_error("--listen: %s", err);
    snprintf(name, sizeof name, "dama %s", dama_engine_version());
    DxpFollowerConfig cfg = {
        .host = host, .port = port, .variant = v, .rules = rules, .weights = w, .hash_mb = opt->hash_mb,
        .level = opt->level, .timeout_ms = opt->timeout_ms, .once = opt->once, .name = name,
        .stop = interrupt_flag(),
    };
    return session_code(dxp_follower_run(&cfg, err, sizeof err), "--listen", err);
}

static int run_connect(const DxpOptions *opt, const Variant *v, const Rules *rules, const Weights *w,
                       const Position *start)
{
    char host[256], port[16], err[256];
    if (!dxp_address_parse(opt->connect, host, port, err, sizeof err))
        return cli_usage_error("--connect: %s", err);
    DxpInitiatorConfig cfg = {
        .address = opt->connect, .variant = v, .rules = rules, .weights = w, .hash_mb = opt->hash_mb,
        .level = opt->level, .games = opt->games, .minutes = opt->minutes, .timeout_ms = opt->timeout_ms,
        .start = start, .stop = interrupt_flag(),
    };
    return session_code(dxp_initiator_run(&cfg, err, sizeof err), "--connect", err);
}

static int run_dxp(int argc, char **argv)
{
    EngineContext ctx;
    engine_context_init(&ctx);
    ctx.variant = &international_variant; /* DXP is International's protocol */
    DxpOptions opt = { .weights_name = "best", .games = 2, .minutes = DXP_DEFAULT_MINUTES,
                       .timeout_ms = DXP_DEFAULT_TIMEOUT_MS, .hash_mb = DXP_DEFAULT_HASH_MB };
    const CliOption options[] = {
        ENGINE_OPTIONS(&ctx),
        TEXT_ARG("listen", &opt.listen),
        TEXT_ARG("connect", &opt.connect),
        LONG_ARG("games", &opt.games, 1, 100000),
        LONG_ARG("time", &opt.minutes, 1, 999),
        LONG_ARG("timeout", &opt.timeout_ms, 100, 86400000L),
        SET_ARG("once", &opt.once),
        TEXT_ARG("weights", &opt.weights_name),
        LONG_ARG("hash", &opt.hash_mb, 1, 4096),
        SEARCH_LIMIT_OPTIONS(&opt.level),
        { 0 },
    };
    int code = cli_parse(argc, argv, "dxp", options, 0);
    if (code >= 0)
        return code;
    if (!opt.listen == !opt.connect)
        return cli_usage_error("dxp needs one of --listen [HOST:]PORT (dama follows) and "
                               "--connect HOST:PORT (dama initiates)");
    if ((opt.level.depth != 0) + (opt.level.nodes != 0) + (opt.level.movetime_ms != 0) > 1)
        return cli_usage_error("give one of --depth, --nodes and --movetime");
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    if (ctx.variant != &international_variant)
        return cli_usage_error("--variant %s: DXP is the protocol of International draughts "
                               "(10x10) only", ctx.variant->name);
    if (opt.listen && (ctx.fen || ctx.moves_text))
        return cli_usage_error("--fen and --moves are the initiator's (--connect): a follower "
                               "plays the position the game request gives");
    Weights w;
    if (!cli_weights(&w, ctx.variant, opt.weights_name, NULL))
        return EXIT_USAGE;
    code = opt.listen ? run_listen(&opt, ctx.variant, &ctx.rules, &w)
                          : run_connect(&opt, ctx.variant, &ctx.rules, &w, &ctx.pos);
    weights_free(&w);
    return code;
}

const Command cmd_dxp = {
    "dxp", "dama as a DXP (DamExchange) engine: International matches over TCP, either role",
    "usage: dama dxp --listen [HOST:]PORT [--once]\n"
    "       dama dxp --connect HOST:PORT [--games N] [--time MIN] [--fen FEN]\n"
    "                [--weights FILE] [--hash MB]\n"
    "                [--depth D | --nodes N | --movetime MS]\n"
    "                [--timeout MS] [--rules OPTIONS] [--variant international]\n"
    "\n"
    "The DamExchange protocol (docs/dxp.md) plays International draughts between\n"
    "two programs over TCP (port 27531 by custom).  One side, the initiator, asks\n"
    "for games (colours, thinking time, start position); the follower plays them.\n"
    "  --listen [HOST:]PORT  follow: wait for initiators (127.0.0.1 when HOST is\n"
    "                     left out; PORT 0 takes a free port), one connection after\n"
    "                     another; the first line says 'dxp listening on HOST:PORT'\n"
    "  --once             end when the first connection closes\n"
    "  --connect HOST:PORT initiate: play --games N (default 2) games against the\n"
    "                     follower there, dama white in the odd ones\n"
    "  --time MIN         the thinking time of each side for a whole game that the\n"
    "                     game requests give (default 5)\n"
    "  --fen FEN          the start position of the requested games (default: the\n"
    "                     start)\n"
    "  --moves LIST       moves played from --fen before the games start\n"
    "  --variant NAME     international only (the protocol's game)\n"
    "  --weights FILE     dama's evaluation (default 'best', the shipped weights)\n"
    "  --depth D, --nodes N, --movetime MS  dama's search limit per move; without\n"
    "                     one dama plays by the game's clock (the request's minutes,\n"
    "                     1 when it says 0)\n"
    "  --timeout MS       how long dama waits beyond the peer's clock for a message\n"
    "                     before it closes the connection (default 300000); as\n"
    "                     initiator also the margin before the peer loses on time\n"
    "Each game ends with a line 'game N: WHITE - BLACK SCORE (REASON)', scores 2-0,\n"
    "1-1, 0-2; the last line is 'dxp games N wins W draws D losses L unknown U\n"
    "(dama's view)'.  The side to move ends a game (GAMEEND): the rules' end, a peer\n"
    "that gives up, claims a draw or a win, or plays an illegal move.  A peer that\n"
    "sends garbage is ignored message by message; one that says nothing in time,\n"
    "floods or disconnects ends the connection, never dama.  Exit 0, 1 when the\n"
    "connection cannot be made, 2 for bad usage (another variant than\n"
    "International), 130 after Ctrl-C.\n",
    run_dxp,
};
