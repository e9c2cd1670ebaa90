/* Every subcommand of `dama`, defined in the module it belongs to. */
#ifndef DAMA_COMMANDS_H
#define DAMA_COMMANDS_H

#include <stdio.h>

#include "cli.h"

extern const Command cmd_db;
extern const Command cmd_book;
extern const Command cmd_perft, cmd_moves, cmd_analyze, cmd_bench, cmd_selfplay, cmd_tune,
    cmd_match, cmd_train;
extern const Command cmd_export, cmd_weights, cmd_position, cmd_hub, cmd_pdn;
extern const Command cmd_serve;
extern const Command cmd_play;
extern const Command cmd_dxp;
extern const Command cmd_annotate;
extern const Command cmd_egdb;
extern const Command cmd_elo;

/* The table `dama` dispatches on, ended by a zeroed entry. */
extern const Command *const dama_commands[];
const Command *command_find(const char *name);
/* `dama help`: the list of commands. */
void print_overview(FILE *out);

#endif
