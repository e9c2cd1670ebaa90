/* Interruption end to end: SIGINT or SIGTERM during a long search ends the command with
 * exit 130, keeps the finished work and leaves valid output.
 *
 * The signal is sent once the process has installed its handler (SigCgt in /proc/PID/status)
 * and then burnt half a second of CPU: work that takes microseconds (reading the input, the
 * trivial positions) is then certainly done and the long search certainly running, so what
 * must be written is known exactly, whatever the speed of the machine.  The time from the
 * signal to the exit is printed; the test only bounds it (5 s) so that it cannot hang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store.h"
#include "test_util.h"
#include "test_csv.h"
#include "test_tmpdir.h"

#define CPU_BEFORE_SIGNAL_TICKS 50 /* clock ticks (1/100 s) of CPU burnt after the handler is set */
#define EXIT_DEADLINE_S 5.0

static char dir[64];

static int setup(void **state)
{
    (void)state;
    return test_tmpdir_make(dir, sizeof dir, "signals");
}

static int teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(dir);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Starts dama with argv (NULL-terminated, argv[0] ignored), stderr into DIR/err.txt. */
static pid_t spawn(char *const argv[])
{
    char err_path[128];
    snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int null = open("/dev/null", O_WRONLY);
        if (fd < 0 || null < 0 || dup2(fd, STDERR_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0)
            _exit(99);
        execv(test_dama_bin(), argv);
        _exit(98);
    }
    return pid;
}

/* CPU time (user + system, all threads) in clock ticks. */
static long cpu_ticks(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long utime, stime;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        return -1;
    return (long)(utime + stime);
}

/* Waits until pid catches sig and has then burnt CPU_BEFORE_SIGNAL_TICKS more of CPU. */
static void wait_until_busy(pid_t pid, int sig)
{
    double give_up = now() + 120;
    long from = -1;
    for (;;) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid)
            fail_msg("dama ended before the signal (status %d)", status);
        if (now() > give_up) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            fail_msg("dama never got busy");
        }
        if (from < 0 && test_catches_signal(pid, sig))
            from = cpu_ticks(pid);
        if (from >= 0 && cpu_ticks(pid) >= from + CPU_BEFORE_SIGNAL_TICKS)
            return;
        usleep(5000);
    }
}

/* Sends sig and returns the exit code; *seconds gets the time to the exit. */
static int interrupt(pid_t pid, int sig, double *seconds)
{
    double t0 = now();
    assert_int_equal(kill(pid, sig), 0);
    for (;;) {
        int status;
        pid_t got = waitpid(pid, &status, WNOHANG);
        *seconds = now() - t0;
        if (got == pid) {
            if (!WIFEXITED(status))
                fail_msg("dama did not exit (status %d)", status);
            return WEXITSTATUS(status);
        }
        if (*seconds > EXIT_DEADLINE_S) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            fail_msg("dama still ran %.1f s after the signal", *seconds);
        }
        usleep(1000);
    }
}

/* Sends sig, prints how fast dama ended (label), and checks the exit code is 130: the
 * stderr it wrote (caller frees). */
static char *expect_interrupted(pid_t pid, int sig, const char *label)
{
    double seconds;
    int code = interrupt(pid, sig, &seconds);
    printf("%s: exit %d %.3f s after %s\n", label, code, seconds, sig == SIGINT ? "SIGINT" : "SIGTERM");
    char err_path[128];
    snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
    char *err = test_read_file(err_path);
    assert_non_null(err);
    if (code != 130)
        fail_msg("exit %d, expected 130; stderr:\n%s", code, err);
    return err;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Two positions that end at once (one piece each: a draw; no piece to move: lost), the start
 * position at depth 40 (hours), one more quick one that is never reached. */
static const char *const batch =
    "W:Wa2:Bb3 ; one-each\n"
    "B:Wa2:B ; no-black-piece\n"
    "start ; deep\n"
    "B:Wa2:B ; after-the-deep-one\n";

static void test_batch_sigint_keeps_finished_rows(void **state)
{
    (void)state;
    char in[128], out[128];
    snprintf(in, sizeof in, "%s/batch.txt", dir);
    snprintf(out, sizeof out, "%s/batch.csv", dir);
    write_file(in, batch);
    char *argv[] = { "dama", "analyze", "--in", in, "--depth", "40", "--threads", "1",
                     "--out", out, NULL };
    pid_t pid = spawn(argv);
    wait_until_busy(pid, SIGINT);
    char *err = expect_interrupted(pid, SIGINT, "analyze --in");
    assert_non_null(strstr(err, "interrupted: wrote 2 of 4 positions"));
    free(err);
    /* a complete CSV: the header and the finished rows in input order, nothing else */
    Csv *c = csv_load(out);
    assert_int_equal(c->nrows, 3);
    assert_string_equal(c->rows[0][0], "item_id");
    assert_string_equal(csv_cell(c, 1, "item_id"), "one-each");
    assert_string_equal(csv_cell(c, 1, "score_text"), "0");
    assert_string_equal(csv_cell(c, 2, "item_id"), "no-black-piece");
    assert_string_equal(csv_cell(c, 2, "score_text"), "loss0");
    csv_release(c);
    /* the temporary file is gone */
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    assert_int_equal(access(tmp, F_OK), -1);
}

/* Ctrl-C during one position's search on two threads (Lazy SMP): the helper thread stops
 * with the main one, and analyze exits 130 with the last completed iteration's move. */
static void test_analyze_two_threads_sigint(void **state)
{
    (void)state;
    char *argv[] = { "dama", "analyze", "--depth", "40", "--threads", "2", NULL };
    pid_t pid = spawn(argv);
    wait_until_busy(pid, SIGINT);
    free(expect_interrupted(pid, SIGINT, "analyze --threads 2"));
}

static void test_selfplay_sigterm_keeps_a_valid_db(void **state)
{
    (void)state;
    char db[128];
    snprintf(db, sizeof db, "%s/sp.db", dir);
    char *argv[] = { "dama", "selfplay", "--db", db, "--nodes", "99999999999", "--games", "4",
                     "--threads", "1", NULL };
    pid_t pid = spawn(argv);
    wait_until_busy(pid, SIGTERM);
    free(expect_interrupted(pid, SIGTERM, "selfplay"));
    char err[256];
    Store *s = store_open(db, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    if (!store_check(s))
        fail_msg("%s: %s", db, store_error(s));
    store_close(s);
}

/* dama play thinking for hours (depth 40) as white: Ctrl-C ends it at once with 130, and
 * the unfinished game is not saved. */
static void test_play_sigint_while_dama_thinks(void **state)
{
    (void)state;
    char db[128];
    snprintf(db, sizeof db, "%s/play.db", dir);
    char *argv[] = { "dama", "play", "--color", "black", "--depth", "40", "--db", db, NULL };
    pid_t pid = spawn(argv);
    wait_until_busy(pid, SIGINT);
    char *err = expect_interrupted(pid, SIGINT, "play");
    assert_string_equal(err, "dama: interrupted: the game is unfinished and not saved\n");
    free(err);
    char why[256];
    Store *s = store_open(db, why, sizeof why);
    if (!s)
        fail_msg("%s", why);
    int64_t games;
    assert_true(store_count(s, "games", &games));
    assert_int_equal(games, 0);
    store_close(s);
}

/* Ctrl-C while an outside engine is being started and checked (it never answers `hub`):
 * exit 130, the engine's processes gone, no database made.  The signal goes once the engine
 * has started (it writes a file) and dama catches SIGINT. */
static void test_match_sigint_while_engine_starts(void **state)
{
    (void)state;
    char db[128], started[128], engine[512];
    snprintf(db, sizeof db, "%s/engine.db", dir);
    snprintf(started, sizeof started, "%s/engine-started", dir);
    snprintf(engine, sizeof engine, "echo $$ > %s.part && mv %s.part %s && exec sleep 60", started, started,
             started);
    char *argv[] = { "dama", "match", "--engine-a", engine, "--b", "default", "--games", "2", "--nodes", "100",
                     "--db", db, NULL };
    pid_t pid = spawn(argv);
    double give_up = now() + 60;
    while (access(started, F_OK) != 0 || !test_catches_signal(pid, SIGINT)) {
        if (now() > give_up || waitpid(pid, NULL, WNOHANG) == pid)
            fail_msg("the engine never started, or dama ended first");
        usleep(5000);
    }
    char *err = expect_interrupted(pid, SIGINT, "match while its engine starts");
    if (!strstr(err, "dama: interrupted while starting engine") || !strstr(err, "nothing was played"))
        fail_msg("stderr:\n%s", err);
    free(err);
    char *engine_pid = test_read_file(started);
    assert_non_null(engine_pid);
    int epid = atoi(engine_pid);
    free(engine_pid);
    assert_true(epid > 0);
    /* killed with its group when dama ended; init reaps it within moments */
    double gone_by = now() + 5;
    while (kill(epid, 0) == 0 && now() < gone_by)
        usleep(5000);
    assert_int_equal(kill(epid, 0), -1);
    assert_int_equal(access(db, F_OK), -1);
}

/* Writes PDN games into the FIFO at path until the reader goes away (a child process). */
static pid_t endless_games(const char *path)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        int fd = open(path, O_WRONLY);
        static const char game[] = "[Event \"again\"]\n1. c3-c4 d6-d5 *\n\n";
        while (fd >= 0 && write(fd, game, sizeof game - 1) > 0)
            ;
        _exit(0);
    }
    return pid;
}

/* pdn import reading a stream that never ends (busy), then one that gives nothing (waiting):
 * SIGTERM stops it within the second, exit 130, nothing of the file stored. */
static void test_pdn_import_sigterm_while_reading(void **state)
{
    (void)state;
    char fifo[128], db[128];
    snprintf(fifo, sizeof fifo, "%s/games.fifo", dir);
    snprintf(db, sizeof db, "%s/pdn.db", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t writer = endless_games(fifo);
    char *busy[] = { "dama", "pdn", "import", "--db", db, fifo, NULL };
    pid_t pid = spawn(busy);
    wait_until_busy(pid, SIGTERM);
    double seconds;
    int code = interrupt(pid, SIGTERM, &seconds);
    printf("pdn import of an endless stream: exit %d %.3f s after SIGTERM\n", code, seconds);
    assert_int_equal(code, 130);
    assert_true(seconds < 1.0);
    waitpid(writer, NULL, 0);
    char err_path[128];
    snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
    char *err = test_read_file(err_path);
    assert_non_null(err);
    assert_non_null(strstr(err, "interrupted: "));
    free(err);
    /* a writer that holds the FIFO open and writes nothing: dama waits, and still stops */
    int hold = open(fifo, O_RDWR);
    assert_true(hold >= 0);
    pid = spawn(busy);
    for (double until = now() + 60; !test_catches_signal(pid, SIGTERM); usleep(5000))
        if (now() > until)
            fail_msg("dama never set its handler");
    usleep(300000);
    code = interrupt(pid, SIGTERM, &seconds);
    printf("pdn import of a silent FIFO: exit %d %.3f s after SIGTERM\n", code, seconds);
    assert_int_equal(code, 130);
    assert_true(seconds < 1.0);
    close(hold);
    Store *s = store_open_readonly(db, (char[256]){ 0 }, 256);
    if (s) { /* the database may not even exist: no game was ever committed */
        int64_t n = -1;
        assert_true(store_count(s, "games", &n));
        assert_int_equal(n, 0);
        store_close(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_sigint_keeps_finished_rows),
        cmocka_unit_test(test_analyze_two_threads_sigint),
        cmocka_unit_test(test_selfplay_sigterm_keeps_a_valid_db),
        cmocka_unit_test(test_play_sigint_while_dama_thinks),
        cmocka_unit_test(test_match_sigint_while_engine_starts),
        cmocka_unit_test(test_pdn_import_sigterm_while_reading),
    };
    return cmocka_run_group_tests_name("signals", tests, setup, teardown);
}
