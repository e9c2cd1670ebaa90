/* `dama serve` as a child process for the tests (test_serve, test_serve_limits): started
 * with --port and a scratch database and web folder in dir, its URL read from the first
 * line it prints; and the JSON API called over a socket (tests/http_client.h).  Include
 * after cmocka.h. */
#ifndef DAMA_TEST_SERVE_PROCESS_H
#define DAMA_TEST_SERVE_PROCESS_H

#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http_client.h"
#include "test_util.h"

#define SERVE_START_DEADLINE_MS 20000
#define SERVE_ARGS_MAX 16

static inline double serve_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* DIR/web/index.html (titled title) for --web, and DIR/secret.txt beside it, which no
 * request may ever read: 0, or -1. */
static inline int serve_make_folders(const char *dir, const char *title)
{
    char path[160];
    snprintf(path, sizeof path, "%s/web", dir);
    if (mkdir(path, 0755) != 0)
        return -1;
    static const char *const files[][2] = { { "%s/web/index.html", "<!doctype html><title>%s</title>\n" },
                                            { "%s/secret.txt", "SECRET-OUTSIDE-WEB\n" } };
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, files[i][0], dir);
        FILE *f = fopen(path, "w");
        if (!f || fprintf(f, files[i][1], title) < 0 || fclose(f) != 0)
            return -1;
    }
    return 0;
}

/* Starts `dama serve --port P --db DIR/serve.db --web DIR/web EXTRA...` (extra: NULL or
 * NULL-terminated) with stdout on a pipe and stderr in DIR/serve-err-P.txt; *out_fd gets
 * the pipe's reading end. */
static inline pid_t serve_spawn(const char *dir, const char *port_text,
                                const char *const *extra, int *out_fd)
{
    char db[128], web[128], err[128];
    snprintf(db, sizeof db, "%s/serve.db", dir);
    snprintf(web, sizeof web, "%s/web", dir);
    snprintf(err, sizeof err, "%s/serve-err-%s.txt", dir, port_text);
    const char *argv[SERVE_ARGS_MAX + 10] = { test_dama_bin(), "serve", "--port", port_text,
                                              "--db", db, "--web", web };
    int argc = 8;
    for (int i = 0; extra && extra[i] && i < SERVE_ARGS_MAX; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 || dup2(fds[1], STDOUT_FILENO) < 0)
            _exit(99);
        close(fds[0]);
        execv(argv[0], (char *const *)argv);
        _exit(98);
    }
    close(fds[1]);
    *out_fd = fds[0];
    return pid;
}

/* Reads fd up to the first newline (or EOF, or the deadline) into line. */
static inline void serve_read_line(int fd, char *line, size_t len)
{
    size_t n = 0;
    double give_up = serve_now() + SERVE_START_DEADLINE_MS / 1000.0;
    line[0] = '\0';
    while (n + 1 < len && serve_now() < give_up) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        if (poll(&p, 1, 100) <= 0)
            continue;
        ssize_t got = read(fd, line + n, 1);
        if (got <= 0 || line[n] == '\n')
            break;
        n++;
    }
    line[n] = '\0';
}

static inline void serve_kill(pid_t pid)
{
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
}

/* Starts the server on a free port: its pid with *port set, or -1 (it said nothing
 * usable, and is killed). */
static inline pid_t serve_start(const char *dir, const char *const *extra, int *port)
{
    int fd;
    pid_t pid = serve_spawn(dir, "0", extra, &fd);
    if (pid < 0)
        return -1;
    char line[256];
    serve_read_line(fd, line, sizeof line);
    close(fd);
    printf("server: %s\n", line);
    if (sscanf(line, "serving http://127.0.0.1:%d/", port) != 1 || *port <= 0) {
        serve_kill(pid);
        fprintf(stderr, "dama serve did not print its URL: '%s'\n", line);
        return -1;
    }
    return pid;
}

/* method path body → the reply's JSON, which must come with status (fails otherwise). */
static inline json_t *serve_api(int port, const char *method, const char *path, const char *body,
                                int status)
{
    HttpResponse r = http_request(port, method, path, body);
    if (r.status != status)
        fail_msg("%s %s: status %d, expected %d; body: %s", method, path, r.status, status,
                 r.body ? r.body : "(none)");
    char type[128];
    http_header(&r, "Content-Type", type, sizeof type);
    if (strcmp(type, "application/json") != 0)
        fail_msg("%s %s: Content-Type '%s'", method, path, type);
    json_error_t err;
    json_t *j = json_loads(r.body, 0, &err);
    if (!j)
        fail_msg("%s %s: not JSON (%s): %s", method, path, err.text, r.body);
    http_response_free(&r);
    return j;
}

#endif
