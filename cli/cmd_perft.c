/* `dama perft` and `dama moves`: the move generator from the command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "move_texts.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "variant.h"

/* A line of perft --divide: the move as a player writes it, its leaves. */
typedef struct DivideLine {
    const Variant *v;
    const Position *pos;
    const Rules *rules;
} DivideLine;

static void print_divide(void *ctx, const Move *move, uint64_t leaves)
{
    const DivideLine *d = ctx;
    char text[128];
    printf("%s %llu\n", move_to_text_in(d->v, d->pos, d->rules, move, text, sizeof text),
           (unsigned long long)leaves);
}

static int run_perft(int argc, char **argv)
{
    EngineContext ctx;
    engine_context_init(&ctx);
    ctx.rules_only = true;
    PerftOptions opt = { .count_paths = false, .bulk = true };
    bool divide = false;
    const CliOption options[] = {
        ENGINE_OPTIONS(&ctx),
        SET_ARG("paths", &opt.count_paths),
        SET_ARG("divide", &divide),
        CLEAR_ARG("no-bulk", &opt.bulk),
        { 0 },
    };
    int code = cli_parse(argc, argv, "perft", options, argc);
    if (code >= 0)
        return code;
    if (optind != argc - 1)
        return cli_usage_error("perft needs one DEPTH (see 'dama perft --help')");
    long depth;
    if (!cli_long("DEPTH", argv[optind], 0, 64, &depth) || !engine_context_finish(&ctx))
        return EXIT_USAGE;

    double start = cli_now_seconds();
    DivideLine line = { ctx.variant, &ctx.pos, &ctx.rules };
    uint64_t nodes = divide ? perft_divide(ctx.variant, &ctx.pos, &ctx.rules, (int)depth, &opt, print_divide, &line)
                            : perft(ctx.variant, &ctx.pos, &ctx.rules, (int)depth, &opt);
    double secs = cli_now_seconds() - start;
    printf("nodes %llu time %.3f nps %.0f\n", (unsigned long long)nodes, secs,
           secs > 0 ? (double)nodes / secs : 0.0);
    return EXIT_OK;
}

/* ---- moves ---- */

static int run_moves(int argc, char **argv)
{
    EngineContext ctx;
    engine_context_init(&ctx);
    ctx.rules_only = true;
    bool paths = false;
    const CliOption options[] = { ENGINE_OPTIONS(&ctx), SET_ARG("paths", &paths), { 0 } };
    int code = cli_parse(argc, argv, "moves", options, 0);
    if (code >= 0)
        return code;
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;

    MoveTexts tl = legal_move_texts(ctx.variant, &ctx.pos, &ctx.rules, paths);
    for (int i = 0; i < tl.count; i++)
        puts(tl.items[i]);
    move_texts_free(&tl);
    return EXIT_OK;
}

/* `dama position`: where a list of moves leads, for scripts that have no move generator. */
static int run_position(int argc, char **argv)
{
    EngineContext ctx;
    engine_context_init(&ctx);
    ctx.rules_only = true;
    const CliOption options[] = { ENGINE_OPTIONS(&ctx), { 0 } };
    int code = cli_parse(argc, argv, "position", options, 0);
    if (code >= 0)
        return code;
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    char fen[512], end_text[64];
    position_to_fen(&ctx.pos, ctx.variant, fen, sizeof fen);
    GameEnd end;
    end.result = game_result(&ctx.game, &end.reason);
    printf("fen %s\nside %s\nply %d\nresult %s\n", fen, ctx.pos.side == WHITE ? "white" : "black",
           ctx.game.ply, end.result == RESULT_NONE ? "none" : game_end_text(end, end_text, sizeof end_text));
    MoveTexts tl = legal_move_texts(ctx.variant, &ctx.pos, &ctx.rules, false);
    printf("moves %d", end.result == RESULT_NONE ? tl.count : 0);
    for (int i = 0; i < tl.count && end.result == RESULT_NONE; i++)
        printf(" %s", tl.items[i]);
    putchar('\n');
    move_texts_free(&tl);
    return EXIT_OK;
}

const Command cmd_perft = {
    "perft", "count the leaves of the move tree (tests and benchmarks the rules)",
    run_perft,
};

const Command cmd_moves = {
    "moves", "list the legal moves of a position",
    run_moves,
};

const Command cmd_position = {
    "position", "the position after a list of moves: FEN, result and legal moves",
    run_position,
};
