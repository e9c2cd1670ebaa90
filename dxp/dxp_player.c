/* The DXP initiator as a Player (dxp_player.h). */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_process.h"
#include "dxp_link.h"
#include "dxp_player.h"
#include "dxp_text.h"

#define DXP_OWN_NAME "dama"
#define DXP_QUIT_WAIT_MS 500      /* how long a started program may take to exit */
#define DXP_CONNECT_WAIT_MS 2000  /* connection attempts to a program dama did not start */

typedef struct DxpPlayer {
    Player base;                  /* first: a Player * is a DxpPlayer * */
    const EngineConfig *cfg;
    char host[256], port[16];
    DxpLink link;
    pid_t pid;                    /* the program started by cfg->command; 0: none */
    char start_error[256];        /* why the last connection failed ("" when it did not) */
    char peer[DXP_NAME_LEN + 1];  /* the name its game accept gave */
    bool in_game;                 /* a game request was accepted and the game is not closed */
    int color;                    /* this player's colour in that game */
    int sent;                     /* plies of the game the peer knows (its own included) */
    int minutes;                  /* the game's thinking time */
    double used_ms;               /* the peer's time so far in the game, as we measure it */
} DxpPlayer;

static void stop_program(DxpPlayer *d)
{
    if (d->pid <= 0)
        return;
    kill(-d->pid, SIGTERM); /* DXP has no quit message */
    child_end(d->pid, DXP_QUIT_WAIT_MS);
    d->pid = 0;
}

/* Closes the connection and ends the program dama started: a fresh start for the next game. */
static void dxp_end(DxpPlayer *d)
{
    dxp_link_close(&d->link);
    stop_program(d);
    d->in_game = false;
}

static bool start_program(DxpPlayer *d)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC); /* its board and chatter stay out of dama's output */
    pid_t pid = null >= 0 ? child_start(d->cfg->command, null) : -1;
    if (null >= 0)
        close(null);
    if (pid < 0) {
        snprintf(d->start_error, sizeof d->start_error, "cannot start '%s'", d->cfg->command);
        return false;
    }
    d->pid = pid;
    return true;
}

static void dxp_new_game(Player *p, uint64_t seed, int noise)
{
    (void)seed;
    (void)noise;
    DxpPlayer *d = (DxpPlayer *)p;
    if (d->in_game) /* the last game was abandoned half-way: its state is unknown */
        dxp_end(d);
    if (d->pid > 0 && waitpid(d->pid, NULL, WNOHANG) != 0) { /* the program exited */
        d->pid = 0;
        dxp_link_close(&d->link);
    }
    if (d->link.fd >= 0)
        return;
    d->start_error[0] = '\0';
    bool starts = d->cfg->command && d->cfg->command[0];
    if (starts && d->pid <= 0 && !start_program(d))
        return;
    double deadline = dxp_now_ms() + (starts ? d->cfg->timeout_ms : DXP_CONNECT_WAIT_MS);
    int fd = dxp_connect(d->host, d->port, deadline, d->cfg->stop, d->start_error, sizeof d->start_error);
    if (fd < 0) {
        stop_program(d);
        return;
    }
    dxp_link_init(&d->link, fd);
}

static PlayerStatus fail(DxpPlayer *d, PlayerChoice *out, int reason, bool end, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static PlayerStatus fail(DxpPlayer *d, PlayerChoice *out, int reason, bool end, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(out->detail, sizeof out->detail, "dxp engine %s: ",
                     d->peer[0] ? d->peer : d->cfg->dxp_address);
    if (n > 0 && (size_t)n < sizeof out->detail)
        vsnprintf(out->detail + n, sizeof out->detail - (size_t)n, fmt, ap);
    va_end(ap);
    out->failure = reason;
    if (end)
        dxp_end(d);
    d->in_game = false;
    return PLAYER_FAILED;
}

static const char *read_failure(DxpRead r)
{
    return r == DXP_READ_TIMEOUT ? "no answer in time" : r == DXP_READ_STOPPED ? "interrupted"
         : r == DXP_READ_TOO_LONG ? "sent more than 127 bytes without a NUL (not DXP)"
                                  : "closed the connection";
}

static int minutes_for(const DxpPlayer *d, const PlayerTurn *t)
{
    int ms = d->cfg->dxp_minutes > 0 ? d->cfg->dxp_minutes * 60000 : t->clock ? t->time_ms : d->cfg->timeout_ms;
    int minutes = (ms + 59999) / 60000;
    return minutes < 1 ? 1 : minutes > 999 ? 999 : minutes;
}

/* Sends the game request and reads the accept; false after filling out. */
static bool request_game(DxpPlayer *d, const PlayerTurn *t, PlayerChoice *out)
{
    DxpMessage m = { .type = 'R', .version = 1, .moves = 0 };
    snprintf(m.name, sizeof m.name, "%s", DXP_OWN_NAME);
    d->color = t->game->pos.side;
    m.color = d->color == WHITE ? 'W' : 'Z';
    m.minutes = d->minutes = minutes_for(d, t);
    m.start = dxp_is_start_position(t->start) ? 'A' : 'B';
    if (m.start == 'B')
        dxp_position_to_text(t->start, m.position);
    if (!dxp_link_send(&d->link, &m)) {
        fail(d, out, REASON_ENGINE_CRASH, true, "the game request could not be sent");
        return false;
    }
    double deadline = dxp_now_ms() + d->cfg->timeout_ms;
    for (;;) {
        const char *text;
        char err[128];
        DxpRead r = dxp_link_read(&d->link, deadline, t->stop, &text);
        if (r != DXP_READ_MESSAGE) {
            fail(d, out, REASON_ENGINE_CRASH, true, "no game accept: %s", read_failure(r));
            return false;
        }
        if (!dxp_decode(text, &m, err, sizeof err)) {
            fail(d, out, REASON_ENGINE_CRASH, true, "%s", err);
            return false;
        }
        if (m.type != 'A')
            continue; /* chat, or anything else before the answer */
        snprintf(d->peer, sizeof d->peer, "%s", m.name);
        dxp_printable(d->peer); /* it goes into messages, the store and a terminal */
        if (m.code != '0') {
            static const char *why[] = { "", "wrong protocol version", "not this game", "no game at all" };
            fail(d, out, REASON_ENGINE_CRASH, false, "refused the game (code %c: %s)", m.code, why[m.code - '0']);
            return false;
        }
        d->in_game = true;
        d->sent = 0;
        d->used_ms = 0;
        return true;
    }
}

/* Tells the peer the moves of the game it has not seen. */
static bool send_moves(DxpPlayer *d, const PlayerTurn *t)
{
    for (; d->sent < t->game->ply; d->sent++) {
        DxpMessage m;
        dxp_move_message(&t->moves[d->sent], 0, &m);
        if (!dxp_link_send(&d->link, &m))
            return false;
    }
    return true;
}

/* The peer's time for its move: its clock, or what is left of the game's thinking time. */
static double peer_budget_ms(const DxpPlayer *d, const PlayerTurn *t)
{
    double left = t->clock ? t->time_ms : d->minutes * 60000.0 - d->used_ms;
    return left > 0 ? left : 0;
}

/* Sends our GAMEEND (reason from dama's side: '1' lost, '2' draw, '3' won, '0' none) unless
 * the peer sent one first, and reads until the peer's; false when the exchange failed. */
static bool close_game(DxpPlayer *d, char reason, bool peer_to_move, double deadline, const atomic_bool *stop)
{
    DxpMessage m = { .type = 'E', .reason = reason, .stop = '0' };
    bool sent = false;
    if (!peer_to_move) {
        if (!dxp_link_send(&d->link, &m))
            return false;
        sent = true;
    }
    for (;;) {
        const char *text;
        char err[128];
        DxpMessage in;
        if (dxp_link_read(&d->link, deadline, stop, &text) != DXP_READ_MESSAGE
            || !dxp_decode(text, &in, err, sizeof err))
            return false;
        if (in.type == 'E') {
            if (!sent) { /* the peer ended the game: acknowledged */
                DxpMessage ack = { .type = 'E', .reason = '0', .stop = '0' };
                return dxp_link_send(&d->link, &ack);
            }
            return true;
        }
        if (in.type == 'M' && !sent) { /* the peer played on where dama's rules ended the game */
            if (!dxp_link_send(&d->link, &m))
                return false;
            sent = true;
        }
    }
}

static PlayerStatus dxp_choose(Player *p, const PlayerTurn *t, PlayerChoice *out)
{
    DxpPlayer *d = (DxpPlayer *)p;
    if (d->link.fd < 0)
        return fail(d, out, REASON_ENGINE_CRASH, false, "no connection: %s",
                    d->start_error[0] ? d->start_error : "closed");
    if (!d->in_game && !request_game(d, t, out))
        return PLAYER_FAILED;
    if (!send_moves(d, t))
        return fail(d, out, REASON_ENGINE_CRASH, true, "the connection is closed");
    double budget = peer_budget_ms(d, t);
    double start = dxp_now_ms(), deadline = start + budget + d->cfg->margin_ms;
    for (;;) {
        const char *text;
        char err[192];
        DxpRead r = dxp_link_read(&d->link, deadline, t->stop, &text);
        if (r == DXP_READ_STOPPED) {
            dxp_end(d);
            return PLAYER_STOPPED;
        }
        if (r == DXP_READ_TIMEOUT)
            return fail(d, out, REASON_TIME_FORFEIT, true, "no move within %.0f ms (time left %.0f ms + margin %d ms)",
                        budget + d->cfg->margin_ms, budget, d->cfg->margin_ms);
        if (r != DXP_READ_MESSAGE)
            return fail(d, out, REASON_ENGINE_CRASH, true, "%s", read_failure(r));
        DxpMessage m;
        if (!dxp_decode(text, &m, err, sizeof err))
            return fail(d, out, REASON_ENGINE_CRASH, true, "%s", err);
        if (m.type == 'M') {
            d->used_ms += dxp_now_ms() - start;
            if (!dxp_move_from_message(&m, &t->game->pos, &t->game->rules, &out->move, err, sizeof err)) {
                bool closed = close_game(d, '0', false, dxp_now_ms() + d->cfg->timeout_ms, t->stop);
                return fail(d, out, REASON_ILLEGAL_MOVE, !closed, "%s", err);
            }
            d->sent = t->game->ply + 1;
            return PLAYER_MOVED;
        }
        if (m.type == 'E') { /* the peer ends the game at its turn: acknowledged */
            DxpMessage ack = { .type = 'E', .reason = '0', .stop = '0' };
            bool acked = dxp_link_send(&d->link, &ack);
            d->in_game = false;
            if (m.reason == '1')
                return fail(d, out, REASON_RESIGN, !acked, "gave up");
            return fail(d, out, REASON_ENGINE_CRASH, !acked, "ended the game (reason %c: %s) where the "
                        "rules do not end it", m.reason, m.reason == '2' ? "a draw" : m.reason == '3' ? "a win" : "none given");
        }
        if (m.type == 'B') { /* a take-back is for games against people: refused */
            DxpMessage no = { .type = 'K', .code = '1' };
            if (!dxp_link_send(&d->link, &no))
                return fail(d, out, REASON_ENGINE_CRASH, true, "the connection is closed");
        }
        /* chat and the rest: the search goes on */
    }
}

static void dxp_game_over(Player *p, const PlayerTurn *final, int result)
{
    DxpPlayer *d = (DxpPlayer *)p;
    if (!d->in_game || d->link.fd < 0)
        return;
    d->in_game = false;
    if (!send_moves(d, final)) {
        dxp_end(d);
        return;
    }
    int ours = !d->color; /* dama's colour: the other one */
    char reason = result == RESULT_DRAW ? '2'
                : (result == RESULT_WHITE_WINS) == (ours == WHITE) ? '3' : '1';
    bool peer_to_move = final->game->pos.side == d->color;
    double deadline = dxp_now_ms() + peer_budget_ms(d, final) + d->cfg->margin_ms;
    if (!close_game(d, reason, peer_to_move, deadline, final->stop))
        dxp_end(d); /* no orderly end: a fresh connection for the next game */
}

static void dxp_destroy(Player *p)
{
    DxpPlayer *d = (DxpPlayer *)p;
    dxp_end(d);
    free(d);
}

static const PlayerOps dxp_ops = { dxp_new_game, dxp_choose, dxp_destroy, dxp_game_over };

Player *dxp_player_new(const EngineConfig *cfg)
{
    DxpPlayer *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->base.ops = &dxp_ops;
    d->cfg = cfg;
    dxp_link_init(&d->link, -1);
    char err[128];
    if (!dxp_address_parse(cfg->dxp_address, d->host, d->port, err, sizeof err))
        snprintf(d->host, sizeof d->host, "%s", ""); /* checked by the command before: fails to connect */
    return &d->base;
}

bool dxp_player_connect(Player *p, char *err, size_t errlen)
{
    DxpPlayer *d = (DxpPlayer *)p;
    dxp_new_game(p, 0, 0);
    if (d->link.fd < 0)
        snprintf(err, errlen, "%s", d->start_error[0] ? d->start_error : "no connection");
    return d->link.fd >= 0;
}

const char *dxp_player_peer_name(Player *p)
{
    DxpPlayer *d = (DxpPlayer *)p;
    return d->peer[0] ? d->peer : d->cfg->dxp_address;
}
