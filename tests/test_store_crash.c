/* Crash test of store/: a child process writes batches of games in a loop and is killed
 * with SIGKILL at a random-ish moment; the parent then opens the file and requires that it
 * is intact (integrity, foreign keys, every game with exactly its npositions positions),
 * that every batch the child reported committed is there and no batch is there in part,
 * that a game reads back exactly as written, that the killed run is marked 'stale' and that
 * new writes work.  The moments of the kills follow from a seed, DAMA_TEST_SEED in the
 * environment (a fixed default otherwise), printed so that a failure can be replayed:
 *   DAMA_TEST_SEED=1234 build/opt/tests/test_store_crash
 * (the kill lands where the child happens to be after a pause drawn from the seed, so a
 * replay repeats the pauses, not necessarily the exact instruction). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "store.h"

enum { BATCH = 25, MAX_PLIES = 150, ROUNDS = 5 };

static uint64_t next_random(uint64_t *state)  /* splitmix64 */
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Everything about a game follows from its seed, so the parent can regenerate and compare
 * any game the child wrote. */
typedef struct CrashGame {
    GameRecord rec;
    StoredPosition pos[MAX_PLIES + 1];
} CrashGame;

static void make_game(CrashGame *g, int64_t run_id, uint64_t seed)
{
    uint64_t r = seed;
    memset(g, 0, sizeof *g);
    int plies = 20 + (int)(next_random(&r) % (MAX_PLIES - 20));
    for (int i = 0; i <= plies; i++) {
        StoredPosition *p = &g->pos[i];
        p->pos.men[WHITE] = next_random(&r);
        p->pos.kings[WHITE] = next_random(&r) | (1ull << 63);
        p->pos.men[BLACK] = next_random(&r);
        p->pos.kings[BLACK] = next_random(&r);
        p->pos.side = i & 1;
        p->has_score = (next_random(&r) & 3) != 0;
        p->score = p->has_score ? (int)(next_random(&r) % 2001) - 1000 : 0;
        p->capture_pending = (next_random(&r) & 7) == 0;
    }
    g->rec = (GameRecord){ .variant = "turkish",.run_id = run_id, .result = RESULT_DRAW, .reason = "move-cap",
                          .plies = plies, .moves = "", .seed = seed, .positions = g->pos,
                          .npositions = plies + 1};
}

/* The child: writes batches forever, one byte to `fd` after each commit. */
static void writer_child(const char *path, int fd, uint64_t first_seed)
{
    char err[256];
    Store *s = store_open(path, err, sizeof err);
    if (!s) _exit(2);
    int64_t run = store_run_begin(s, "selfplay", "turkish", "{\"crash\":true}", NULL, NULL, 0);
    if (run < 0) _exit(3);
    static CrashGame games[BATCH];
    GameRecord batch[BATCH];
    for (uint64_t seed = first_seed;; ) {
        for (int i = 0; i < BATCH; i++, seed++) {
            make_game(&games[i], run, seed);
            batch[i] = games[i].rec;
        }
        if (!store_games_write(s, batch, BATCH)) _exit(4);
        if (write(fd, "c", 1) != 1) _exit(5);
    }
}

static int64_t count(Store *s, const char *table)
{
    int64_t n = -1;
    if (!store_count(s, table, &n)) fail_msg("store_count(%s): %s", table, store_error(s));
    return n;
}

/* Reads game `id` back and compares it with the game its seed generates. */
static void verify_game(Store *s, int64_t id)
{
    StoredGame g;
    if (!store_game_read(s, id, &g)) fail_msg("store_game_read(%lld): %s", (long long)id, store_error(s));
    static CrashGame want;
    make_game(&want, g.rec.run_id, g.rec.seed);
    assert_int_equal(g.rec.plies, want.rec.plies);
    assert_int_equal(g.rec.npositions, want.rec.npositions);
    for (int i = 0; i < want.rec.npositions; i++) {
        const StoredPosition *a = &g.rec.positions[i], *b = &want.pos[i];
        if (memcmp(&a->pos.men, &b->pos.men, sizeof a->pos.men) != 0 ||
            memcmp(&a->pos.kings, &b->pos.kings, sizeof a->pos.kings) != 0 ||
            a->pos.side != b->pos.side || a->has_score != b->has_score || a->score != b->score ||
            a->capture_pending != b->capture_pending)
            fail_msg("game %lld ply %d differs from what was written", (long long)id, i);
    }
    store_game_free(&g);
}

static void remove_db(const char *path)
{
    static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        char p[80];
        snprintf(p, sizeof p, "%s%s", path, suffixes[i]);
        unlink(p);
    }
}

/* The file lives from setup to teardown, so a failing test removes it too. */
static int setup_db(void **state)
{
    char *path = malloc(64);
    if (!path) return -1;
    snprintf(path, 64, "/tmp/dama-test-crash-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        free(path);
        return -1;
    }
    close(fd);
    *state = path;
    return 0;
}

static int teardown_db(void **state)
{
    remove_db(*state);
    free(*state);
    return 0;
}

static void test_kill_writer(void **state)
{
    const char *path = *state;
    const char *env = getenv("DAMA_TEST_SEED");
    char *end = NULL;
    uint64_t rng = env && *env ? strtoull(env, &end, 10) : 20261201;
    if (env && *env && *end) fail_msg("DAMA_TEST_SEED=%s: expected a number", env);
    printf("crash test seed %llu (DAMA_TEST_SEED=%llu replays it)\n", (unsigned long long)rng,
           (unsigned long long)rng);

    int64_t committed_games = 0;
    for (int round = 0; round < ROUNDS; round++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            writer_child(path, fds[1], (uint64_t)round << 40);
        }
        close(fds[1]);
        /* Round 0 kills the child soon after it starts, on a fresh file, so the kill may
         * land in schema creation; later rounds wait for some commits first. */
        int commits = round == 0 ? 0 : 1 + (int)(next_random(&rng) % 6);
        for (int i = 0; i < commits; i++) {
            char c;
            if (read(fds[0], &c, 1) != 1) fail_msg("the writer died before commit %d", i + 1);
        }
        struct timespec pause = {0, (long)(next_random(&rng) % 15000000)};  /* 0-15 ms */
        nanosleep(&pause, NULL);
        kill(pid, SIGKILL);
        int status = 0;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (!WIFSIGNALED(status)) fail_msg("the writer exited with %d instead of being killed", WEXITSTATUS(status));
        /* Count every commit the child reported, including those after `commits`. */
        char buf[256];
        ssize_t got;
        int reported = commits;
        while ((got = read(fds[0], buf, sizeof buf)) > 0) reported += (int)got;
        close(fds[0]);
        committed_games += (int64_t)reported * BATCH;

        char err[256];
        Store *s = store_open(path, err, sizeof err);
        if (!s) fail_msg("round %d: reopening after the kill: %s", round, err);
        if (!store_check(s)) fail_msg("round %d: %s", round, store_error(s));
        /* The writer's run, if it got that far, ended with its process: the reopening
         * writer marked it stale. */
        char run_status[16] = "", params[64] = "";
        if (store_last_run(s, "selfplay", "turkish", run_status, sizeof run_status, params, sizeof params) > 0 &&
            strstr(params, "crash"))
            assert_string_equal(run_status, "stale");
        int64_t games = count(s, "games");
        printf("round %d: killed after %d commits were awaited (%d reported in all); %lld games on disk\n", round,
               commits, reported, (long long)games);
        assert_true(games % BATCH == 0);        /* no batch in part */
        assert_true(games >= committed_games);  /* every reported batch is there */
        assert_true(games <= committed_games + BATCH);  /* at most one commit not yet reported */
        committed_games = games;
        if (games > 0) {
            verify_game(s, 1);
            verify_game(s, games);
            verify_game(s, 1 + (int64_t)(next_random(&rng) % (uint64_t)games));
        }

        /* New writes work on the recovered file. */
        int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
        if (run < 0) fail_msg("round %d: %s", round, store_error(s));
        static CrashGame extra[BATCH];
        GameRecord batch[BATCH];
        for (int i = 0; i < BATCH; i++) {
            make_game(&extra[i], run, ((uint64_t)round << 40) + (1ull << 36) + (uint64_t)i);
            batch[i] = extra[i].rec;
        }
        if (!store_games_write(s, batch, BATCH)) fail_msg("round %d: %s", round, store_error(s));
        committed_games += BATCH;
        assert_int_equal(count(s, "games"), committed_games);
        assert_true(store_check(s));
        store_close(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_kill_writer, setup_db, teardown_db),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
