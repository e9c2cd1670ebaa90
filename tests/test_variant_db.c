/* One database holding both games: Turkish and International self-play games from dama.  Every reader of Turkish games (export,
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
    char intl[96];   /* International games only */
    char mixed[96];  /* pure's file, then the same International self-play as intl's */
    int64_t intl_run, intl_game;
} Fixture;

static Fixture fx;

static char redirect[256];
#define sh(...) test_shell(redirect, __VA_ARGS__)

/* The last run and game of the file at path. */
static bool last_ids(const char *path, int64_t *run_out, int64_t *game_out)
{
    char err[256];
    Store *s = store_open(path, err, sizeof err);
    if (!s) return false;
    bool ok = store_count(s, "runs", run_out) && store_count(s, "games", game_out);
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
    snprintf(fx.intl, sizeof fx.intl, "%s/intl.db", fx.dir);
    if (sh("%s selfplay --db %s --games 4 --nodes 300 --threads 1", test_dama_bin(), fx.pure) != 0) return -1;
    /* dama has closed the file, so its WAL is checkpointed and gone: a plain copy is whole */
    if (sh("cp %s %s", fx.pure, fx.mixed) != 0) return -1;
    for (int i = 0; i < 2; i++)
        if (sh("%s selfplay -v intl --db %s --games 6 --nodes 300 --threads 1", test_dama_bin(),
               i ? fx.mixed : fx.intl) != 0)
            return -1;
    return last_ids(fx.mixed, &fx.intl_run, &fx.intl_game) ? 0 : -1;
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

/* International's export of the mixed file has International's rows only, with its weight
 * names, and the same games as the file that holds nothing else. */
static void test_international_export(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    assert_int_equal(sh("%s export -v intl --db %s --out %s/mixed-intl/", bin, fx.mixed, fx.dir), 0);
    assert_int_equal(sh("%s export -v intl --db %s --out %s/intl/", bin, fx.intl, fx.dir), 0);
    /* the opening statistics count the same games: equal but for the openings' ids */
    assert_int_equal(sh("(cut -d, -f2- %s/intl/openings.csv > %s/a.csv && cut -d, -f2- %s/mixed-intl/openings.csv "
                        "> %s/b.csv)", fx.dir, fx.dir, fx.dir, fx.dir), 0);
    expect_same_files("a.csv", "b.csv");
    char path[160];
    snprintf(path, sizeof path, "%s/mixed-intl/games.csv", fx.dir);
    char *t = test_read_file(path);
    assert_non_null(t);
    assert_non_null(strstr(t, ",international\n"));
    assert_null(strstr(t, "turkish"));
    int rows = 0;
    for (const char *p = t; (p = strchr(p, '\n')); p++)
        rows++;
    assert_int_equal(rows, 1 + 6); /* the header, then the 6 International games */
    free(t);
    snprintf(path, sizeof path, "%s/mixed-intl/weights.csv", fx.dir);
    t = test_read_file(path);
    assert_non_null(t);
    assert_non_null(strstr(t, ",KING_MAIN_DIAGONAL_MG,")); /* International's own terms */
    assert_null(strstr(t, "KING_EDGE_MG"));                /* not Turkish's */
    free(t);
}

/* The whole loop on International draughts: self-play, tune, match, the final match, every
 * run recorded as International, the best weights written as International weights, and
 * nothing of it seen by Turkish readers of the same file. */
static void test_international_train(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    assert_int_equal(sh("%s train -v intl --db %s/train.db --generations 1 --games 8 --nodes 200 --match-games 4 "
                        "--final-games 2 --threads 1 --out %s/best-intl.txt", bin, fx.dir, fx.dir), 0);
    char path[160];
    snprintf(path, sizeof path, "%s/best-intl.txt", fx.dir);
    char *t = test_read_file(path);
    assert_non_null(t);
    assert_non_null(strstr(t, "\nvariant international\n"));
    free(t);
    assert_int_equal(sh("%s export -v intl --db %s/train.db runs --out %s/intl-runs.csv", bin, fx.dir, fx.dir), 0);
    assert_int_equal(sh("%s export --db %s/train.db runs --out %s/tr-runs.csv", bin, fx.dir, fx.dir), 0);
    snprintf(path, sizeof path, "%s/intl-runs.csv", fx.dir);
    t = test_read_file(path);
    assert_non_null(t);
    /* train, then the selfplay, tune and match of generation 1 */
    static const char *const kinds[] = { "\n1,train,done,", "\n2,selfplay,done,", "\n3,tune,done,",
                                         "\n4,match,done," };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strstr(t, kinds[i]))
            fail_msg("no run '%s' in:\n%s", kinds[i] + 1, t);
    assert_null(strstr(t, "turkish"));
    free(t);
    snprintf(path, sizeof path, "%s/tr-runs.csv", fx.dir);
    t = test_read_file(path);
    assert_non_null(t);
    assert_int_equal((int)(strchr(t, '\n') - t) + 1, (int)strlen(t)); /* the header alone */
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
    /* and International's tuner learns from International's games only */
    assert_int_equal(sh("%s tune -v intl --db %s --epochs 3 --threads 1 --skip-plies 0 --out %s/intl.txt", bin,
                        fx.intl, fx.dir), 0);
    assert_int_equal(sh("%s tune -v intl --db %s --epochs 3 --threads 1 --skip-plies 0 --out %s/mixed-intl.txt",
                        bin, fx.mixed, fx.dir), 0);
    expect_same_files("intl.txt", "mixed-intl.txt");
    char path[160];
    snprintf(path, sizeof path, "%s/intl.txt", fx.dir);
    char *t = test_read_file(path);
    assert_non_null(t);
    assert_non_null(strstr(t, "\nvariant international\n"));
    free(t);
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
        cmocka_unit_test(test_international_export),
        cmocka_unit_test(test_international_train),
        cmocka_unit_test(test_tune_ignores_the_other_variant),
        cmocka_unit_test(test_other_variant_by_id_refused),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
