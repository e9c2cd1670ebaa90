/* `dama`: one binary, one subcommand per job. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "interrupt.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        name = "help";
    else if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
        name = "version";
    const Command *c = command_find(name);
    if (!c)
        return cli_usage_error("unknown command '%s' (see 'dama help')", name);
    cli_set_command(c->name);
    int code = c->run(argc - 1, argv + 1);
    /* A command that caught Ctrl-C or SIGTERM and did not finish was interrupted, whatever
     * step it was in (reading an input says "FILE: interrupted while reading"): 130. */
    return code != EXIT_OK && interrupt_requested() ? EXIT_INTERRUPTED : code;
}
