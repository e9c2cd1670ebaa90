/* The subcommand table, `dama help` and `dama --version`. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "help_text.h"
#include "variant.h"
#include "version.h"

static const Command cmd_help, cmd_version;

const Command *const dama_commands[] = {
    &cmd_perft,
    &cmd_moves,
    &cmd_position,
    &cmd_analyze,
    &cmd_annotate,
    &cmd_bench,
    &cmd_selfplay,
    &cmd_tune,
    &cmd_match,
    &cmd_elo,
    &cmd_train,
    &cmd_export,
    &cmd_pdn,
    &cmd_db,
    &cmd_book,
    &cmd_weights,
    &cmd_hub,
    &cmd_dxp,
    &cmd_serve,
    &cmd_play,
    &cmd_egdb,
    &cmd_help,
    &cmd_version,
    NULL,
};

const Command *command_find(const char *name)
{
    for (int i = 0; dama_commands[i]; i++)
        if (strcmp(dama_commands[i]->name, name) == 0)
            return dama_commands[i];
    return NULL;
}

void print_overview(FILE *out)
{
    fputs("usage: dama COMMAND [OPTIONS]\n\n", out);
    help_text_print("dama plays, trains and analyses {TITLES}.\n\ncommands:\n", out);
    for (int i = 0; dama_commands[i]; i++)
        fprintf(out, "  %-10s %s\n", dama_commands[i]->name, dama_commands[i]->summary);
    fputs("\n'dama help CMD' or 'dama CMD --help' explains one; 'dama --version' is 'dama version'.\n"
          "Exit codes: 0 success, 1 run-time failure, 2 bad usage or input, 130 interrupted.\n",
          out);
}

int cli_print_help(const char *name)
{
    const Command *c = command_find(name);
    if (!c)
        return cli_usage_error("unknown command '%s' (see 'dama help')", name);
    help_text_print(help_file(c->name), stdout);
    return EXIT_OK;
}

/* `dama help [--help] [CMD]`: argv[0] is "help" (or "--help", "-h"). */
static int run_help(int argc, char **argv)
{
    const char *topic = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            arg = "help";
        else if (arg[0] == '-')
            return fprintf(stderr, "dama help: unknown option %s (see 'dama help --help')\n", arg), EXIT_USAGE;
        if (topic)
            return cli_usage_error("help explains one command at a time, not '%s' and '%s'",
                                   topic, arg);
        topic = arg;
    }
    if (!topic) {
        print_overview(stdout);
        return EXIT_OK;
    }
    return cli_print_help(topic);
}

static const Command cmd_help = {
    "help", "the list of commands, or one command's options",
    run_help,
};

/* `dama version` / `dama --version`: what a bug report or a paper should quote. */
static int run_version(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return cli_print_help("version");
    if (argc > 1)
        return cli_usage_error("version takes no arguments, not '%s'", argv[1]);
    char signature[64];
    if (!cli_bench_signature(&turkish_variant, signature, sizeof signature))
        return EXIT_RUNTIME;
    printf("dama %s\ncommit %s\n%s\n", dama_version(), dama_commit(), signature);
    /* The default variant's signature stays the third line; the others follow, named. */
    for (int i = 1; variant_at(i); i++)
        if (variant_at(i)->eval) {
            if (!cli_bench_signature(variant_at(i), signature, sizeof signature))
                return EXIT_RUNTIME;
            printf("%s %s\n", variant_at(i)->name, signature);
        }
    return EXIT_OK;
}

static const Command cmd_version = {
    "version", "the version, the git commit of the build and the bench signatures",
    run_version,
};
