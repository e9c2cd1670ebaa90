/* Small helpers shared by the test programs (cmocka is included by each test). */
#ifndef DAMA_TEST_UTIL_H
#define DAMA_TEST_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reads a whole file into a NUL-terminated buffer (caller frees); NULL on failure. */
static inline char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Writes text to the file at path, replacing it; false when it cannot be written. */
static inline bool test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    return (fclose(f) == 0) && ok;
}

/* The dama binary end-to-end tests drive (make sets DAMA_BIN). */
static inline const char *test_dama_bin(void)
{
    const char *b = getenv("DAMA_BIN");
    return b ? b : "bin/dama";
}

/* Runs `dama ARGS` (ARGS a printf format) with stderr folded into out; returns the exit
 * code, or -1 when it did not exit normally. */
static inline int test_dama_run(char *out, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int test_dama_run(char *out, size_t len, const char *fmt, ...)
{
    char args[1024], cmd[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", test_dama_bin(), args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Runs a shell command line (FMT a printf format) followed by redirect (e.g.
 * ">DIR/out.txt 2>&1"); returns its exit code, or -1 when it did not exit normally. */
static inline int test_shell(const char *redirect, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline int test_shell(const char *redirect, const char *fmt, ...)
{
    char cmd[2048], line[2600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s %s", cmd, redirect);
    int status = system(line);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Reads a child's pipe fd to its end into buf (NUL-terminated, cut to len - 1), closes
 * fd and waits for pid; returns its wait status, or -1 when waitpid fails. */
static inline int test_read_child(int fd, pid_t pid, char *buf, size_t len)
{
    size_t n = 0;
    ssize_t got;
    while (n + 1 < len && (got = read(fd, buf + n, len - 1 - n)) > 0)
        n += (size_t)got;
    buf[n] = '\0';
    close(fd);
    int status;
    return waitpid(pid, &status, 0) == pid ? status : -1;
}

#ifdef cmocka_unit_test /* for the tests that include cmocka.h first */
/* Runs `dama ARGS` and fails the test unless it exits with code and its output (stdout and
 * stderr) contains needle (NULL: anything). */
static inline void test_dama_expect(const char *args, int code, const char *needle)
{
    static char out[1 << 16];
    int got = test_dama_run(out, sizeof out, "%s", args);
    if (got != code)
        fail_msg("dama %s: exit %d, expected %d; output:\n%s", args, got, code, out);
    if (needle && !strstr(out, needle))
        fail_msg("dama %s: output lacks '%s':\n%s", args, needle, out);
}
#endif

/* Does process pid catch sig (its handler installed: SigCgt in /proc/PID/status)? */
static inline bool test_catches_signal(pid_t pid, int sig)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    unsigned long long mask = 0;
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "SigCgt: %llx", &mask) == 1;
    fclose(f);
    return found && (mask >> (sig - 1) & 1);
}

/* True under the sanitizer build: deep perfts are cut to keep the suite short. */
static inline int test_sanitized(void) { return getenv("DAMA_SANITIZE") != NULL; }

#endif
