/* Ctrl-C and SIGTERM as a flag: every long task (a search, a run of games, a fit, the
 * reading of a large file) polls it and stops cleanly instead of being killed. */
#ifndef DAMA_INTERRUPT_H
#define DAMA_INTERRUPT_H

#include <stdatomic.h>
#include <stdbool.h>

/* Installs SIGINT/SIGTERM handlers that only set the returned flag (and ignores SIGXFSZ, so
 * that a file size limit ends in a failed write that is reported). */
const atomic_bool *interrupt_flag(void);
/* interrupt_flag, with SIGINT and SIGTERM unblocked too: a process started with them
 * blocked (and one pending) still stops, at once. */
const atomic_bool *interrupt_flag_unblocked(void);
/* The same flag without installing the handlers: false for ever while none are installed
 * (then a signal's default action ends the process). */
const atomic_bool *interrupt_state(void);
/* Whether the handlers caught a signal. */
bool interrupt_requested(void);

#endif
