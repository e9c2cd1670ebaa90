/* `dama match`: two weight sets on paired openings; Elo, LOS and an SPRT that stops early. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "engine_player.h"
#include "game.h"
#include "match_dxp.h"
#include "pipeline.h"
#include "run_options.h"
#include "sprt.h"
#include "variant.h"

enum { OPT_A = OPT_RUN_FIRST_FREE, OPT_B, OPT_SPRT, OPT_RESUME_M, OPT_ENGINE_A, OPT_ENGINE_B, OPT_NAME_A,
       OPT_NAME_B, OPT_DXP_A, OPT_DXP_B, OPT_DXP_COMMAND_A, OPT_DXP_COMMAND_B };

/* Longest name of a side (bytes). */
#define SIDE_NAME_MAX 100

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

/* x as printed with `decimals` places, without the "-0.0" of a tiny negative number. */
static double shown(double x, int decimals)
{
    return fabs(x) < 0.5 * pow(10.0, -decimals) ? 0.0 : x;
}

/* An interval end as printed: "+inf" or "-inf" where the clamp (or NULL) stands. */
static void bound_text(double x, char *buf, size_t len)
{
    if (isnan(x) || fabs(x) >= ELO_CLAMPED)
        snprintf(buf, len, "%sinf", isnan(x) || x > 0 ? "+" : "-");
    else
        snprintf(buf, len, "%+.1f", shown(x, 1));
}

void match_elo_stored(const EloEstimate *e, double *elo, double *lo, double *hi)
{
    *elo = *lo = *hi = NAN;
    if (!e->interval_known)
        return;
    if (e->perfect) {
        *(e->perfect > 0 ? lo : hi) = e->elo_bound;
        return;
    }
    *elo = e->elo;
    *lo = e->elo_lo > -ELO_CLAMPED ? e->elo_lo : NAN;
    *hi = e->elo_hi < ELO_CLAMPED ? e->elo_hi : NAN;
}

EloEstimate match_elo_from_stored(double games, double elo, double lo, double hi)
{
    EloEstimate e = { .elo = elo, .elo_lo = isnan(lo) ? -INFINITY : lo, .elo_hi = isnan(hi) ? INFINITY : hi,
                      .units = (int64_t)games / 2, .interval_known = !isnan(elo) || !isnan(lo) || !isnan(hi) };
    if (isnan(elo) && e.interval_known) { /* a perfect score: only its bound was stored */
        e.perfect = isnan(lo) ? -1 : 1;
        e.elo_bound = isnan(lo) ? hi : lo;
    }
    return e;
}

void match_elo_text(const EloEstimate *e, char *buf, size_t len)
{
    if (e->interval_known && e->perfect) {
        snprintf(buf, len, "elo n/a: every game %s (%s %+.1f at 95 %%, one-sided)",
                 e->perfect > 0 ? "won" : "lost", e->perfect > 0 ? "above" : "below", shown(e->elo_bound, 1));
    } else if (e->interval_known) {
        char lo[32], hi[32];
        bound_text(e->elo_lo, lo, sizeof lo);
        bound_text(e->elo_hi, hi, sizeof hi);
        snprintf(buf, len, "elo %+.1f [%s, %s]", shown(e->elo, 1), lo, hi);
    } else
        snprintf(buf, len, "elo n/a: too few pairs (%lld < %d)", (long long)e->units,
                 STATS_MIN_PAIRS);
}

/* The running Elo for the progress line. */
static void describe_match(void *ctx, char *buf, size_t len)
{
    const MatchState *ms = ctx;
    EloEstimate e = elo_from_penta(ms->penta);
    match_elo_text(&e, buf, len);
    size_t n = strlen(buf);
    if (ms->sprt->enabled && n < len)
        snprintf(buf + n, len - n, "  llr %.2f [%.2f, %.2f]", shown(ms->llr, 2), ms->lower, ms->upper);
}

/* A line a finished game, on a terminal (cutechess and fastchess print one): its number,
 * who had White, the result and why, A's running score over every finished game, and the
 * Elo over the counted pairs. */
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
    fprintf(stderr, "\r\033[Kgame %d/%d: %s - %s %s (%s, %d plies)  A %d-%d-%d (W-D-L)  %s\n", index + 1,
            ms->games_total, a_white ? a : b, a_white ? b : a,
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
    char elo[96];
    match_elo_text(e, elo, sizeof elo);
    if (e->interval_known)
        printf("%s los %.1f%%\n", elo, 100 * e->los);
    else
        printf("%s score %.1f%%\n", elo,
               counted ? 100.0 * (t->a_wins + 0.5 * t->a_draws) / counted : 50.0);
    if (ms->sprt->enabled) {
        printf("sprt elo0 %g elo1 %g llr %.3f [%.3f, %.3f] %s", ms->sprt->elo0, ms->sprt->elo1,
               shown(ms->llr, 3), ms->lower, ms->upper, verdict_name(ms->verdict, true));
        if (ms->pairs < STATS_MIN_PAIRS)
            printf(" (no verdict before %d pairs)", STATS_MIN_PAIRS);
        printf("\n");
    }
}

int pipeline_match(Store *store, RunOptions *ro, const SprtConfig *sprt, const Weights *a,
                   int64_t a_id, const Weights *b, int64_t b_id, const char *params,
                   RunResume resume, MatchOutcome *outcome)
{
    memset(outcome, 0, sizeof *outcome);
    RunnerConfig *c = &ro->cfg;
    PipelineRun run;
    int code = pipeline_run_open(store, ro->db_path, "match", params, a_id, c, resume, &run);
    if (code != EXIT_OK)
        return code;
    MatchState ms = { .sprt = sprt, .names = { c->names[0], c->names[1] }, .games_total = c->games };
    sprt_bounds(sprt->alpha, sprt->beta, &ms.lower, &ms.upper);
    c->weights[0] = a;
    c->weights[1] = b;
    c->weights_id[0] = a_id;
    c->weights_id[1] = b_id;
    c->store = store;
    c->run_id = run.id;
    c->stored = run.stored;
    c->stop = pipeline_interrupt_flag();
    c->label = "match";
    c->on_pair = on_pair;
    c->describe = describe_match;
    c->on_game = report_game;
    c->ctx = &ms;
    RunnerTotals t;
    bool ok = runner_play(c, &t);
    c->stored = NULL;
    outcome->run_id = run.id;
    bool ended = pipeline_run_close(store, ro->db_path, &run,
                                    !ok ? "failed" : t.interrupted && !t.decided ? "interrupted" : "done", ok);
    if (!ok)
        return cli_runtime_error("%s: %s (%d games stored)", ro->db_path, t.error, t.games);
    if (!ended)
        return EXIT_RUNTIME;

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
        return cli_runtime_error("%s: %s", ro->db_path, store_error(store));
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
    return interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

/* " a=ID" for weights, " a=engine:NAME(COMMAND)" for an outside engine. */
static void append_side(const RunOptions *ro, int side, int64_t id, char *buf, size_t len)
{
    size_t n = strlen(buf);
    const EngineConfig *e = ro->cfg.engine[side];
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

void match_params(const RunOptions *ro, const SprtConfig *sprt, const int64_t ids[2], char *buf,
                  size_t len)
{
    run_options_describe(ro, buf, len);
    append_side(ro, 0, ids[0], buf, len);
    append_side(ro, 1, ids[1], buf, len);
    append_name(0, ro->cfg.names[0], buf, len);
    append_name(1, ro->cfg.names[1], buf, len);
    size_t n = strlen(buf);
    if (n >= len)
        return;
    if (ro->cfg.engine[0] || ro->cfg.engine[1]) { /* what changes an engine's games */
        snprintf(buf + n, len - n, " engine_margin=%d engine_timeout=%d", ro->engine_margin_ms,
                 ro->engine_timeout_ms);
        for (int i = 0; i < ro->nengine_params; i++) {
            n = strlen(buf);
            if (n < len)
                snprintf(buf + n, len - n, " engine_param=%s", ro->engine_params[i]);
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

int match_start_engine(const RunOptions *ro, int side, const char *command, EngineConfig *out)
{
    char err[256];
    run_options_engine(ro, side, command, out);
    out->stop = pipeline_interrupt_flag();
    if (engine_probe(out, err, sizeof err))
        return EXIT_OK;
    if (atomic_load(out->stop)) { /* Ctrl-C cut the check short: nothing was played */
        fprintf(stderr, "dama: interrupted while starting engine '%s'; nothing was played\n", command);
        return EXIT_INTERRUPTED;
    }
    return cli_runtime_error("engine '%s': %s", command, err);
}

static int match_with_weights(RunOptions *ro, const SprtConfig *sprt, const char *const paths[2],
                              const char *const commands[2], const char *const given[2],
                              const MatchDxp *dxp, bool resume, Weights w[2]);

/* A name the user gave: one line of printable text, short enough for a PDN tag. */
static bool name_ok(const char *option, const char *name)
{
    if (!name[0])
        return cli_usage_error("%s: empty name", option), false;
    if (strlen(name) > SIDE_NAME_MAX)
        return cli_usage_error("%s: a name of at most %d bytes", option, SIDE_NAME_MAX), false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < ' ' || *p == 0x7f)
            return cli_usage_error("%s: a control character in the name", option), false;
    return true;
}

/* The sides' names: given (--name-a, --name-b), else an engine's own (its `id name=` and
 * version), else the weights as named (default, best, a file); two equal names become
 * "NAME (A)" and "NAME (B)", so the games always tell the sides apart. */
static void side_names(const char *const given[2], const char *const paths[2],
                       const EngineConfig engines[2], const char *const commands[2],
                       char names[2][SIDE_NAME_MAX + 8])
{
    for (int i = 0; i < 2; i++) {
        const char *name = given[i] ? given[i] : commands[i] ? engines[i].name : paths[i] ? paths[i] : "default";
        snprintf(names[i], SIDE_NAME_MAX + 1, "%.*s", SIDE_NAME_MAX, name);
    }
    if (strcmp(names[0], names[1]) == 0)
        for (int i = 0; i < 2; i++)
            strcat(names[i], i ? " (B)" : " (A)");
}

static int run_match(int argc, char **argv)
{
    static const struct option longopts[] = {
        RUN_LONG_OPTIONS,
        { "a", required_argument, 0, OPT_A },
        { "b", required_argument, 0, OPT_B },
        { "sprt", required_argument, 0, OPT_SPRT },
        { "resume", no_argument, 0, OPT_RESUME_M },
        { "engine-a", required_argument, 0, OPT_ENGINE_A },
        { "engine-b", required_argument, 0, OPT_ENGINE_B },
        { "name-a", required_argument, 0, OPT_NAME_A },
        { "name-b", required_argument, 0, OPT_NAME_B },
        { "dxp-a", required_argument, 0, OPT_DXP_A },
        { "dxp-b", required_argument, 0, OPT_DXP_B },
        { "dxp-command-a", required_argument, 0, OPT_DXP_COMMAND_A },
        { "dxp-command-b", required_argument, 0, OPT_DXP_COMMAND_B },
        OUTSIDE_ENGINE_LONG_OPTIONS,
        { 0, 0, 0, 0 },
    };
    RunOptions ro;
    bool resume = false;
    run_options_init(&ro);
    const char *paths[2] = { NULL, NULL }, *commands[2] = { NULL, NULL }, *given[2] = { NULL, NULL };
    MatchDxp dxp = { { NULL, NULL }, { NULL, NULL } };
    SprtConfig sprt = { .enabled = false, .alpha = 0.05, .beta = 0.05 };
    char err[512];
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("match");
        if (o == '?')
            return EXIT_USAGE;
        if (o == OPT_A || o == OPT_B) {
            paths[o == OPT_B] = optarg;
            continue;
        }
        if (o == OPT_ENGINE_A || o == OPT_ENGINE_B) {
            commands[o == OPT_ENGINE_B] = optarg;
            continue;
        }
        if (o == OPT_NAME_A || o == OPT_NAME_B) {
            if (!name_ok(o == OPT_NAME_A ? "--name-a" : "--name-b", optarg))
                return EXIT_USAGE;
            given[o == OPT_NAME_B] = optarg;
            continue;
        }
        if (o == OPT_DXP_A || o == OPT_DXP_B) {
            dxp.address[o == OPT_DXP_B] = optarg;
            continue;
        }
        if (o == OPT_DXP_COMMAND_A || o == OPT_DXP_COMMAND_B) {
            dxp.command[o == OPT_DXP_COMMAND_B] = optarg;
            continue;
        }
        if (o == OPT_RESUME_M) {
            resume = true;
            continue;
        }
        if (o == OPT_SPRT) {
            if (!sprt_parse(&sprt, optarg, err, sizeof err))
                return cli_usage_error("%s", err);
            continue;
        }
        if (run_options_parse(&ro, o, optarg) < 0)
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama match --help')", argv[optind]);
    for (int i = 0; i < 2; i++) {
        if (dxp.address[i] || dxp.command[i]) { /* a DXP side stands for an outside engine */
            if (paths[i] || commands[i])
                return cli_usage_error("--dxp-%c cannot be combined with --%c or --engine-%c: a side is "
                                       "weights, a Hub engine or a DXP engine", "ab"[i], "ab"[i], "ab"[i]);
            if (!match_dxp_check(&ro, i, &dxp))
                return EXIT_USAGE;
            commands[i] = dxp.address[i]; /* an outside side from here on */
        }
        if (paths[i] && commands[i])
            return cli_usage_error("--%s and --engine-%s cannot be combined: a side is weights or "
                                   "an outside engine", i ? "b" : "a", i ? "b" : "a");
        if (!paths[i] && !commands[i])
            return cli_usage_error("match needs --a and --b weights files ('default', 'material' "
                                   "and 'best' name the built-in sets), or --engine-a/--engine-b "
                                   "commands for outside engines");
        if (commands[i] && !commands[i][0])
            return cli_usage_error("--engine-%s: empty command", i ? "b" : "a");
    }
    if (ro.cfg.games % 2)
        return cli_usage_error("--games %d: a match plays pairs of games (colours swapped), so "
                               "give an even number", ro.cfg.games);
    if (!run_options_finish(&ro))
        return EXIT_USAGE;
    Weights w[2] = { 0 };
    int code = match_with_weights(&ro, &sprt, paths, commands, given, &dxp, resume, w);
    weights_free(&w[0]);
    weights_free(&w[1]);
    run_options_free(&ro);
    return code;
}

/* The rest of run_match, once the options are read: loads w (freed by the caller). */
static int match_with_weights(RunOptions *ro, const SprtConfig *sprt, const char *const paths[2],
                              const char *const commands[2], const char *const given[2],
                              const MatchDxp *dxp, bool resume, Weights w[2])
{
    char err[512];
    for (int i = 0; i < 2; i++) /* an engine's side keeps weights to probe random openings */
        if (!pipeline_weights_by_name(&w[i], ro->cfg.setup.variant, paths[i] ? paths[i] : "default",
                                      err, sizeof err))
            return cli_usage_error("%s", err);
    EngineConfig engines[2];
    if (!run_options_engine_sides(ro, (bool[2]){ commands[0] != NULL, commands[1] != NULL }))
        return EXIT_USAGE;
    for (int i = 0; i < 2; i++) {
        if (!commands[i])
            continue;
        int code = dxp->address[i] ? match_dxp_side(ro, i, dxp, &engines[i])
                                   : match_start_engine(ro, i, commands[i], &engines[i]);
        if (code != EXIT_OK)
            return code;
        ro->cfg.engine[i] = &engines[i];
    }
    char names[2][SIDE_NAME_MAX + 8];
    side_names(given, paths, engines, commands, names);
    ro->cfg.names[0] = names[0];
    ro->cfg.names[1] = names[1];
    Store *store = pipeline_open_store(ro->db_path);
    if (!store)
        return EXIT_RUNTIME;
    int code;
    int64_t ids[2];
    for (int i = 0; i < 2; i++) /* an engine has no weights: 0, stored as NULL */
        ids[i] = commands[i] ? 0 : i && ids[0] < 0 ? -1 : pipeline_store_weights(store, &w[i], 0, 0, paths[i]);
    if (ids[0] < 0 || ids[1] < 0) {
        code = cli_runtime_error("%s: %s", ro->db_path, store_error(store));
    } else {
        char params[1024];
        match_params(ro, sprt, ids, params, sizeof params);
        MatchOutcome outcome;
        code = pipeline_match(store, ro, sprt, &w[0], ids[0], &w[1], ids[1], params,
                              resume ? RESUME_REQUIRED : RESUME_NEVER, &outcome);
    }
    store_close(store);
    return code;
}

const Command cmd_match = {
    "match", "play two weight sets (or outside engines) against each other; Elo, LOS and SPRT",
    "usage: dama match --a WEIGHTS_A | --engine-a CMD  --b WEIGHTS_B | --engine-b CMD\n"
    "                  [--db FILE] [--games N] [--threads T]\n"
    "                  [--nodes K | --depth D | --movetime MS | --clock S+I]\n"
    "                  [--openings FILE | --random-plies P]\n"
    "                  [--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05] [--resume]\n"
    "                  [--name-a NAME] [--name-b NAME]\n"
    "       (a side may also be a DXP engine: --dxp-a|--dxp-b HOST:PORT\n"
    "        [--dxp-command-a|-b CMD])\n"
    "\n"
    "Plays game pairs on the same opening with colours swapped and prints\n"
    "  match games N wins W draws D losses L penta [LL,LD,DD+WL,WD,WW] (A's view)\n"
    "  elo E [LOW, HIGH] los P%\n"
    "  sprt elo0 X elo1 Y llr Z [LOWER, UPPER] accept-H1|accept-H0|continue\n"
    "On a terminal, a line a finished game on stderr: its number, White - Black, the\n"
    "result (2-0, 0-2, 1-1) and why, A's running W-D-L and the Elo so far.  Only\n"
    "whole pairs count, in pair order: a game whose twin did not finish (interrupted,\n"
    "or an odd --games) is stored but left out, and so are pairs after the SPRT\n"
    "decided.  The Elo interval (95 %) and the SPRT use the pair (pentanomial)\n"
    "results; the LLR is fishtest's (regularised, exact multinomial).  Before 10\n"
    "pairs there is no estimate ('elo n/a: too few pairs (N < 10) score S%') and no\n"
    "verdict; after that --sprt stops the match as soon as the log-likelihood ratio\n"
    "crosses a bound.  Everything is stored.  A perfect score has no finite Elo: 'elo\n"
    "n/a: every game won (above B at 95 %, one-sided)' gives the bound it allows\n"
    "(stored as elo_low; elo and elo_high NULL); an interval end the sample cannot\n"
    "bound is +inf or -inf (stored NULL).  WEIGHTS may be a file, 'default' (built-in\n"
    "hand-set), 'material' (material only) or 'best' (the shipped pattern weights,\n"
    "data/weights/VARIANT-pattern.txt).\n"
    "\n"
    "  --a FILE, --b FILE the two weight sets\n"
    "  --engine-a CMD, --engine-b CMD  an outside Hub engine for that side instead\n"
    "                     (e.g. --engine-b 'bin/dama hub'); the run's params name it\n"
    "                     (b=engine:NAME(CMD)); its games are stored with no weights\n"
    "  --name-a NAME, --name-b NAME  the sides' names (default: an engine's\n"
    "                     own, from its 'id name=' line, else the weights as given;\n"
    "                     two equal names get ' (A)' and ' (B)'): in the run's params\n"
    "                     (name_a=, name_b=, percent-encoded), each game's White and\n"
    "                     Black (PDN tags; white_name, black_name in games.csv) and\n"
    "                     the progress lines\n"
    "  --dxp-a HOST:PORT, --dxp-b HOST:PORT  a DXP engine for that side\n"
    "                     (International only, one connection: --threads 1); dama\n"
    "                     initiates each game (docs/dxp.md)\n"
    "  --dxp-command-a CMD, --dxp-command-b CMD  start CMD (/bin/sh -c) first and\n"
    "                     connect to it, again after a crash or a time forfeit (e.g.\n"
    "                     'bin/dama dxp --listen 27532'); its game time is --clock's,\n"
    "                     else --engine-timeout's, in whole minutes\n"
    "  --sprt SPEC        sequential test of elo1 against elo0 (default: off)\n"
    "  --resume           continue the last match run (the same options): only the\n"
    "                     games not yet stored are played\n"
    "  --games N          games to play (default 100); played in pairs with colours\n"
    "                     swapped\n"
    "  --noise CP         evaluation noise, in hundredths of a man (default 0)\n"
    RUN_OPTIONS_HELP
    OUTSIDE_ENGINE_OPTIONS_HELP,
    run_match,
};
