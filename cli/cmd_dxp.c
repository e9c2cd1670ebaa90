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
    run_dxp,
};
