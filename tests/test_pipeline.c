/* The pipeline end to end through the dama command: self-play is reproducible whatever
 * the threads, survives Ctrl-C and kill -9 with a whole database, can be read while it
 * writes; tune, match and a small training run (interrupted and resumed) work. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "store.h"
#include "test_util.h"
#include "turkish_eval.h"
#include "turkish_eval_features.h"
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
    unlink(db_path);
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
    assert_int_equal(store_last_run(s, "selfplay", "turkish", run_status, sizeof run_status, NULL, 0), 1);
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
    int status;
    /* At least one read whatever the timing (the writer may already be done); every read
     * sees whole games, never fewer than the one before. */
    bool running;
    do {
        running = waitpid(pid, &status, WNOHANG) == 0;
        Store *s = open_db();
        int64_t g = count(s, "games"), p = count(s, "positions");
        assert_true(g >= last);
        assert_true(p >= g);
        last = g;
        store_close(s);
        if (running)
            sleep_ms(50);
    } while (running);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    Store *s = open_db();
    assert_int_equal(count(s, "games"), 40);
    store_close(s);
    unlink(db_path);
}

/* The bytes a position of a pattern fit, from the "tune data" line. */
static double tune_bytes_a_position(const char *out)
{
    const char *line = strstr(out, "tune data: ");
    assert_non_null(line);
    const char *open = strstr(line, "MiB in memory (");
    assert_non_null(open);
    double bytes = 0;
    assert_int_equal(sscanf(open, "MiB in memory (%lf bytes a position)", &bytes), 1);
    return bytes;
}

/* A pattern fit holds the windows as 16-byte keys by default and as terms with --terms:
 * the same weights file, byte for byte, in a third of the memory. */
static void test_tune_pattern_keys(void **state)
{
    (void)state;
    static char out[1 << 16];
    fresh_db("keys");
    char keyed[80], terms[80];
    snprintf(keyed, sizeof keyed, "/tmp/dama-pipeline-%d-keyed.txt", (int)getpid());
    snprintf(terms, sizeof terms, "/tmp/dama-pipeline-%d-terms.txt", (int)getpid());
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --db %s --games 16 --nodes 300", db_path), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --eval pattern --epochs 3 --out %s", db_path,
                                   keyed), 0);
    double keyed_bytes = tune_bytes_a_position(out);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --eval pattern --epochs 3 --terms --out %s",
                                   db_path, terms), 0);
    double terms_bytes = tune_bytes_a_position(out);
    print_message("pattern fit: %.0f bytes a position keyed, %.0f as terms\n", keyed_bytes, terms_bytes);
    assert_true(keyed_bytes < 100 && terms_bytes > 2 * keyed_bytes);
    FILE *a = fopen(keyed, "rb"), *b = fopen(terms, "rb");
    assert_true(a && b);
    static char ka[1 << 20], kb[1 << 20];
    size_t na = fread(ka, 1, sizeof ka, a), nb = fread(kb, 1, sizeof kb, b);
    fclose(a);
    fclose(b);
    assert_true(na > 0 && na < sizeof ka);
    assert_int_equal(na, nb);
    assert_memory_equal(ka, kb, na);
    unlink(keyed);
    unlink(terms);
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
    WEIGHTS_SCOPED w = { 0 };
    char err[512];
    if (!weights_load(&w, &turkish_eval_spec, weights, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(w.w[W_MAN_MG], 100); /* the anchor stays */
    /* Dedup: every game starts from the start position, so with ply 0 kept it is loaded once
     * and the 15 repeats are dropped; --no-dedup keeps them all. */
    size_t kept = 0, dropped = 0, all = 0, dropped_none = 9;
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --runs 1 --epochs 1 --skip-plies 0 --out %s",
                                   db_path, weights), 0);
    const char *line = strstr(out, "tune data: ");
    assert_non_null(line);
    assert_int_equal(sscanf(line, "tune data: %zu positions kept, %zu duplicates dropped", &kept, &dropped), 2);
    assert_true(dropped >= 15);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --runs 1 --epochs 1 --skip-plies 0 --no-dedup "
                                   "--out %s", db_path, weights), 0);
    assert_non_null(line = strstr(out, "tune data: "));
    assert_int_equal(sscanf(line, "tune data: %zu positions kept, %zu duplicates dropped", &all, &dropped_none), 2);
    assert_int_equal(dropped_none, 0);
    assert_int_equal(all, kept + dropped);
    /* labels blended with the stored search scores */
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --runs 1 --epochs 5 --lambda 0.5 --out %s", db_path, weights), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --lambda 1.5 --out %s", db_path, weights), 2);
    assert_non_null(strstr(out, "--lambda"));
    weights_free(&w);
    if (!weights_load(&w, &turkish_eval_spec, weights, err, sizeof err))
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
    assert_int_equal(count(s, "tune_runs"), 4);
    assert_int_equal(count(s, "games"), 24);
    assert_true(store_check(s));
    store_close(s);
    unlink(weights);
    unlink(db_path);
}

/* The two weights files hold the same text (a fit's bits, rounded the same). */
static void assert_same_weights(const char *a, const char *b)
{
    char *x = test_read_file(a), *y = test_read_file(b);
    assert_non_null(x);
    assert_non_null(y);
    assert_string_equal(x, y);
    free(x);
    free(y);
}

/* --save-data writes the positions a fit selects; --data fits them from the file to the same
 * weights as from the database (labels blended with the stored scores too, and a pattern
 * fit); files of another evaluation, cut or missing are refused, naming the file. */
static void test_tune_from_packed_file(void **state)
{
    (void)state;
    static char out[1 << 16];
    char base[64], pack[80], pattern_pack[80], w_db[80], w_file[80];
    snprintf(base, sizeof base, "/tmp/dama-pipeline-%d", (int)getpid());
    snprintf(pack, sizeof pack, "%s-linear.pack", base);
    snprintf(pattern_pack, sizeof pattern_pack, "%s-pattern.pack", base);
    snprintf(w_db, sizeof w_db, "%s-wdb.txt", base);
    snprintf(w_file, sizeof w_file, "%s-wfile.txt", base);
    fresh_db("pack");
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --db %s --games 16 --nodes 300", db_path), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --save-data %s", db_path, pack), 0);
    size_t saved = 0, fitted = 0;
    assert_non_null(strstr(out, "positions written to "));
    assert_int_equal(sscanf(strstr(out, "tune data: "), "tune data: %zu positions kept", &saved), 1);
    char tmp[96];
    snprintf(tmp, sizeof tmp, "%s.tmp", pack);
    assert_int_equal(access(tmp, F_OK), -1); /* renamed into place */
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --epochs 20 --lambda 0.5 --out %s", db_path,
                                   w_db), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --data %s --epochs 20 --lambda 0.5 --out %s",
                                   db_path, pack, w_file), 0);
    assert_int_equal(sscanf(strstr(out, "tune data: "), "tune data: %zu positions kept", &fitted), 1);
    assert_int_equal(fitted, saved);
    assert_true(saved > 100);
    assert_same_weights(w_db, w_file);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --eval pattern --save-data %s", db_path,
                                   pattern_pack), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --eval pattern --epochs 3 --threads 2 --out %s",
                                   db_path, w_db), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --eval pattern --data %s --epochs 3 "
                                   "--threads 2 --out %s", db_path, pattern_pack, w_file), 0);
    assert_same_weights(w_db, w_file);

    /* Refused: another evaluation's or game's positions, a cut file, no file, --runs. */
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --eval pattern --data %s --out %s", db_path,
                                   pack, w_file), 1);
    assert_non_null(strstr(out, pack));
    assert_non_null(strstr(out, "another game, evaluation or feature set"));
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --variant international --data %s --out %s",
                                   db_path, pack, w_file), 1);
    assert_non_null(strstr(out, "'turkish linear"));
    struct stat st;
    assert_int_equal(stat(pack, &st), 0);
    /* Its tag but one feature more (the header's num_features, bytes 16-19): a feature set
     * changed without its version. */
    FILE *f = fopen(pack, "r+b");
    int32_t features;
    assert_non_null(f);
    assert_int_equal(fseek(f, 16, SEEK_SET), 0);
    assert_int_equal(fread(&features, sizeof features, 1, f), 1);
    features++;
    assert_int_equal(fseek(f, 16, SEEK_SET), 0);
    assert_int_equal(fwrite(&features, sizeof features, 1, f), 1);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --data %s --out %s", db_path, pack, w_file), 1);
    assert_non_null(strstr(out, pack));
    assert_non_null(strstr(out, "another version of the feature set"));
    assert_int_equal(truncate(pack, st.st_size - 1), 0);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --data %s --out %s", db_path, pack, w_file), 1);
    assert_non_null(strstr(out, pack));
    assert_non_null(strstr(out, "truncated"));
    unlink(pack);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --data %s --out %s", db_path, pack, w_file), 2);
    assert_non_null(strstr(out, pack));
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --data %s --runs 1 --out %s", db_path,
                                   pattern_pack, w_file), 2);
    assert_int_equal(test_dama_run(out, sizeof out, "tune --db %s --data %s --save-data %s", db_path,
                                   pattern_pack, pack), 2);
    unlink(pattern_pack);
    unlink(w_db);
    unlink(w_file);
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
    for (int i = 0; i < 12000 && (access(db_path, F_OK) != 0 || journal_steps() < 1); i++)
        sleep_ms(5);
    /* Seconds of tuning, matching and a second generation are left: the signal lands in
     * them, and the run says it was interrupted. */
    kill(pid, SIGINT);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
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
    assert_int_equal(store_last_run(s, "train", "turkish", run_status, sizeof run_status, NULL, 0), 1);
    assert_string_equal(run_status, "done");
    assert_true(store_check(s));
    store_close(s);
    WEIGHTS_SCOPED w = { 0 };
    char err[512];
    if (!weights_load(&w, &turkish_eval_spec, best, err, sizeof err))
        fail_msg("%s", err);
    /* different options cannot resume the run */
    assert_int_equal(test_dama_run(out, sizeof out, "train --db %s --games 13 --resume", db_path), 2);
    unlink(best);
    unlink(db_path);
}

/* ---- Results a researcher can trust: the same `dama train` gives the same weights and
 * decisions on 1 or 2 threads and when interrupted and resumed; every option is honoured
 * and recorded in runs.params; match progress is from A's view; a full disk ends a run
 * cleanly and it resumes. ---- */

static char obuf[1 << 16];

static void db_name(char *path, size_t len, const char *tag)
{
    snprintf(path, len, "/tmp/dama-train-%d-%s.db", (int)getpid(), tag);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -f %s %s-wal %s-shm", path, path, path);
    assert_int_equal(system(cmd), 0);
}

static void remove_db(const char *path)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -f %s %s-wal %s-shm", path, path, path);
    assert_int_equal(system(cmd), 0);
}

/* The rows of a query as "a|b\n" lines (malloc'd), read with SQLite itself. */
static char *sql_rows(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    size_t len = 0, cap = 4096;
    char *text = malloc(cap);
    assert_non_null(text);
    text[0] = '\0';
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int i = 0; i < sqlite3_column_count(st); i++) {
            const char *v = (const char *)sqlite3_column_text(st, i);
            size_t n = strlen(v ? v : "NULL") + 2;
            while (len + n + 1 > cap)
                assert_non_null(text = realloc(text, cap *= 2));
            len += (size_t)sprintf(text + len, "%s%s", v ? v : "NULL",
                                   i + 1 < sqlite3_column_count(st) ? "|" : "\n");
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return text;
}

/* The lines of dama's output that must agree between two runs of the same training:
 * everything except timings and file names. */
static void decisions(const char *text, char *buf, size_t len)
{
    buf[0] = '\0';
    size_t n = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t l = end ? (size_t)(end - line) : strlen(line);
        bool keep = (strncmp(line, "generation ", 11) == 0 || strncmp(line, "tune positions", 14) == 0
                     || strncmp(line, "match games", 11) == 0 || strncmp(line, "elo ", 4) == 0
                     || strncmp(line, "sprt ", 5) == 0 || strncmp(line, "  generation", 12) == 0
                     || strncmp(line, "final:", 6) == 0);
        if (keep && strncmp(line, "tune positions", 14) == 0) {
            const char *t = strstr(line, " time ");
            l = t && t < line + l ? (size_t)(t - line) : l; /* the fit's timing varies */
        }
        if (keep && strncmp(line, "  generation", 12) == 0) {
            const char *t = strstr(line, " positions in ");
            l = t && t < line + l ? (size_t)(t - line) : l; /* so does the summary's */
        }
        if (keep && n + l + 2 < len) {
            memcpy(buf + n, line, l);
            n += l;
            buf[n++] = '\n';
            buf[n] = '\0';
        }
        line = end ? end + 1 : line + l;
    }
}

/* Small and node-limited, so it takes seconds; the permissive SPRT promotes a candidate
 * (so the second generation and the final match start from tuned weights). */
#define TRAIN_ARGS "--generations 2 --games 40 --match-games 40 --final-games 20 --nodes 300 " \
                   "--epochs 100 --start material --sprt elo0=-400,elo1=-300 --batch 2"

static void read_weights(const char *path, char **text)
{
    *text = test_read_file(path);
    if (!*text)
        fail_msg("no weights file %s", path);
}

static int64_t games_stored(const char *path)
{
    if (access(path, F_OK) != 0)
        return 0;
    char err[512];
    Store *s = store_open(path, err, sizeof err);
    int64_t n = 0;
    if (s && !store_count(s, "games", &n))
        n = 0;
    store_close(s);
    return n;
}

/* Defect 3: 1 and 2 threads give the same games, the same fits, the same decisions and
 * byte-identical weights (before, game ids followed the threads' finishing order, the
 * validation split hashed them, and the fit summed per thread).  Then a run interrupted
 * in the middle of its first self-play and resumed ends with the same weights. */
static void test_train_reproducible(void **state)
{
    (void)state;
    char db1[96], db2[96], db3[96], w1[128], w2[128], w3[128];
    static char d1[8192], d2[8192];
    db_name(db1, sizeof db1, "t1");
    db_name(db2, sizeof db2, "t2");
    db_name(db3, sizeof db3, "resumed");
    snprintf(w1, sizeof w1, "%s.w", db1);
    snprintf(w2, sizeof w2, "%s.w", db2);
    snprintf(w3, sizeof w3, "%s.w", db3);

    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --db %s " TRAIN_ARGS " --threads 1 --out %s", db1, w1), 0);
    decisions(obuf, d1, sizeof d1);
    assert_non_null(strstr(d1, "promoted"));       /* the test covers a promotion ... */
    assert_non_null(strstr(d1, "final: best weights")); /* ... and the final match */
    assert_non_null(strstr(d1, "  generation 1: promoted: elo "));
    /* each generation's summary gives its fit's data size, as the tune run stored it */
    char *fitted = sql_rows(db1, "SELECT '; fitted on ' || positions || ' positions in ' FROM tune_runs ORDER BY id LIMIT 1");
    fitted[strcspn(fitted, "\n")] = '\0';
    assert_int_equal(strncmp(fitted, "; fitted on ", 12), 0); /* not NULL: a fit was stored */
    assert_true(fitted[12] >= '1' && fitted[12] <= '9');
    const char *g1 = strstr(obuf, "  generation 1: ");
    assert_non_null(g1);
    assert_non_null(strstr(g1, fitted));
    free(fitted);
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --db %s " TRAIN_ARGS " --threads 2 --out %s", db2, w2), 0);
    decisions(obuf, d2, sizeof d2);
    assert_string_equal(d1, d2);
    char *a, *b;
    read_weights(w1, &a);
    read_weights(w2, &b);
    assert_string_equal(a, b);
    free(b);
    /* every candidate, not only the best */
    const char *q = "SELECT text FROM weights ORDER BY id";
    char *ta = sql_rows(db1, q), *tb = sql_rows(db2, q);
    assert_string_equal(ta, tb);
    free(tb);

    /* Ctrl-C while generation 1 plays its games, then --resume (on 2 threads); the
     * arguments are TRAIN_ARGS, one a word. */
    const char *args[] = { "train", "--db", db3, "--generations", "2", "--games", "40",
                           "--match-games", "40", "--final-games", "20", "--nodes", "300",
                           "--epochs", "100", "--start", "material", "--sprt", "elo0=-400,elo1=-300",
                           "--batch", "2", "--threads", "1", "--out", w3, NULL };
    pid_t pid = dama_background(args);
    for (int i = 0; i < 3000 && games_stored(db3) < 4; i++)
        sleep_ms(5);
    kill(pid, SIGINT);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    char *rows = sql_rows(db3, "SELECT r.id, r.status, count(g.id) FROM runs r JOIN games g ON g.run_id = r.id "
                               "WHERE r.kind = 'selfplay' GROUP BY r.id");
    int run_id = 0, stored = 0;
    char run_status[32] = "";
    assert_int_equal(sscanf(rows, "%d|%31[^|]|%d", &run_id, run_status, &stored), 3);
    free(rows);
    assert_string_equal(run_status, "interrupted");
    assert_true(stored >= 4 && stored < 40); /* stopped in the middle of the self-play */

    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --db %s " TRAIN_ARGS " --threads 2 --out %s --resume", db3, w3), 0);
    assert_non_null(strstr(obuf, "resumed"));
    read_weights(w3, &b);
    assert_string_equal(a, b);
    char *tc = sql_rows(db3, q);
    assert_string_equal(ta, tc);
    /* the interrupted self-play run was completed in place: its 40 games, each index once */
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*), count(DISTINCT game_index), min(game_index), max(game_index), "
                              "(SELECT status FROM runs WHERE id = %d) FROM games WHERE run_id = %d", run_id, run_id);
    rows = sql_rows(db3, sql);
    assert_string_equal(rows, "40|40|0|39|done\n");
    free(rows);
    free(a);
    free(b);
    free(ta);
    free(tc);
    remove_db(db1);
    remove_db(db2);
    remove_db(db3);
    unlink(w1);
    unlink(w2);
    unlink(w3);
}

/* Defect 4: --noise reaches the self-play (it was forced to 10) and every run records the
 * settings it used (match runs recorded the self-play games and seed). */
static void test_train_options_recorded(void **state)
{
    (void)state;
    char db0[96], db80[96], w[128];
    db_name(db0, sizeof db0, "noise0");
    db_name(db80, sizeof db80, "noise80");
    snprintf(w, sizeof w, "%s.w", db0);
    const char *common = "--generations 1 --games 8 --match-games 6 --final-games 0 --nodes 150 "
                         "--epochs 20 --seed 7 --move-cap 120 --hash 1 --random-plies 4 "
                         "--sprt elo0=-400,elo1=-300";
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --db %s %s --noise 0 --match-noise 30 --out %s",
                                   db0, common, w), 0);
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --db %s %s --noise 80 --match-noise 30 --out %s",
                                   db80, common, w), 0);
    const char *moves = "SELECT g.moves FROM games g JOIN runs r ON r.id = g.run_id "
                        "WHERE r.kind = 'selfplay' ORDER BY g.game_index";
    char *m0 = sql_rows(db0, moves), *m80 = sql_rows(db80, moves);
    assert_true(strlen(m0) > 100);
    assert_string_not_equal(m0, m80);
    free(m0);
    free(m80);

    char *runs = sql_rows(db80, "SELECT kind, params FROM runs ORDER BY id");
    /* Self-play of generation 1: seed 7 + 1000003, the noise given. */
    assert_non_null(strstr(runs, "selfplay|games=8 nodes=150 depth=0 movetime=0 seed=1000010 openings=random "
                                 "random_plies=4 move_cap=120 noise=80 hash=1 "));
    /* Its match: the match games and noise, its own seed 7 + 1000003 + 500000. */
    assert_non_null(strstr(runs, "match|games=6 nodes=150 depth=0 movetime=0 seed=1500010 openings=random "
                                 "random_plies=4 move_cap=120 noise=30 hash=1 "));
    assert_non_null(strstr(runs, " sprt=-400,-300,0.05,0.05 train_run=1 generation=1\n"));
    assert_non_null(strstr(runs, "train|games=8 nodes=150 depth=0 movetime=0 seed=7 "));
    assert_non_null(strstr(runs, " noise=80 hash=1 "));
    assert_non_null(strstr(runs, " match_games=6 match_noise=30 final_games=0 "));
    free(runs);
    remove_db(db0);
    remove_db(db80);
    unlink(w);
}

/* train --eval pattern --lambda L: the loop fits a pattern evaluation (its tune run has the
 * pattern defaults of tune.h and the blend), the candidate is stored as a pattern set
 * (its table in the blob), and the best weights written read back as pattern weights. */
static void test_train_pattern(void **state)
{
    (void)state;
    char db[96], w[128];
    db_name(db, sizeof db, "pattern");
    snprintf(w, sizeof w, "%s.w", db);
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --db %s --eval pattern --lambda 0.5 --generations 1 "
                                   "--games 12 --match-games 4 --final-games 0 --nodes 150 --epochs 5 --seed 3 "
                                   "--hash 1 --out %s", db, w), 0);
    char *runs = sql_rows(db, "SELECT kind, params FROM runs ORDER BY id");
    assert_non_null(strstr(runs, " eval=pattern lambda=0.5\n"));      /* the train run */
    assert_non_null(strstr(runs, "tune|generation=1 epochs=5 lr=0.25 batch=16384 validation=0.1 skip_plies=8 "
                                 "lambda=0.5 reg=1e-09 dedup=1 "));
    free(runs);
    /* start (pattern weights 0) and the tuned candidate: both pattern sets */
    char *sets = sql_rows(db, "SELECT count(*), sum(blob IS NOT NULL) FROM weights");
    assert_string_equal(sets, "2|2\n");
    free(sets);
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "weights --check %s", w), 0);
    assert_non_null(strstr(obuf, "275634 weights for turkish"));
    assert_non_null(strstr(obuf, "pattern"));
    remove_db(db);
    unlink(w);
}

/* train --lr and --reg reach the tune step, and only a run that gives them records them.
 * Its 12 games leave no game to the validation split (asserted below), so the fit keeps
 * the epoch of the least training loss plus penalty: a pull of 1e20 makes every step away
 * from the best weights worse than none, and steps of 1e-6 cp cannot move a rounded
 * weight; either way the candidate is the best weights themselves and no match is played,
 * where the defaults tune a new candidate. */
static void test_train_tuner_options(void **state)
{
    (void)state;
    static const struct {
        const char *options, *train_tail, *tune_lr_reg, *decision;
    } cases[] = {
        { "", "sprt=0,20,0.05,0.05\n",
          " lr=1 batch=0 validation=0.1 skip_plies=8 lambda=0 reg=0 ",
          "generation 1: candidate 2 rejected (best was 1)" },
        { "--lr 1e-6", "sprt=0,20,0.05,0.05 lr=1e-06\n",
          " lr=1e-06 batch=0 validation=0.1 skip_plies=8 lambda=0 reg=0 ",
          "generation 1: the tuned weights equal the best weights; no match" },
        { "--reg 1e20", "sprt=0,20,0.05,0.05 reg=1e+20\n",
          " lr=1 batch=0 validation=0.1 skip_plies=8 lambda=0 reg=1e+20 ",
          "generation 1: the tuned weights equal the best weights; no match" },
    };
    char db[96], w[128];
    db_name(db, sizeof db, "tuner-options");
    snprintf(w, sizeof w, "%s.w", db);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        remove_db(db);
        assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --db %s --generations 1 --games 12 --match-games 4 "
                                       "--final-games 0 --nodes 150 --epochs 20 --seed 3 --hash 1 %s --out %s",
                                       db, cases[i].options, w), 0);
        assert_non_null(strstr(obuf, "tune positions 734 (train 734, validation 0) "));
        assert_non_null(strstr(obuf, cases[i].decision));
        char *train = sql_rows(db, "SELECT params FROM runs WHERE kind = 'train'");
        char *tune = sql_rows(db, "SELECT params FROM runs WHERE kind = 'tune'");
        size_t tl = strlen(train), want = strlen(cases[i].train_tail);
        if (tl < want || strcmp(train + tl - want, cases[i].train_tail) != 0)
            fail_msg("'%s': train params '%s' do not end with '%s'", cases[i].options, train,
                     cases[i].train_tail);
        assert_non_null(strstr(tune, cases[i].tune_lr_reg));
        free(train);
        free(tune);
    }
    remove_db(db);
    unlink(w);
}

/* Defect 15: contradictory limits are refused, a bad value gives one line, --games is
 * described once in train --help. */
/* Adjudication, checked against the stored scores: a game ends at the first ply where both
 * searches' last N scores (White's view) are all >= CP for one side, or all within +-CP
 * late enough for a draw; a game that ended otherwise never met the rule. */
static void test_adjudication(void **state)
{
    (void)state;
    enum { WIN_CP = 400, WIN_N = 6, DRAW_CP = 10, DRAW_N = 20, DRAW_FROM = 60 };
    char db[128];
    db_name(db, sizeof db, "adjudicated");
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "selfplay --db %s --games 16 --nodes 800 --threads 2 "
                                   "--win-adjudication %d:%d --draw-adjudication %d:%d:%d", db, WIN_CP, WIN_N,
                                   DRAW_CP, DRAW_N, DRAW_FROM), 0);
    char *games = sql_rows(db, "SELECT id, result, reason, plies FROM games ORDER BY id");
    int adjudicated = 0, others = 0;
    for (char *line = strtok(games, "\n"); line; line = strtok(NULL, "\n")) {
        long id, plies;
        char result[16], reason[32];
        assert_int_equal(sscanf(line, "%ld|%15[^|]|%31[^|]|%ld", &id, result, reason, &plies), 4);
        char sql[160];
        snprintf(sql, sizeof sql, "SELECT side, coalesce(score, 'x') FROM positions WHERE game_id = %ld "
                 "ORDER BY ply", id);
        char *rows = sql_rows(db, sql);
        int white_view[4096], n = 0;
        bool scored[4096];
        for (char *p = rows; *p && n < 4096; p = strchr(p, '\n') + 1, n++) {
            int side = p[0] - '0';
            scored[n] = p[2] != 'x';
            int score = scored[n] ? atoi(p + 2) : 0;
            white_view[n] = side == 0 ? score : -score;
        }
        free(rows);
        /* the first ply at which the rule holds, and what it says */
        int first = -1;
        const char *says = NULL;
        for (int ply = 1; ply <= plies && first < 0; ply++) {
            int up = 0, down = 0, level = 0;
            for (int k = ply - WIN_N; k >= 0 && k < ply; k++) {
                up += scored[k] && white_view[k] >= WIN_CP;
                down += scored[k] && white_view[k] <= -WIN_CP;
            }
            for (int k = ply - DRAW_N; k >= 0 && k < ply; k++)
                level += scored[k] && white_view[k] <= DRAW_CP && white_view[k] >= -DRAW_CP;
            says = ply >= WIN_N && up == WIN_N ? "white" : ply >= WIN_N && down == WIN_N ? "black"
                 : ply >= DRAW_N && ply >= DRAW_FROM && level == DRAW_N ? "draw" : NULL;
            if (says)
                first = ply;
        }
        if (strcmp(reason, "adjudication") == 0) {
            adjudicated++;
            assert_int_equal(first, plies);
            assert_string_equal(says, result);
        } else {
            others++;
            if (first >= 0 && first < plies)
                fail_msg("game %ld (%s) met the rule at ply %d of %ld", id, reason, first, plies);
        }
    }
    free(games);
    assert_true(adjudicated > 0 && others > 0);
    char *params = sql_rows(db, "SELECT params FROM runs");
    assert_non_null(strstr(params, " win_adjudication=400:6 draw_adjudication=10:20:60"));
    free(params);
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "selfplay --win-adjudication 400"), 2);
    assert_non_null(strstr(obuf, "bad value '400' for --win-adjudication: expected CP:PLIES"));
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "selfplay --draw-adjudication 5:0:80"), 2);
    assert_non_null(strstr(obuf, "PLIES must be at least 1"));
    remove_db(db);
}

static void test_run_option_errors(void **state)
{
    (void)state;
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "selfplay --db /nonexistent/x.db --nodes 100 --depth 3"), 2);
    assert_string_equal(obuf, "dama: --nodes and --depth cannot be combined: give one search limit\n");
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "match --a default --b default --movetime 5 --nodes 9"), 2);
    assert_string_equal(obuf, "dama: --movetime and --nodes cannot be combined: give one search limit\n");
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "selfplay --openings x.txt --random-plies 3"), 2);
    assert_string_equal(obuf, "dama: --openings and --random-plies cannot be combined: the games "
                              "start from the file's positions\n");
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --nodes -1"), 2);
    assert_string_equal(obuf, "dama: bad value '-1' for --nodes: expected a non-negative whole number\n");
    /* a match counts whole pairs only: an odd number of games is refused, not half counted */
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "match --a default --b default --games 7"), 2);
    assert_string_equal(obuf, "dama: --games 7: a match plays pairs of games (colours swapped), so give an even number\n");
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --match-games 9"), 2);
    /* the tuner's --lr and --reg: train reads them as tune does */
    static const char *const bad_tuner[][2] = {
        { "train --lr 0", "dama: bad value '0' for --lr: expected a positive number\n" },
        { "tune --lr 0", "dama: bad value '0' for --lr: expected a positive number\n" },
        { "train --lr fast", "dama: bad value 'fast' for --lr: expected a positive number\n" },
        { "train --reg -1", "dama: bad value '-1' for --reg: expected a number >= 0\n" },
        { "tune --reg -1", "dama: bad value '-1' for --reg: expected a number >= 0\n" },
        { "train --reg nan", "dama: bad value 'nan' for --reg: expected a number >= 0\n" },
    };
    for (size_t i = 0; i < sizeof bad_tuner / sizeof bad_tuner[0]; i++) {
        assert_int_equal(test_dama_run(obuf, sizeof obuf, "%s", bad_tuner[i][0]), 2);
        assert_string_equal(obuf, bad_tuner[i][1]);
    }
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "train --help"), 0);
    const char *first = strstr(obuf, "  --games N");
    assert_non_null(first);
    assert_null(strstr(first + 1, "  --games N"));
    first = strstr(obuf, "  --noise CP");
    assert_non_null(first);
    assert_null(strstr(first + 1, "  --noise CP"));
}

/* Defect 10: the progress line of a match is A's score (it was White/Black), matching the
 * result line, with the running Elo.  A pseudo-terminal makes dama print progress. */
static void test_match_progress_from_a(void **state)
{
    (void)state;
    char db[96];
    db_name(db, sizeof db, "progress");
    char cmd[512];
    snprintf(cmd, sizeof cmd, "script -qec '%s match --db %s --a material --b default --games 12 "
             "--nodes 200 --threads 1' /dev/null", test_dama_bin(), db);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(obuf, 1, sizeof obuf - 1, p);
    obuf[n] = '\0';
    assert_int_equal(pclose(p), 0);
    int w, d, l, pw, pd, pl;
    const char *result = strstr(obuf, "match games 12 wins ");
    assert_non_null(result);
    assert_int_equal(sscanf(result, "match games 12 wins %d draws %d losses %d", &w, &d, &l), 3);
    const char *last = NULL;
    for (const char *s = obuf; (s = strstr(s, "match: games 12/12")); s++)
        last = s;
    assert_non_null(last);
    const char *view = strstr(last, "A +");
    assert_non_null(view);
    assert_int_equal(sscanf(view, "A +%d =%d -%d", &pw, &pd, &pl), 3);
    assert_int_equal(pw, w);
    assert_int_equal(pd, d);
    assert_int_equal(pl, l);
    assert_int_equal(w + d + l, 12);
    const char *elo = strstr(result, "elo ");
    assert_non_null(elo);
    char elo_text[64];
    assert_int_equal(sscanf(elo, "elo %63[^l]", elo_text), 1); /* "-X [-Y, -Z] " */
    elo_text[strlen(elo_text) - 1] = '\0';
    assert_non_null(strstr(view, elo_text));
    remove_db(db);
}

/* Runs dama with a file size limit (as on a full disk); SIGXFSZ is not ignored here, so
 * dama must ignore it itself and report the failed write. */
static int dama_limited(rlim_t bytes, const char *db, int games, char *buf, size_t len)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = { bytes, bytes };
        setrlimit(RLIMIT_FSIZE, &rl);
        signal(SIGXFSZ, SIG_DFL);
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        char g[16];
        snprintf(g, sizeof g, "%d", games);
        execl(test_dama_bin(), test_dama_bin(), "selfplay", "--db", db, "--games", g, "--nodes", "100",
              "--threads", "2", "--batch", "4", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    int status = test_read_child(fds[0], pid, buf, len);
    assert_true(status != -1);
    if (!WIFEXITED(status))
        fail_msg("dama died of signal %d: %s", WIFSIGNALED(status) ? WTERMSIG(status) : -1, buf);
    return WEXITSTATUS(status);
}

/* Defect 13: on a full disk self-play says what is stored, exits 1, the file stays whole,
 * and --resume completes the run. */
static void test_full_disk(void **state)
{
    (void)state;
    char db[96];
    db_name(db, sizeof db, "full");
    assert_int_equal(test_dama_run(obuf, sizeof obuf, "selfplay --db %s --games 2 --nodes 100", db), 0);
    struct stat st;
    assert_int_equal(stat(db, &st), 0);
    enum { GAMES = 400 };
    int code = dama_limited((rlim_t)st.st_size + 150 * 1024, db, GAMES, obuf, sizeof obuf);
    assert_int_equal(code, 1);
    const char *report = strstr(obuf, "selfplay run 2 games ");
    assert_non_null(report);
    int printed = -1;
    assert_int_equal(sscanf(report, "selfplay run 2 games %d", &printed), 1);
    assert_non_null(strstr(obuf, "are stored; --resume continues it"));
    char *rows = sql_rows(db, "PRAGMA integrity_check");
    assert_string_equal(rows, "ok\n");
    free(rows);
    rows = sql_rows(db, "SELECT count(*) FROM games WHERE run_id = 2");
    assert_int_equal(atoi(rows), printed); /* what was printed is what is stored */
    assert_true(printed < GAMES);
    free(rows);
    rows = sql_rows(db, "SELECT status FROM runs WHERE id = 2");
    assert_true(strcmp(rows, "failed\n") == 0 || strcmp(rows, "running\n") == 0); /* if the disk allowed it */
    free(rows);
    char err[512];
    Store *s = store_open(db, err, sizeof err);
    assert_non_null(s);
    assert_true(store_check(s));
    store_close(s);

    assert_int_equal(test_dama_run(obuf, sizeof obuf, "selfplay --db %s --games %d --nodes 100 --threads 2 "
                                                    "--batch 4 --resume", db, GAMES), 0);
    rows = sql_rows(db, "SELECT count(*), count(DISTINCT game_index), status FROM games JOIN runs "
                        "ON runs.id = games.run_id WHERE run_id = 2");
    char want[64];
    snprintf(want, sizeof want, "%d|%d|done\n", GAMES, GAMES);
    assert_string_equal(rows, want);
    free(rows);
    remove_db(db);
}

/* The short version of scripts/crash-test: kill -9 in self-play, tune and match, then the
 * database is whole and each resumes to the uninterrupted result (the full run, 20+
 * trials, is `scripts/crash-test`).  The seed comes from DAMA_CRASH_SEED (default 7). */
static void test_crash_script(void **state)
{
    (void)state;
    if (test_sanitized()) {
        print_message("crash-test skipped under the sanitizers (kill -9 tests the file, not the code)\n");
        return;
    }
    const char *seed = getenv("DAMA_CRASH_SEED") ? getenv("DAMA_CRASH_SEED") : "7";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "DAMA_BIN=%s scripts/crash-test 3 %s 2>&1", test_dama_bin(), seed);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(obuf, 1, sizeof obuf - 1, p);
    obuf[n] = '\0';
    int status = pclose(p);
    print_message("%s", obuf);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_non_null(strstr(obuf, "crash-test: 3 trials ("));
    assert_non_null(strstr(obuf, ", 0 failed, seed "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_selfplay_reproducible_across_threads),
        cmocka_unit_test(test_selfplay_interrupt_and_kill),
        cmocka_unit_test(test_reader_while_writing),
        cmocka_unit_test(test_selfplay_from_openings_file),
        cmocka_unit_test(test_tune_and_match),
        cmocka_unit_test(test_tune_pattern_keys),
        cmocka_unit_test(test_tune_from_packed_file),
        cmocka_unit_test(test_train_interrupt_and_resume),
        cmocka_unit_test(test_adjudication),
        cmocka_unit_test(test_run_option_errors),
        cmocka_unit_test(test_match_progress_from_a),
        cmocka_unit_test(test_train_options_recorded),
        cmocka_unit_test(test_train_pattern),
        cmocka_unit_test(test_train_tuner_options),
        cmocka_unit_test(test_full_disk),
        cmocka_unit_test(test_train_reproducible),
        cmocka_unit_test(test_crash_script),
    };
    return cmocka_run_group_tests_name("pipeline", tests, NULL, NULL);
}
