/* The Hub client: an outside engine as a Player.
 *
 * The engine's stdin and stdout are one end of a socket pair (not pipes), so that a write to
 * an engine that has died fails with EPIPE through MSG_NOSIGNAL instead of raising SIGPIPE
 * in the whole program.  The child runs in its own process group, so ending it ends what
 * the shell started too. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "child_process.h"
#include "engine_player.h"
#include "hub_line.h"
#include "hub_text.h"
#include "variant.h"

#define ENGINE_LINE_MAX HUB_LINE_MAX
#define ENGINE_QUIT_WAIT_MS 500  /* after `quit`, how long the engine may take to exit */
#define ENGINE_POLL_MS 100       /* how often a wait looks at the stop flag */

typedef struct EnginePlayer {
    Player base;                 /* first: a Player * is an EnginePlayer * */
    const EngineConfig *cfg;
    pid_t pid;                   /* 0: not running */
    int fd;                      /* our end of the socket pair; -1 when not running */
    char name[128];
    char start_error[192];       /* why the last start failed ("" when it did not) */
    char buf[ENGINE_LINE_MAX];   /* bytes read and not yet returned as lines */
    size_t len;
    size_t consumed;             /* bytes of buf returned as the last line */
} EnginePlayer;

static const PlayerOps engine_ops;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Ends the process: `quit`, a short wait, then SIGKILL to its process group. */
static void engine_end(EnginePlayer *e)
{
    if (e->fd >= 0) {
        (void)send(e->fd, "quit\n", 5, MSG_NOSIGNAL);
        shutdown(e->fd, SHUT_WR);
    }
    if (e->pid > 0)
        child_end(e->pid, ENGINE_QUIT_WAIT_MS);
    if (e->fd >= 0)
        close(e->fd);
    e->fd = -1;
    e->pid = 0;
    e->len = e->consumed = 0;
}

static bool engine_spawn(EnginePlayer *e, char *err, size_t errlen)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return false;
    }
    pid_t pid = child_start(e->cfg->command, sv[1]);
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return false;
    }
    close(sv[1]);
    e->pid = pid;
    e->fd = sv[0];
    e->len = e->consumed = 0;
    return true;
}

static bool engine_send(EnginePlayer *e, const char *text)
{
    size_t n = strlen(text);
    char *line = malloc(n + 1);
    if (!line)
        return false;
    memcpy(line, text, n);
    line[n] = '\n';
    size_t done = 0;
    while (done < n + 1) {
        ssize_t w = send(e->fd, line + done, n + 1 - done, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    free(line);
    return done == n + 1;
}

static bool send_command(EnginePlayer *e, HubWriter *w)
{
    bool ok = !w->failed && engine_send(e, hub_writer_text(w));
    hub_writer_free(w);
    return ok;
}

typedef enum ReadStatus { READ_LINE, READ_EOF, READ_TIMEOUT, READ_STOPPED } ReadStatus;

/* The next line (without its "\n", NUL-terminated in buf) by deadline (now_ms() time). */
static ReadStatus engine_read_line(EnginePlayer *e, double deadline, const atomic_bool *stop,
                                   char **line)
{
    if (e->consumed) { /* drop the line returned last time */
        memmove(e->buf, e->buf + e->consumed, e->len - e->consumed);
        e->len -= e->consumed;
        e->consumed = 0;
    }
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            *nl = '\0';
            if (nl > e->buf && nl[-1] == '\r')
                nl[-1] = '\0';
            e->consumed = (size_t)(nl - e->buf) + 1;
            *line = e->buf;
            return READ_LINE;
        }
        if (e->len == sizeof e->buf - 1)
            return READ_EOF; /* a line longer than any the protocol has: not a Hub engine */
        if (stop && atomic_load(stop))
            return READ_STOPPED;
        double left = deadline - now_ms();
        if (left <= 0)
            return READ_TIMEOUT;
        struct pollfd pfd = { .fd = e->fd, .events = POLLIN };
        int r = poll(&pfd, 1, left < ENGINE_POLL_MS ? (int)left + 1 : ENGINE_POLL_MS);
        if (r < 0 && errno != EINTR)
            return READ_EOF;
        if (r <= 0)
            continue;
        ssize_t n = read(e->fd, e->buf + e->len, sizeof e->buf - 1 - e->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return READ_EOF;
        e->len += (size_t)n;
    }
}

/* Reads lines until one whose command is want; the parsed line is left in *line. */
static ReadStatus engine_expect(EnginePlayer *e, const char *want, double deadline, HubLine *line,
                                void (*seen)(EnginePlayer *, const HubLine *, void *), void *ctx)
{
    for (;;) {
        char *text, err[128];
        ReadStatus st = engine_read_line(e, deadline, e->cfg->stop, &text);
        if (st != READ_LINE)
            return st; /* stopped: the game loop sees the flag before it asks for a move */
        if (!hub_line_parse(line, text, err, sizeof err)) {
            hub_line_free(line);
            continue; /* not a line of the protocol: ignored, as unknown commands are */
        }
        if (strcmp(line->command, want) == 0)
            return READ_LINE;
        if (seen)
            seen(e, line, ctx);
        hub_line_free(line);
    }
}

/* What the start-up tells: the name and the values the variant parameter allows. */
typedef struct Startup {
    char variant_values[256];
    bool has_variant_param;
    bool has_rules_param;
} Startup;

static void startup_line(EnginePlayer *e, const HubLine *line, void *ctx)
{
    Startup *su = ctx;
    if (strcmp(line->command, "id") == 0 && hub_line_value(line, "name")) {
        const char *version = hub_line_value(line, "version");
        snprintf(e->name, sizeof e->name, "%s%s%s", hub_line_value(line, "name"), version ? " " : "",
                 version ? version : "");
    } else if (strcmp(line->command, "param") == 0 && hub_line_value(line, "name")
               && strcmp(hub_line_value(line, "name"), "rules") == 0) {
        su->has_rules_param = true;
    } else if (strcmp(line->command, "param") == 0 && hub_line_value(line, "name")
               && strcmp(hub_line_value(line, "name"), "variant") == 0) {
        su->has_variant_param = true;
        const char *values = hub_line_value(line, "values");
        snprintf(su->variant_values, sizeof su->variant_values, "%s", values ? values : "");
    }
}

static bool word_in(const char *word, const char *list)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

/* The value to give the engine's variant parameter: dama's name, or one of the names Hub
 * engines give the game (Variant.hub_aliases: for International Scan's "normal" or
 * lidraughts' "standard", the names `dama hub` reads too); NULL when the engine offers
 * none of them, or has no variant parameter and plays another game than the Hub's own. */
static const char *variant_value(const Variant *v, const Startup *su)
{
    if (!su->has_variant_param || !su->variant_values[0] || word_in(v->name, su->variant_values))
        return su->has_variant_param || v->hub_default ? v->name : NULL;
    for (const char *const *a = v->hub_aliases; a && *a; a++)
        if (word_in(*a, su->variant_values))
            return *a;
    return NULL;
}

static const char *read_failure(ReadStatus st)
{
    return st == READ_TIMEOUT ? "no answer in time" : st == READ_STOPPED ? "interrupted"
                                                     : "exited or closed its output";
}

/* Starts the process and takes it through hub ... wait, set-param, init ... ready. */
static bool engine_start(EnginePlayer *e, char *err, size_t errlen)
{
    const EngineConfig *cfg = e->cfg;
    e->name[0] = '\0';
    if (!engine_spawn(e, err, errlen))
        return false;
    double deadline = now_ms() + cfg->timeout_ms;
    HubLine line;
    Startup su = { .has_variant_param = false };
    ReadStatus st = engine_send(e, "hub") ? engine_expect(e, "wait", deadline, &line, startup_line, &su)
                                          : READ_EOF;
    if (st != READ_LINE) {
        snprintf(err, errlen, "no 'wait' after 'hub': %s", read_failure(st));
        engine_end(e);
        return false;
    }
    hub_line_free(&line);
    const char *variant = variant_value(cfg->variant, &su);
    if (!variant) {
        snprintf(err, errlen, "it does not offer the variant %s (its variants: %s)", cfg->variant->name,
                 su.has_variant_param ? su.variant_values : "no variant parameter");
        engine_end(e);
        return false;
    }
    bool sent = true;
    HubWriter w = { 0 };
    if (su.has_variant_param) {
        hub_writer_start(&w, "set-param");
        hub_writer_arg(&w, "name", "variant");
        hub_writer_arg(&w, "value", variant);
        sent = send_command(e, &w);
    }
    if (sent && cfg->rules[0] && su.has_rules_param) {
        hub_writer_start(&w, "set-param");
        hub_writer_arg(&w, "name", "rules");
        hub_writer_arg(&w, "value", cfg->rules);
        sent = send_command(e, &w);
    }
    for (int i = 0; sent && i < cfg->nparams; i++) {
        const char *eq = strchr(cfg->params[i], '=');
        char name[128];
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - cfg->params[i]) : 0, cfg->params[i]);
        hub_writer_start(&w, "set-param");
        hub_writer_arg(&w, "name", name);
        hub_writer_arg(&w, "value", eq ? eq + 1 : "");
        sent = send_command(e, &w);
    }
    st = sent && engine_send(e, "init") ? engine_expect(e, "ready", deadline, &line, NULL, NULL) : READ_EOF;
    if (st != READ_LINE) {
        snprintf(err, errlen, "no 'ready' after 'init': %s", read_failure(st));
        engine_end(e);
        return false;
    }
    hub_line_free(&line);
    if (!e->name[0])
        snprintf(e->name, sizeof e->name, "unnamed");
    return true;
}

static void engine_new_game(Player *p, uint64_t seed, int noise)
{
    (void)seed;
    (void)noise; /* the engine plays as it plays */
    EnginePlayer *e = (EnginePlayer *)p;
    if (e->pid > 0 && engine_send(e, "new-game"))
        return;
    if (e->pid > 0)
        engine_end(e); /* it died since the last game */
    e->start_error[0] = '\0';
    if (!engine_start(e, e->start_error, sizeof e->start_error) && !e->start_error[0])
        snprintf(e->start_error, sizeof e->start_error, "did not start");
}

/* Appends the Hub text of the game's moves to w as moves="...". */
static bool write_moves(HubWriter *w, const Variant *v, const PlayerTurn *t)
{
    int n = t->game->ply;
    if (n == 0)
        return true;
    char *text = malloc((size_t)n * HUB_MOVE_MAX + 1);
    if (!text)
        return false;
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char m[HUB_MOVE_MAX];
        hub_move_to_text(v, &t->moves[i], m, sizeof m);
        len += (size_t)sprintf(text + len, "%s%s", i ? " " : "", m);
    }
    hub_writer_arg(w, "moves", text);
    free(text);
    return true;
}

/* Sends pos, level and go think; returns the move's time budget in ms. */
static bool send_search(EnginePlayer *e, const PlayerTurn *t, double *budget_ms)
{
    const Variant *v = e->cfg->variant;
    char pos[HUB_POSITION_MAX];
    HubWriter w = { 0 };
    hub_writer_start(&w, "pos");
    hub_writer_arg(&w, "pos", hub_position_to_text(v, t->start, pos, sizeof pos));
    if (!write_moves(&w, v, t) || !send_command(e, &w))
        return false;
    hub_writer_start(&w, "level");
    if (t->clock) {
        hub_writer_argf(&w, "time", "%.3f", t->time_ms / 1000.0);
        hub_writer_argf(&w, "inc", "%.3f", t->inc_ms / 1000.0);
        *budget_ms = t->time_ms;
    } else if (t->limits->movetime_ms) {
        hub_writer_argf(&w, "move-time", "%.3f", t->limits->movetime_ms / 1000.0);
        *budget_ms = t->limits->movetime_ms;
    } else if (t->limits->nodes) {
        hub_writer_argf(&w, "nodes", "%llu", (unsigned long long)t->limits->nodes);
        *budget_ms = e->cfg->timeout_ms;
    } else {
        hub_writer_argf(&w, "depth", "%d", t->limits->depth ? t->limits->depth : MAX_PLY - 1);
        *budget_ms = e->cfg->timeout_ms;
    }
    return send_command(e, &w) && engine_send(e, "go think");
}

static PlayerStatus fail(EnginePlayer *e, PlayerChoice *out, int reason, bool end, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static PlayerStatus fail(EnginePlayer *e, PlayerChoice *out, int reason, bool end, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(out->detail, sizeof out->detail, "engine %s: ", e->name[0] ? e->name : e->cfg->command);
    if (n > 0 && (size_t)n < sizeof out->detail)
        vsnprintf(out->detail + n, sizeof out->detail - (size_t)n, fmt, ap);
    va_end(ap);
    out->failure = reason;
    if (end) /* its state is unknown (or it is gone): a fresh process for the next game */
        engine_end(e);
    return PLAYER_FAILED;
}

static PlayerStatus engine_choose(Player *p, const PlayerTurn *t, PlayerChoice *out)
{
    EnginePlayer *e = (EnginePlayer *)p;
    if (e->pid <= 0)
        return fail(e, out, REASON_ENGINE_CRASH, false, "could not be started: %s", e->start_error);
    double budget_ms;
    if (!send_search(e, t, &budget_ms))
        return fail(e, out, REASON_ENGINE_CRASH, true, "its input is closed");
    double deadline = now_ms() + budget_ms + e->cfg->margin_ms;
    for (;;) {
        char *text, err[192];
        ReadStatus st = engine_read_line(e, deadline, t->stop, &text);
        if (st == READ_STOPPED) {
            engine_end(e);
            return PLAYER_STOPPED;
        }
        if (st == READ_TIMEOUT)
            return fail(e, out, REASON_TIME_FORFEIT, true, "no move within %.0f ms (budget %.0f ms + margin %d ms)",
                        budget_ms + e->cfg->margin_ms, budget_ms, e->cfg->margin_ms);
        if (st == READ_EOF)
            return fail(e, out, REASON_ENGINE_CRASH, true, "exited or closed its output during the search");
        HubLine line;
        if (!hub_line_parse(&line, text, err, sizeof err)) {
            hub_line_free(&line);
            continue;
        }
        PlayerStatus result = PLAYER_MOVED;
        bool answered = true;
        if (strcmp(line.command, "done") == 0) {
            const char *move = hub_line_value(&line, "move");
            if (!move)
                result = fail(e, out, REASON_ILLEGAL_MOVE, false, "'done' without a move");
            else if (!hub_move_from_text(t->game->variant, &t->game->pos, &t->game->rules, move, &out->move,
                                         err, sizeof err))
                result = fail(e, out, REASON_ILLEGAL_MOVE, false, "move '%s': %s", move, err);
        } else if (strcmp(line.command, "error") == 0) {
            const char *msg = hub_line_value(&line, "message");
            result = fail(e, out, REASON_ENGINE_CRASH, true, "error: %s", msg ? msg : "(no message)");
        } else {
            /* info, or anything else: the search goes on.  The last score an info line gives
             * is the move's, as the searcher's is (adjudication reads it). */
            const char *score = strcmp(line.command, "info") == 0 ? hub_line_value(&line, "score") : NULL;
            if (score && hub_score_from_text(score, &out->score))
                out->has_score = true;
            answered = false;
        }
        hub_line_free(&line);
        if (answered)
            return result;
    }
}

static void engine_destroy(Player *p)
{
    EnginePlayer *e = (EnginePlayer *)p;
    engine_end(e);
    free(e);
}

static const PlayerOps engine_ops = { engine_new_game, engine_choose, engine_destroy, NULL };

Player *engine_player_new(const EngineConfig *cfg)
{
    EnginePlayer *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->base.ops = &engine_ops;
    e->cfg = cfg;
    e->fd = -1;
    return &e->base;
}

bool engine_probe(EngineConfig *cfg, char *err, size_t errlen)
{
    EnginePlayer *e = (EnginePlayer *)engine_player_new(cfg);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = engine_start(e, err, errlen);
    if (ok)
        snprintf(cfg->name, sizeof cfg->name, "%s", e->name);
    engine_destroy(&e->base);
    return ok;
}
