/* Options shared by the commands that play games (selfplay, match, train). */
#ifndef DAMA_RUN_OPTIONS_H
#define DAMA_RUN_OPTIONS_H

#include "cli.h"
#include "run_settings.h"

/* The options of the commands that may play outside engines (match, train). */
#define OUTSIDE_ENGINE_OPTIONS_HELP \
    "  --engine-margin MS wall time an outside engine may take beyond a move's budget\n" \
    "                     (--movetime, or its clock's time) before it loses on time\n" \
    "                     (time-forfeit); with a clock, any side overspending by more\n" \
    "                     loses (default 1000)\n" \
    "  --engine-timeout MS an outside engine's budget for a move under --nodes or\n" \
    "                     --depth, and for its start-up (default 60000)\n" \
    "  --engine-param [a:|b:]NAME=VALUE  sent to every outside engine as set-param\n" \
    "                     before init, or with a: or b: to that side's only\n" \
    "                     (repeatable); the variant is always set, and the --rules\n" \
    "                     when the engine has a rules parameter (as dama hub has)\n" \
    "An outside engine is a command run by /bin/sh -c that speaks the Hub protocol\n" \
    "(as 'dama hub' and Scan do), one process per thread.  It loses a game when it\n" \
    "exits or closes its output or says error (engine-crash), gives no move in time\n" \
    "(time-forfeit) or names a move that is not legal (illegal-move); the match goes\n" \
    "on, with the engine restarted after a crash or a time forfeit.\n"

/* The help lines for RUN_LONG_OPTIONS, shared by every command's --help text; --games and
 * --noise mean something else in each command, so each command describes them.  {GAMES}
 * and {RULES} are the registry's (cli/help_text.h). */
#define RUN_OPTIONS_HELP \
    "  -v, --variant NAME {GAMES}\n" \
    "  --db FILE          SQLite database (default dama.db)\n" \
    "  --threads T        parallel games (default and most: the CPUs; more are\n" \
    "                     lowered to that); the results do not depend on it\n" \
    "  --nodes K          search nodes per move (default 3000; deterministic)\n" \
    "  --depth D          search depth per move instead of nodes\n" \
    "  --movetime MS      search time per move instead (not reproducible)\n" \
    "  --clock S+I        a clock instead: S seconds per side per game, I more after\n" \
    "                     each move (e.g. 10+0.1; not reproducible)\n" \
    "  --openings FILE    start positions, one FEN a line (default: random openings)\n" \
    "  --openings-book BOOK  start positions from an opening book ('dama book'):\n" \
    "                     its positions at ply --book-ply (default 4) whose best move\n" \
    "                     scores within the book's margin\n" \
    "  --random-plies P   random legal plies from the start, kept if balanced\n" \
    "                     (default 6)\n" \
    "  --seed S           game i uses seed S+i (default 1)\n" \
    "  --move-cap N       plies before a game is adjudicated a draw (default 300)\n" \
    "  --hash MB          transposition table per player (default 2)\n" \
    "  --batch N          games per database transaction (default 64)\n" \
    "  --win-adjudication CP:N  a side wins once both searches scored it CP or more\n" \
    "                     ahead for N plies running (saves time on clear games;\n" \
    "                     default off)\n" \
    "  --draw-adjudication CP:N:PLY  a draw once |score| <= CP for N plies running,\n" \
    "                     from ply PLY on (default off); the rules' end of game comes\n" \
    "                     first\n" \
    "  --egdb DIR         endgame databases ('dama egdb build'): both searches probe\n" \
    "                     them, and a game they hold ends with their value (reason\n" \
    "                     egdb; a win only while the draw counters are far from\n" \
    "                     their limits); a missing or damaged one is reported and\n" \
    "                     not used (default off)\n" \
    "  --rules OPTIONS    the variant's rule options ({RULES})\n"

typedef struct RunOptions {
    RunSettings run;           /* what the run needs (train/run_settings.h) */
    const char *openings_book_path; /* --openings-book: run.openings_path names it once read */
    int book_ply;
    const char *limit_option;  /* the search limit given (nodes, depth, movetime, clock) */
    bool random_plies_given;   /* --random-plies, which an openings file would override */
    const char *rules_text[MAX_RULES_OPTIONS]; /* the --rules given: read by finish, once */
    int nrules_text;                           /* the variant is known */
    /* --egdb DIR: both sides probe, games are adjudicated; egdb_side_dir (match's --egdb-a,
     * --egdb-b): that side's search only.  Opened by finish (into run.cfg), closed by free. */
    const char *egdb_dir, *egdb_side_dir[2];
    Egdb *egdb, *egdb_side[2];
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
