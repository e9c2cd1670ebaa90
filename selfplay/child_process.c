/* Outside programs (child_process.h). */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child_process.h"

pid_t child_start(const char *command, int io_fd)
{
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0) /* also here, so a kill of the group cannot race the child's own call */
            setpgid(pid, pid);
        return pid;
    }
    /* only async-signal-safe calls here: other threads may hold locks */
    setpgid(0, 0);
    dup2(io_fd, STDIN_FILENO);
    dup2(io_fd, STDOUT_FILENO); /* dup2 clears close-on-exec on the copies */
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

void child_end(pid_t pid, int wait_ms)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t got;
    for (;;) {
        got = waitpid(pid, NULL, WNOHANG);
        clock_gettime(CLOCK_MONOTONIC, &now);
        long spent = (now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L;
        if (got != 0 || spent >= wait_ms)
            break;
        struct timespec ts = { 0, 5000000L };
        nanosleep(&ts, NULL);
    }
    kill(-pid, SIGKILL); /* whatever the shell left behind, even if it exited */
    if (got == 0)
        waitpid(pid, NULL, 0);
}
