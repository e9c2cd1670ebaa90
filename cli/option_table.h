/* A command's options as a table (name, kind, destination, bounds) that one parser reads. */
#ifndef DAMA_OPTION_TABLE_H
#define DAMA_OPTION_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <getopt.h>

typedef enum ArgKind {
    ARG_TEXT,    /* const char **: the value as given */
    ARG_SET,     /* bool *: true; takes no value */
    ARG_CLEAR,   /* bool *: false; takes no value */
    ARG_INT,     /* int *: a whole number from min to max */
    ARG_LONG,    /* long *: the same */
    ARG_SIZE,    /* size_t *: the same */
    ARG_U64,     /* uint64_t *: a non-negative whole number */
    ARG_ID,      /* int64_t *: a positive whole number (a game's or a run's id) */
    ARG_THREADS, /* int *: --threads (cli_threads) */
    ARG_CALL,    /* call(option, value): false after printing the error */
} ArgKind;

typedef struct CliOption {
    const char *name; /* without the dashes; NULL ends a table */
    ArgKind kind;
    void *dest;       /* where the value goes; ARG_CALL: the call's context */
    long min, max;    /* ARG_INT, ARG_LONG, ARG_SIZE */
    bool (*call)(const struct CliOption *option, const char *value);
    bool *seen;       /* set to true when the option is given (may be NULL) */
} CliOption;

/* The entries of a table, by kind; a table ends with { 0 }.  TYPED(T, p) is p, which
 * must point to a T: a destination of another type does not compile. */
#define TYPED(type_, pointer_) (1 ? (pointer_) : (type_ *)0)
#define TEXT_ARG(name_, dest_) { .name = (name_), .kind = ARG_TEXT, .dest = TYPED(const char *, dest_) }
#define SET_ARG(name_, dest_) { .name = (name_), .kind = ARG_SET, .dest = TYPED(bool, dest_) }
#define CLEAR_ARG(name_, dest_) { .name = (name_), .kind = ARG_CLEAR, .dest = TYPED(bool, dest_) }
#define INT_ARG(name_, dest_, min_, max_) \
    { .name = (name_), .kind = ARG_INT, .dest = TYPED(int, dest_), .min = (min_), .max = (max_) }
#define LONG_ARG(name_, dest_, min_, max_) \
    { .name = (name_), .kind = ARG_LONG, .dest = TYPED(long, dest_), .min = (min_), .max = (max_) }
#define SIZE_ARG(name_, dest_, min_, max_) \
    { .name = (name_), .kind = ARG_SIZE, .dest = TYPED(size_t, dest_), .min = (min_), .max = (max_) }
#define U64_ARG(name_, dest_) { .name = (name_), .kind = ARG_U64, .dest = TYPED(uint64_t, dest_) }
#define ID_ARG(name_, dest_) { .name = (name_), .kind = ARG_ID, .dest = TYPED(int64_t, dest_) }
#define THREADS_ARG(name_, dest_) { .name = (name_), .kind = ARG_THREADS, .dest = TYPED(int, dest_) }
#define CALL_ARG(name_, context_, call_) \
    { .name = (name_), .kind = ARG_CALL, .dest = (context_), .call = (call_) }

/* Reads argv[1..] by options (plus --help, and -v for a table with --variant): the
 * values into their destinations, in command-line order.  Returns -1 when the command
 * goes on (optind is then the first word that is no option), EXIT_OK after printing
 * the help of command, or EXIT_USAGE after printing what was wrong: a bad option or
 * value, or more than words_allowed words after the options. */
int cli_parse(int argc, char **argv, const char *command, const CliOption *options,
              int words_allowed);

/* The command being run (main sets it), named in the parser's errors with a subcommand. */
void cli_set_command(const char *name);
/* The option table of the last cli_parse call: the help test checks every command's help
 * against the options its parser takes. */
const struct option *cli_getopt_options(void);

#endif
