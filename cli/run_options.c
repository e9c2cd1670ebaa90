/* Parsing of the game-playing options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egdb_search.h"
#include "engine_player.h"
#include "interrupt.h"
#include "position.h"
#include "run_options.h"
#include "variant.h"

void run_options_init(RunOptions *ro)
{
    memset(ro, 0, sizeof *ro);
    ro->run.db_path = "dama.db";
    ro->book_ply = 4;
    RunnerConfig *c = &ro->run.cfg;
    c->setup.variant = &turkish_variant;
    c->setup.rules = rules_default(c->setup.variant);
    c->setup.limits.nodes = 3000;
    c->setup.move_cap = 300;
    c->games = 100;
    c->seed = 1;
    c->random_plies = 6;
    c->opening_balance = 60;
    c->hash_mb = 2;
    c->batch_games = 64;
    c->progress = isatty(STDERR_FILENO);
    c->setup.time_margin_ms = ro->run.engine_margin_ms = 1000;
    ro->run.engine_timeout_ms = 60000;
}

/* "S" or "S+I" in seconds into milliseconds; false (printed) when malformed. */
static bool parse_clock(const char *arg, int *ms, int *inc_ms)
{
    char *end;
    double s = strtod(arg, &end), inc = 0;
    if (end != arg && *end == '+') {
        const char *p = end + 1;
        inc = strtod(p, &end);
        if (end == p)
            end = (char *)arg; /* "10+": malformed */
    }
    if (end == arg || *end || !(s > 0 && s <= 86400) || !(inc >= 0 && inc <= 3600)) {
        cli_usage_error("bad value '%s' for --clock: expected SECONDS+INCREMENT, e.g. 60+0.5", arg);
        return false;
    }
    *ms = (int)(s * 1000 + 0.5);
    *inc_ms = (int)(inc * 1000 + 0.5);
    return *ms > 0 || (cli_usage_error("bad value '%s' for --clock: under a millisecond", arg), false);
}

/* Records the search limit given; false (printed) when another one was given before. */
static bool one_limit(RunOptions *ro, const char *option)
{
    if (ro->limit_option && strcmp(ro->limit_option, option) != 0) {
        cli_usage_error("%s and %s cannot be combined: give one search limit", ro->limit_option,
                        option);
        return false;
    }
    ro->limit_option = option;
    return true;
}

/* "A:B" or "A:B:C" (count numbers) of whole numbers in 0..max each; false (printed) else. */
static bool parse_numbers(const char *option, const char *arg, int count, int max, int *out)
{
    const char *p = arg;
    for (int i = 0; i < count; i++) {
        char *end;
        long v = (*p >= '0' && *p <= '9') ? strtol(p, &end, 10) : -1;
        char want = i + 1 < count ? ':' : '\0';
        if (v < 0 || v > max || *end != want) {
            cli_usage_error("bad value '%s' for %s: expected %s", arg, option,
                            count == 2 ? "CP:PLIES, e.g. 800:6" : "CP:PLIES:FROM, e.g. 5:20:80");
            return false;
        }
        out[i] = (int)v;
        p = end + (want != '\0');
    }
    return true;
}

/* The side an --engine-param is for: 0 for "a:NAME=VALUE", 1 for "b:...", -1 for both. */
static int engine_param_side(const char *arg)
{
    return (arg[0] == 'a' || arg[0] == 'b') && arg[1] == ':' ? arg[0] - 'a' : -1;
}

/* --nodes, --depth, --movetime, --clock: one search limit; 1 used, 0 not ours, -1 error. */
static int parse_limit(RunOptions *ro, int opt, const char *arg)
{
    RunnerConfig *c = &ro->run.cfg;
    long n;
    switch (opt) {
    case OPT_NODES_R: {
        uint64_t nodes;
        if (!one_limit(ro, "--nodes")) return -1;
        if (!cli_u64("--nodes", arg, &nodes)) return -1;
        if (nodes == 0)
            return cli_usage_error("bad value '%s' for --nodes: expected a positive number", arg), -1;
        c->setup.limits = (SearchLimits){ .nodes = nodes };
        return 1;
    }
    case OPT_DEPTH_R:
        if (!one_limit(ro, "--depth") || !cli_long("--depth", arg, 1, 60, &n)) return -1;
        c->setup.limits = (SearchLimits){ .depth = (int)n };
        return 1;
    case OPT_MOVETIME_R:
        if (!one_limit(ro, "--movetime") || !cli_long("--movetime", arg, 1, 3600000L, &n)) return -1;
        c->setup.limits = (SearchLimits){ .movetime_ms = (int)n };
        return 1;
    case OPT_CLOCK:
        if (!one_limit(ro, "--clock") || !parse_clock(arg, &c->setup.clock_ms, &c->setup.clock_inc_ms))
            return -1;
        c->setup.limits = (SearchLimits){ 0 };
        return 1;
    default:
        return 0;
    }
}

/* The outside engines' options; 1 used, 0 not ours, -1 error. */
static int parse_engine_option(RunOptions *ro, int opt, const char *arg)
{
    RunnerConfig *c = &ro->run.cfg;
    long n;
    switch (opt) {
    case OPT_ENGINE_MARGIN:
        if (!cli_long("--engine-margin", arg, 0, 3600000L, &n)) return -1;
        c->setup.time_margin_ms = ro->run.engine_margin_ms = (int)n;
        return 1;
    case OPT_ENGINE_TIMEOUT:
        if (!cli_long("--engine-timeout", arg, 1, 86400000L, &n)) return -1;
        ro->run.engine_timeout_ms = (int)n;
        return 1;
    case OPT_ENGINE_PARAM: {
        const char *kv = engine_param_side(arg) >= 0 ? arg + 2 : arg;
        if (!strchr(kv, '=') || kv[0] == '=')
            return cli_usage_error("bad value '%s' for --engine-param: expected [a:|b:]NAME=VALUE", arg), -1;
        if (ro->run.nengine_params == ENGINE_MAX_PARAMS)
            return cli_usage_error("too many --engine-param options (at most %d)", ENGINE_MAX_PARAMS), -1;
        ro->run.engine_params[ro->run.nengine_params++] = arg;
        return 1;
    }
    default:
        return 0;
    }
}

/* --win-adjudication, --draw-adjudication; 1 used, 0 not ours, -1 error. */
static int parse_adjudication(RunOptions *ro, int opt, const char *arg)
{
    RunnerConfig *c = &ro->run.cfg;
    switch (opt) {
    case OPT_WIN_ADJ: {
        int v[2];
        if (!parse_numbers("--win-adjudication", arg, 2, 100000, v)) return -1;
        if (v[1] == 0)
            return cli_usage_error("bad value '%s' for --win-adjudication: PLIES must be at least 1", arg), -1;
        c->setup.win_cp = v[0];
        c->setup.win_plies = v[1];
        return 1;
    }
    case OPT_DRAW_ADJ: {
        int v[3];
        if (!parse_numbers("--draw-adjudication", arg, 3, 100000, v)) return -1;
        if (v[1] == 0)
            return cli_usage_error("bad value '%s' for --draw-adjudication: PLIES must be at least 1", arg), -1;
        c->setup.draw_cp = v[0];
        c->setup.draw_plies = v[1];
        c->setup.draw_after = v[2];
        return 1;
    }
    default:
        return 0;
    }
}

int run_options_parse(RunOptions *ro, int opt, const char *arg)
{
    RunnerConfig *c = &ro->run.cfg;
    long n;
    switch (opt) {
    case OPT_DB: ro->run.db_path = arg; return 1;
    case OPT_GAMES:
        if (!cli_long("--games", arg, 1, 100000000L, &n)) return -1;
        c->games = (int)n;
        return 1;
    case OPT_THREADS:
        if (!cli_threads(arg, &c->threads)) return -1;
        return 1;
    case OPT_NOISE:
        if (!cli_long("--noise", arg, 0, 1000, &n)) return -1;
        c->setup.noise = (int)n;
        return 1;
    case OPT_EGDB_R: ro->egdb_dir = arg; return 1;
    case OPT_OPENINGS: ro->run.openings_path = arg; return 1;
    case OPT_OPENINGS_BOOK: ro->openings_book_path = arg; return 1;
    case OPT_BOOK_PLY:
        if (!cli_long("--book-ply", arg, 0, 1000, &n)) return -1;
        ro->book_ply = (int)n;
        return 1;
    case OPT_RANDOM_PLIES:
        if (!cli_long("--random-plies", arg, 0, 40, &n)) return -1;
        c->random_plies = (int)n;
        ro->random_plies_given = true;
        return 1;
    case OPT_SEED:
        return cli_u64("--seed", arg, &c->seed) ? 1 : -1;
    case OPT_MOVE_CAP:
        if (!cli_long("--move-cap", arg, 1, 2000, &n)) return -1;
        c->setup.move_cap = (int)n;
        return 1;
    case OPT_HASH_R:
        if (!cli_long("--hash", arg, 1, 4096, &n)) return -1;
        c->hash_mb = (size_t)n;
        return 1;
    case OPT_BATCH:
        if (!cli_long("--batch", arg, 1, 100000, &n)) return -1;
        c->batch_games = (int)n;
        return 1;
    case OPT_VARIANT:
        if (!(c->setup.variant = cli_variant(arg)))
            return -1;
        return 1;
    case OPT_RULES:
        /* Rule options belong to the variant, which may come later on the command line. */
        if (ro->nrules_text == MAX_RULES_OPTIONS)
            return cli_usage_error("too many --rules options (at most %d): join them with commas",
                                   MAX_RULES_OPTIONS), -1;
        ro->rules_text[ro->nrules_text++] = arg;
        return 1;
    default:
        break;
    }
    int used = parse_limit(ro, opt, arg);
    if (used == 0)
        used = parse_engine_option(ro, opt, arg);
    return used != 0 ? used : parse_adjudication(ro, opt, arg);
}

/* The databases of --egdb and of the sides' own (--egdb-a, --egdb-b), once the rules are
 * known; one that cannot be used is reported and left out. */
static void run_options_open_egdb(RunOptions *ro)
{
    RunnerConfig *c = &ro->run.cfg;
    if (ro->egdb_dir && (ro->egdb = egdb_open_checked(ro->egdb_dir, c->setup.variant, &c->setup.rules))) {
        c->setup.egdb = ro->egdb;
        c->egdb_search[0] = c->egdb_search[1] = ro->egdb;
    }
    for (int i = 0; i < 2; i++)
        if (ro->egdb_side_dir[i]
            && (ro->egdb_side[i] = egdb_open_checked(ro->egdb_side_dir[i], c->setup.variant, &c->setup.rules)))
            c->egdb_search[i] = ro->egdb_side[i];
}

bool run_options_finish(RunOptions *ro)
{
    char err[512];
    /* The commands of these options stop on Ctrl-C or SIGTERM (exit 130), from the reading
     * of their input files (openings, weights) on. */
    const atomic_bool *stop = interrupt_flag();
    Rules *rules = &ro->run.cfg.setup.rules;
    *rules = rules_default(ro->run.cfg.setup.variant);
    for (int i = 0; i < ro->nrules_text; i++)
        if (!rules_parse(ro->run.cfg.setup.variant, rules, ro->rules_text[i], err, sizeof err)) {
            cli_usage_error("%s", err);
            return false;
        }
    run_options_open_egdb(ro);
    if (ro->openings_book_path && (ro->run.openings_path || ro->random_plies_given)) {
        cli_usage_error("--openings-book cannot be combined with --openings or --random-plies");
        return false;
    }
    if (ro->run.openings_path && ro->random_plies_given) {
        cli_usage_error("--openings and --random-plies cannot be combined: the games start "
                        "from the file's positions");
        return false;
    }
    if (!run_settings_load_openings(&ro->run, ro->openings_book_path, ro->book_ply, stop, err, sizeof err)) {
        cli_usage_error(ro->openings_book_path ? "--openings-book: %s" : "%s", err);
        return false;
    }
    return true;
}

void run_options_free(RunOptions *ro)
{
    openings_free(&ro->run.book);
    egdb_close(ro->egdb);
    egdb_close(ro->egdb_side[0]);
    egdb_close(ro->egdb_side[1]);
    ro->egdb = ro->egdb_side[0] = ro->egdb_side[1] = NULL;
}

void run_options_engine(const RunOptions *ro, int side, const char *command, EngineConfig *out)
{
    *out = (EngineConfig){ .command = command, .variant = ro->run.cfg.setup.variant,
                           .margin_ms = ro->run.engine_margin_ms, .timeout_ms = ro->run.engine_timeout_ms,
                           .new_player = engine_player_new };
    for (int i = 0; i < ro->run.nengine_params; i++) {
        int only = engine_param_side(ro->run.engine_params[i]);
        if (only < 0 || only == side)
            out->params[out->nparams++] = ro->run.engine_params[i] + (only < 0 ? 0 : 2);
    }
    size_t n = 0; /* the --rules given, joined as one option list */
    for (int i = 0; i < ro->nrules_text && n < sizeof out->rules; i++)
        n += (size_t)snprintf(out->rules + n, sizeof out->rules - n, "%s%s", i ? "," : "", ro->rules_text[i]);
}

bool run_options_engine_sides(const RunOptions *ro, const bool outside[2])
{
    for (int i = 0; i < ro->run.nengine_params; i++) {
        int only = engine_param_side(ro->run.engine_params[i]);
        if (only >= 0 && !outside[only])
            return cli_usage_error("--engine-param %s: side %c is not an outside engine here", ro->run.engine_params[i],
                                   "ab"[only]), false;
    }
    return true;
}

int match_start_engine(const RunOptions *ro, int side, const char *command, EngineConfig *out)
{
    char err[256];
    run_options_engine(ro, side, command, out);
    out->stop = interrupt_flag();
    if (engine_probe(out, err, sizeof err))
        return EXIT_OK;
    if (atomic_load(out->stop)) { /* Ctrl-C cut the check short: nothing was played */
        fprintf(stderr, "dama: interrupted while starting engine '%s'; nothing was played\n", command);
        return EXIT_INTERRUPTED;
    }
    return cli_runtime_error("engine '%s': %s", command, err);
}
