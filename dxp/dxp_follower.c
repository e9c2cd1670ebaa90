/* dama as the DXP follower (dxp_follower.h): one connection after another, each game the
 * initiator asks for played by dama's searcher, the peer's moves checked against the rules,
 * its clock kept, take-backs and GAMEEND answered. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dxp_follower.h"
#include "dxp_link.h"
#include "dxp_text.h"
#include "player.h"

/* dxp_accept waits without a deadline (only Ctrl-C ends the wait). */
#define DXP_NO_DEADLINE 1e15

typedef struct Follower {
    const DxpFollowerConfig *cfg;
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
    DxpTally tally;
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
    dxp_report_game(&f->tally, f->side, f->peer, result, why);
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
        .game = f->game, .start = &f->start, .moves = f->moves, .limits = &f->cfg->level,
        .clock = !dxp_has_limit(&f->cfg->level), .time_ms = (int)(f->own_left_ms > 0 ? f->own_left_ms : 0),
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
        dxp_report_game(&f->tally, f->side, f->peer, f->side == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS,
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
        dxp_report_game(&f->tally, f->side, f->peer, result, why);
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

/* One connection, until it closes: DXP_END_OK, or DXP_END_INTERRUPTED after Ctrl-C. */
static DxpEnd follow(Follower *f)
{
    snprintf(f->peer, sizeof f->peer, "initiator");
    f->playing = f->awaiting_ack = false;
    for (;;) {
        if (f->playing && !f->awaiting_ack && f->game->pos.side == f->side) {
            if (!own_turn(f))
                return atomic_load(f->stop) ? DXP_END_INTERRUPTED : DXP_END_OK;
            continue;
        }
        bool peer_clock = f->playing && !f->awaiting_ack;
        double deadline = dxp_now_ms() + (peer_clock && f->peer_left_ms > 0 ? f->peer_left_ms : 0)
                          + (double)f->cfg->timeout_ms;
        const char *text;
        DxpRead r = dxp_link_read(&f->link, deadline, f->stop, &text);
        if (r == DXP_READ_STOPPED)
            return DXP_END_INTERRUPTED;
        if (r != DXP_READ_MESSAGE) {
            fprintf(stderr, "dxp: %s: %s\n", f->peer,
                    r == DXP_READ_TIMEOUT ? "no message in time, connection closed"
                    : r == DXP_READ_TOO_LONG ? "more than 127 bytes without a NUL (not DXP), connection closed"
                    : f->playing && !f->awaiting_ack ? "closed the connection during a game"
                                                     : "closed the connection");
            return DXP_END_OK;
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
            snprintf(answer.name, sizeof answer.name, "%s", f->cfg->name);
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
            return DXP_END_OK;
    }
}

DxpEnd dxp_follower_run(const DxpFollowerConfig *cfg, char *err, size_t errlen)
{
    const atomic_bool *stop = cfg->stop;
    int bound, lfd = dxp_listen(cfg->host, cfg->port, &bound, err, errlen);
    if (lfd < 0)
        return DXP_END_NO_LINK;
    Follower f = { .cfg = cfg, .v = cfg->variant, .rules = cfg->rules, .stop = stop };
    f.game = malloc(sizeof *f.game);
    f.moves = malloc(MAX_GAME_PLIES * sizeof *f.moves);
    f.engine = searcher_player_new(cfg->variant, cfg->rules, cfg->weights, (size_t)cfg->hash_mb, stop);
    DxpEnd end = DXP_END_OK;
    if (!f.game || !f.moves || !f.engine) {
        end = DXP_END_NO_MEMORY;
        goto done;
    }
    printf("dxp listening on %s:%d\n", cfg->host, bound);
    fflush(stdout);
    do {
        char why[256];
        int fd = dxp_accept(lfd, DXP_NO_DEADLINE, stop, why, sizeof why);
        if (fd < 0) {
            if (atomic_load(stop))
                end = DXP_END_INTERRUPTED;
            else
                fprintf(stderr, "dxp: %s\n", why);
            break;
        }
        dxp_link_init(&f.link, fd);
        end = follow(&f);
        dxp_link_close(&f.link);
    } while (end == DXP_END_OK && !cfg->once);
    dxp_report_tally(&f.tally);
done:
    close(lfd);
    player_free(f.engine);
    free(f.game);
    free(f.moves);
    return end;
}
