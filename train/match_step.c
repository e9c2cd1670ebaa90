/* The match step: A against B on paired openings, whole pairs counted in pair order, an
 * SPRT that may stop it early; the run and its match row stored, the result printed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "interrupt.h"
#include "match_elo.h"
#include "match_step.h"
#include "run_record.h"
#include "train_status.h"

bool sprt_parse(SprtConfig *sc, const char *text, char *err, size_t errlen)
{
    *sc = (SprtConfig){ .enabled = true, .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 };
    for (const char *p = text; *p;) {
        const char *eq = strchr(p, '=');
        size_t keylen = eq ? (size_t)(eq - p) : 0;
        char *end;
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || end == eq + 1 || (*end && *end != ',')) {
            snprintf(err, errlen, "bad --sprt '%s': expected elo0=X,elo1=Y,alpha=A,beta=B", text);
            return false;
        }
        if (keylen == 4 && !strncmp(p, "elo0", 4)) sc->elo0 = v;
        else if (keylen == 4 && !strncmp(p, "elo1", 4)) sc->elo1 = v;
        else if (keylen == 5 && !strncmp(p, "alpha", 5)) sc->alpha = v;
        else if (keylen == 4 && !strncmp(p, "beta", 4)) sc->beta = v;
        else {
            snprintf(err, errlen, "bad --sprt: unknown key '%.*s' (elo0, elo1, alpha, beta)", (int)keylen, p);
            return false;
        }
        p = *end ? end + 1 : end;
    }
    if (!(sc->elo1 > sc->elo0) || !(sc->alpha > 0 && sc->alpha < 0.5) || !(sc->beta > 0 && sc->beta < 0.5)) {
        snprintf(err, errlen, "bad --sprt '%s': need elo1 > elo0 and 0 < alpha, beta < 0.5", text);
        return false;
    }
    return true;
}

/* SPRT bookkeeping, called by the runner after each finished pair, in pair order; only
 * whole pairs reach it, and none after the decision. */
typedef struct MatchState {
    const SprtConfig *sprt;
    int64_t penta[PENTA_N];
    int64_t pairs;
    double lower, upper, llr;
    SprtVerdict verdict;
    /* The per-game lines: the sides' names and A's results over every finished game. */
    const char *names[2];
    int games_total;
    int a_wins, a_draws, a_losses;
    bool plain;   /* lines for a log (--progress lines): no terminal codes */
} MatchState;

static bool on_pair(void *ctx, int pair, const double a_points[2])
{
    (void)pair;
    MatchState *ms = ctx;
    ms->penta[(int)lround((a_points[0] + a_points[1]) * 2)]++;
    ms->pairs++;
    if (!ms->sprt->enabled)
        return true;
    ms->llr = sprt_llr_penta(ms->penta, ms->sprt->elo0, ms->sprt->elo1);
    ms->verdict = sprt_verdict(ms->llr, ms->pairs, ms->lower, ms->upper);
    return ms->verdict == SPRT_CONTINUE;
}

/* The running Elo for the progress line. */
static void describe_match(void *ctx, char *buf, size_t len)
{
    const MatchState *ms = ctx;
    EloEstimate e = elo_from_penta(ms->penta);
    match_elo_text(&e, buf, len);
    size_t n = strlen(buf);
    if (ms->sprt->enabled && n < len)
        snprintf(buf + n, len - n, "  llr %.2f [%.2f, %.2f]", elo_shown(ms->llr, 2), ms->lower, ms->upper);
}

/* A line a finished game, on a terminal or in a log (cutechess and fastchess print one):
 * its number, who had White, the result and why, A's running score over every finished
 * game, and the Elo over the counted pairs. */
static void report_game(void *ctx, int index, int result, int reason, int plies)
{
    MatchState *ms = ctx;
    bool a_white = index % 2 == 0; /* the runner's rule: A has White in a pair's first game */
    bool a_won = result == (a_white ? RESULT_WHITE_WINS : RESULT_BLACK_WINS);
    ms->a_wins += a_won;
    ms->a_draws += result == RESULT_DRAW;
    ms->a_losses += result != RESULT_DRAW && !a_won;
    const char *a = ms->names[0] ? ms->names[0] : "A", *b = ms->names[1] ? ms->names[1] : "B";
    char elo[160];
    describe_match(ms, elo, sizeof elo);
    fprintf(stderr, "%sgame %d/%d: %s - %s %s (%s, %d plies)  A %d-%d-%d (W-D-L)  %s\n",
            ms->plain ? "" : "\r\033[K", index + 1, ms->games_total, a_white ? a : b, a_white ? b : a,
            result == RESULT_WHITE_WINS ? "2-0" : result == RESULT_BLACK_WINS ? "0-2" : "1-1",
            reason_name(reason), plies, ms->a_wins, ms->a_draws, ms->a_losses, elo);
}

static const char *verdict_name(SprtVerdict v, bool enabled)
{
    if (!enabled)
        return "none";
    return v == SPRT_ACCEPT_H1 ? "accept-H1" : v == SPRT_ACCEPT_H0 ? "accept-H0" : "continue";
}

/* The result lines (format in the help text below); games_played counts every game the run
 * finished, some of which may lie outside the counted pairs. */
static void print_result(const MatchState *ms, const EloEstimate *e, const RunnerTotals *t,
                         int games_played, const char *penta)
{
    int counted = t->a_wins + t->a_draws + t->a_losses;
    printf("match games %d wins %d draws %d losses %d penta [%s] (A's view)\n", counted,
           t->a_wins, t->a_draws, t->a_losses, penta);
    /* How many games were in flight when the SPRT decided depends on thread timing: a note
     * on stderr, so that the result lines stay the same for the same inputs. */
    if (games_played > counted)
        fprintf(stderr, "match: %d game%s outside the counted pairs (finished after the SPRT "
                "decided, or a pair's lone game) stored but not counted\n", games_played - counted,
                games_played - counted == 1 ? "" : "s");
    char line[160];
    match_elo_line(e, counted ? (t->a_wins + 0.5 * t->a_draws) / counted : 0.5, line, sizeof line);
    printf("%s\n", line);
    if (ms->sprt->enabled) {
        printf("sprt elo0 %g elo1 %g llr %.3f [%.3f, %.3f] %s", ms->sprt->elo0, ms->sprt->elo1,
               elo_shown(ms->llr, 3), ms->lower, ms->upper, verdict_name(ms->verdict, true));
        if (ms->pairs < STATS_MIN_PAIRS)
            printf(" (no verdict before %d pairs)", STATS_MIN_PAIRS);
        printf("\n");
    }
}

int match_step(Store *store, RunSettings *rs, const SprtConfig *sprt, const Weights *a,
               int64_t a_id, const Weights *b, int64_t b_id, const char *params,
               RunResume resume, MatchOutcome *outcome)
{
    memset(outcome, 0, sizeof *outcome);
    RunnerConfig *c = &rs->cfg;
    RunRecord run;
    int code = run_record_open(store, rs->db_path, "match", params, a_id, c, resume, &run);
    if (code != TRAIN_OK)
        return code;
    MatchState ms = { .sprt = sprt, .names = { c->names[0], c->names[1] }, .games_total = c->games,
                      .plain = c->progress_lines };
    sprt_bounds(sprt->alpha, sprt->beta, &ms.lower, &ms.upper);
    c->weights[0] = a;
    c->weights[1] = b;
    c->weights_id[0] = a_id;
    c->weights_id[1] = b_id;
    c->store = store;
    c->run_id = run.id;
    c->stored = run.stored;
    c->stop = interrupt_flag();
    c->label = "match";
    c->on_pair = on_pair;
    c->describe = describe_match;
    c->on_game = report_game;
    c->ctx = &ms;
    RunnerTotals t;
    bool ok = runner_play(c, &t);
    c->stored = NULL;
    outcome->run_id = run.id;
    bool ended = run_record_close(store, rs->db_path, &run,
                                  !ok ? "failed" : t.interrupted && !t.decided ? "interrupted" : "done", ok);
    if (!ok)
        return train_fail("%s: %s (%d games stored)", rs->db_path, t.error, t.games);
    if (!ended)
        return TRAIN_FAILED;

    /* Whole pairs only, in pair order, up to the SPRT's decision. */
    EloEstimate e = elo_from_penta(ms.penta);
    int wins = t.a_wins, losses = t.a_losses, draws = t.a_draws, games = wins + draws + losses;
    char penta[96];
    snprintf(penta, sizeof penta, "%lld,%lld,%lld,%lld,%lld", (long long)ms.penta[0],
             (long long)ms.penta[1], (long long)ms.penta[2], (long long)ms.penta[3], (long long)ms.penta[4]);
    MatchRecord rec = {
        .run_id = run.id, .weights_a = a_id, .weights_b = b_id, .games = games,
        .wins = wins, .draws = draws, .losses = losses, .penta = penta,
        .llr = ms.llr, .llr_low = ms.lower, .llr_high = ms.upper,
        .verdict = verdict_name(ms.verdict, sprt->enabled),
    };
    /* too few pairs: no estimate; a perfect score: its bound only (a NaN is stored as NULL) */
    match_elo_stored(&e, &rec.elo, &rec.elo_low, &rec.elo_high);
    bool interrupted = t.interrupted && !t.decided;
    if (!interrupted && store_match_put(store, &rec) < 0)
        return train_fail("%s: %s", rs->db_path, store_error(store));
    print_result(&ms, &e, &t, t.resumed + t.games, penta);
    fflush(stdout);
    outcome->elo = e;
    outcome->llr = ms.llr;
    outcome->verdict = sprt->enabled ? ms.verdict : SPRT_CONTINUE;
    outcome->games = games;
    outcome->interrupted = interrupted;
    if (interrupted)
        fprintf(stderr, "dama: interrupted: %d games of match run %lld are stored; the same "
                "command with --resume continues it\n", t.resumed + t.games, (long long)run.id);
    return interrupted ? TRAIN_INTERRUPTED : TRAIN_OK;
}

/* " a=ID" for weights, " a=engine:NAME(COMMAND)" for an outside engine. */
static void append_side(const RunSettings *rs, int side, int64_t id, char *buf, size_t len)
{
    size_t n = strlen(buf);
    const EngineConfig *e = rs->cfg.engine[side];
    if (n >= len)
        return;
    if (e)
        snprintf(buf + n, len - n, " %c=engine:%s(%s)", "ab"[side], e->name, e->command);
    else
        snprintf(buf + n, len - n, " %c=%lld", "ab"[side], (long long)id);
}

/* " name_a=NAME": percent-encoded (space, '%', '=', '"' and control bytes), so the name is
 * one word of the params whatever it holds. */
static void append_name(int side, const char *name, char *buf, size_t len)
{
    size_t n = strlen(buf);
    if (!name || n >= len)
        return;
    n += (size_t)snprintf(buf + n, len - n, " name_%c=", "ab"[side]);
    for (const unsigned char *p = (const unsigned char *)name; *p && n + 4 < len; p++)
        n += (size_t)(*p <= ' ' || *p == '%' || *p == '=' || *p == '"' || *p == 0x7f
                      ? snprintf(buf + n, len - n, "%%%02X", *p) : snprintf(buf + n, len - n, "%c", *p));
}

void match_params(const RunSettings *rs, const SprtConfig *sprt, const int64_t ids[2], char *buf,
                  size_t len)
{
    run_settings_describe(rs, buf, len);
    append_side(rs, 0, ids[0], buf, len);
    append_side(rs, 1, ids[1], buf, len);
    append_name(0, rs->cfg.names[0], buf, len);
    append_name(1, rs->cfg.names[1], buf, len);
    size_t n = strlen(buf);
    if (n >= len)
        return;
    if (rs->cfg.engine[0] || rs->cfg.engine[1]) { /* what changes an engine's games */
        snprintf(buf + n, len - n, " engine_margin=%d engine_timeout=%d", rs->engine_margin_ms,
                 rs->engine_timeout_ms);
        for (int i = 0; i < rs->nengine_params; i++) {
            n = strlen(buf);
            if (n < len)
                snprintf(buf + n, len - n, " engine_param=%s", rs->engine_params[i]);
        }
        n = strlen(buf);
        if (n >= len)
            return;
    }
    if (sprt->enabled)
        snprintf(buf + n, len - n, " sprt=%g,%g,%g,%g", sprt->elo0, sprt->elo1, sprt->alpha, sprt->beta);
    else
        snprintf(buf + n, len - n, " sprt=off");
}
