/* `dama hub` end to end: the engine is started with pipes and driven line by line, as a GUI
 * would; every read has a timeout, so a hang fails the test instead of blocking it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hub_line.h"
#include "hub_text.h"
#include "line_reader.h"
#include "move.h"
#include "position.h"
#include "search.h"
#include "test_util.h"
#include "variant.h"

/* Long enough for the sanitizer build on a busy machine; a hang still fails. */
#define READ_TIMEOUT_MS 20000

typedef struct Engine {
    pid_t pid;
    int to;          /* its stdin */
    LineReader from; /* its stdout */
    char last[1 << 14];
} Engine;

/* dama hub with these extra arguments (NULL-terminated, at most 6). */
static void engine_start_with(Engine *e, const char *const *args)
{
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    e->pid = fork();
    assert_true(e->pid >= 0);
    if (e->pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        const char *argv[10] = { test_dama_bin(), "hub", "--hash", "8" };
        for (int i = 0; args[i] && i < 6; i++)
            argv[4 + i] = args[i];
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->to = in[1];
    line_reader_init(&e->from, out[0]);
    signal(SIGPIPE, SIG_IGN);
}

static void engine_start(Engine *e, const char *variant)
{
    const char *args[] = { variant ? "--variant" : NULL, variant, NULL };
    engine_start_with(e, args);
}

static void engine_send(Engine *e, const char *line)
{
    size_t n = strlen(line);
    assert_int_equal(write(e->to, line, n), (ssize_t)n);
    assert_int_equal(write(e->to, "\n", 1), 1);
}

/* The next line into e->last; fails on a timeout or the end of output. */
static const char *engine_line(Engine *e, int timeout_ms)
{
    char *line;
    int got = line_reader_next(&e->from, timeout_ms, &line);
    if (got == LINE_TIMEOUT)
        fail_msg("no line from dama hub within %d ms", timeout_ms);
    if (got == LINE_END)
        fail_msg("dama hub ended its output");
    snprintf(e->last, sizeof e->last, "%s", line);
    return e->last;
}

static bool starts(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && (line[n] == ' ' || line[n] == '\0');
}

/* Reads lines up to the first whose command is word, skipping info lines only; returns it.
 * *last_info gets the last info line seen (when not NULL). */
static const char *engine_expect(Engine *e, const char *word, char *last_info, size_t len)
{
    for (;;) {
        const char *line = engine_line(e, READ_TIMEOUT_MS);
        if (starts(line, word))
            return line;
        if (!starts(line, "info"))
            fail_msg("expected '%s', got '%s'", word, line);
        if (last_info)
            snprintf(last_info, len, "%s", line);
    }
}

/* No line (other than info) comes within ms. */
static void engine_quiet(Engine *e, int ms)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        int left = ms - (int)((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
        if (left <= 0)
            return;
        char *line;
        int got = line_reader_next(&e->from, left, &line);
        if (got == LINE_TIMEOUT)
            return;
        if (got == LINE_END)
            fail_msg("dama hub ended its output");
        if (!starts(line, "info"))
            fail_msg("expected nothing yet, got '%s'", line);
    }
}

/* Waits for the process to end (at most ms); returns its exit code. */
static int engine_wait(Engine *e, int ms)
{
    int status;
    for (int waited = 0; waited <= ms; waited += 10) {
        pid_t r = waitpid(e->pid, &status, WNOHANG);
        if (r == e->pid) {
            close(e->to);
            line_reader_free(&e->from);
            close(e->from.fd);
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        struct timespec ten = { 0, 10 * 1000000 };
        nanosleep(&ten, NULL);
    }
    kill(e->pid, SIGKILL);
    waitpid(e->pid, &status, 0);
    fail_msg("dama hub did not end within %d ms", ms);
    return -1;
}

static void engine_quit(Engine *e)
{
    engine_send(e, "quit");
    assert_int_equal(engine_wait(e, READ_TIMEOUT_MS), 0);
}

/* hub: id, the parameters, wait. */
static void engine_hello(Engine *e)
{
    engine_send(e, "hub");
    engine_expect(e, "id", NULL, 0);
    for (;;) {
        const char *line = engine_line(e, READ_TIMEOUT_MS);
        if (starts(line, "wait"))
            break;
        assert_true(starts(line, "param"));
    }
}

/* Start-up: id, the parameters, wait; threads search threads; init, ready. */
static void engine_init_threads(Engine *e, const char *variant, int threads)
{
    engine_start(e, variant);
    engine_hello(e);
    if (threads > 1) {
        char line[64];
        snprintf(line, sizeof line, "set-param name=threads value=%d", threads);
        engine_send(e, line);
    }
    engine_send(e, "init");
    engine_expect(e, "ready", NULL, 0);
}

static void engine_init(Engine *e, const char *variant)
{
    engine_init_threads(e, variant, 1);
}

/* The machine's cores, which bound the threads parameter. */
static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (int)n;
}

/* Two search threads where the machine has two cores (else one: nothing more to test). */
static int two_threads(void)
{
    return cores() >= 2 ? 2 : 1;
}

/* The value of argument name of a line (a copy in buf). */
static const char *arg_of(const char *line, const char *name, char *buf, size_t len)
{
    HubLine l;
    char err[256];
    if (!hub_line_parse(&l, line, err, sizeof err))
        fail_msg("'%s': %s", line, err);
    const char *v = hub_line_value(&l, name);
    if (!v)
        fail_msg("'%s' has no %s", line, name);
    snprintf(buf, len, "%s", v);
    hub_line_free(&l);
    return buf;
}

/* The done line's move is legal in the start position of v. */
static void expect_legal_start_move(const Variant *v, const char *done)
{
    char move[128], err[256];
    arg_of(done, "move", move, sizeof move);
    Position start;
    v->start(&start);
    Rules rules = rules_default(v);
    Move m;
    if (!hub_move_from_text(v, &start, &rules, move, &m, err, sizeof err))
        fail_msg("done move '%s': %s", move, err);
}

static void test_startup(void **state)
{
    (void)state;
    Engine e;
    engine_start(&e, NULL);
    engine_send(&e, "hub");
    const char *id = engine_expect(&e, "id", NULL, 0);
    assert_non_null(strstr(id, "name=dama"));
    bool variant = false, hash = false, threads = false;
    char threads_line[96];
    snprintf(threads_line, sizeof threads_line, "name=threads value=1 type=int min=1 max=%d", cores());
    for (;;) {
        const char *line = engine_line(&e, READ_TIMEOUT_MS);
        if (starts(line, "wait"))
            break;
        assert_true(starts(line, "param"));
        variant |= strstr(line, "name=variant value=turkish type=enum values=\"international normal standard turkish") != NULL;
        hash |= strstr(line, "name=hash") != NULL;
        threads |= strstr(line, threads_line) != NULL;
    }
    assert_true(variant && hash && threads);
    engine_send(&e, "set-param name=hash value=4");
    /* threads: 1 to the cores */
    engine_send(&e, "set-param name=threads value=0");
    assert_non_null(strstr(engine_expect(&e, "error", NULL, 0), "threads"));
    char too_many[64];
    snprintf(too_many, sizeof too_many, "set-param name=threads value=%d", cores() + 1);
    engine_send(&e, too_many);
    assert_non_null(strstr(engine_expect(&e, "error", NULL, 0), "threads"));
    engine_send(&e, "set-param name=threads value=two");
    engine_expect(&e, "error", NULL, 0);
    /* a weights file that does not read: two errors (the file, the fallback), then ready */
    engine_send(&e, "set-param name=weights value=\"/nonexistent/w.txt\"");
    engine_send(&e, "init");
    assert_non_null(strstr(engine_expect(&e, "error", NULL, 0), "/nonexistent/w.txt"));
    assert_non_null(strstr(engine_expect(&e, "error", NULL, 0), "built-in weights"));
    engine_expect(&e, "ready", NULL, 0);
    engine_send(&e, "ping");
    engine_expect(&e, "pong", NULL, 0);
    engine_quit(&e);
}

/* --threads N sets the threads parameter's default (what `hub` announces); 0 and more
 * than the cores are refused before the session starts (exit 2). */
static void test_threads_option(void **state)
{
    (void)state;
    char n[16], line[96];
    snprintf(n, sizeof n, "%d", two_threads());
    Engine e;
    const char *args[] = { "--threads", n, NULL };
    engine_start_with(&e, args);
    engine_send(&e, "hub");
    engine_expect(&e, "id", NULL, 0);
    snprintf(line, sizeof line, "name=threads value=%d type=int", two_threads());
    bool announced = false;
    for (;;) {
        const char *got = engine_line(&e, READ_TIMEOUT_MS);
        if (starts(got, "wait"))
            break;
        announced |= strstr(got, line) != NULL;
    }
    assert_true(announced);
    engine_quit(&e);
    const char *zero[] = { "--threads", "0", NULL };
    engine_start_with(&e, zero);
    assert_int_equal(engine_wait(&e, READ_TIMEOUT_MS), 2);
}

/* One search by each kind of limit, each ending in done with a legal move. */
static void limits_of(const Variant *v, const char *name, int threads)
{
    Engine e;
    engine_init_threads(&e, name, threads);
    static const char *const levels[] = {
        "level depth=3", "level nodes=5000", "level move-time=0.05", "level time=1 inc=0.1",
        "level moves=2 time=0.2",
    };
    char info[1 << 14], depth[16];
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        engine_send(&e, "pos start");
        engine_send(&e, levels[i]);
        engine_send(&e, "go think");
        info[0] = '\0';
        const char *done = engine_expect(&e, "done", info, sizeof info);
        expect_legal_start_move(v, done);
        assert_non_null(strstr(info, "pv="));
        if (i == 0)
            assert_string_equal(arg_of(info, "depth", depth, sizeof depth), "3");
    }
    engine_quit(&e);
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Each kind of clock bounds the time a move takes (engine/time_manager.c): a fixed
 * move-time is used nearly whole; a clock gives one move a share of it, never the whole
 * clock.  The upper bounds leave a second for a loaded machine, still far below what a
 * manager spending the clock on one move would take. */
static void test_time_per_move_by_clock(void **state)
{
    (void)state;
    static const struct { const char *level; double least, most; } cases[] = {
        { "level move-time=0.5", 0.35, 1.5 },
        { "level time=4", 0, 1.5 },                /* 30 moves to go: at most 0.38 s */
        { "level time=20 moves=40", 0, 2.5 },      /* at most 1.5 s */
        { "level time=3 inc=0.1", 0, 1.3 },        /* at most 0.53 s */
    };
    Engine e;
    engine_init(&e, NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_send(&e, "pos start");
        engine_send(&e, cases[i].level);
        double t0 = seconds_now();
        engine_send(&e, "go think");
        engine_expect(&e, "done", NULL, 0);
        double took = seconds_now() - t0;
        if (took < cases[i].least || took > cases[i].most)
            fail_msg("%s: the move took %.3f s, expected %.2f to %.2f", cases[i].level, took,
                     cases[i].least, cases[i].most);
    }
    engine_quit(&e);
}

static void test_limits_turkish(void **state)
{
    (void)state;
    limits_of(&turkish_variant, NULL, 1);
}

static void test_limits_international(void **state)
{
    (void)state;
    limits_of(&international_variant, "international", 1);
}

/* The same with two search threads (Lazy SMP): every limit still ends in a legal move. */
static void test_limits_two_threads(void **state)
{
    (void)state;
    limits_of(&turkish_variant, NULL, two_threads());
    limits_of(&international_variant, "international", two_threads());
}

/* A new engine searching the start of variant under level with go (think, ponder, analyze). */
static void start_search(Engine *e, const char *variant, int threads, const char *level, const char *go)
{
    engine_init_threads(e, variant, threads);
    engine_send(e, "pos start");
    engine_send(e, level);
    engine_send(e, go);
}

/* An infinite search answers ping at once and only gives done after stop. */
static void infinite_ping_stop(int threads)
{
    Engine e;
    start_search(&e, NULL, threads, "level infinite", "go think");
    engine_send(&e, "ping");
    engine_expect(&e, "pong", NULL, 0);
    engine_quiet(&e, 200);
    engine_send(&e, "stop");
    expect_legal_start_move(&turkish_variant, engine_expect(&e, "done", NULL, 0));
    engine_quit(&e);
}

/* go analyze runs until stop, even on an easy position; ping is answered meanwhile. */
static void analyze_stop(int threads)
{
    Engine e;
    start_search(&e, "international", threads, "level depth=2", "go analyze");
    engine_quiet(&e, 200);
    engine_send(&e, "ping");
    engine_expect(&e, "pong", NULL, 0);
    engine_send(&e, "stop");
    expect_legal_start_move(&international_variant, engine_expect(&e, "done", NULL, 0));
    engine_quit(&e);
}

/* go ponder gives done only after ponder-hit (then within its move time) or stop. */
static void ponder(int threads)
{
    Engine e;
    start_search(&e, NULL, threads, "level move-time=0.05", "go ponder");
    engine_quiet(&e, 300);
    engine_send(&e, "ponder-hit");
    expect_legal_start_move(&turkish_variant, engine_expect(&e, "done", NULL, 0));
    engine_quit(&e);
}

static void test_infinite_ping_stop(void **state)
{
    (void)state;
    infinite_ping_stop(1);
}

static void test_analyze_stop(void **state)
{
    (void)state;
    analyze_stop(1);
}

static void test_ponder(void **state)
{
    (void)state;
    ponder(1);
}

/* With two search threads, stop and ponder-hit end the search as with one: the helper
 * threads stop with the main one (a helper left running would hold done back). */
static void test_stop_and_ponder_two_threads(void **state)
{
    (void)state;
    infinite_ping_stop(two_threads());
    analyze_stop(two_threads());
    ponder(two_threads());
}

/* A line that cannot be read gets an error and the engine goes on; so do bad values, a
 * bad move in pos, and unknown commands (ignored). */
static void test_malformed_lines(void **state)
{
    (void)state;
    Engine e;
    engine_init(&e, NULL);
    static const char *const bad[] = {
        "pos moves=\"c3-c4", "level depth=abc", "pos pos=Wbbb", "pos start moves=\"c3-c4 a1-a2\"",
        "level move-time=-1", "go think",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        engine_send(&e, bad[i]);
        const char *line = engine_expect(&e, "error", NULL, 0);
        assert_non_null(strstr(line, "message="));
    }
    engine_send(&e, "frobnicate now");
    engine_send(&e, "ping");
    engine_expect(&e, "pong", NULL, 0);
    engine_send(&e, "pos start moves=\"c3-c4\"");
    engine_send(&e, "level depth=2");
    engine_send(&e, "go think");
    engine_expect(&e, "done", NULL, 0);
    engine_quit(&e);
}

/* The end of input ends the engine at once, even in the middle of an infinite search. */
static void test_end_of_input(void **state)
{
    (void)state;
    Engine e;
    start_search(&e, "international", 1, "level infinite", "go think");
    engine_send(&e, "ping");
    engine_expect(&e, "pong", NULL, 0);
    close(e.to);
    e.to = open("/dev/null", O_WRONLY); /* engine_wait closes it */
    assert_int_equal(engine_wait(&e, 5000), 0);
}

/* The history of pos: White's only move, M, brings back for the third time the position
 * after it (the moves replay the cycle M, b, M', b' twice), so with the history the search
 * scores a draw, 0.00, where the position alone is lost (Black has far more).  Found with
 * the generator: the white king has exactly one move in Q0. */
static void repetition_of(const char *variant, const char *q1, const char *q0, const char *moves,
                          const char *only_move)
{
    Engine e;
    engine_init(&e, variant);
    char line[512], info[1024], score[32], move[64];
    engine_send(&e, "level depth=4");
    snprintf(line, sizeof line, "pos pos=%s moves=\"%s\"", q1, moves);
    engine_send(&e, line);
    engine_send(&e, "go think");
    const char *done = engine_expect(&e, "done", info, sizeof info);
    assert_string_equal(arg_of(done, "move", move, sizeof move), only_move);
    assert_string_equal(arg_of(info, "score", score, sizeof score), "0.00");

    snprintf(line, sizeof line, "pos pos=%s", q0);
    engine_send(&e, line);
    engine_send(&e, "go think");
    done = engine_expect(&e, "done", info, sizeof info);
    assert_string_equal(arg_of(done, "move", move, sizeof move), only_move);
    double s = atof(arg_of(info, "score", score, sizeof score));
    if (!(s < -1.0))
        fail_msg("without the history the position is lost, yet it scores %s", score);
    engine_quit(&e);
}

static void test_repetition_turkish(void **state)
{
    (void)state;
    /* Q0 = W:WKh7:BKb5,f5,h5,Kb6,h6,f7,g7 */
    repetition_of(NULL, "BeeeeeeeWeeeeebbeeBeeeeebeBeeebebeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                  "WeeeeeeeeeeeeebbWeBeeeeebeBeeebebeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                  "b5-c5 h8-h7 c5-b5 h7-h8 b5-c5 h8-h7 c5-b5", "h7-h8");
}

static void test_repetition_international(void **state)
{
    (void)state;
    /* Q0 = W:WK6:B11,14,15,K17 */
    repetition_of("international", "BWeeeeeeeeebeebbeBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                  "WeeeeeWeeeebeebbeBeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                  "17-8 1-6 8-17 6-1 17-8 1-6 8-17", "6-1");
}

/* An International GUI speaking Scan's names: `variant=normal` (and lidraughts' `standard`)
 * makes the engine play International: the start position in Hub text is read and a legal
 * International move comes back. */
static void test_variant_normal_plays_international(void **state)
{
    (void)state;
    static const char *const names[] = { "normal", "standard" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        Engine e;
        engine_start(&e, NULL); /* turkish by default */
        engine_hello(&e);
        char line[128];
        snprintf(line, sizeof line, "set-param name=variant value=%s", names[i]);
        engine_send(&e, line);
        engine_send(&e, "init");
        engine_expect(&e, "ready", NULL, 0);
        engine_send(&e, "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
        engine_send(&e, "level depth=2");
        engine_send(&e, "go think");
        expect_legal_start_move(&international_variant, engine_expect(&e, "done", NULL, 0));
        engine_quit(&e);
    }
}

/* A variant dama does not play (Scan's frisian) or does not know is an error, and until a
 * variant dama plays is set the engine plays no game at all: init, pos and go answer with
 * an error, not with a Turkish move. */
static void test_refused_variant_plays_nothing(void **state)
{
    (void)state;
    Engine e;
    engine_init(&e, NULL);
    engine_send(&e, "set-param name=variant value=frisian");
    assert_non_null(strstr(engine_expect(&e, "error", NULL, 0), "does not play the variant 'frisian'"));
    engine_send(&e, "set-param name=variant value=chess");
    assert_non_null(strstr(engine_expect(&e, "error", NULL, 0), "unknown variant 'chess'"));
    static const char *const refused[] = { "init", "pos start", "go think" };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        engine_send(&e, refused[i]);
        assert_non_null(strstr(engine_expect(&e, "error", NULL, 0), "'chess' was refused"));
    }
    engine_send(&e, "set-param name=variant value=turkish");
    engine_send(&e, "init");
    engine_expect(&e, "ready", NULL, 0);
    engine_send(&e, "pos start");
    engine_send(&e, "level depth=2");
    engine_send(&e, "go think");
    expect_legal_start_move(&turkish_variant, engine_expect(&e, "done", NULL, 0));
    engine_quit(&e);
}

/* The International Hub text of a position: side, then the pieces at their squares. */
static void intl_position(char *buf, char side, const int *white, const int *black)
{
    buf[0] = side;
    memset(buf + 1, 'e', 50);
    buf[51] = '\0';
    for (; *white; white++)
        buf[*white] = 'w';
    for (; *black; black++)
        buf[*black] = 'b';
}

/* The score of the last info line of a depth-4 search of the International position text. */
static double searched_score(Engine *e, const char *pos, char *score, size_t len)
{
    char line[128], info[1 << 14];
    snprintf(line, sizeof line, "pos pos=%s", pos);
    engine_send(e, line);
    engine_send(e, "level depth=4");
    engine_send(e, "go think");
    engine_expect(e, "done", info, sizeof info);
    return atof(arg_of(info, "score", score, len));
}

/* Results on Scan's scale, where a score beyond +-90 men is a result: White to move takes
 * Black's last man (a win in 1 ply: 99.99); Black to move must give its last man away (a
 * loss in 2 plies: -99.98); an ordinary position stays inside +-90. */
static void test_win_scores_scan_scale(void **state)
{
    (void)state;
    Engine e;
    engine_init(&e, "international");
    char pos[64], score[32];
    intl_position(pos, 'W', (const int[]){ 28, 0 }, (const int[]){ 23, 0 });
    assert_true(searched_score(&e, pos, score, sizeof score) > 90);
    assert_string_equal(score, "99.99");
    intl_position(pos, 'B', (const int[]){ 32, 33, 34, 0 }, (const int[]){ 23, 0 });
    assert_true(searched_score(&e, pos, score, sizeof score) < -90);
    assert_string_equal(score, "-99.98");
    double s = searched_score(&e, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", score, sizeof score);
    assert_true(s > -90 && s < 90);
    engine_quit(&e);
}

/* --weights takes the names match takes: best, default and material, and a file; a missing
 * file is still refused (exit 2). */
static void test_weights_names(void **state)
{
    (void)state;
    static const char *const names[] = { "best", "default", "material" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        Engine e;
        const char *args[] = { "--weights", names[i], NULL };
        engine_start_with(&e, args);
        engine_hello(&e);
        engine_send(&e, "init");
        engine_expect(&e, "ready", NULL, 0);
        engine_quit(&e);
    }
    Engine e;
    const char *args[] = { "--weights", "/nonexistent/best", NULL };
    engine_start_with(&e, args);
    assert_int_equal(engine_wait(&e, READ_TIMEOUT_MS), 2);
}

/* The score scale by itself: evaluations clamped inside +-89.99, results at 100 - n/100,
 * where pydraughts reads int(score * 100) beyond +-9000 as a win in ceil((10000 - |s|) / 2)
 * moves. */
static void test_score_text(void **state)
{
    (void)state;
    char buf[16];
    assert_string_equal(hub_score_to_text(0, buf, sizeof buf), "0.00");
    assert_string_equal(hub_score_to_text(-1, buf, sizeof buf), "-0.01");
    assert_string_equal(hub_score_to_text(1234, buf, sizeof buf), "12.34");
    assert_string_equal(hub_score_to_text(SCORE_WIN_BOUND, buf, sizeof buf), "89.99"); /* an evaluation */
    assert_string_equal(hub_score_to_text(-SCORE_WIN_BOUND, buf, sizeof buf), "-89.99");
    assert_string_equal(hub_score_to_text(SCORE_WIN - 1, buf, sizeof buf), "99.99");
    assert_string_equal(hub_score_to_text(-(SCORE_WIN - 2), buf, sizeof buf), "-99.98");
    assert_string_equal(hub_score_to_text(SCORE_WIN - 95, buf, sizeof buf), "99.05");
    /* the longest forced result dama can see still reads as one */
    assert_true(atof(hub_score_to_text(SCORE_WIN - MAX_PLY, buf, sizeof buf)) > 90);
    assert_true(atof(hub_score_to_text(SCORE_WIN_BOUND + 1, buf, sizeof buf)) > 90);
    assert_true(atof(hub_score_to_text(-(SCORE_WIN_BOUND + 1), buf, sizeof buf)) < -90);

    char err[256];
    assert_ptr_equal(hub_variant_by_name("normal", err, sizeof err), &international_variant);
    assert_ptr_equal(hub_variant_by_name("standard", err, sizeof err), &international_variant);
    assert_ptr_equal(hub_variant_by_name("international", err, sizeof err), &international_variant);
    assert_ptr_equal(hub_variant_by_name("turkish", err, sizeof err), &turkish_variant);
    assert_null(hub_variant_by_name("losing", err, sizeof err));
    assert_non_null(strstr(err, "does not play the variant 'losing'"));
    assert_null(hub_variant_by_name("Normal", err, sizeof err)); /* names are exact, as Scan's */
    assert_non_null(strstr(err, "unknown variant 'Normal'"));
}

/* An engine's scores read back (what `dama match` records of an outside engine and
 * adjudicates by): dama's own texts give the searcher's scores again, results included;
 * other engines' forms (Scan's "1.5", more decimals, a plus sign) by the same scale; what is
 * no score is refused and leaves the value alone. */
static void test_score_from_text(void **state)
{
    (void)state;
    const int scores[] = { 0, 1, -1, 35, -35, 100, 1234, -1234, 8999, -8999, SCORE_WIN - 1, -(SCORE_WIN - 2),
                           SCORE_WIN - 95, -(SCORE_WIN - 95), SCORE_WIN - 999, SCORE_WIN };
    char buf[16];
    for (size_t i = 0; i < sizeof scores / sizeof scores[0]; i++) {
        int back = 12345;
        if (!hub_score_from_text(hub_score_to_text(scores[i], buf, sizeof buf), &back) || back != scores[i])
            fail_msg("%d -> '%s' -> %d", scores[i], buf, back);
    }
    const struct { const char *text; int score; } other[] = {
        { "1.5", 150 }, { "-0.5", -50 }, { "+0.25", 25 }, { "2", 200 }, { ".75", 75 }, { "-.05", -5 },
        { "0.125", 13 }, { "0.1249", 12 }, { "-0.995", -100 }, { "12.", 1200 }, { "-0.00", 0 },
        { "99.95", SCORE_WIN - 5 }, { "-90.00", -(SCORE_WIN - 1000) }, { "100", SCORE_WIN }, { "89.99", 8999 },
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        int back = 12345;
        if (!hub_score_from_text(other[i].text, &back) || back != other[i].score)
            fail_msg("'%s' -> %d, not %d", other[i].text, back, other[i].score);
    }
    const char *bad[] = { "", "-", "+", ".", "-.", "abc", "1.2.3", "1,5", " 1", "1 ", "0x10", "1e2", "nan", "inf",
                          "--1", "100.01", "-100.01", "1000", "99999999999999999999", "1.5x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int back = 12345;
        if (hub_score_from_text(bad[i], &back) || back != 12345)
            fail_msg("'%s' was read as %d", bad[i], back);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_startup),
        cmocka_unit_test(test_threads_option),
        cmocka_unit_test(test_limits_turkish),
        cmocka_unit_test(test_limits_international),
        cmocka_unit_test(test_time_per_move_by_clock),
        cmocka_unit_test(test_infinite_ping_stop),
        cmocka_unit_test(test_analyze_stop),
        cmocka_unit_test(test_ponder),
        cmocka_unit_test(test_limits_two_threads),
        cmocka_unit_test(test_stop_and_ponder_two_threads),
        cmocka_unit_test(test_malformed_lines),
        cmocka_unit_test(test_end_of_input),
        cmocka_unit_test(test_repetition_turkish),
        cmocka_unit_test(test_repetition_international),
        cmocka_unit_test(test_variant_normal_plays_international),
        cmocka_unit_test(test_refused_variant_plays_nothing),
        cmocka_unit_test(test_win_scores_scan_scale),
        cmocka_unit_test(test_weights_names),
        cmocka_unit_test(test_score_text),
        cmocka_unit_test(test_score_from_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
