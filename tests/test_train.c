/* Tests of train/ called as a library (as a script or the server would): a run record
 * whose bench cannot run is an error returned to the caller, not an exit of the process;
 * the journal's resume point; the SPRT spec parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"
#include "match_step.h"
#include "run_record.h"
#include "train_status.h"
#include "variant.h"
#include "weights_store.h"

#include "test_util.h"
#include "test_tmpdir.h"

static char dir[64];
static Store *store;

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(dir, sizeof dir, "train") != 0)
        return -1;
    char path[128], err[512];
    snprintf(path, sizeof path, "%s/train.db", dir);
    store = store_open(path, err, sizeof err);
    return store ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    store_close(store);
    return test_tmpdir_remove(dir);
}

/* the bench signature check (once pipeline_bench_signature) used to exit(1) here, ending the caller's process. */
static void test_run_record_without_bench(void **state)
{
    (void)state;
    Variant no_eval = turkish_variant;
    no_eval.eval = NULL; /* bench_signature cannot run without an evaluation */
    assert_int_equal(run_record_begin(store, "train.db", "selfplay", &no_eval, "games=2", 0), -1);
    char status[32], params[256];
    assert_int_equal(store_last_run(store, "selfplay", "turkish", status, sizeof status, params,
                                    sizeof params), 0); /* nothing was written */
    int64_t id = run_record_begin(store, "train.db", "selfplay", &turkish_variant, "games=2", 0);
    assert_true(id > 0);
    assert_int_equal(store_last_run(store, "selfplay", "turkish", status, sizeof status, params,
                                    sizeof params), id);
    assert_string_equal(params, "games=2");
}

/* Generation 1 promoted B, generation 2 rejected C, generation 3 has only its self-play:
 * a resumed run goes on at generation 3 with B as the best weights. */
static void test_journal_resume_point(void **state)
{
    (void)state;
    Weights w[3];
    int64_t ids[3];
    const EvalSpec *spec = turkish_variant.eval;
    assert_true(weights_default(&w[0], spec) && weights_material_only(&w[1], spec) &&
                weights_default(&w[2], spec));
    w[2].w[0] += 1; /* a third, different set */
    for (int i = 0; i < 3; i++) {
        ids[i] = weights_store_save(store, &w[i], i, 0, "journal test");
        assert_true(ids[i] > 0);
        weights_free(&w[i]);
    }
    assert_true(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2]);
    int64_t train = store_run_begin(store, "train", "turkish", "journal", "test", NULL, ids[0]);
    assert_true(train > 0);
    int64_t best = -1;
    assert_int_equal(journal_resume_point(store, train, ids[0], &best), 1);
    assert_int_equal(best, ids[0]);
    assert_true(journal_put(store, train, 1, "decision", 0, ids[0], ids[1], "promoted"));
    assert_true(journal_put(store, train, 2, "decision", 0, ids[1], ids[2], "rejected"));
    assert_true(journal_put(store, train, 3, "selfplay", 0, ids[1], 0, NULL));
    assert_int_equal(journal_resume_point(store, train, ids[0], &best), 3);
    assert_int_equal(best, ids[1]);
    /* The summary needs every generation's match and decision: generation 1 has no match. */
    assert_int_equal(journal_print_summary(store, "turkish", train, 1), TRAIN_FAILED);
}

static void test_sprt_parse(void **state)
{
    (void)state;
    SprtConfig sc;
    char err[256];
    assert_true(sprt_parse(&sc, "elo1=5,elo0=-5", err, sizeof err));
    assert_true(sc.enabled);
    assert_true(sc.elo0 == -5 && sc.elo1 == 5 && sc.alpha == 0.05 && sc.beta == 0.05);
    assert_false(sprt_parse(&sc, "elo0=1,elo1=1", err, sizeof err));
    assert_non_null(strstr(err, "elo1 > elo0"));
    assert_false(sprt_parse(&sc, "gamma=1", err, sizeof err));
    assert_non_null(strstr(err, "unknown key 'gamma'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_record_without_bench),
        cmocka_unit_test(test_journal_resume_point),
        cmocka_unit_test(test_sprt_parse),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
