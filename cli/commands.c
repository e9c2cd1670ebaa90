/* The subcommand table and the help texts built from it. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

const Command *const dama_commands[] = {
    &cmd_perft,
    &cmd_moves,
    &cmd_analyze,
    &cmd_bench,
    &cmd_selfplay,
    &cmd_tune,
    &cmd_match,
    &cmd_train,
    &cmd_export,
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
    fputs("usage: dama COMMAND [OPTIONS]\n\n"
          "dama plays, trains and analyses Turkish draughts.\n\ncommands:\n", out);
    for (int i = 0; dama_commands[i]; i++)
        fprintf(out, "  %-10s %s\n", dama_commands[i]->name, dama_commands[i]->summary);
    fputs("  help       this list; 'dama help CMD' or 'dama CMD --help' explains one\n", out);
}

int cli_print_help(const char *name)
{
    const Command *c = command_find(name);
    if (!c)
        return cli_usage_error("unknown command '%s' (see 'dama help')", name);
    fputs(c->help, stdout);
    return EXIT_OK;
}

