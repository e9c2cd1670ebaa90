/* An outside program run by /bin/sh -c in its own process group, so that ending it ends
 * whatever the shell started too: the Hub engines (hub/engine_player.c) and the DXP
 * engines dama starts (dxp/dxp_player.c). */
#ifndef DAMA_CHILD_PROCESS_H
#define DAMA_CHILD_PROCESS_H

#include <sys/types.h>

/* Starts command with io_fd as its stdin and stdout (stderr stays dama's); -1 when fork
 * fails. */
pid_t child_start(const char *command, int io_fd);
/* Gives the program wait_ms to exit, then kills its process group and reaps it. */
void child_end(pid_t pid, int wait_ms);

#endif
