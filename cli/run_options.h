/* Options shared by the commands that play games (selfplay, match, train). */
#ifndef DAMA_RUN_OPTIONS_H
#define DAMA_RUN_OPTIONS_H

#include "cli.h"
#include "run_settings.h"

/* The options of the commands that may play outside engines (match, train). */
typedef struct RunOptions {
    RunSettings run;           /* what the run needs (train/run_settings.h) */
    const char *openings_book_path; /* --openings-book: run.openings_path names it once read */
    int book_ply;
    const char *limit_option;  /* the search limit given (nodes, depth, movetime, clock) */
    bool random_plies_given;   /* --random-plies, which an openings file would override */
    const char *rules_text[MAX_RULES_OPTIONS]; /* the --rules given: read by finish, once */
    int nrules_text;                           /* the variant is known */
    /* --egdb DIR: both sides probe, games are adjudicated; egdb_side_dir (match's --egdb-a,
     * --egdb-b): that side's search only.  Opened by finish (into run.cfg: egdb[0] the
     * shared, egdb[1 + i] side i's), closed by free. */
    const char *egdb_dir, *egdb_side_dir[2];
    Egdb *egdb[3];
} RunOptions;

void run_options_init(RunOptions *ro);
/* The option calls of RUN_OPTIONS (option->dest is the RunOptions); false after the
 * error.  Two different search limits are refused: which one wins would be a guess. */
bool run_option_variant(const CliOption *option, const char *value);
bool run_option_rules(const CliOption *option, const char *value);
bool run_option_limit(const CliOption *option, const char *value);
bool run_option_adjudication(const CliOption *option, const char *value);
bool run_option_engine_margin(const CliOption *option, const char *value);
bool run_option_engine_param(const CliOption *option, const char *value);
/* --progress auto|lines|off: a line drawn over on a terminal (auto: only there), plain
 * lines for a log or a batch job's output, or none. */
bool run_option_progress(const CliOption *option, const char *value);

/* The option table entries of the game-playing options, for the RunOptions *ro. */
#define RUN_OPTIONS(ro) \
    TEXT_ARG("db", &(ro)->run.db_path), \
    INT_ARG("games", &(ro)->run.cfg.games, 1, 100000000L), \
    THREADS_ARG("threads", &(ro)->run.cfg.threads), \
    CALL_ARG("nodes", (ro), run_option_limit), \
    CALL_ARG("depth", (ro), run_option_limit), \
    CALL_ARG("movetime", (ro), run_option_limit), \
    CALL_ARG("clock", (ro), run_option_limit), \
    TEXT_ARG("openings", &(ro)->run.openings_path), \
    TEXT_ARG("openings-book", &(ro)->openings_book_path), \
    INT_ARG("book-ply", &(ro)->book_ply, 0, 1000), \
    { .name = "random-plies", .kind = ARG_INT, .dest = &(ro)->run.cfg.random_plies, .min = 0, .max = 40, \
      .seen = &(ro)->random_plies_given }, \
    U64_ARG("seed", &(ro)->run.cfg.seed), \
    INT_ARG("move-cap", &(ro)->run.cfg.setup.move_cap, 1, 2000), \
    SIZE_ARG("hash", &(ro)->run.cfg.hash_mb, 1, 4096), \
    INT_ARG("batch", &(ro)->run.cfg.batch_games, 1, 100000), \
    INT_ARG("noise", &(ro)->run.cfg.setup.noise, 0, 1000), \
    CALL_ARG("win-adjudication", (ro), run_option_adjudication), \
    CALL_ARG("draw-adjudication", (ro), run_option_adjudication), \
    CALL_ARG("progress", (ro), run_option_progress), \
    TEXT_ARG("egdb", &(ro)->egdb_dir), \
    CALL_ARG("rules", (ro), run_option_rules), \
    CALL_ARG("variant", (ro), run_option_variant)

/* The options of the commands that may play outside engines (match, train). */
#define OUTSIDE_ENGINE_OPTIONS(ro) \
    CALL_ARG("engine-margin", (ro), run_option_engine_margin), \
    INT_ARG("engine-timeout", &(ro)->run.engine_timeout_ms, 1, 86400000L), \
    CALL_ARG("engine-param", (ro), run_option_engine_param)
/* Applies the --rules to the variant's defaults and loads the openings file if one was
 * named (refused with --random-plies, which it would override); false after printing the
 * error. */
bool run_options_finish(RunOptions *ro);
void run_options_free(RunOptions *ro);
/* The outside engine of side (0: A, 1: B) run by command with ro's engine options (the
 * --engine-param for both sides and those for its own) and variant. */
void run_options_engine(const RunOptions *ro, int side, const char *command, EngineConfig *out);
/* False after the usage error when an --engine-param names a side (a: or b:) that is not
 * an outside engine (outside[side] false). */
bool run_options_engine_sides(const RunOptions *ro, const bool outside[2]);
/* Sets out to the outside engine command of side (0: A, 1: B) with ro's engine options
 * for it, started once to check it and learn its name: EXIT_OK, or the exit code after
 * printing why it failed (EXIT_INTERRUPTED when Ctrl-C cut the check short). */
int match_start_engine(const RunOptions *ro, int side, const char *command, EngineConfig *out);

#endif
