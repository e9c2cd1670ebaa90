/* `dama dxp`: dama as a DamExchange (DXP) engine, International draughts only (docs/dxp.md).
 * --listen: the follower, playing the games the initiator asks for, one connection after
 * another.  --connect: the initiator, playing N games with colours alternating through the
 * match machinery (play_game with dama's searcher against selfplay/dxp_player.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "dxp_link.h"
#include "dxp_player.h"
#include "dxp_text.h"
#include "interrupt.h"
#include "play.h"
#include "variant.h"
#include "version.h"
#include "weights.h"
#include "weights_store.h"

#define DXP_DEFAULT_MINUTES 5
#define DXP_DEFAULT_TIMEOUT_MS 300000L
#define DXP_DEFAULT_HASH_MB 64
#define DXP_NO_DEADLINE 1e15

enum { OPT_LISTEN = OPT_FIRST_FREE, OPT_CONNECT, OPT_DXP_GAMES, OPT_DXP_TIME, OPT_DXP_TIMEOUT,
       OPT_DXP_ONCE, OPT_DXP_WEIGHTS, OPT_DXP_HASH, OPT_DXP_DEPTH, OPT_DXP_NODES, OPT_DXP_MOVETIME };

typedef struct DxpOptions {
    const char *listen, *connect;
    const char *weights_name;
    SearchLimits level;      /* all zero: dama plays by the game's clock */
    long games, minutes, timeout_ms, hash_mb;
    bool once;
} DxpOptions;

/* Games from dama's side. */
typedef struct Tally {
    int games, wins, draws, losses, unknown;
} Tally;

static bool has_limit(const SearchLimits *l)
{
    return l->depth || l->nodes || l->movetime_ms;
}

static const char *score_text(int result)
{
    return result == RESULT_WHITE_WINS ? "2-0" : result == RESULT_BLACK_WINS ? "0-2"
         : result == RESULT_DRAW ? "1-1" : "*";
}

/* One line a game on stdout, and the tally. */
static void report_game(Tally *t, int dama_side, const char *peer, int result, const char *why)
{
    t->games++;
    if (result == RESULT_NONE)
        t->unknown++;
    else if (result == RESULT_DRAW)
        t->draws++;
    else if ((result == RESULT_WHITE_WINS) == (dama_side == WHITE))
        t->wins++;
    else
        t->losses++;
    printf("game %d: %s - %s %s (%s)\n", t->games, dama_side == WHITE ? "dama" : peer,
           dama_side == WHITE ? peer : "dama", score_text(result), why);
    fflush(stdout);
}

static void report_tally(const Tally *t)
{
    printf("dxp games %d wins %d draws %d losses %d unknown %d (dama's view)\n", t->games, t->wins,
           t->draws, t->losses, t->unknown);
    fflush(stdout);
}

/* ---- the follower (--listen) ---- */

typedef struct Follower {
    const DxpOptions *opt;
    const Variant *v;
    const Rules *rules;
    Player *engine;
    const atomic_bool *stop;
    DxpLink link;
    Game *game;
    Position start;
    Move *moves;
    bool playing;            /* a game is on */
    bool awaiting_ack;       /* dama ended it and waits for the peer's GAMEEND */
    int side;                /* dama's colour */
    double own_left_ms, peer_left_ms, peer_since;
    char peer[DXP_NAME_LEN + 1];
    Tally tally;
} Follower;

static char reason_of(int result, int side)
{
    if (result == RESULT_DRAW)
        return '2';
    if (result == RESULT_NONE)
        return '0';
    return (result == RESULT_WHITE_WINS) == (side == WHITE) ? '3' : '1';
}

/* dama ends the game at its turn: GAMEEND with its reason, then wait for the answer. */
static bool end_own_game(Follower *f, int result, const char *why)
{
    DxpMessage e = { .type = 'E', .reason = reason_of(result, f->side), .stop = '0' };
    f->awaiting_ack = true;
    report_game(&f->tally, f->side, f->peer, result, why);
    return dxp_link_send(&f->link, &e);
}

static char start_game(Follower *f, const DxpMessage *req, char *err, size_t errlen)
{
    if (req->version != 1) {
        snprintf(err, errlen, "protocol version %02d (dama speaks 01)", req->version);
        return '1';
    }
    if (req->start == 'B') {
        if (!dxp_position_from_text(req->position, &f->start, err, errlen))
            return '2';
    } else {
        f->v->start(&f->start);
    }
    game_init(f->game, f->v, f->rules, &f->start);
    snprintf(f->peer, sizeof f->peer, "%s", req->name[0] ? req->name : "initiator");
    dxp_printable(f->peer);
    f->side = req->color == 'W' ? WHITE : BLACK;
    /* 0 minutes says no time: dama then takes a minute a game to pace itself */
    double ms = (req->minutes ? req->minutes : 1) * 60000.0;
    f->own_left_ms = f->peer_left_ms = ms;
    f->peer_since = dxp_now_ms();
    player_new_game(f->engine, 0, 0);
    f->playing = true;
    f->awaiting_ack = false;
    return '0';
}

/* dama to move: the end of the game by the rules, or a search and its move.  False when the
 * connection failed or Ctrl-C stopped the search. */
static bool own_turn(Follower *f)
{
    int reason, result = game_result(f->game, &reason);
    if (result != RESULT_NONE)
        return end_own_game(f, result, reason_name(reason));
    PlayerTurn turn = {
        .game = f->game, .start = &f->start, .moves = f->moves, .limits = &f->opt->level,
        .clock = !has_limit(&f->opt->level), .time_ms = (int)(f->own_left_ms > 0 ? f->own_left_ms : 0),
        .stop = f->stop,
    };
    PlayerChoice choice = { .failure = REASON_NONE };
    double t0 = dxp_now_ms();
    PlayerStatus st = player_choose(f->engine, &turn, &choice);
    if (st != PLAYER_MOVED)
        return false;
    double spent = dxp_now_ms() - t0;
    f->own_left_ms -= spent;
    DxpMessage m;
    dxp_move_message(&choice.move, (int)lround(spent / 1000), &m);
    f->moves[f->game->ply] = choice.move;
    if (!game_play(f->game, &choice.move))
        return end_own_game(f, RESULT_NONE, "game too long");
    f->peer_since = dxp_now_ms();
    return dxp_link_send(&f->link, &m);
}

static bool peer_move(Follower *f, const DxpMessage *m)
{
    if (!f->playing || f->awaiting_ack || f->game->pos.side == f->side) {
        fprintf(stderr, "dxp: %s: a move out of turn, ignored\n", f->peer);
        return true;
    }
    f->peer_left_ms -= dxp_now_ms() - f->peer_since;
    int reason, result = game_result(f->game, &reason);
    if (result != RESULT_NONE) /* the peer played on where the rules ended the game */
        return end_own_game(f, result, reason_name(reason));
    Move move;
    char err[192];
    if (!dxp_move_from_message(m, &f->game->pos, &f->game->rules, &move, err, sizeof err)) {
        fprintf(stderr, "dxp: %s: %s\n", f->peer, err);
        DxpMessage e = { .type = 'E', .reason = '0', .stop = '0' };
        f->awaiting_ack = true;
        report_game(&f->tally, f->side, f->peer, f->side == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS,
                    "illegal-move");
        return dxp_link_send(&f->link, &e);
    }
    f->moves[f->game->ply] = move;
    if (!game_play(f->game, &move))
        return end_own_game(f, RESULT_NONE, "game too long");
    return true;
}

/* A GAMEEND from the peer: the answer to ours, or its end of the game (answered).  False
 * when the connection is to close (stop code 1, or the answer failed). */
static bool peer_end(Follower *f, const DxpMessage *m)
{
    if (f->playing && !f->awaiting_ack) {
        DxpMessage ack = { .type = 'E', .reason = '0', .stop = m->stop };
        int opponent = !f->side, result = RESULT_NONE, reason = REASON_NONE;
        const char *why = "no-result";
        if ((result = game_result(f->game, &reason)) != RESULT_NONE) {
            why = reason_name(reason); /* the rules' own words first */
        } else if (m->reason == '1') {
            result = opponent == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            why = "resign";
        } else if (m->reason == '2') {
            result = RESULT_DRAW;
            why = "draw-claim";
        } else if (m->reason == '3') {
            result = opponent == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
            why = "win-claim";
        }
        report_game(&f->tally, f->side, f->peer, result, why);
        f->playing = false;
        if (!dxp_link_send(&f->link, &ack))
            return false;
    }
    f->playing = f->awaiting_ack = false;
    return m->stop != '1';
}

/* Back to the position before move_number with colour to move (a person's take-back). */
static char take_back(Follower *f, const DxpMessage *m)
{
    if (!f->playing || f->awaiting_ack)
        return '1';
    int ply = (m->move_number - 1) * 2 + (m->color == 'Z') - (f->start.side == BLACK);
    if (ply < 0 || ply > f->game->ply)
        return '1';
    int n = ply;
    game_init(f->game, f->v, f->rules, &f->start);
    for (int i = 0; i < n; i++)
        game_play(f->game, &f->moves[i]);
    player_new_game(f->engine, 0, 0);
    return '0';
}

/* One connection, until it closes: EXIT_OK, or EXIT_INTERRUPTED after Ctrl-C. */
static int follow(Follower *f)
{
    snprintf(f->peer, sizeof f->peer, "initiator");
    f->playing = f->awaiting_ack = false;
    for (;;) {
        if (f->playing && !f->awaiting_ack && f->game->pos.side == f->side) {
            if (!own_turn(f))
                return atomic_load(f->stop) ? EXIT_INTERRUPTED : EXIT_OK;
            continue;
        }
        bool peer_clock = f->playing && !f->awaiting_ack;
        double deadline = dxp_now_ms() + (peer_clock && f->peer_left_ms > 0 ? f->peer_left_ms : 0)
                          + (double)f->opt->timeout_ms;
        const char *text;
        DxpRead r = dxp_link_read(&f->link, deadline, f->stop, &text);
        if (r == DXP_READ_STOPPED)
            return EXIT_INTERRUPTED;
        if (r != DXP_READ_MESSAGE) {
            fprintf(stderr, "dxp: %s: %s\n", f->peer,
                    r == DXP_READ_TIMEOUT ? "no message in time, connection closed"
                    : r == DXP_READ_TOO_LONG ? "more than 127 bytes without a NUL (not DXP), connection closed"
                    : f->playing && !f->awaiting_ack ? "closed the connection during a game"
                                                     : "closed the connection");
            return EXIT_OK;
        }
        DxpMessage m, answer = { .type = 'A' };
        char err[192];
        if (!dxp_decode(text, &m, err, sizeof err)) {
            fprintf(stderr, "dxp: %s: ignored: %s\n", f->peer, err);
            continue;
        }
        bool ok = true;
        switch (m.type) {
        case 'R':
            dxp_printable(m.name);
            if (f->playing && !f->awaiting_ack)
                fprintf(stderr, "dxp: %s: a new game request abandons the game in play\n", m.name);
            snprintf(answer.name, sizeof answer.name, "dama %s", dama_engine_version());
            answer.code = start_game(f, &m, err, sizeof err);
            if (answer.code != '0')
                fprintf(stderr, "dxp: %s: game refused: %s\n", m.name, err);
            ok = dxp_link_send(&f->link, &answer);
            break;
        case 'M': ok = peer_move(f, &m); break;
        case 'E': ok = peer_end(f, &m); break;
        case 'B': answer = (DxpMessage){ .type = 'K', .code = take_back(f, &m) };
                  ok = dxp_link_send(&f->link, &answer);
                  break;
        case 'C': dxp_printable(m.text);
                  fprintf(stderr, "dxp: %s says: %s\n", f->peer, m.text);
                  break;
        default: break; /* A and K are the initiator's to read */
        }
        if (!ok)
            return EXIT_OK;
    }
}

static int run_listen(const DxpOptions *opt, const Variant *v, const Rules *rules, const Weights *w)
{
    char host[256], port[16], err[256];
    if (!dxp_address_parse(opt->listen, host, port, err, sizeof err))
        return cli_usage_error("--listen: %s", err);
    const atomic_bool *stop = pipeline_interrupt_flag();
    int bound, lfd = dxp_listen(host, port, &bound, err, sizeof err);
    if (lfd < 0)
        return cli_runtime_error("--listen: %s", err);
    Follower f = { .opt = opt, .v = v, .rules = rules, .stop = stop };
    f.game = malloc(sizeof *f.game);
    f.moves = malloc(MAX_GAME_PLIES * sizeof *f.moves);
    f.engine = searcher_player_new(v, rules, w, (size_t)opt->hash_mb, stop);
    int code = EXIT_OK;
    if (!f.game || !f.moves || !f.engine) {
        code = cli_runtime_error("out of memory");
        goto done;
    }
    printf("dxp listening on %s:%d\n", host, bound);
    fflush(stdout);
    do {
        int fd = dxp_accept(lfd, DXP_NO_DEADLINE, stop, err, sizeof err);
        if (fd < 0) {
            if (atomic_load(stop))
                code = EXIT_INTERRUPTED;
            else
                fprintf(stderr, "dxp: %s\n", err);
            break;
        }
        dxp_link_init(&f.link, fd);
        code = follow(&f);
        dxp_link_close(&f.link);
    } while (code == EXIT_OK && !opt->once);
    report_tally(&f.tally);
done:
    close(lfd);
    player_free(f.engine);
    free(f.game);
    free(f.moves);
    return code;
}

/* ---- the initiator (--connect) ---- */

static int run_connect(const DxpOptions *opt, const Variant *v, const Rules *rules, const Weights *w,
                       const Position *start)
{
    char host[256], port[16], err[256];
    if (!dxp_address_parse(opt->connect, host, port, err, sizeof err))
        return cli_usage_error("--connect: %s", err);
    const atomic_bool *stop = pipeline_interrupt_flag();
    EngineConfig peer_cfg = {
        .command = "", .variant = v, .margin_ms = (int)opt->timeout_ms, .timeout_ms = (int)opt->timeout_ms,
        .stop = stop, .dxp_address = opt->connect, .dxp_minutes = (int)opt->minutes,
    };
    GameSetup setup = { .variant = v, .rules = *rules, .limits = opt->level, .move_cap = MAX_GAME_PLIES,
                        .time_margin_ms = (int)opt->timeout_ms };
    if (!has_limit(&opt->level))
        setup.clock_ms = (int)opt->minutes * 60000;
    Player *own = searcher_player_new(v, rules, w, (size_t)opt->hash_mb, stop);
    Player *peer = dxp_player_new(&peer_cfg);
    Tally tally = { 0 };
    int code = EXIT_OK;
    if (!own || !peer)
        code = cli_runtime_error("out of memory");
    else if (!dxp_player_connect(peer, err, sizeof err))
        code = atomic_load(stop) ? EXIT_INTERRUPTED : cli_runtime_error("--connect: %s", err);
    for (long i = 0; code == EXIT_OK && i < opt->games; i++) {
        int side = i % 2 ? BLACK : WHITE;
        PlayedGame g;
        if (!play_game(&setup, side == WHITE ? own : peer, side == WHITE ? peer : own, start,
                       (uint64_t)i, stop, &g)) {
            code = atomic_load(stop) ? EXIT_INTERRUPTED : cli_runtime_error("out of memory");
            break;
        }
        if (g.failure[0])
            fprintf(stderr, "dxp: game %ld: %s\n", i + 1, g.failure);
        report_game(&tally, side, dxp_player_peer_name(peer), g.result, reason_name(g.reason));
        played_game_free(&g);
    }
    if (tally.games)
        report_tally(&tally);
    player_free(peer);
    player_free(own);
    return code;
}

static int dxp_option(DxpOptions *o, int opt, const char *arg)
{
    switch (opt) {
    case OPT_LISTEN: o->listen = arg; return 1;
    case OPT_CONNECT: o->connect = arg; return 1;
    case OPT_DXP_GAMES: return cli_long("--games", arg, 1, 100000, &o->games) ? 1 : -1;
    case OPT_DXP_TIME: return cli_long("--time", arg, 1, 999, &o->minutes) ? 1 : -1;
    case OPT_DXP_TIMEOUT: return cli_long("--timeout", arg, 100, 86400000L, &o->timeout_ms) ? 1 : -1;
    case OPT_DXP_HASH: return cli_long("--hash", arg, 1, 4096, &o->hash_mb) ? 1 : -1;
    case OPT_DXP_ONCE: o->once = true; return 1;
    case OPT_DXP_WEIGHTS: o->weights_name = arg; return 1;
    case OPT_DXP_DEPTH: return cli_search_limit(&o->level, "--depth", arg) ? 1 : -1;
    case OPT_DXP_NODES: return cli_search_limit(&o->level, "--nodes", arg) ? 1 : -1;
    case OPT_DXP_MOVETIME: return cli_search_limit(&o->level, "--movetime", arg) ? 1 : -1;
    default: return 0;
    }
}

static int run_dxp(int argc, char **argv)
{
    static const struct option longopts[] = {
        ENGINE_LONG_OPTIONS,
        { "listen", required_argument, 0, OPT_LISTEN },
        { "connect", required_argument, 0, OPT_CONNECT },
        { "games", required_argument, 0, OPT_DXP_GAMES },
        { "time", required_argument, 0, OPT_DXP_TIME },
        { "timeout", required_argument, 0, OPT_DXP_TIMEOUT },
        { "once", no_argument, 0, OPT_DXP_ONCE },
        { "weights", required_argument, 0, OPT_DXP_WEIGHTS },
        { "hash", required_argument, 0, OPT_DXP_HASH },
        { "depth", required_argument, 0, OPT_DXP_DEPTH },
        { "nodes", required_argument, 0, OPT_DXP_NODES },
        { "movetime", required_argument, 0, OPT_DXP_MOVETIME },
        { 0, 0, 0, 0 },
    };
    EngineContext ctx;
    engine_context_init(&ctx);
    ctx.variant = &international_variant; /* DXP is International's protocol */
    DxpOptions opt = { .weights_name = "best", .games = 2, .minutes = DXP_DEFAULT_MINUTES,
                       .timeout_ms = DXP_DEFAULT_TIMEOUT_MS, .hash_mb = DXP_DEFAULT_HASH_MB };
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("dxp");
        if (o == '?')
            return EXIT_USAGE;
        int used = dxp_option(&opt, o, optarg);
        if (used < 0 || (used == 0 && engine_context_option(&ctx, o, optarg) <= 0))
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama dxp --help')", argv[optind]);
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
    char err[512];
    if (!pipeline_weights_by_name(&w, ctx.variant, opt.weights_name, err, sizeof err))
        return cli_usage_error("%s", err);
    int code = opt.listen ? run_listen(&opt, ctx.variant, &ctx.rules, &w)
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
