/* One database holding both games: Turkish self-play games from dama, International runs,
 * games and positions added through the store.  Every reader of Turkish games (export,
 * tune, analyze) must behave exactly as on the same database without the International
 * rows, and a run or game of the other variant asked for by id is refused by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "store.h"
#include "test_util.h"

typedef struct Fixture {
    char dir[64];
    char pure[96];   /* Turkish games only */
    char mixed[96];  /* the same file plus the International rows */
    int64_t intl_run, intl_game;
} Fixture;

static Fixture fx;

static char redirect[256];
#define sh(...) test_shell(redirect, __VA_ARGS__)

/* Stored positions for the International games: bit patterns, as the store keeps them. */
enum { INTL_GAMES = 3, INTL_PLIES = 12 };

static bool add_international(const char *path, int64_t *run_out, int64_t *game_out)
{
    char err[256];
    Store *s = store_open(path, err, sizeof err);
    if (!s) return false;
    int64_t run = store_run_begin(s, "selfplay", "international", "intl", NULL, NULL, 0);
    int64_t opening = store_opening_put(s, "international", "W:W31-50:B1-20", "test");
    static StoredPosition pos[INTL_GAMES][INTL_PLIES + 1];
    GameRecord recs[INTL_GAMES];
    for (int g = 0; g < INTL_GAMES; g++) {
        for (int i = 0; i <= INTL_PLIES; i++) {
            pos[g][i].pos.men[0] = 0xfffff00000ull + (uint64_t)(g * 31 + i);
            pos[g][i].pos.men[1] = 0xfffffull << 2;
            pos[g][i].pos.side = i % 2;
            pos[g][i].has_score = true;
            pos[g][i].score = 40 * (g + 1);
        }
        recs[g] = (GameRecord){ .variant = "international", .run_id = run, .opening_id = opening,
                                .result = g == 0 ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, .reason = "no-moves",
                                .plies = INTL_PLIES, .moves = "32-28", .positions = pos[g],
                                .npositions = INTL_PLIES + 1, .has_index = true, .game_index = g };
    }
    bool ok = run > 0 && opening > 0 && store_games_write(s, recs, INTL_GAMES) && store_run_end(s, run, "done");
    int64_t n = 0;
    ok = ok && store_count(s, "games", &n);
    *run_out = run;
    *game_out = n;  /* the International games were written last */
    if (!ok) fprintf(stderr, "%s: %s\n", path, store_error(s));
    store_close(s);
    return ok;
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(fx.dir, sizeof fx.dir, "/tmp/dama-test-variant-XXXXXX");
    if (!mkdtemp(fx.dir)) return -1;
    snprintf(redirect, sizeof redirect, ">%s/out.txt 2>%s/err.txt", fx.dir, fx.dir);
    snprintf(fx.pure, sizeof fx.pure, "%s/pure.db", fx.dir);
    snprintf(fx.mixed, sizeof fx.mixed, "%s/mixed.db", fx.dir);
    if (sh("%s selfplay --db %s --games 4 --nodes 300 --threads 1", test_dama_bin(), fx.pure) != 0) return -1;
    /* dama has closed the file, so its WAL is checkpointed and gone: a plain copy is whole */
    if (sh("cp %s %s", fx.pure, fx.mixed) != 0) return -1;
    return add_international(fx.mixed, &fx.intl_run, &fx.intl_game) ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    sh("rm -rf %s", fx.dir);
    return 0;
}

/* The files FX.DIR/A and FX.DIR/B hold the same bytes. */
static void expect_same_files(const char *a, const char *b)
{
    char pa[160], pb[160];
    snprintf(pa, sizeof pa, "%s/%s", fx.dir, a);
    snprintf(pb, sizeof pb, "%s/%s", fx.dir, b);
    char *ta = test_read_file(pa), *tb = test_read_file(pb);
    assert_non_null(ta);
    assert_non_null(tb);
    if (strcmp(ta, tb) != 0) fail_msg("%s differs with International rows in the file:\n%s\n---\n%s", b, ta, tb);
    free(ta);
    free(tb);
}

/* Every export file of the mixed database equals the pure one's, byte for byte. */
static void test_export_ignores_the_other_variant(void **state)
{
    (void)state;
    assert_int_equal(sh("%s export --db %s --out %s/pure/", test_dama_bin(), fx.pure, fx.dir), 0);
    assert_int_equal(sh("%s export --db %s --out %s/mixed/", test_dama_bin(), fx.mixed, fx.dir), 0);
    static const char *const files[] = { "runs", "games", "positions", "summary", "openings", "calibration",
                                         "weights", "tuning", "tune_runs", "matches", "analyses" };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "pure/%s.csv", files[i]);
        snprintf(b, sizeof b, "mixed/%s.csv", files[i]);
        expect_same_files(a, b);
    }
    /* the files say their variant: games end with a variant column of 'turkish' */
    char games[160];
    snprintf(games, sizeof games, "%s/mixed/games.csv", fx.dir);
    char *t = test_read_file(games);
    assert_non_null(t);
    assert_non_null(strstr(t, ",variant\n"));
    assert_non_null(strstr(t, ",turkish\n"));
    assert_null(strstr(t, "international"));
    free(t);
}

/* tune learns from the same positions, so it writes the same weights. */
static void test_tune_ignores_the_other_variant(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    assert_int_equal(sh("%s tune --db %s --epochs 3 --threads 1 --skip-plies 0 --out %s/pure.txt", bin, fx.pure,
                        fx.dir), 0);
    assert_int_equal(sh("%s tune --db %s --epochs 3 --threads 1 --skip-plies 0 --out %s/mixed.txt", bin, fx.mixed,
                        fx.dir), 0);
    expect_same_files("pure.txt", "mixed.txt");
}

/* The other variant's run or game, asked for by id: exit 2, both variants named. */
static void expect_refused(const char *args)
{
    char out[4096];
    int code = test_dama_run(out, sizeof out, "%s", args);
    if (code != 2 || !strstr(out, "international") || !strstr(out, "turkish"))
        fail_msg("dama %s: exit %d: %s", args, code, out);
}

static void test_other_variant_by_id_refused(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "analyze --db %s --game %lld --nodes 100", fx.mixed, (long long)fx.intl_game);
    expect_refused(args);
    snprintf(args, sizeof args, "analyze --db %s --run %lld --sample 2 --nodes 100", fx.mixed, (long long)fx.intl_run);
    expect_refused(args);
    snprintf(args, sizeof args, "export --db %s --run %lld --out %s/x.csv games", fx.mixed, (long long)fx.intl_run,
             fx.dir);
    expect_refused(args);
    snprintf(args, sizeof args, "tune --db %s --runs %lld --epochs 1 --out %s/x.txt", fx.mixed,
             (long long)fx.intl_run, fx.dir);
    expect_refused(args);
    /* a Turkish game of the same file is still analysed */
    char out[4096];
    assert_int_equal(test_dama_run(out, sizeof out, "analyze --db %s --game 1 --plies 0 --nodes 100", fx.mixed), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_export_ignores_the_other_variant),
        cmocka_unit_test(test_tune_ignores_the_other_variant),
        cmocka_unit_test(test_other_variant_by_id_refused),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
