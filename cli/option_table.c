/* The one parser of the commands' option tables (option_table.h). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "option_table.h"

/* The ids cli_getopt hands back: -v is --variant; table entry i is FIRST_ID + i. */
enum { OPT_VARIANT = 1000, OPT_HELP, MAX_OPTIONS = 96, FIRST_ID = 2000 };

/* True when longopts has --variant: then -v is its short form. */
static bool takes_variant(const struct option *longopts)
{
    for (const struct option *o = longopts; o->name; o++)
        if (strcmp(o->name, "variant") == 0)
            return true;
    return false;
}

static const char *command_name;            /* set by main: "pdn" for `dama pdn export` */
static const struct option *last_options;  /* the table of the last cli_getopt call */

void cli_set_command(const char *name) { command_name = name; }

const struct option *cli_getopt_options(void) { return last_options; }

/* "selfplay", or "pdn export" for a subcommand (argv[0] is then the subcommand). */
static void command_words(char **argv, char *buf, size_t len)
{
    if (command_name && strcmp(command_name, argv[0]) != 0)
        snprintf(buf, len, "%s %s", command_name, argv[0]);
    else
        snprintf(buf, len, "%s", argv[0]);
}

/* The option of longopts named exactly by the first len characters of name; NULL if none. */
static const struct option *option_named(const struct option *longopts, const char *name, size_t len)
{
    for (const struct option *o = longopts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

/* "dama CMD: unknown option --WORD", with the options WORD begins (getopt_long would have
 * taken the one of them as an abbreviation) or else a pointer to the help. */
static void unknown_long_option(char **argv, const struct option *longopts, const char *name,
                                size_t len)
{
    char cmd[64], hint[256];
    command_words(argv, cmd, sizeof cmd);
    int count = 0, k = 0;
    for (const struct option *o = longopts; o->name; o++)
        count += strncmp(o->name, name, len) == 0;
    size_t n = 0;
    for (const struct option *o = longopts; o->name; o++)
        if (strncmp(o->name, name, len) == 0 && n < sizeof hint) {
            const char *sep = k == 0 ? "did you mean " : k == count - 1 ? " or " : ", ";
            n += (size_t)snprintf(hint + n, sizeof hint - n, "%s--%s", sep, o->name);
            k++;
        }
    if (count == 0)
        snprintf(hint, sizeof hint, "see 'dama %s --help'", cmd);
    else if (n < sizeof hint)
        snprintf(hint + n, sizeof hint - n, "?");
    fprintf(stderr, "dama %s: unknown option --%.*s (%s)\n", cmd, (int)len, name, hint);
}

/* Runs getopt_long with our error messages: returns the option, -1 at the end, or '?'
 * after printing what was wrong.  Long options are taken by their whole names only
 * (--name or --name=value), never abbreviated: "dama CMD: unknown option --game (did you
 * mean --games?)". */
static int cli_getopt(int argc, char **argv, const struct option *longopts)
{
    last_options = longopts;
    opterr = 0;
    /* ':' first: a missing value is ':', told apart from an unknown option ('?') */
    int opt = getopt_long(argc, argv, takes_variant(longopts) ? ":v:" : ":", longopts, NULL);
    if (opt == -1)
        return -1;
    /* The word that held the option: the one before a value given as the next word. */
    const char *word = optind >= 2 && optarg && optarg == argv[optind - 1] && opt != ':' && opt != '?'
                           ? argv[optind - 2] : argv[optind - 1];
    char cmd[64];
    command_words(argv, cmd, sizeof cmd);
    if (strncmp(word, "--", 2) == 0) {
        /* getopt_long takes any unambiguous abbreviation (--game for --games, when --game
         * means a game id elsewhere): only whole names are options here. */
        const char *name = word + 2;
        size_t len = strcspn(name, "=");
        const struct option *o = option_named(longopts, name, len);
        if (!o) {
            unknown_long_option(argv, longopts, name, len);
            return '?';
        }
        if (opt == ':') {
            cli_usage_error("option '--%s' needs a value (see 'dama %s --help')", o->name, cmd);
            return '?';
        }
        if (opt == '?') {
            cli_usage_error("option '--%s' takes no value, not '%s' (see 'dama %s --help')", o->name,
                            name + len + 1, cmd);
            return '?';
        }
    } else if (opt == ':') {
        cli_usage_error("option '-%c' needs a value (see 'dama %s --help')", optopt, cmd);
        return '?';
    } else if (opt == '?') {
        fprintf(stderr, "dama %s: unknown option -%c (see 'dama %s --help')\n", cmd, optopt, cmd);
        return '?';
    }
    return opt == 'v' ? OPT_VARIANT : opt;
}

/* One option's value into its destination; false after printing the error. */
static bool store_value(const CliOption *o, const char *value)
{
    char dashed[64];
    snprintf(dashed, sizeof dashed, "--%s", o->name);
    long n;
    uint64_t u;
    switch (o->kind) {
    case ARG_TEXT: *(const char **)o->dest = value; return true;
    case ARG_SET: *(bool *)o->dest = true; return true;
    case ARG_CLEAR: *(bool *)o->dest = false; return true;
    case ARG_U64: return cli_u64(dashed, value, o->dest);
    case ARG_ID:
        if (!cli_u64(dashed, value, &u))
            return false;
        if (u == 0 || u > INT64_MAX)
            return cli_usage_error("bad value '%s' for %s: expected a positive number", value, dashed), false;
        *(int64_t *)o->dest = (int64_t)u;
        return true;
    case ARG_THREADS: return cli_threads(value, o->dest);
    case ARG_CALL: return o->call(o, value);
    case ARG_INT:
    case ARG_LONG:
    case ARG_SIZE:
        if (!cli_long(dashed, value, o->min, o->max, &n))
            return false;
        if (o->kind == ARG_INT)
            *(int *)o->dest = (int)n;
        else if (o->kind == ARG_LONG)
            *(long *)o->dest = n;
        else
            *(size_t *)o->dest = (size_t)n;
        return true;
    }
    return false;
}

int cli_parse(int argc, char **argv, const char *command, const CliOption *options,
              int words_allowed)
{
    /* static: cli_getopt_options() hands the table on to the help test */
    static struct option longopts[MAX_OPTIONS + 2];
    int count = 0, variant = -1;
    for (; options[count].name && count < MAX_OPTIONS; count++) {
        const CliOption *o = &options[count];
        bool flag = o->kind == ARG_SET || o->kind == ARG_CLEAR;
        longopts[count] = (struct option){ o->name, flag ? no_argument : required_argument, 0,
                                           FIRST_ID + count };
        if (strcmp(o->name, "variant") == 0)
            variant = count;
    }
    if (options[count].name) /* a table longer than this parser takes: a bug, said at once */
        return cli_runtime_error("%s has more than %d options", command, MAX_OPTIONS);
    longopts[count] = (struct option){ "help", no_argument, 0, OPT_HELP };
    longopts[count + 1] = (struct option){ 0, 0, 0, 0 };
    int id;
    while ((id = cli_getopt(argc, argv, longopts)) != -1) {
        if (id == OPT_HELP)
            return cli_print_help(command);
        if (id == OPT_VARIANT)
            id = FIRST_ID + variant;
        if (id < FIRST_ID || id >= FIRST_ID + count)
            return EXIT_USAGE;
        const CliOption *o = &options[id - FIRST_ID];
        if (!store_value(o, optarg))
            return EXIT_USAGE;
        if (o->seen)
            *o->seen = true;
    }
    if (argc - optind > words_allowed)
        return cli_usage_error("unexpected argument '%s' (see 'dama %s --help')",
                               argv[optind + words_allowed], command);
    return -1;
}
