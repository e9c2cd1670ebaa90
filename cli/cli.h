/* Shared pieces of the command line: the subcommand table, errors and option values. */
#ifndef DAMA_CLI_H
#define DAMA_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "option_table.h"
#include "types.h"

enum ExitCode { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

typedef struct Command {
    const char *name;
    const char *summary; /* one line for `dama help`; the full text is cli/help/NAME.txt */
    int (*run)(int argc, char **argv);
} Command;

/* Prints "dama: <message>" on stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "dama: <message>" on stderr and returns EXIT_RUNTIME. */
int cli_runtime_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Numbers from option values; false (after printing the error) when out of range. */
bool cli_long(const char *option, const char *text, long min, long max, long *out);
bool cli_u64(const char *option, const char *text, uint64_t *out);
/* --threads: a whole number from 1 to 1024.  More threads than the CPUs this process may
 * run on only slow the work down (they take turns: 1000 ran 5x slower than 1), so a larger
 * count is lowered to the number of CPUs, with a note on stderr.  False after printing the
 * error. */
bool cli_threads(const char *text, int *out);
/* A monotonic clock in seconds, for the times commands print. */
double cli_now_seconds(void);
/* The CPUs this process may run on (its affinity mask; at least 1). */
int cli_cpu_count(void);
/* --depth, --nodes or --movetime (option->name) into the SearchLimits option->dest, for a
 * command that searches one position at a time (analyze, bench, play); false after the
 * error.  SEARCH_LIMIT_OPTIONS are the three entries. */
bool cli_option_search_limit(const CliOption *option, const char *value);
#define SEARCH_LIMIT_OPTIONS(limits) \
    CALL_ARG("depth", (limits), cli_option_search_limit), \
    CALL_ARG("nodes", (limits), cli_option_search_limit), \
    CALL_ARG("movetime", (limits), cli_option_search_limit)

/* "bench depth 6: N" (bench_signature): the signature of search and evaluation that run
 * records keep; false after printing why the bench could not run (a broken build). */
bool cli_bench_signature(const Variant *v, char *buf, size_t len);

/* The variant called name (turkish, tr, international, intl); NULL after printing the error.
 * cli_variant also refuses a variant without an evaluation (every command but perft, moves). */
const Variant *cli_variant_any(const char *name);
const Variant *cli_variant(const char *name);
/* --variant into the const Variant * option->dest, by cli_variant; false after the error. */
bool cli_option_variant(const CliOption *option, const char *value);

/* The options every engine command shares: --variant, --rules, --fen, --moves. */
#define MAX_RULES_OPTIONS 16
typedef struct EngineContext {
    const Variant *variant;
    Rules rules;      /* the variant's defaults with every --rules applied (set by finish) */
    const char *rules_text[MAX_RULES_OPTIONS]; /* the --rules given, in order: read by */
    int nrules_text;                           /* finish, once the variant is known */
    Position pos;     /* the position of --fen after the --moves (set by finish) */
    Game game;        /* from --fen through the --moves: the history the draw rules see */
    const char *fen;  /* NULL = start */
    const char *moves_text; /* --moves "m1 m2 ...": played from --fen; NULL = none */
    bool rules_only; /* the command needs no evaluation (perft, moves): any variant will do */
} EngineContext;

void engine_context_init(EngineContext *ctx);
/* One --rules into texts (*count of them so far, MAX_RULES_OPTIONS at most): they are
 * read once the variant is known, by cli_apply_rules; false after the error. */
bool cli_add_rules(const char **texts, int *count, const char *value);
/* rules: v's defaults with the texts applied in order; false after printing the error. */
bool cli_apply_rules(const Variant *v, Rules *rules, const char *const *texts, int count);
/* --variant and --rules into an EngineContext (option->dest); false after the error. */
bool engine_context_variant(const CliOption *option, const char *value);
bool engine_context_rules(const CliOption *option, const char *value);
/* Sets up the position once all options are read and plays the --moves (each checked
 * against the rules, refused once the game is over); false after printing the error. */
bool engine_context_finish(EngineContext *ctx);

/* The option table entries of the shared options, for the EngineContext *ctx. */
#define ENGINE_OPTIONS(ctx) \
    CALL_ARG("variant", (ctx), engine_context_variant), \
    CALL_ARG("rules", (ctx), engine_context_rules), \
    TEXT_ARG("fen", &(ctx)->fen), \
    TEXT_ARG("moves", &(ctx)->moves_text)

/* Prints a command's help to stdout. */
int cli_print_help(const char *name);

#endif
