/* `dama match`: two weight sets on paired openings; Elo, LOS and an SPRT that stops early. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "match_dxp.h"
#include "pipeline.h"
#include "run_options.h"
#include "sprt.h"
#include "variant.h"

enum { OPT_A = OPT_RUN_FIRST_FREE, OPT_B, OPT_SPRT, OPT_RESUME_M, OPT_ENGINE_A, OPT_ENGINE_B, OPT_DXP_A,
       OPT_DXP_B, OPT_DXP_COMMAND_A, OPT_DXP_COMMAND_B };

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

void match_elo_text(const EloEstimate *e, char *buf, size_t len)
{
    if (e->interval_known)
        snprintf(buf, len, "elo %+.1f [%+.1f, %+.1f]", shown(e->elo, 1), shown(e->elo_lo, 1),
                 shown(e->elo_hi, 1));
    else
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
    MatchState ms = { .sprt = sprt };
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
        /* too few pairs: no estimate (a NaN is stored as NULL) */
        .elo = e.interval_known ? e.elo : NAN, .elo_low = e.interval_known ? e.elo_lo : NAN,
        .elo_high = e.interval_known ? e.elo_hi : NAN,
        .llr = ms.llr, .llr_low = ms.lower, .llr_high = ms.upper,
        .verdict = verdict_name(ms.verdict, sprt->enabled),
    };
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

void match_params(const RunOptions *ro, const SprtConfig *sprt, const int64_t ids[2], char *buf,
                  size_t len)
{
    run_options_describe(ro, buf, len);
    append_side(ro, 0, ids[0], buf, len);
    append_side(ro, 1, ids[1], buf, len);
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
                              const char *const commands[2], const MatchDxp *dxp, bool resume, Weights w[2]);

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
    const char *paths[2] = { NULL, NULL }, *commands[2] = { NULL, NULL };
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
    int code = match_with_weights(&ro, &sprt, paths, commands, &dxp, resume, w);
    weights_free(&w[0]);
    weights_free(&w[1]);
    run_options_free(&ro);
    return code;
}

/* The rest of run_match, once the options are read: loads w (freed by the caller). */
static int match_with_weights(RunOptions *ro, const SprtConfig *sprt, const char *const paths[2],
                              const char *const commands[2], const MatchDxp *dxp, bool resume, Weights w[2])
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
    "       (a side may also be a DXP engine: --dxp-a|--dxp-b HOST:PORT [--dxp-command-a|-b CMD])\n"
    "\n"
    "Plays game pairs on the same opening with colours swapped and prints\n"
    "  match games N wins W draws D losses L penta [LL,LD,DD+WL,WD,WW] (A's view)\n"
    "  elo E [LOW, HIGH] los P%\n"
    "  sprt elo0 X elo1 Y llr Z [LOWER, UPPER] accept-H1|accept-H0|continue\n"
    "Only whole pairs count, in pair order: a game whose twin did not finish (interrupted, or\n"
    "an odd --games) is stored but left out, and so are pairs after the SPRT decided.  The\n"
    "Elo interval (95 %) and the SPRT use the pair (pentanomial) results; the LLR is\n"
    "fishtest's (regularised, exact multinomial).  Before 10 pairs there is no estimate\n"
    "('elo n/a: too few pairs (N < 10) score S%') and no verdict; after that --sprt stops the\n"
    "match as soon as the log-likelihood ratio crosses a bound.  Everything is stored.\n"
    "WEIGHTS may be a file, 'default' (built-in hand-set), 'material' (material only) or\n"
    "'best' (the shipped pattern weights, data/weights/VARIANT-pattern.txt).\n"
    "\n"
    "  --a FILE, --b FILE the two weight sets\n"
    "  --engine-a CMD, --engine-b CMD  an outside Hub engine for that side instead (e.g.\n"
    "                     --engine-b 'bin/dama hub'); the run's params name it\n"
    "                     (b=engine:NAME(CMD)); its games are stored with no weights\n"
    "  --dxp-a HOST:PORT, --dxp-b HOST:PORT  a DXP engine for that side (International only,\n"
    "                     one connection: --threads 1); dama initiates each game (docs/dxp.md)\n"
    "  --dxp-command-a CMD, --dxp-command-b CMD  start CMD (/bin/sh -c) first and connect to it,\n"
    "                     again after a crash or a time forfeit (e.g. 'bin/dama dxp --listen\n"
    "                     27532'); its game time is --clock's, else --engine-timeout's,\n"
    "                     in whole minutes\n"
    "  --sprt SPEC        sequential test of elo1 against elo0 (default: off)\n"
    "  --resume           continue the last match run (the same options): only the games\n"
    "                     not yet stored are played\n"
    "  --games N          games to play (default 100); played in pairs with colours swapped\n"
    "  --noise CP         evaluation noise, in hundredths of a man (default 0)\n"
    RUN_OPTIONS_HELP
    OUTSIDE_ENGINE_OPTIONS_HELP,
    run_match,
};
