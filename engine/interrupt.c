/* The process's one piece of signal state: set by the handler, read by every worker. */
#include <signal.h>
#include <string.h>

#include "interrupt.h"

static atomic_bool interrupted;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&interrupted, true);
}

const atomic_bool *interrupt_flag(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A file size limit (ulimit -f) must end in a failed write that is reported, not in
     * a killed process. */
    signal(SIGXFSZ, SIG_IGN);
    return &interrupted;
}

const atomic_bool *interrupt_state(void) { return &interrupted; }

bool interrupt_requested(void) { return atomic_load(&interrupted); }

const atomic_bool *interrupt_flag_unblocked(void)
{
    const atomic_bool *stop = interrupt_flag();
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    return stop;
}
