/* Tests of self-play shards and `dama db merge`, end to end through bin/dama: three shards
 * played side by side by GNU parallel merge into exactly the run played in one piece (the
 * same games, moves, results and positions by game index); merging again adds nothing; a
 * merge killed with SIGKILL inside its transaction leaves the target valid with the shard
 * wholly out, and merging again completes it; a shard resumes; an old schema is migrated
 * in a copy; every table is carried over; bad input is one line naming the file, exit 2,
 * target unchanged; the Slurm pipeline of scripts/cluster submits its chain (fake sbatch). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run_params.h"
#include "runner.h"
#include "test_util.h"
#include "test_tmpdir.h"

enum { GAMES = 24, SHARDS = 3 };
#define PLAY "selfplay --games 24 --nodes 300 --threads 1 --seed 7"

static char dir[64];

/* The games and positions of a file, by game index: what must agree between the merged
 * run and the one played in one piece. */
#define GAMES_DUMP "SELECT g.game_index, g.pair_id, g.result, g.reason, g.plies, g.mars, g.moves, g.seed," \
    " g.npositions, g.variant, o.fen, w.hash FROM games g LEFT JOIN openings o ON o.id = g.opening_id" \
    " LEFT JOIN weights w ON w.id = g.white_weights_id ORDER BY g.game_index"
#define POSITIONS_DUMP "SELECT g.game_index, p.ply, p.white_men, p.white_kings, p.black_men, p.black_kings," \
    " p.side, p.score, p.capture_pending FROM positions p JOIN games g ON g.id = p.game_id ORDER BY 1, 2"

static const char *path_in(const char *name)
{
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

/* Every row of a query on the file, as text ('|' between columns); caller frees. */
static char *query(const char *name, const char *sql)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path_in(name), &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        fail_msg("%s: %s", name, sqlite3_errmsg(db));
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) fail_msg("%s: %s: %s", name, sql, sqlite3_errmsg(db));
    size_t cap = 1 << 16, len = 0;
    char *out = malloc(cap);
    out[0] = '\0';
    while (sqlite3_step(st) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const char *v = (const char *)sqlite3_column_text(st, c);
            size_t need = len + (v ? strlen(v) : 4) + 3;
            if (need >= cap) out = realloc(out, cap = 2 * need);
            len += (size_t)sprintf(out + len, "%s%s", c ? "|" : "", v ? v : "NULL");
        }
        out[len++] = '\n';
        out[len] = '\0';
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return out;
}

static long long query_int(const char *name, const char *sql)
{
    char *t = query(name, sql);
    long long v = strtoll(t, NULL, 10);
    free(t);
    return v;
}

static void expect_same_rows(const char *a, const char *b, const char *sql)
{
    char *x = query(a, sql), *y = query(b, sql);
    if (strcmp(x, y) != 0) fail_msg("%s and %s differ on %s", a, b, sql);
    free(x);
    free(y);
}

static void expect_valid(const char *name)
{
    char *ic = query(name, "PRAGMA integrity_check"), *fk = query(name, "PRAGMA foreign_key_check");
    assert_string_equal(ic, "ok\n");
    assert_string_equal(fk, "");
    free(ic);
    free(fk);
    /* every game has exactly its positions */
    assert_int_equal(query_int(name, "SELECT count(*) FROM games g WHERE npositions <>"
                                     " (SELECT count(*) FROM positions p WHERE p.game_id = g.id)"), 0);
}

/* `dama ARGS` with output into out: its exit code. */
static int dama(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int dama(char *out, size_t len, const char *fmt, ...)
{
    char args[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return test_dama_run(out, len, "%s", args);
}

static void merge_ok(const char *into, const char *shards, const char *summary)
{
    char out[4096];
    char paths[1024] = "";
    char copy[512];
    snprintf(copy, sizeof copy, "%s", shards);
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        size_t n = strlen(paths);
        snprintf(paths + n, sizeof paths - n, " %s", path_in(tok));
    }
    int code = dama(out, sizeof out, "db merge --into %s%s", path_in(into), paths);
    if (code != 0) fail_msg("merge into %s of%s: exit %d\n%s", into, paths, code, out);
    if (summary && !strstr(out, summary)) fail_msg("merge summary lacks '%s':\n%s", summary, out);
}

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(dir, sizeof dir, "merge") != 0) return -1;
    if (test_shell(">/dev/null 2>&1", "command -v parallel") != 0) {
        fprintf(stderr, "GNU parallel is missing (scripts/install-deps installs it)\n");
        return -1;
    }
    char out[4096];
    if (dama(out, sizeof out, PLAY " --db %s", path_in("whole.db")) != 0) {
        fprintf(stderr, "%s", out);
        return -1;
    }
    /* the shards side by side, as on a cluster: each its own file */
    return test_shell(">/dev/null", "parallel -j %d %s " PLAY " --db %s/s{}.db --shard {}/%d ::: 1 2 3", SHARDS,
                      test_dama_bin(), dir, SHARDS);
}

static int teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(dir);
}

/* runner_shard_range against blocks worked by hand: shard k of n takes pairs
 * floor((k-1)P/n) .. floor(kP/n)-1 of the P pairs, the lone last game of an odd total
 * with the last pair, and a shard may be empty when there are fewer pairs than shards. */
static void test_shard_ranges(void **state)
{
    (void)state;
    static const struct { int games, shards, first[5], end[5]; } cases[] = {
        { 24, 3, { 0, 8, 16 }, { 8, 16, 24 } },
        { 21, 3, { 0, 6, 14 }, { 6, 14, 21 } },        /* 11 pairs: 3, 4, 4 (game 20 alone) */
        { 24, 5, { 0, 4, 8, 14, 18 }, { 4, 8, 14, 18, 24 } }, /* 12 pairs: 2, 2, 3, 2, 3 */
        { 4, 3, { 0, 0, 2 }, { 0, 2, 4 } },            /* 2 pairs: the first shard is empty */
        { 7, 1, { 0 }, { 7 } },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (int k = 1; k <= cases[c].shards; k++) {
            int first = -1, end = -1;
            runner_shard_range(cases[c].games, k, cases[c].shards, &first, &end);
            if (first != cases[c].first[k - 1] || end != cases[c].end[k - 1])
                fail_msg("%d games, shard %d/%d: [%d, %d), expected [%d, %d)", cases[c].games, k, cases[c].shards,
                         first, end, cases[c].first[k - 1], cases[c].end[k - 1]);
        }
    }
    int first = -1, end = -1;
    runner_shard_range(9, 0, 0, &first, &end);  /* not sharded: every game */
    assert_int_equal(first, 0);
    assert_int_equal(end, 9);
}

/* The shards split the pairs: 12 pairs in blocks of 4, each shard's games its block. */
static void test_shards_split_the_pairs(void **state)
{
    (void)state;
    for (int k = 1; k <= SHARDS; k++) {
        char name[16];
        snprintf(name, sizeof name, "s%d.db", k);
        assert_int_equal(query_int(name, "SELECT count(*) FROM games"), 8);
        assert_int_equal(query_int(name, "SELECT min(game_index) FROM games"), 8 * (k - 1));
        assert_int_equal(query_int(name, "SELECT max(game_index) FROM games"), 8 * k - 1);
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM runs WHERE shard = %d AND shards = 3 AND params LIKE"
                 " '%% shard=%d/3'", k, k);
        assert_int_equal(query_int(name, sql), 1);
    }
    /* one identity for the three shards and the unsharded run */
    char *id = query("whole.db", "SELECT identity FROM runs");
    for (int k = 1; k <= SHARDS; k++) {
        char name[16];
        snprintf(name, sizeof name, "s%d.db", k);
        char *other = query(name, "SELECT identity FROM runs");
        assert_string_equal(other, id);
        free(other);
    }
    free(id);
}

/* Worked examples of run_params_remap: weights 1 -> 5, 3 -> 7; runs 1 -> 4, 2 -> 9,
 * 3 -> 6; anything else unmapped; id 666 fails the lookup. */
static int64_t example_lookup(void *ctx, ParamsIdKind kind, int64_t id)
{
    (void)ctx;
    static const int64_t weights[][2] = { { 1, 5 }, { 3, 7 } }, runs[][2] = { { 1, 4 }, { 2, 9 }, { 3, 6 } };
    if (id == 666) return PARAMS_ID_FAILED;
    const int64_t (*map)[2] = kind == PARAMS_ID_WEIGHTS ? weights : runs;
    size_t n = kind == PARAMS_ID_WEIGHTS ? 2 : 3;
    for (size_t i = 0; i < n; i++)
        if (map[i][0] == id) return map[i][1];
    return PARAMS_ID_UNMAPPED;
}

static void expect_remap(const char *in, const char *want)
{
    char out[256];
    if (!run_params_remap(in, example_lookup, NULL, out, sizeof out)) fail_msg("'%s': refused", in);
    assert_string_equal(out, want);
}

static void test_params_ids_follow_the_rows(void **state)
{
    (void)state;
    expect_remap("games=24 nodes=300 weights=1 shard=1/3", "games=24 nodes=300 weights=5 shard=1/3");
    expect_remap("seed=7 weights=3 train_run=2 generation=1", "seed=7 weights=7 train_run=9 generation=1");
    expect_remap("games=10 a=3 b=1", "games=10 a=7 b=5");
    expect_remap("lr=1 runs=1,3 eval=pattern", "lr=1 runs=4,6 eval=pattern");
    expect_remap("runs=all", "runs=all");
    expect_remap("runs=1,8", "runs=4,8");                                 /* 8: unmapped, kept */
    expect_remap("weights=12 seed=1", "weights=12 seed=1");               /* not weights=1 */
    expect_remap("noweights=1 xa=3 weights=1x runs=1, a=", "noweights=1 xa=3 weights=1x runs=1, a=");
    expect_remap("a=engine:scan(scan hub weights=1) b=3", "a=engine:scan(scan hub weights=1) b=7");
    expect_remap("  weights=1  ", "  weights=5  ");
    expect_remap("", "");
    expect_remap("weights=9223372036854775807", "weights=9223372036854775807"); /* INT64_MAX: an id */
    expect_remap("weights=001 runs=03", "weights=5 runs=6");
    char out[16];
    assert_false(run_params_remap("games=24 nodes=300 weights=1", example_lookup, NULL, out, sizeof out));
    assert_false(run_params_remap("weights=666", example_lookup, NULL, out, sizeof out));
    assert_false(run_params_remap("weights=99999999999999999999", example_lookup, NULL, out, sizeof out));
}

static void test_merged_equals_unsharded(void **state)
{
    (void)state;
    long long positions = query_int("whole.db", "SELECT count(*) FROM positions");
    char summary[128];
    snprintf(summary, sizeof summary, "merged shards 3 runs 1 games 24 positions %lld skipped-games 0 ", positions);
    merge_ok("m.db", "s1.db s2.db s3.db", summary);
    expect_valid("m.db");
    assert_int_equal(query_int("m.db", "SELECT count(*) FROM runs"), 1);
    assert_int_equal(query_int("m.db", "SELECT count(DISTINCT game_index) FROM games"), GAMES);
    assert_int_equal(query_int("m.db", "SELECT count(*) FROM games"), GAMES);
    assert_int_equal(query_int("m.db", "SELECT count(*) FROM runs WHERE status = 'done' AND shards = 3"
                                       " AND shard IS NULL"), 1);
    assert_int_equal(query_int("m.db", "SELECT count(*) FROM run_shards WHERE status = 'done'"), 3);
    expect_same_rows("whole.db", "m.db", "SELECT kind, params, identity, variant, bench_signature FROM runs");
    expect_same_rows("whole.db", "m.db", GAMES_DUMP);
    expect_same_rows("whole.db", "m.db", POSITIONS_DUMP);
    /* twice: nothing added */
    merge_ok("m.db", "s1.db s2.db s3.db", "merged shards 3 runs 0 games 0 positions 0 skipped-games 24 differing-games 0 ");
    expect_same_rows("whole.db", "m.db", GAMES_DUMP);
    assert_int_equal(query_int("m.db", "SELECT count(*) FROM positions"), positions);
    assert_int_equal(query_int("m.db", "SELECT count(*) FROM weights"), 1);
    /* the unsharded run is the same run: nothing new either */
    merge_ok("m.db", "whole.db", "runs 0 games 0 positions 0 skipped-games 24 differing-games 0 ");
    /* a game played otherwise (as with --movetime) is said, and the target keeps its own */
    assert_int_equal(test_shell("", "cp %s %s && sqlite3 %s \"UPDATE games SET moves = 'a3-b4' WHERE game_index = 3\"",
                                path_in("s1.db"), path_in("odd.db"), path_in("odd.db")), 0);
    merge_ok("m.db", "odd.db", "games 0 positions 0 skipped-games 8 differing-games 1 ");
    expect_same_rows("whole.db", "m.db", GAMES_DUMP);
}

/* An openings book names a run by its positions, not its path: the same file under other
 * paths on other machines is one run; another book is another run. */
static void test_openings_by_content(void **state)
{
    (void)state;
    static const char *const book =
        "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,d3,e3,f3,g3,h3,c4:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7\n"
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4:Be5,a6,b6,c6,d6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7\n";
    static const char *const other = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4:"
                                     "Be5,a6,b6,c6,d6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7\n";
    assert_int_equal(test_shell("", "cd %s && mkdir -p ba bb bc bd && printf '%%s' '%s' > ba/book.txt &&"
                                " cp ba/book.txt bb/book.txt && cp ba/book.txt bc/book.txt &&"
                                " printf '%%s' '%s' > bd/book.txt", dir, book, other), 0);
#define BOOK_PLAY "selfplay --games 8 --nodes 300 --threads 1 --seed 3 --openings %s/%s/book.txt --db %s"
    char out[4096];
    static const char *const plays[][3] = { { "ba", "--shard 1/2", "ba.db" }, { "bb", "--shard 2/2", "bb.db" },
                                            { "bc", "", "bc.db" }, { "bd", "--shard 2/2", "bd.db" } };
    for (int i = 0; i < 4; i++)
        if (dama(out, sizeof out, BOOK_PLAY " %s", dir, plays[i][0], path_in(plays[i][2]), plays[i][1]) != 0)
            fail_msg("%s %s: %s", plays[i][0], plays[i][1], out);
#undef BOOK_PLAY
    merge_ok("book.db", "ba.db bb.db", "merged shards 2 runs 1 games 8 ");
    expect_same_rows("bc.db", "book.db", GAMES_DUMP);
    expect_same_rows("bc.db", "book.db", "SELECT identity FROM runs");
    merge_ok("book.db", "bc.db", "runs 0 games 0 positions 0 skipped-games 8 ");
    /* the other book's shard 2 is a run of its own */
    merge_ok("book.db", "bd.db", "merged shards 1 runs 1 games 4 ");
    assert_int_equal(query_int("book.db", "SELECT count(*) FROM runs"), 2);
}

/* A run is 'partial' until all its shards are in, whatever their order. */
static void test_partial_until_all_shards(void **state)
{
    (void)state;
    merge_ok("p.db", "s3.db s1.db", "games 16 ");
    assert_int_equal(query_int("p.db", "SELECT count(*) FROM runs WHERE status = 'partial'"), 1);
    merge_ok("p.db", "s2.db", "games 8 ");
    assert_int_equal(query_int("p.db", "SELECT count(*) FROM runs WHERE status = 'done'"), 1);
    expect_same_rows("whole.db", "p.db", GAMES_DUMP);
    expect_same_rows("whole.db", "p.db", POSITIONS_DUMP);
}

/* `dama db merge --into INTO SHARD` started with DAMA_TEST_MERGE_STALL: its pid once it
 * waits inside its transaction, just before the commit. */
static pid_t start_stalled_merge(const char *into, const char *shard)
{
    const char *err = path_in("stall.err");
    unlink(err);  /* not the last merge's words */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (!freopen(err, "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(127);
        setenv("DAMA_TEST_MERGE_STALL", "1", 1);
        execl(test_dama_bin(), test_dama_bin(), "db", "merge", "--into", path_in(into), path_in(shard),
              (char *)NULL);
        _exit(127);
    }
    bool stalled = false;
    for (int i = 0; i < 2000 && !stalled; i++) {  /* up to 20 s */
        char *text = test_read_file(err);
        stalled = text && strstr(text, "stalled before its commit");
        free(text);
        if (!stalled) usleep(10000);
    }
    if (!stalled) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fail_msg("the merge of %s never reached its commit", shard);
    }
    return pid;
}

/* SIGKILL (and Ctrl-C) inside the merge's transaction: the target is valid and the shard
 * wholly out; merging again completes it. */
static void test_killed_merge(void **state)
{
    (void)state;
    merge_ok("k.db", "s1.db", "games 8 ");
    assert_int_equal(test_shell("", "cp %s %s", path_in("s2.db"), path_in("s2.copy")), 0);
    pid_t pid = start_stalled_merge("k.db", "s2.db");
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    expect_valid("k.db");
    assert_int_equal(query_int("k.db", "SELECT count(*) FROM games"), 8);
    assert_int_equal(query_int("k.db", "SELECT count(*) FROM games WHERE game_index >= 8"), 0);
    assert_int_equal(query_int("k.db", "SELECT count(*) FROM run_shards"), 1);
    assert_int_equal(test_shell("", "cmp -s %s %s", path_in("s2.db"), path_in("s2.copy")), 0);  /* only read */
    /* Ctrl-C: rolled back, exit 130 */
    pid = start_stalled_merge("k.db", "s2.db");
    kill(pid, SIGINT);
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    char *err = test_read_file(path_in("stall.err"));
    assert_non_null(strstr(err, "interrupted: "));
    assert_non_null(strstr(err, "s2.db and the shards after it are not merged; the 0 before it are"));
    free(err);
    expect_valid("k.db");
    assert_int_equal(query_int("k.db", "SELECT count(*) FROM games"), 8);
    merge_ok("k.db", "s2.db s3.db", "games 16 ");
    expect_same_rows("whole.db", "k.db", GAMES_DUMP);
    expect_same_rows("whole.db", "k.db", POSITIONS_DUMP);
}

/* A shard cut short (its last games lost, as by a kill) resumes into the same games. */
static void test_shard_resumes(void **state)
{
    (void)state;
    assert_int_equal(test_shell("", "cp %s %s && sqlite3 %s \"DELETE FROM positions WHERE game_id IN"
                                    " (SELECT id FROM games WHERE game_index >= 11); DELETE FROM games WHERE"
                                    " game_index >= 11; UPDATE runs SET status = 'interrupted'\"",
                                path_in("s2.db"), path_in("r.db"), path_in("r.db")), 0);
    char out[4096];
    int code = dama(out, sizeof out, PLAY " --shard 2/3 --resume --db %s", path_in("r.db"));
    if (code != 0) fail_msg("resume: exit %d\n%s", code, out);
    if (!strstr(out, "games 5 ") || !strstr(out, "resumed 3 stored shard 2/3")) fail_msg("resume:\n%s", out);
    expect_same_rows("s2.db", "r.db", GAMES_DUMP);
    expect_same_rows("s2.db", "r.db", POSITIONS_DUMP);
    /* another shard's options do not resume it */
    code = dama(out, sizeof out, PLAY " --shard 1/3 --resume --db %s", path_in("r.db"));
    assert_int_equal(code, 2);
}

/* A shard of schema v6 with a row in every table: migrated in a copy, the file unchanged,
 * every table carried over, and again nothing added. */
static void test_old_schema_every_table(void **state)
{
    (void)state;
    const char *old = path_in("v6.db");
    assert_int_equal(test_shell("", "sqlite3 %s < tests/data/schema-v6.sql", old), 0);
    assert_int_equal(test_shell("", "sqlite3 %s \""
        "INSERT INTO weights (id, variant, generation, text, hash) VALUES (1, 'turkish', 0, 'man 100\n', 'aa'),"
        " (2, 'turkish', 1, 'man 110\n', 'bb');"
        "UPDATE weights SET parent_id = 1 WHERE id = 2;"
        "INSERT INTO runs (id, kind, params, status, weights_id, host, pid, started_at) VALUES"
        " (1, 'selfplay', 'games=2 weights=1 train_run=3', 'done', 1, 'h', 1, 100),"
        " (2, 'tune', 'runs=1,4 lr=1', 'done', NULL, 'h', 1, 101),"
        " (3, 'train', NULL, 'done', 1, 'h', 1, 99), (4, 'import', NULL, 'done', NULL, 'h', 2, 50);"
        "INSERT INTO openings (id, fen, source) VALUES (1, 'W:Wa3:Bh6', 'file');"
        "INSERT INTO games (id, run_id, pair_id, opening_id, white_weights_id, black_weights_id, result, reason,"
        " plies, mars, moves, seed, npositions, game_index) VALUES"
        " (1, 1, 1, 1, 1, 1, 'white', 'no-moves', 2, 1, 'a3-a4 h6-h5', 5, 3, 0),"
        " (2, 1, 1, 1, 1, 1, 'draw', 'move-cap', 1, 0, 'a3-b4', 6, 2, 1),"
        " (3, 4, NULL, 1, NULL, NULL, 'black', NULL, 0, 0, '', NULL, 1, 0);"
        "INSERT INTO positions VALUES (1, 0, 1, 0, 3, 4, 0, 12, 0), (1, 1, 5, 6, 7, 8, 1, NULL, 1),"
        " (1, 2, 9, 10, 11, 12, 0, -30, 0), (2, 0, 1, 2, 3, 4, 0, 5, 0), (2, 1, 6, 7, 8, 9, 1, 10, 0),"
        " (3, 0, 1, 2, 3, 4, 0, NULL, 0);"
        "INSERT INTO tune_runs (id, run_id, parent_weights_id, result_weights_id, k, epochs) VALUES (1, 2, 1, 2, 0.004, 1);"
        "INSERT INTO tune_epochs VALUES (1, 0, 0.25, 0.5), (1, 1, 0.2, 0.4);"
        "INSERT INTO matches (run_id, weights_a, weights_b, games, wins) VALUES (1, 2, 1, 2, 1);"
        "INSERT INTO analyses (run_id, fen, score) VALUES (1, 'W:Wa3:Bh6', 40);"
        "INSERT INTO train_steps (train_run_id, generation, step, ref_id, best_weights_id, candidate_weights_id,"
        " outcome) VALUES (3, 1, 'selfplay', 1, 1, NULL, NULL), (3, 1, 'tune', 2, 1, 2, NULL),"
        " (3, 1, 'decision', 0, 2, 2, 'promoted');"
        "INSERT INTO pdn_games VALUES (3, 'pdn-identity-1', 'x.pdn:1');"
        "INSERT INTO pdn_tags VALUES (3, 0, 'Event', 'e');"
        "INSERT INTO pdn_notes VALUES (3, 0, 0, '{c}');\"", old), 0);
    assert_int_equal(test_shell("", "cp %s %s", old, path_in("v6.copy")), 0);
    /* into a target that holds other rows already, so that every id is remapped */
    merge_ok("o.db", "s1.db", NULL);
    merge_ok("o.db", "v6.db", "merged shards 1 runs 4 games 3 positions 6 skipped-games 0 ");
    assert_int_equal(test_shell("", "cmp -s %s %s", old, path_in("v6.copy")), 0);
    expect_valid("o.db");
    static const char *const tables[] = { "tune_runs", "tune_epochs", "matches", "analyses", "train_steps",
                                          "pdn_games", "pdn_tags", "pdn_notes", "openings" };
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", tables[i]);
        long long want = query_int("v6.db", sql) + query_int("s1.db", sql);
        if (query_int("o.db", sql) != want) fail_msg("%s: %lld rows, expected %lld", tables[i], query_int("o.db", sql), want);
    }
    /* the references follow the rows: by content, not by id */
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM weights c JOIN weights p ON p.id = c.parent_id"
                                       " WHERE c.hash = 'bb' AND p.hash = 'aa'"), 1);
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM train_steps s JOIN runs r ON r.id = s.train_run_id"
                                       " JOIN runs sp ON sp.id = s.ref_id WHERE r.kind = 'train' AND s.step = 'selfplay'"
                                       " AND sp.kind = 'selfplay' AND sp.params LIKE 'games=2 %'"), 1);
    /* and the ids its params name: the target's, as its weights_id is */
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM runs sp JOIN weights w ON w.hash = 'aa'"
                                       " JOIN runs tr ON tr.kind = 'train' WHERE sp.params ="
                                       " 'games=2 weights=' || w.id || ' train_run=' || tr.id"
                                       " AND sp.weights_id = w.id AND w.id <> 1 AND tr.id <> 3"), 1);
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM runs t JOIN runs a ON a.params LIKE 'games=2 %'"
                                       " JOIN runs b ON b.kind = 'import' WHERE t.kind = 'tune'"
                                       " AND t.params = 'runs=' || a.id || ',' || b.id || ' lr=1'"), 1);
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM runs WHERE kind = 'selfplay' AND"
                                       " instr(params || ' ', ' weights=' || weights_id || ' ') = 0"), 0);
    /* ids that grow a lot: thirty one-digit ids, each becoming nine digits */
    char ones[128] = "runs=1", want[512] = "runs=123456790", cwd[1024];
    for (int i = 1; i < 30; i++) {
        strcat(ones, ",1");
        strcat(want, ",123456790");
    }
    /* (in dir: path_in has four buffers only) */
    assert_int_equal(test_shell("", "cd %s && sqlite3 big.db < %s/data/schema.sql && sqlite3 big.db \"INSERT INTO"
                                " runs (id, kind) VALUES (123456789, 'import')\" && cp s1.db ones.db && sqlite3"
                                " ones.db \"INSERT INTO runs (kind, params, status) VALUES ('tune', '%s', 'done')\"",
                                dir, getcwd(cwd, sizeof cwd), ones), 0);
    merge_ok("big.db", "ones.db", "runs 2 ");
    char *params = query("big.db", "SELECT params FROM runs WHERE kind = 'tune'");
    strcat(want, "\n");
    assert_string_equal(params, want);
    free(params);
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM train_steps s JOIN weights w ON w.id = s.ref_id"
                                       " WHERE s.step = 'tune' AND w.hash = 'bb'"), 1);
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM tune_epochs e JOIN tune_runs t ON t.id = e.tune_run_id"
                                       " JOIN weights w ON w.id = t.result_weights_id WHERE w.hash = 'bb'"), 2);
    assert_int_equal(query_int("o.db", "SELECT count(*) FROM pdn_tags t JOIN games g ON g.id = t.game_id"
                                       " JOIN runs r ON r.id = g.run_id WHERE r.kind = 'import'"), 1);
    char *before = query("o.db", "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM tune_runs),"
                                 " (SELECT count(*) FROM matches), (SELECT count(*) FROM analyses),"
                                 " (SELECT count(*) FROM train_steps), (SELECT count(*) FROM tune_epochs)");
    merge_ok("o.db", "v6.db", "runs 0 games 0 positions 0 skipped-games 3 differing-games 0 ");
    /* and a merged file merged on (it has identities now): the same rows once more */
    merge_ok("o2.db", "o.db", NULL);
    merge_ok("o2.db", "v6.db s1.db", "runs 0 games 0 positions 0 skipped-games 11 differing-games 0 ");
    char *after = query("o.db", "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM tune_runs),"
                                " (SELECT count(*) FROM matches), (SELECT count(*) FROM analyses),"
                                " (SELECT count(*) FROM train_steps), (SELECT count(*) FROM tune_epochs)");
    char *copied = query("o2.db", "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM tune_runs),"
                                  " (SELECT count(*) FROM matches), (SELECT count(*) FROM analyses),"
                                  " (SELECT count(*) FROM train_steps), (SELECT count(*) FROM tune_epochs)");
    assert_string_equal(before, after);
    assert_string_equal(before, copied);
    free(before);
    free(after);
    free(copied);
}

/* Weights meet by variant, hash and head (text): the same numbers under another head (a
 * feature set of another version) are other weights, while the same hash and head over
 * another table is refused (schema v10; before it the first was refused too). */
static void test_weights_by_hash_and_head(void **state)
{
    (void)state;
    static const char *const rows[] = { "'head A', x'0102'", "'head B', x'0102'", "'head A', x'0304'" };
    char name[16];
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "w%d.db", i);
        assert_int_equal(test_shell("", "sqlite3 %s < data/schema.sql && sqlite3 %s \"INSERT INTO weights"
                                    " (variant, generation, text, blob, hash) VALUES ('turkish', 0, %s, 'cc')\"",
                                    path_in(name), path_in(name), rows[i]), 0);
    }
    merge_ok("wt.db", "w0.db w1.db", NULL);
    assert_int_equal(query_int("wt.db", "SELECT count(*) FROM weights WHERE hash = 'cc'"), 2);
    merge_ok("wt.db", "w1.db", NULL);
    assert_int_equal(query_int("wt.db", "SELECT count(*) FROM weights"), 2);
    char out[4096];
    assert_int_equal(dama(out, sizeof out, "db merge --into %s %s", path_in("wt.db"), path_in("w2.db")), 2);
    assert_non_null(strstr(out, "the same hash and head name another table"));
    assert_int_equal(query_int("wt.db", "SELECT count(*) FROM weights"), 2);
}

/* Bad input: one line naming the file, exit 2, the target as it was. */
static void expect_refused(const char *shards, const char *needle)
{
    char out[4096];
    int code = dama(out, sizeof out, "db merge --into %s %s", path_in("t.db"), shards);
    if (code != 2) fail_msg("merge of %s: exit %d, expected 2\n%s", shards, code, out);
    if (!strstr(out, needle)) fail_msg("merge of %s: output lacks '%s':\n%s", shards, needle, out);
    if (strchr(out, '\n') != out + strlen(out) - 1) fail_msg("merge of %s: more than one line:\n%s", shards, out);
    assert_int_equal(test_shell("", "cmp -s %s %s", path_in("t.db"), path_in("t.copy")), 0);
}

static void test_bad_input(void **state)
{
    (void)state;
    char out[4096];
    merge_ok("t.db", "s1.db", NULL);
    assert_int_equal(test_shell("", "cp %s %s", path_in("t.db"), path_in("t.copy")), 0);
    char arg[600];
    snprintf(arg, sizeof arg, "%s %s", path_in("s2.db"), path_in("missing.db"));
    expect_refused(arg, "missing.db: no such file");  /* s2.db, good, is not merged either */
    assert_int_equal(test_shell("", "echo 'not a database' > %s", path_in("text.db")), 0);
    expect_refused(path_in("text.db"), "text.db: not a dama database");
    assert_int_equal(test_shell("", "sqlite3 %s 'CREATE TABLE t (x)'", path_in("other.db")), 0);
    expect_refused(path_in("other.db"), "other.db: not a dama database");
    assert_int_equal(test_shell("", "cp %s %s && sqlite3 %s 'PRAGMA user_version = 99'", path_in("s2.db"),
                                path_in("newer.db"), path_in("newer.db")), 0);
    expect_refused(path_in("newer.db"), "newer.db: database schema version 99 is newer");
    assert_int_equal(dama(out, sizeof out, "selfplay -v international --games 2 --nodes 100 --threads 1 --db %s",
                          path_in("intl.db")), 0);
    expect_refused(path_in("intl.db"), "intl.db: run 1 is international, not turkish");
    snprintf(arg, sizeof arg, "--variant intl %s", path_in("s2.db"));
    expect_refused(arg, "s2.db: run 1 is turkish, not international");
    /* a file may hold both variants, each merged with its own --variant */
    snprintf(arg, sizeof arg, "db merge --into %s --variant international %s", path_in("t.db"), path_in("intl.db"));
    assert_int_equal(dama(out, sizeof out, "%s", arg), 0);
    assert_non_null(strstr(out, "merged shards 1 runs 1 games 2 "));
    assert_int_equal(query_int("t.db", "SELECT count(DISTINCT variant) FROM runs"), 2);
    /* a target that is no dama database is refused as it is, and stays as it was */
    assert_int_equal(dama(out, sizeof out, "db merge --into %s %s", path_in("text.db"), path_in("s1.db")), 2);
    assert_non_null(strstr(out, "text.db: not a dama database"));
    char *text = test_read_file(path_in("text.db"));
    assert_string_equal(text, "not a database\n");
    free(text);
    assert_int_equal(dama(out, sizeof out, "db merge --into %s", path_in("t.db")), 2);
    assert_int_equal(dama(out, sizeof out, "db merge %s", path_in("s1.db")), 2);
    assert_int_equal(dama(out, sizeof out, "db merge --into %s %s", path_in("t.db"), path_in("t.db")), 2);
}

/* scripts/cluster/slurm-generation.sh with a fake sbatch that records each job and its
 * dependency and runs the jobs in order: the chain is array of shards -> merge -> tune ->
 * match, each after the last ended well, and its result is a promotion decision. */
static void test_slurm_chain(void **state)
{
    (void)state;
    int code = test_shell(">/dev/null 2>&1", "DAMA=%s CLUSTER_TEST_DIR=%s scripts/cluster/test-scripts",
                          test_dama_bin(), path_in("slurm"));
    if (code != 0) {
        test_shell("", "cat %s/slurm/log >&2", dir);
        fail_msg("scripts/cluster/test-scripts: exit %d", code);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shard_ranges),
        cmocka_unit_test(test_params_ids_follow_the_rows),
        cmocka_unit_test(test_shards_split_the_pairs),
        cmocka_unit_test(test_merged_equals_unsharded),
        cmocka_unit_test(test_openings_by_content),
        cmocka_unit_test(test_partial_until_all_shards),
        cmocka_unit_test(test_killed_merge),
        cmocka_unit_test(test_shard_resumes),
        cmocka_unit_test(test_old_schema_every_table),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_weights_by_hash_and_head),
        cmocka_unit_test(test_slurm_chain),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
