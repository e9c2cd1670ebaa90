/* The pipeline end to end through the dama command: self-play is reproducible whatever
 * the threads, survives Ctrl-C and kill -9 with a whole database, can be read while it
 * writes; tune, match and a small training run (interrupted and resumed) work. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "store.h"
#include "test_util.h"
#include "weights.h"

static char db_path[64];

static void fresh_db(const char *tag)
{
    snprintf(db_path, sizeof db_path, "/tmp/dama-pipeline-%d-%s.db", (int)getpid(), tag);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -f %s %s-wal %s-shm", db_path, db_path, db_path);
    assert_int_equal(system(cmd), 0);
}

/* Starts dama in the background with a NULL-terminated argument list. */
static pid_t dama_background(const char *const *args)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char *argv[32];
        int n = 0;
        argv[n++] = test_dama_bin();
        for (int i = 0; args[i] && n < 31; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static Store *open_db(void)
{
    char err[512];
    Store *s = store_open(db_path, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

static int64_t count(Store *s, const char *table)
{
    int64_t n = -1;
    assert_true(store_count(s, table, &n));
    return n;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Waits until the database holds at least n games (or a timeout). */
static void wait_for_games(int64_t n)
{
    for (int i = 0; i < 600; i++) {
        if (access(db_path, F_OK) == 0) {
            char err[512];
            Store *s = store_open(db_path, err, sizeof err);
            if (s) {
                int64_t have = 0;
                bool ok = store_count(s, "games", &have);
                store_close(s);
                if (ok && have >= n)
                    return;
            }
        }
        sleep_ms(100);
    }
    fail_msg("no %lld games appeared in %s", (long long)n, db_path);
}

/* Moves of every game, indexed by the game's seed (seed = 1 + game index). */
static void moves_by_seed(char moves[][4096], int ngames)
{
    Store *s = open_db();
    int64_t n = count(s, "games");
    assert_int_equal(n, ngames);
    for (int64_t id = 1; id <= n; id++) {
        StoredGame g;
        assert_true(store_game_read(s, id, &g));
        int index = (int)g.rec.seed - 1;
        assert_true(index >= 0 && index < ngames);
        snprintf(moves[index], 4096, "%s", g.rec.moves);
        assert_int_equal(g.rec.npositions, g.rec.plies + 1);
        store_game_free(&g);
    }
    assert_true(store_check(s));
    store_close(s);
}

static void test_selfplay_reproducible_across_threads(void **state)
{
    (void)state;
    /* Enough games that each thread plays several: a searcher's state left over from its
     * previous game (noise, tables) must not leak into the next one; a large noise makes
     * any leak change the games. */
    enum { N = 20 };
    static char one[N][4096], two[N][4096];
    char out[4096];
    fresh_db("t1");
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --db %s --games %d --nodes 300 --noise 200 --threads 1", db_path, N), 0);
    assert_non_null(strstr(out, "games 20"));
    moves_by_seed(one, N);
    fresh_db("t2");
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --db %s --games %d --nodes 300 --noise 200 --threads 2", db_path, N), 0);
    moves_by_seed(two, N);
    for (int i = 0; i < N; i++)
        assert_string_equal(one[i], two[i]);
    /* the two games of a pair start from the same opening but are not the same game */
    assert_string_not_equal(one[0], one[1]);
    unlink(db_path);
}

static void test_selfplay_interrupt_and_kill(void **state)
{
    (void)state;
    fresh_db("kill");
    const char *args[] = { "selfplay", "--db", db_path, "--games", "100000", "--nodes", "300",
                           "--threads", "2", "--batch", "4", NULL };
    /* Ctrl-C: exit 130, finished games kept, run marked interrupted. */
    pid_t pid = dama_background(args);
    wait_for_games(4);
    kill(pid, SIGINT);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    Store *s = open_db();
    assert_true(store_check(s));
    int64_t after_int = count(s, "games");
    assert_true(after_int >= 4);
    char run_status[32];
    assert_int_equal(store_last_run(s, "selfplay", run_status, sizeof run_status, NULL, 0), 1);
    assert_string_equal(run_status, "interrupted");
    store_close(s);

    /* kill -9 in the middle: the file is whole, every stored game complete, and a new run
     * starts on the same file. */
    pid = dama_background(args);
    wait_for_games(after_int + 8);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    s = open_db();
    assert_true(store_check(s)); /* integrity_check, foreign keys, positions of every game */
    store_close(s);
    char out[4096];
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --db %s --games 2 --nodes 200", db_path), 0);
    s = open_db();
    assert_true(store_check(s));
    store_close(s);
    unlink(db_path);
}

static void test_reader_while_writing(void **state)
{
    (void)state;
    fresh_db("reader");
    const char *args[] = { "selfplay", "--db", db_path, "--games", "40", "--nodes", "300",
                           "--threads", "2", "--batch", "2", NULL };
    pid_t pid = dama_background(args);
    wait_for_games(2);
    int64_t last = 0;
    int reads = 0, status;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        Store *s = open_db();
        int64_t g = count(s, "games"), p = count(s, "positions");
        assert_true(g >= last);
        assert_true(p >= g);
        last = g;
        reads++;
        store_close(s);
        sleep_ms(50);
    }
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(reads > 0);
    Store *s = open_db();
    assert_int_equal(count(s, "games"), 40);
    store_close(s);
    unlink(db_path);
}

static void test_tune_and_match(void **state)
{
    (void)state;
    static char out[1 << 16];
    fresh_db("tune");
    char weights[80];
    snprintf(weights, sizeof weights, "/tmp/dama-pipeline-%d-w.txt", (int)getpid());
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --db %s --games 16 --nodes 300", db_path), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --runs 1 --epochs 5 --out %s", db_path, weights), 0);
    assert_non_null(strstr(out, "tune positions"));
    Weights w;
    char err[512];
    if (!weights_load(&w, weights, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(w.w[W_MAN_MG], 100); /* the anchor stays */
    /* labels blended with the stored search scores */
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --runs 1 --epochs 5 --lambda 0.5 --out %s", db_path, weights), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --lambda 1.5 --out %s", db_path, weights), 2);
    assert_non_null(strstr(out, "--lambda"));
    if (!weights_load(&w, weights, err, sizeof err))
        fail_msg("%s", err);
    /* a run that does not exist is bad input, named before any fit (exit 2) */
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --runs 999 --out %s", db_path, weights), 2);
    assert_non_null(strstr(out, "no run 999"));
    /* a match stores its games and its row and prints Elo and the SPRT */
    assert_int_equal(test_dama_run(out, sizeof out, "match --db %s --a %s --b default --games 8 --nodes 300 "
                                           "--sprt elo0=0,elo1=10", db_path, weights), 0);
    assert_non_null(strstr(out, "match games 8 "));
    assert_non_null(strstr(out, "elo "));
    assert_non_null(strstr(out, "sprt elo0 0 elo1 10 llr "));
    assert_int_equal(test_dama_run(out, sizeof out, "match --db %s --a %s --games 8", db_path, weights), 2);
    Store *s = open_db();
    assert_int_equal(count(s, "matches"), 1);
    assert_int_equal(count(s, "tune_runs"), 2);
    assert_int_equal(count(s, "games"), 24);
    assert_true(store_check(s));
    store_close(s);
    unlink(weights);
    unlink(db_path);
}

/* Games start from the openings of a file, each opening played by a pair. */
static void test_selfplay_from_openings_file(void **state)
{
    (void)state;
    char out[4096], book[80];
    fresh_db("book");
    snprintf(book, sizeof book, "/tmp/dama-pipeline-%d-book.txt", (int)getpid());
    FILE *f = fopen(book, "w");
    assert_non_null(f);
    fputs("# two openings\nW:Wa2,b2,c3,d3,e3,f2,g2,h2:Ba7,b7,c6,d6,e6,f7,g7,h7\n"
          "B:Wa3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6 ; after d3-d4\n", f);
    fclose(f);
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --db %s --games 4 --nodes 200 --openings %s",
                                   db_path, book), 0);
    Store *s = open_db();
    assert_int_equal(count(s, "openings"), 2);
    for (int64_t id = 1; id <= 4; id++) {
        StoredGame g;
        assert_true(store_game_read(s, id, &g));
        const Position *first = &g.positions[0].pos;
        bool first_book = first->side == WHITE && first->men[WHITE] == 0x00000000001CE300ULL;
        bool second_book = first->side == BLACK;
        assert_true(first_book != second_book);
        assert_true((g.rec.pair_id == 1) == first_book);
        store_game_free(&g);
    }
    store_close(s);
    unlink(book);
    unlink(db_path);
}

static int journal_steps(void)
{
    Store *s = open_db();
    int64_t n = count(s, "train_steps");
    store_close(s);
    return (int)n;
}

static void test_train_interrupt_and_resume(void **state)
{
    (void)state;
    static char out[1 << 16];
    fresh_db("train");
    char best[80];
    snprintf(best, sizeof best, "/tmp/dama-pipeline-%d-best.txt", (int)getpid());
    /* A first generation, interrupted once its self-play step is journaled. */
    const char *args[] = { "train", "--db", db_path, "--generations", "2", "--games", "12",
                           "--match-games", "6", "--nodes", "300", "--epochs", "5", "--out", best, NULL };
    pid_t pid = dama_background(args);
    for (int i = 0; i < 600 && (access(db_path, F_OK) != 0 || journal_steps() < 1); i++)
        sleep_ms(100);
    kill(pid, SIGINT);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    int steps_before = journal_steps();
    assert_true(steps_before >= 1);
    TrainStep first;
    Store *s = open_db();
    assert_int_equal(store_train_step_get(s, 1, 1, "selfplay", &first), 1);
    store_close(s);

    /* Resume: the journaled self-play is not played again; both generations finish. */
    assert_int_equal(test_dama_run(out, sizeof out, "train --db %s --generations 2 --games 12 --match-games 6 "
                                           "--nodes 300 --epochs 5 --out %s --resume", db_path, best), 0);
    assert_non_null(strstr(out, "resuming training run 1"));
    assert_non_null(strstr(out, "generation 2:"));
    s = open_db();
    TrainStep again;
    assert_int_equal(store_train_step_get(s, 1, 1, "selfplay", &again), 1);
    assert_int_equal(again.ref_id, first.ref_id);
    assert_int_equal(count(s, "train_steps"), 8); /* 2 generations x 4 steps */
    char run_status[32];
    assert_int_equal(store_last_run(s, "train", run_status, sizeof run_status, NULL, 0), 1);
    assert_string_equal(run_status, "done");
    assert_true(store_check(s));
    store_close(s);
    Weights w;
    char err[512];
    if (!weights_load(&w, best, err, sizeof err))
        fail_msg("%s", err);
    /* different options cannot resume the run */
    assert_int_equal(test_dama_run(out, sizeof out, "train --db %s --games 13 --resume", db_path), 2);
    unlink(best);
    unlink(db_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selfplay_reproducible_across_threads),
        cmocka_unit_test(test_selfplay_interrupt_and_kill),
        cmocka_unit_test(test_reader_while_writing),
        cmocka_unit_test(test_selfplay_from_openings_file),
        cmocka_unit_test(test_tune_and_match),
        cmocka_unit_test(test_train_interrupt_and_resume),
    };
    return cmocka_run_group_tests_name("pipeline", tests, NULL, NULL);
}
