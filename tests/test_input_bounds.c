/* Every input has a bound (issue 20): each reader of a text input fed /dev/zero, a 1 GB
 * (sparse) file or an endless stream keeps its memory bounded, says which limit the input
 * passed (naming it), exits 2, and ends within a second of SIGTERM (exit 130; `dama hub`,
 * which catches no signal, is ended by it).  `dama pdn import` is the PDN reader's own
 * (tests/test_pdn.c).  Also: the bounded reader and line reader themselves, the Hub line
 * parser's bound, and --threads above the CPUs.
 *
 * The figures (max RSS of each run, the time from SIGTERM to the exit) are printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hub_line.h"
#include "line_reader.h"
#include "test_util.h"
#include "test_tmpdir.h"
#include "text_input.h"

#define MIB (1024L * 1024L)
#define STOP_WITHIN_S 1.0

static char dir[64], big[96], endless[96], idle[96], db_path[96];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(dir, sizeof dir, "bounds") != 0)
        return -1;
    /* 1 GB of zeros that take no disk */
    snprintf(big, sizeof big, "%s/big", dir);
    int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate(fd, 1L << 30) != 0 || close(fd) != 0)
        return -1;
    snprintf(endless, sizeof endless, "%s/endless", dir);
    snprintf(idle, sizeof idle, "%s/idle", dir);
    snprintf(db_path, sizeof db_path, "%s/sp.db", dir);
    return mkfifo(endless, 0644) == 0 && mkfifo(idle, 0644) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(dir);
}

/* ---- the bounded reader itself ---- */

static void write_bytes(const char *path, size_t n, char c)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fputc(c, f);
    assert_int_equal(fclose(f), 0);
}

static void test_read_limit_edges(void **state)
{
    (void)state;
    char path[128], err[256], *text;
    size_t len;
    snprintf(path, sizeof path, "%s/edge", dir);
    const TextLimit limit = { "a test file", 1000, NULL };
    write_bytes(path, 1000, 'a');
    assert_true(text_file_read(path, &limit, &text, &len, err, sizeof err));
    assert_int_equal(len, 1000);
    assert_int_equal(text[1000], '\0');
    free(text);
    write_bytes(path, 1001, 'a');
    assert_false(text_file_read(path, &limit, &text, &len, err, sizeof err));
    char expected[256];
    snprintf(expected, sizeof expected, "%s: larger than the 1000-byte limit of a test file", path);
    assert_string_equal(err, expected);
    assert_null(text);
    /* a limit in MiB is said in MiB; 0 is TEXT_FILE_MAX */
    const TextLimit mib = { "a test file", (size_t)MIB, NULL };
    assert_false(text_file_read("/dev/zero", &mib, &text, &len, err, sizeof err));
    assert_string_equal(err, "/dev/zero: larger than the 1 MiB limit of a test file");
    const TextLimit deflt = { "a test file", 0, NULL };
    double t0 = now();
    assert_false(text_file_read(big, &deflt, &text, &len, err, sizeof err));
    snprintf(expected, sizeof expected, "%s: larger than the 64 MiB limit of a test file", big);
    assert_string_equal(err, expected);
    assert_true(now() - t0 < 0.1); /* refused by its size, not read */
}

static atomic_bool stop_flag;

static void *set_stop_later(void *arg)
{
    (void)arg;
    usleep(150 * 1000);
    atomic_store(&stop_flag, true);
    return NULL;
}

/* A FIFO nobody writes: waited for, and left when the stop flag is set. */
static void test_read_stops_waiting(void **state)
{
    (void)state;
    atomic_store(&stop_flag, false);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, set_stop_later, NULL), 0);
    const TextLimit limit = { "a test file", 0, &stop_flag };
    char err[256], *text, expected[200];
    size_t len;
    double t0 = now();
    assert_false(text_file_read(idle, &limit, &text, &len, err, sizeof err));
    double took = now() - t0;
    pthread_join(t, NULL);
    snprintf(expected, sizeof expected, "%s: interrupted while reading", idle);
    assert_string_equal(err, expected);
    assert_true(took >= 0.15 && took < 0.15 + STOP_WITHIN_S);
}

static void *write_fifo_later(void *arg)
{
    usleep(100 * 1000);
    int fd = open(arg, O_WRONLY);
    if (fd >= 0) {
        (void)!write(fd, "start\n", 6);
        close(fd);
    }
    return NULL;
}

/* A FIFO whose writer comes later is read whole (it is not taken for an empty file). */
static void test_read_waits_for_writer(void **state)
{
    (void)state;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, write_fifo_later, idle), 0);
    const TextLimit limit = { "a test file", 0, NULL };
    char err[256], *text;
    size_t len;
    assert_true(text_file_read(idle, &limit, &text, &len, err, sizeof err));
    pthread_join(t, NULL);
    assert_string_equal(text, "start\n");
    free(text);
}

/* ---- the line reader and the Hub line ---- */

typedef struct Feeder {
    int fd;
    const char *head;  /* written first */
    char fill;         /* then this byte for ever (0: nothing more) */
    atomic_bool done;
} Feeder;

static void *feed(void *arg)
{
    Feeder *f = arg;
    if (f->head)
        (void)!write(f->fd, f->head, strlen(f->head));
    char chunk[4096];
    memset(chunk, f->fill, sizeof chunk);
    while (f->fill && !atomic_load(&f->done))
        if (write(f->fd, chunk, sizeof chunk) < 0)
            break;
    close(f->fd);
    return NULL;
}

/* A reader of a pipe that f feeds (from its own thread): f->fd is set. */
static void start_feeding(Feeder *f, LineReader *r, pthread_t *t)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    f->fd = p[1];
    assert_int_equal(pthread_create(t, NULL, feed, f), 0);
    line_reader_init(r, p[0]);
}

static void test_line_reader_bound(void **state)
{
    (void)state;
    /* a line of max bytes, one of max + 1, then a short one */
    char *text = malloc(2 * LINE_READER_MAX + 16);
    assert_non_null(text);
    memset(text, 'a', LINE_READER_MAX);
    text[LINE_READER_MAX] = '\n';
    memset(text + LINE_READER_MAX + 1, 'b', LINE_READER_MAX + 1);
    strcpy(text + 2 * LINE_READER_MAX + 2, "\nnext\n");
    Feeder f = { -1, text, 0, false };
    pthread_t t;
    LineReader r;
    start_feeding(&f, &r, &t);
    char *line;
    assert_int_equal(line_reader_next(&r, -1, &line), LINE_OK);
    assert_int_equal(strlen(line), LINE_READER_MAX);
    assert_int_equal(line_reader_next(&r, -1, &line), LINE_TOO_LONG);
    assert_int_equal(line_reader_next(&r, -1, &line), LINE_OK);
    assert_string_equal(line, "next");
    assert_int_equal(line_reader_next(&r, -1, &line), LINE_END);
    assert_true(r.cap <= 4 * LINE_READER_MAX);
    pthread_join(t, NULL);
    close(r.fd);
    line_reader_free(&r);
    free(text);
}

/* A line without end: LINE_TOO_LONG at once, then the time-out holds while bytes keep
 * coming (it used to read for ever). */
static void test_line_reader_endless(void **state)
{
    (void)state;
    Feeder f = { -1, NULL, 'x', false };
    pthread_t t;
    LineReader r;
    start_feeding(&f, &r, &t);
    char *line;
    assert_int_equal(line_reader_next(&r, -1, &line), LINE_TOO_LONG);
    double t0 = now();
    assert_int_equal(line_reader_next(&r, 100, &line), LINE_TIMEOUT);
    assert_true(now() - t0 < 1.0);
    assert_true(r.cap <= 4 * LINE_READER_MAX);
    atomic_store(&f.done, true);
    close(r.fd);
    pthread_join(t, NULL);
    line_reader_free(&r);
}

static void test_hub_line_bound(void **state)
{
    (void)state;
    char *text = malloc(HUB_LINE_MAX + 2);
    assert_non_null(text);
    memset(text, 'a', HUB_LINE_MAX);
    text[HUB_LINE_MAX] = '\0';
    HubLine line;
    char err[128];
    assert_true(hub_line_parse(&line, text, err, sizeof err));
    hub_line_free(&line);
    strcat(text, "a");
    assert_false(hub_line_parse(&line, text, err, sizeof err));
    assert_string_equal(err, "a line longer than 65536 bytes");
    hub_line_free(&line);
    free(text);
}

/* ---- every reader of dama, end to end ---- */

typedef struct Run {
    int status;      /* from waitpid */
    long rss_kb;     /* the process's max RSS */
    double stop_s;   /* from the signal to the exit (signal runs) */
    char err[2048];  /* its stderr */
} Run;

/* Starts dama with args (NULL-terminated), stdin from in (NULL: /dev/null), stdout to
 * /dev/null, stderr to DIR/err.txt. */
static pid_t start(const char *const args[], const char *in)
{
    char err_path[128];
    snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
    char *argv[24];
    int n = 0;
    argv[n++] = (char *)"dama";
    for (int i = 0; args[i] && n < 23; i++)
        argv[n++] = (char *)args[i];
    argv[n] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int o = open("/dev/null", O_WRONLY);
        int i = open(in ? in : "/dev/null", O_RDONLY);
        if (e < 0 || o < 0 || i < 0 || dup2(e, 2) < 0 || dup2(o, 1) < 0 || dup2(i, 0) < 0)
            _exit(99);
        execv(test_dama_bin(), argv);
        _exit(98);
    }
    return pid;
}

/* Waits for pid (at most limit_s, then kills it and fails): its status, RSS and stderr. */
static Run finish(pid_t pid, double limit_s, double t0)
{
    Run r = { 0 };
    struct rusage ru;
    for (;;) {
        pid_t got = wait4(pid, &r.status, WNOHANG, &ru);
        r.stop_s = now() - t0;
        if (got == pid)
            break;
        if (r.stop_s > limit_s) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            fail_msg("dama still ran %.1f s after %s", r.stop_s, t0 > 0 ? "the signal" : "its start");
        }
        usleep(2000);
    }
    r.rss_kb = ru.ru_maxrss;
    char err_path[128];
    snprintf(err_path, sizeof err_path, "%s/err.txt", dir);
    char *err = test_read_file(err_path);
    assert_non_null(err);
    snprintf(r.err, sizeof r.err, "%s", err);
    free(err);
    return r;
}

static int exit_code(const Run *r) { return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1; }

/* Runs dama to its end on input (a path named in args, or stdin): exit 2 with exactly the
 * message expected, RSS under max_mib. */
static void expect_refused(const char *label, const char *const args[], const char *in,
                           const char *expected, long max_mib)
{
    Run r = finish(start(args, in), 30, now());
    printf("%-28s exit %d  max RSS %5.1f MiB  %s", label, exit_code(&r), r.rss_kb / 1024.0, r.err);
    if (exit_code(&r) != 2 || strcmp(r.err, expected) != 0)
        fail_msg("%s: exit %d, said:\n%sexpected exit 2 and:\n%s", label, exit_code(&r), r.err, expected);
    if (!test_sanitized() && r.rss_kb > max_mib * 1024)
        fail_msg("%s: max RSS %ld KiB, more than %ld MiB", label, r.rss_kb, max_mib);
}

/* The file readers: the file in args is "@" (replaced by each input). */
typedef struct FileReader {
    const char *name;
    const char *args[12];
    const char *limit; /* "the 64 MiB limit of a positions file" */
    long max_mib;      /* RSS bound with /dev/zero */
} FileReader;

static const FileReader readers[] = {
    { "analyze --in (FEN)", { "analyze", "--in", "@", "--depth", "1", NULL },
      "the 64 MiB limit of a positions file", 100 },
    { "analyze --in (PDN)", { "analyze", "--in", "@", "--format", "pdn", "--depth", "1", NULL },
      "the 64 MiB limit of a PDN file", 100 },
    { "selfplay --openings", { "selfplay", "--db", db_path, "--openings", "@", "--games", "2", NULL },
      "the 8 MiB limit of an openings file", 40 },
    { "weights --check", { "weights", "--check", "@", NULL }, "the 64 MiB limit of a weights file", 100 },
    { "analyze --weights", { "analyze", "--fen", "start", "--weights", "@", "--depth", "1", NULL },
      "the 64 MiB limit of a weights file", 100 },
    { "tune --weights", { "tune", "--db", db_path, "--weights", "@", "--out", "/dev/null", NULL },
      "the 64 MiB limit of a weights file", 100 },
    { "play --weights", { "play", "--ascii", "--weights", "@", NULL }, "the 64 MiB limit of a weights file",
      100 },
};

static void with_input(const FileReader *r, const char *input, const char *args[12])
{
    for (int i = 0; i < 12; i++)
        args[i] = r->args[i] && strcmp(r->args[i], "@") == 0 ? input : r->args[i];
}

static void test_file_readers_refuse_zero_and_1gb(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++) {
        const FileReader *fr = &readers[i];
        const char *inputs[] = { "/dev/zero", big };
        for (int k = 0; k < 2; k++) {
            const char *args[12];
            with_input(fr, inputs[k], args);
            char expected[300], label[64];
            snprintf(expected, sizeof expected, "dama: %s: larger than %s\n", inputs[k], fr->limit);
            snprintf(label, sizeof label, "%s %s", fr->name, k ? "1 GB" : "/dev/zero");
            /* a file over the limit is refused by its size: nothing of it is read */
            expect_refused(label, args, NULL, expected, k ? 30 : fr->max_mib);
        }
    }
}

/* The line readers: a line from /dev/zero or the 1 GB file never ends. */
static void test_line_readers_refuse_zero_and_1gb(void **state)
{
    (void)state;
    const char *hub[] = { "hub", NULL }, *play[] = { "play", "--ascii", NULL };
    const char *inputs[] = { "/dev/zero", big };
    for (int k = 0; k < 2; k++) {
        char label[64];
        snprintf(label, sizeof label, "hub %s", k ? "1 GB" : "/dev/zero");
        expect_refused(label, hub, inputs[k],
                       "dama: standard input: a line longer than the 64 KiB limit of a Hub line\n", 30);
        snprintf(label, sizeof label, "play %s", k ? "1 GB" : "/dev/zero");
        expect_refused(label, play, inputs[k],
                       "dama: standard input: a line longer than the 64 KiB limit of a move or command\n",
                       30);
    }
}

/* Does pid hold path open (it is reading it)? */
static bool holds_open(pid_t pid, const char *path)
{
    for (int fd = 0; fd < 64; fd++) {
        char link[64], target[256];
        snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid, fd);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            if (strcmp(target, path) == 0)
                return true;
        }
    }
    return false;
}

/* A writer of zeros into the FIFO, 4 KiB every 5 ms, until killed: a /dev/zero that never
 * reaches the limit in the test's time. */
static pid_t start_zero_writer(const char *fifo)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(fifo, O_WRONLY);
        char chunk[4096] = { 0 };
        while (fd >= 0 && write(fd, chunk, sizeof chunk) > 0)
            usleep(5000);
        _exit(0);
    }
    return pid;
}

/* SIGTERM once pid reads path (and catches SIGTERM, when it is to) and has had 50 ms more;
 * the run's end. */
static Run terminate_while_reading(pid_t pid, const char *path, bool handler)
{
    double give_up = now() + 30;
    while (!holds_open(pid, path) || (handler && !test_catches_signal(pid, SIGTERM))) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid)
            fail_msg("dama ended before it read %s (status %d)", path, status);
        if (now() > give_up) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
            fail_msg("dama never opened %s", path);
        }
        usleep(2000);
    }
    usleep(50 * 1000);
    double t0 = now();
    assert_int_equal(kill(pid, SIGTERM), 0);
    return finish(pid, 10, t0);
}

/* code: the exit code expected, STOP_BY_SIGNAL (ended by SIGTERM itself) or STOP_ANYHOW. */
enum { STOP_BY_SIGNAL = -1, STOP_ANYHOW = -2 };
static void expect_stopped(const char *label, const Run *r, int code, const char *expected)
{
    printf("%-34s exit %3d  %.3f s after SIGTERM  max RSS %5.1f MiB\n", label,
           WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 128 + WTERMSIG(r->status), r->stop_s,
           r->rss_kb / 1024.0);
    if (code >= 0 && (exit_code(r) != code || (expected && strcmp(r->err, expected) != 0)))
        fail_msg("%s: exit %d, said:\n%sexpected exit %d and:\n%s", label, exit_code(r), r->err, code,
                 expected ? expected : "");
    if (code == STOP_BY_SIGNAL && !(WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGTERM))
        fail_msg("%s: status %d, expected the end by SIGTERM", label, r->status);
    if (r->stop_s > STOP_WITHIN_S)
        fail_msg("%s: %.3f s from SIGTERM to the end", label, r->stop_s);
}

/* Each file reader on a FIFO with no writer, then on one fed zeros without end: SIGTERM
 * ends it within a second, exit 130.  (They used to wait for ever, the signal caught and
 * never looked at.) */
static void test_file_readers_stop_on_sigterm(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++) {
        const FileReader *fr = &readers[i];
        const char *fifos[] = { idle, endless };
        for (int k = 0; k < 2; k++) {
            const char *args[12];
            with_input(fr, fifos[k], args);
            pid_t writer = k ? start_zero_writer(endless) : 0;
            Run r = terminate_while_reading(start(args, NULL), fifos[k], true);
            if (writer) {
                kill(writer, SIGKILL);
                waitpid(writer, NULL, 0);
            }
            char expected[200], label[80];
            snprintf(expected, sizeof expected, "dama: %s: interrupted while reading\n", fifos[k]);
            snprintf(label, sizeof label, "%s, %s", fr->name, k ? "endless zeros" : "no writer");
            expect_stopped(label, &r, 130, expected);
        }
    }
}

/* /dev/zero itself: SIGTERM as soon as the handler is there ends the reading (130) or comes
 * after the limit (2); within a second either way. */
static void test_dev_zero_sigterm(void **state)
{
    (void)state;
    const char *args[] = { "analyze", "--in", "/dev/zero", NULL };
    pid_t pid = start(args, NULL);
    while (!holds_open(pid, "/dev/zero")) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            /* read to the limit before we looked: the refusal stands */
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
            printf("analyze --in /dev/zero: refused before the signal\n");
            return;
        }
        usleep(200);
    }
    double t0 = now();
    kill(pid, SIGTERM);
    Run r = finish(pid, 10, t0);
    expect_stopped("analyze --in /dev/zero", &r, STOP_ANYHOW, NULL);
    assert_true(exit_code(&r) == 130 || exit_code(&r) == 2);
}

/* The line readers waiting on an idle input: play stops (130); hub, which catches no
 * signal, is ended by it. */
static void test_line_readers_stop_on_sigterm(void **state)
{
    (void)state;
    const char *hub[] = { "hub", NULL }, *play[] = { "play", "--ascii", NULL };
    int writer_fd = open(idle, O_RDWR); /* a writer that never writes: the FIFO stays idle */
    assert_true(writer_fd >= 0);
    Run r = terminate_while_reading(start(hub, idle), idle, false);
    expect_stopped("hub, idle input", &r, STOP_BY_SIGNAL, NULL);
    r = terminate_while_reading(start(play, idle), idle, true);
    expect_stopped("play, idle input", &r, 130, NULL);
    close(writer_fd);
}

/* ---- --threads ---- */

static void test_threads_lowered_to_the_cpus(void **state)
{
    (void)state;
    char fen[128], note[200], args[400];
    snprintf(fen, sizeof fen, "%s/one.fen", dir);
    FILE *f = fopen(fen, "w");
    assert_non_null(f);
    fputs("start\n", f);
    fclose(f);
    snprintf(note, sizeof note, "dama: --threads 1000: using %d, the number of CPUs (more threads only "
             "slow the work down)", omp_get_num_procs());
    snprintf(args, sizeof args, "analyze --in %s --depth 1 --threads 1000", fen);
    test_dama_expect(args, 0, note);
    snprintf(args, sizeof args, "selfplay --db %s/threads.db --games 2 --depth 1 --threads 1000", dir);
    test_dama_expect(args, 0, note);
    /* the CPUs this process may use, not those of the machine */
    if (test_shell(">/dev/null 2>&1", "taskset -c 0 true") != 0) {
        printf("taskset not available: the affinity case is skipped\n");
        return;
    }
    char redirect[200], out_path[160];
    snprintf(out_path, sizeof out_path, "%s/taskset.txt", dir);
    snprintf(redirect, sizeof redirect, ">%s 2>&1", out_path);
    assert_int_equal(test_shell(redirect, "taskset -c 0 %s analyze --in %s --depth 1 --threads 2", test_dama_bin(),
                                fen), 0);
    char *out = test_read_file(out_path);
    assert_non_null(out);
    if (!strstr(out, "dama: --threads 2: using 1, the number of CPUs"))
        fail_msg("taskset -c 0: no note of one CPU:\n%s", out);
    free(out);
    /* a count the CPUs allow passes without a word */
    test_dama_expect("analyze --fen start --depth 1", 0, NULL);
    snprintf(args, sizeof args, "analyze --in %s --depth 1 --threads 1", fen);
    char quiet[4096];
    assert_int_equal(test_dama_run(quiet, sizeof quiet, "%s", args), 0);
    assert_null(strstr(quiet, "--threads"));
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* the feeders write into pipes the readers close */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_limit_edges),
        cmocka_unit_test(test_read_stops_waiting),
        cmocka_unit_test(test_read_waits_for_writer),
        cmocka_unit_test(test_line_reader_bound),
        cmocka_unit_test(test_line_reader_endless),
        cmocka_unit_test(test_hub_line_bound),
        cmocka_unit_test(test_file_readers_refuse_zero_and_1gb),
        cmocka_unit_test(test_line_readers_refuse_zero_and_1gb),
        cmocka_unit_test(test_file_readers_stop_on_sigterm),
        cmocka_unit_test(test_dev_zero_sigterm),
        cmocka_unit_test(test_line_readers_stop_on_sigterm),
        cmocka_unit_test(test_threads_lowered_to_the_cpus),
    };
    return cmocka_run_group_tests_name("input bounds", tests, setup, teardown);
}
