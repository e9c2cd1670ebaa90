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

bool run_option_limit(const CliOption *option, const char *value)
{
    RunOptions *ro = option->dest;
    GameSetup *setup = &ro->run.cfg.setup;
    char dashed[32];
    snprintf(dashed, sizeof dashed, "--%s", option->name);
    if (ro->limit_option && strcmp(ro->limit_option, option->name) != 0)
        return cli_usage_error("--%s and %s cannot be combined: give one search limit", ro->limit_option,
                               dashed), false;
    ro->limit_option = option->name;
    long n;
    SearchLimits limits = { 0 };
    if (strcmp(option->name, "clock") == 0) {
        if (!parse_clock(value, &setup->clock_ms, &setup->clock_inc_ms))
            return false;
    } else if (strcmp(option->name, "nodes") == 0) {
        if (!cli_u64(dashed, value, &limits.nodes))
            return false;
        if (limits.nodes == 0)
            return cli_usage_error("bad value '%s' for --nodes: expected a positive number", value), false;
    } else if (strcmp(option->name, "depth") == 0) {
        if (!cli_long(dashed, value, 1, 60, &n))
            return false;
        limits.depth = (int)n;
    } else {
        if (!cli_long(dashed, value, 1, 3600000L, &n))
            return false;
        limits.movetime_ms = (int)n;
    }
    setup->limits = limits;
    return true;
}

bool run_option_engine_margin(const CliOption *option, const char *value)
{
    RunOptions *ro = option->dest;
    long n;
    if (!cli_long("--engine-margin", value, 0, 3600000L, &n))
        return false;
    ro->run.cfg.setup.time_margin_ms = ro->run.engine_margin_ms = (int)n;
    return true;
}

bool run_option_progress(const CliOption *option, const char *value)
{
    RunnerConfig *c = &((RunOptions *)option->dest)->run.cfg;
    if (strcmp(value, "auto") == 0)
        c->progress = isatty(STDERR_FILENO), c->progress_lines = false;
    else if (strcmp(value, "lines") == 0)
        c->progress = c->progress_lines = true;
    else if (strcmp(value, "off") == 0)
        c->progress = c->progress_lines = false;
    else
        return cli_usage_error("bad value '%s' for --progress: expected auto, lines or off", value), false;
    return true;
}

bool run_option_engine_param(const CliOption *option, const char *value)
{
    RunSettings *run = &((RunOptions *)option->dest)->run;
    const char *kv = run_settings_param_side(value) >= 0 ? value + 2 : value;
    if (!strchr(kv, '=') || kv[0] == '=')
        return cli_usage_error("bad value '%s' for --engine-param: expected [a:|b:]NAME=VALUE", value), false;
    if (run->nengine_params == ENGINE_MAX_PARAMS)
        return cli_usage_error("too many --engine-param options (at most %d)", ENGINE_MAX_PARAMS), false;
    run->engine_params[run->nengine_params++] = value;
    return true;
}

bool run_option_adjudication(const CliOption *option, const char *value)
{
    GameSetup *setup = &((RunOptions *)option->dest)->run.cfg.setup;
    bool win = option->name[0] == 'w';
    int v[3];
    if (!parse_numbers(win ? "--win-adjudication" : "--draw-adjudication", value, win ? 2 : 3, 100000, v))
        return false;
    if (v[1] == 0)
        return cli_usage_error("bad value '%s' for --%s: PLIES must be at least 1", value, option->name), false;
    if (win) {
        setup->win_cp = v[0];
        setup->win_plies = v[1];
    } else {
        setup->draw_cp = v[0];
        setup->draw_plies = v[1];
        setup->draw_after = v[2];
    }
    return true;
}

bool run_option_variant(const CliOption *option, const char *value)
{
    RunnerConfig *c = &((RunOptions *)option->dest)->run.cfg;
    return (c->setup.variant = cli_variant(value)) != NULL;
}

bool run_option_rules(const CliOption *option, const char *value)
{
    RunOptions *ro = option->dest;
    return cli_add_rules(ro->rules_text, &ro->nrules_text, value);
}

bool run_options_finish(RunOptions *ro)
{
    char err[512];
    /* The commands of these options stop on Ctrl-C or SIGTERM (exit 130), from the reading
     * of their input files (openings, weights) on. */
    const atomic_bool *stop = interrupt_flag();
    if (!cli_apply_rules(ro->run.cfg.setup.variant, &ro->run.cfg.setup.rules, ro->rules_text, ro->nrules_text))
        return false;
    run_settings_open_egdb(&ro->run, ro->egdb_dir, ro->egdb_side_dir, ro->egdb);
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
    for (int i = 0; i < 3; i++) {
        egdb_close(ro->egdb[i]);
        ro->egdb[i] = NULL;
    }
}

void run_options_engine(const RunOptions *ro, int side, const char *command, EngineConfig *out)
{
    run_settings_engine(&ro->run, side, command, ro->rules_text, ro->nrules_text, out);
}

bool run_options_engine_sides(const RunOptions *ro, const bool outside[2])
{
    int i = run_settings_misplaced_param(&ro->run, outside);
    if (i >= 0) {
        int side = run_settings_param_side(ro->run.engine_params[i]);
        return cli_usage_error("--engine-param %s: side %c is not an outside engine here", ro->run.engine_params[i],
                               "ab"[side]), false;
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
