/* The one parser of the commands' option tables (option_table.h). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "option_table.h"

enum { MAX_OPTIONS = 96, FIRST_ID = 2000 };

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
