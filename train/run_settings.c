/* The params text of a run of games (run_settings.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_openings.h"
#include "dxp_player.h"
#include "egdb_search.h"
#include "engine_player.h"
#include "position.h"
#include "run_settings.h"
#include "variant.h"

void params_append(char *buf, size_t len, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

/* The settings text, with openings named as given (the path, or "random"). */
static void describe(const RunSettings *rs, const char *openings, char *buf, size_t len)
{
    const RunnerConfig *c = &rs->cfg;
    char rules[256];
    c->setup.variant->rules_describe(&c->setup.rules, rules, sizeof rules);
    snprintf(buf, len, "games=%d nodes=%llu depth=%d movetime=%d seed=%llu openings=%s random_plies=%d "
             "move_cap=%d noise=%d hash=%zu %s",
             c->games, (unsigned long long)c->setup.limits.nodes, c->setup.limits.depth,
             c->setup.limits.movetime_ms, (unsigned long long)c->seed, openings, c->random_plies,
             c->setup.move_cap, c->setup.noise, c->hash_mb, rules);
    size_t n = strlen(buf);
    if (c->setup.clock_ms > 0 && n < len)
        snprintf(buf + n, len - n, " clock=%d+%dms", c->setup.clock_ms, c->setup.clock_inc_ms);
    /* Only when given: the params of runs without adjudication stay as they were (resume). */
    n = strlen(buf);
    if (c->setup.win_plies > 0 && n < len)
        snprintf(buf + n, len - n, " win_adjudication=%d:%d", c->setup.win_cp, c->setup.win_plies);
    n = strlen(buf);
    if (c->setup.draw_plies > 0 && n < len)
        snprintf(buf + n, len - n, " draw_adjudication=%d:%d:%d", c->setup.draw_cp, c->setup.draw_plies,
                 c->setup.draw_after);
    /* The endgame databases as used, by the piece count they cover (a path names nothing
     * on another machine): egdb= adjudicates and both sides probe, egdb_a=/egdb_b= one side. */
    n = strlen(buf);
    if (c->setup.egdb && n < len)
        snprintf(buf + n, len - n, " egdb=%d", egdb_max_pieces(c->setup.egdb));
    for (int i = 0; i < 2; i++) {
        n = strlen(buf);
        if (c->egdb_search[i] && c->egdb_search[i] != c->setup.egdb && n < len)
            snprintf(buf + n, len - n, " egdb_%c=%d", "ab"[i], egdb_max_pieces(c->egdb_search[i]));
    }
}

void run_settings_describe(const RunSettings *rs, char *buf, size_t len)
{
    describe(rs, rs->openings_path ? rs->openings_path : "random", buf, len);
}

char *run_settings_identity(const RunSettings *rs)
{
    char head[1024];
    describe(rs, rs->openings_path ? "book" : "random", head, sizeof head);
    const Variant *v = rs->cfg.setup.variant;
    enum { FEN_MAX = 512 };
    size_t cap = strlen(head) + 1 + (size_t)rs->book.count * (FEN_MAX + 1), n = 0;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    n += (size_t)snprintf(text, cap, "%s", head);
    /* the book by its positions, not by the path it has on this machine */
    for (int i = 0; i < rs->book.count; i++) {
        char fen[FEN_MAX];
        position_to_fen(&rs->book.positions[i], v, fen, sizeof fen);
        n += (size_t)snprintf(text + n, cap - n, "\n%s", fen);
    }
    return text;
}

bool run_settings_load_openings(RunSettings *rs, const char *book_path, int book_ply, const atomic_bool *stop,
                                char *err, size_t errlen)
{
    const Variant *v = rs->cfg.setup.variant;
    if (book_path) {
        if (!book_openings_load(&rs->book, v, book_path, book_ply, stop, err, errlen))
            return false;
        rs->openings_path = book_path;
    } else if (!rs->openings_path) {
        return true;
    } else if (!openings_load(&rs->book, v, &rs->cfg.setup.rules, rs->openings_path, stop, err, errlen)) {
        return false;
    }
    rs->cfg.book = &rs->book;
    return true;
}

int run_settings_param_side(const char *param)
{
    return (param[0] == 'a' || param[0] == 'b') && param[1] == ':' ? param[0] - 'a' : -1;
}

void run_settings_engine(const RunSettings *rs, int side, const char *command, const char *const *rules_text,
                         int nrules, EngineConfig *out)
{
    *out = (EngineConfig){ .command = command, .variant = rs->cfg.setup.variant, .margin_ms = rs->engine_margin_ms,
                           .timeout_ms = rs->engine_timeout_ms, .new_player = engine_player_new };
    for (int i = 0; i < rs->nengine_params; i++) {
        int only = run_settings_param_side(rs->engine_params[i]);
        if (only < 0 || only == side)
            out->params[out->nparams++] = rs->engine_params[i] + (only < 0 ? 0 : 2);
    }
    size_t n = 0; /* the --rules given, joined as one option list */
    for (int i = 0; i < nrules && n < sizeof out->rules; i++)
        n += (size_t)snprintf(out->rules + n, sizeof out->rules - n, "%s%s", i ? "," : "", rules_text[i]);
}

void run_settings_open_egdb(RunSettings *rs, const char *dir, const char *const side_dir[2], Egdb *egdb[3])
{
    GameSetup *setup = &rs->cfg.setup;
    if (dir && (egdb[0] = egdb_open_checked(dir, setup->variant, &setup->rules))) {
        setup->egdb = egdb[0];
        rs->cfg.egdb_search[0] = rs->cfg.egdb_search[1] = egdb[0];
    }
    for (int i = 0; i < 2; i++)
        if (side_dir[i] && (egdb[1 + i] = egdb_open_checked(side_dir[i], setup->variant, &setup->rules)))
            rs->cfg.egdb_search[i] = egdb[1 + i];
}

void run_settings_dxp_engine(EngineConfig *out, const char *address)
{
    out->dxp_address = address;
    out->new_player = dxp_player_new;
    snprintf(out->name, sizeof out->name, "dxp:%s", address);
}

int run_settings_misplaced_param(const RunSettings *rs, const bool outside[2])
{
    for (int i = 0; i < rs->nengine_params; i++) {
        int only = run_settings_param_side(rs->engine_params[i]);
        if (only >= 0 && !outside[only])
            return i;
    }
    return -1;
}
