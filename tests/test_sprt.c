/* Elo, LOS and SPRT against numbers worked out by hand (arithmetic in the comments). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "sprt.h"

/* cmocka's assert_float_equal works in float; these checks need double. */
#define assert_near(a, b, tol) near_at((a), (b), (tol), #a, __FILE__, __LINE__)
static void near_at(double a, double b, double tol, const char *expr, const char *file, int line)
{
    if (!(fabs(a - b) <= tol)) {
        print_error("%s = %.12g, expected %.12g (tolerance %g)\n", expr, a, b, tol);
        _fail(file, line);
    }
}

static void assert_estimate_finite(EloEstimate e)
{
    assert_true(isfinite(e.score) && isfinite(e.elo) && isfinite(e.elo_lo) &&
                isfinite(e.elo_hi) && isfinite(e.los));
    assert_true(e.elo_lo <= e.elo && e.elo <= e.elo_hi);
    assert_true(e.los >= 0.0 && e.los <= 1.0);
}

static void test_elo_from_score(void **state)
{
    (void)state;
    /* 0.5: -400 log10(1/0.5 - 1) = -400 log10(1) = 0. */
    assert_near(elo_from_score(0.5), 0.0, 1e-12);
    /* 0.75: -400 log10(1/0.75 - 1) = -400 log10(1/3) = 400 * 0.4771213 = 190.8485. */
    assert_near(elo_from_score(0.75), 190.8485, 1e-3);
    assert_near(elo_from_score(0.25), -190.8485, 1e-3);
    /* Inverse: 1 / (1 + 10^(-190.8485/400)) = 1 / (1 + 1/3) = 0.75. */
    assert_near(score_from_elo(190.848501887865), 0.75, 1e-12);
    assert_near(score_from_elo(0.0), 0.5, 1e-15);
    /* 10 Elo: 1 / (1 + 10^-0.025) = 1 / (1 + 0.9440609) = 0.5143872. */
    assert_near(score_from_elo(10.0), 0.5143872, 1e-7);
    /* Clamped: score 1 is 1 - 1e-6, -400 log10(1e-6 / (1 - 1e-6)) = 2400.0002. */
    assert_near(elo_from_score(1.0), 2400.0, 1e-3);
    assert_near(elo_from_score(0.0), -2400.0, 1e-3);
    assert_true(isfinite(elo_from_score(NAN)));
}

static void test_elo_wdl(void **state)
{
    (void)state;
    /* W/D/L = 60/20/40, N = 120.
     * s = (60 + 20/2) / 120 = 70/120 = 0.5833333
     * Elo = -400 log10(120/70 - 1) = -400 log10(0.7142857) = -400 * -0.1461280 = 58.4512
     * var = (W + D/4)/N - s^2 = 65/120 - 0.3402778 = 0.5416667 - 0.3402778 = 0.2013889
     * se = sqrt(0.2013889 / 120) = 0.0409663; 1.959964 se = 0.0802925
     * interval: Elo(0.5030408) = 2.113, Elo(0.6636258) = 118.040
     * LOS = Phi((60 - 40) / sqrt(100)) = Phi(2) = 0.9772499 */
    EloEstimate e = elo_from_wdl(60, 20, 40);
    assert_near(e.score, 70.0 / 120.0, 1e-12);
    assert_near(e.elo, 58.4512, 1e-3);
    assert_near(e.elo_lo, 2.113, 1e-3);
    assert_near(e.elo_hi, 118.040, 1e-3);
    assert_near(e.los, 0.9772499, 1e-6);

    /* Symmetry: swapping wins and losses mirrors everything. */
    EloEstimate m = elo_from_wdl(40, 20, 60);
    assert_near(m.elo, -58.4512, 1e-3);
    assert_near(m.elo_lo, -118.040, 1e-3);
    assert_near(m.los, 1.0 - 0.9772499, 1e-6);

    /* Equal W and L: Elo 0, LOS exactly 1/2, interval symmetric. */
    EloEstimate z = elo_from_wdl(30, 40, 30);
    assert_near(z.elo, 0.0, 1e-9);
    assert_near(z.los, 0.5, 1e-12);
    assert_near(z.elo_lo, -z.elo_hi, 1e-9);
}

static void test_elo_penta(void **state)
{
    (void)state;
    /* Pairs LL/LD/DD+WL/WD/WW = 5/15/40/25/15, N = 100, unit scores 0, .25, .5, .75, 1.
     * s = (15*.25 + 40*.5 + 25*.75 + 15*1) / 100 = (3.75 + 20 + 18.75 + 15) / 100 = 0.575
     * Elo = -400 log10(1/0.575 - 1) = -400 log10(0.7391304) = 52.5116
     * var = (5*.575^2 + 15*.325^2 + 40*.075^2 + 25*.175^2 + 15*.425^2) / 100
     *     = (1.653125 + 1.584375 + 0.225 + 0.765625 + 2.709375) / 100 = 0.069375
     * se = sqrt(0.069375 / 100) = 0.0263391; 1.959964 se = 0.0516237
     * interval: Elo(0.5233763) = 16.255, Elo(0.6266237) = 89.944
     * LOS = Phi(0.075 / 0.0263391) = Phi(2.847478) = 0.9977966 */
    const int64_t p[PENTA_N] = { 5, 15, 40, 25, 15 };
    EloEstimate e = elo_from_penta(p);
    assert_near(e.score, 0.575, 1e-12);
    assert_near(e.elo, 52.5116, 1e-3);
    assert_near(e.elo_lo, 16.255, 1e-3);
    assert_near(e.elo_hi, 89.944, 1e-3);
    assert_near(e.los, 0.9977966, 1e-6);

    /* The point of pairs: 100 pairs each won once and lost once.  Trinomially that is
     * W = L = 100 with variance 1/4; as pairs every unit scores 1/2, variance 0. */
    const int64_t wl[PENTA_N] = { 0, 0, 100, 0, 0 };
    EloEstimate pe = elo_from_penta(wl), te = elo_from_wdl(100, 0, 100);
    assert_near(pe.elo_hi - pe.elo_lo, 0.0, 1e-12);
    assert_true(te.elo_hi - te.elo_lo > 50.0); /* 2 * 1.96 * sqrt(.25/200) -> ~ 48 Elo each side */
}

static void test_sprt_bounds(void **state)
{
    (void)state;
    /* log(0.05 / 0.95) = log(0.0526316) = -2.944439; upper is its negative. */
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    assert_near(lo, -2.944439, 1e-6);
    assert_near(hi, 2.944439, 1e-6);
    /* alpha 0.05, beta 0.10: log(0.1/0.95) = -2.251292, log(0.9/0.05) = log 18 = 2.890372. */
    sprt_bounds(0.05, 0.10, &lo, &hi);
    assert_near(lo, -2.251292, 1e-6);
    assert_near(hi, 2.890372, 1e-6);
    /* Nonsense rates stay finite. */
    sprt_bounds(0.0, NAN, &lo, &hi);
    assert_true(isfinite(lo) && isfinite(hi));
}

static void test_sprt_llr_wdl(void **state)
{
    (void)state;
    /* W/D/L = 60/20/40, elo0 = 0, elo1 = 10.
     * s0 = 0.5, s1 = 0.5143872 (see above); s = 0.5833333, var = 0.2013889, N = 120
     * LLR = (s1 - s0)(2s - s0 - s1) / (2 var / N)
     *     = 0.0143872 * (1.1666667 - 1.0143872) / (0.4027778 / 120)
     *     = 0.0143872 * 0.1522795 / 0.0033565 = 0.652729 */
    assert_near(sprt_llr_wdl(60, 20, 40, 0.0, 10.0), 0.652729, 1e-5);
    /* The mirror result is evidence the other way, and larger: 2s - s0 - s1 becomes
     * 0.8333333 - 1.0143872 = -0.1810539, LLR = 0.0143872 * -0.1810539 / 0.0033565 = -0.776067 */
    assert_near(sprt_llr_wdl(40, 20, 60, 0.0, 10.0), -0.776067, 1e-5);
    /* The score halfway between s0 and s1 is no evidence either way. */
    assert_near(sprt_llr_wdl(1000, 0, 1000, -5.0, 5.0), 0.0, 1e-9);
}

static void test_sprt_llr_penta(void **state)
{
    (void)state;
    /* Pairs 5/15/40/25/15, elo0 = 0, elo1 = 5.
     * s1 = 1 / (1 + 10^-0.0125) = 1 / (1 + 0.9716279) = 0.5071951
     * LLR = 0.0071951 * (1.15 - 1.0071951) / (2 * 0.069375 / 100)
     *     = 0.0071951 * 0.1428049 / 0.0013875 = 0.740536 */
    const int64_t p[PENTA_N] = { 5, 15, 40, 25, 15 };
    assert_near(sprt_llr_penta(p, 0.0, 5.0), 0.740536, 1e-5);
    /* Counts x 4: the same mean and variance, N four times larger: LLR x 4. */
    const int64_t p4[PENTA_N] = { 20, 60, 160, 100, 60 };
    assert_near(sprt_llr_penta(p4, 0.0, 5.0), 4 * 0.740536, 4e-5);
    /* Swapping the hypotheses flips the sign. */
    assert_near(sprt_llr_penta(p, 5.0, 0.0), -0.740536, 1e-5);
}

static void test_sprt_verdict(void **state)
{
    (void)state;
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    assert_int_equal(sprt_verdict(0.0, lo, hi), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(2.9, lo, hi), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(2.95, lo, hi), SPRT_ACCEPT_H1);
    assert_int_equal(sprt_verdict(hi, lo, hi), SPRT_ACCEPT_H1);
    assert_int_equal(sprt_verdict(-2.95, lo, hi), SPRT_ACCEPT_H0);
    assert_int_equal(sprt_verdict(NAN, lo, hi), SPRT_CONTINUE);
    /* 4x the pairs above: LLR 2.962 > 2.944, H1 accepted. */
    const int64_t p4[PENTA_N] = { 20, 60, 160, 100, 60 };
    assert_int_equal(sprt_verdict(sprt_llr_penta(p4, 0.0, 5.0), lo, hi), SPRT_ACCEPT_H1);
}

static void test_degenerate(void **state)
{
    (void)state;
    /* No games. */
    EloEstimate e = elo_from_wdl(0, 0, 0);
    assert_estimate_finite(e);
    assert_near(e.elo, 0.0, 1e-12);
    assert_near(e.los, 0.5, 1e-12);
    assert_true(sprt_llr_wdl(0, 0, 0, 0, 5) == 0.0);
    const int64_t none[PENTA_N] = { 0 };
    assert_estimate_finite(elo_from_penta(none));
    assert_true(sprt_llr_penta(none, 0, 5) == 0.0);

    /* All draws: zero variance, Elo 0 with an empty interval, no evidence yet. */
    e = elo_from_wdl(0, 500, 0);
    assert_estimate_finite(e);
    assert_near(e.elo_hi - e.elo_lo, 0.0, 1e-12);
    assert_near(e.los, 0.5, 1e-12);
    assert_true(sprt_llr_wdl(0, 500, 0, 0, 5) == 0.0);
    const int64_t dd[PENTA_N] = { 0, 0, 500, 0, 0 };
    assert_true(sprt_llr_penta(dd, 0, 5) == 0.0);

    /* All wins: score 1 clamps to +2400 Elo; LOS = Phi(10 / sqrt 10) = Phi(3.162) = 0.99922 */
    e = elo_from_wdl(10, 0, 0);
    assert_estimate_finite(e);
    assert_near(e.elo, 2400.0, 1e-3);
    assert_near(e.los, 0.9992173, 1e-6);
    assert_true(isfinite(sprt_llr_wdl(10, 0, 0, 0, 5)));
    const int64_t ww[PENTA_N] = { 0, 0, 0, 0, 7 };
    e = elo_from_penta(ww);
    assert_estimate_finite(e);
    assert_near(e.los, 1.0, 0.0);

    /* Negative counts are read as none; one game is finite. */
    assert_estimate_finite(elo_from_wdl(-3, 1, 0));
    assert_true(isfinite(sprt_llr_wdl(1, 0, 0, 0, 5)));
    assert_true(isfinite(sprt_llr_wdl(1, 0, 1, 0, 5)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_from_score), cmocka_unit_test(test_elo_wdl),
        cmocka_unit_test(test_elo_penta),      cmocka_unit_test(test_sprt_bounds),
        cmocka_unit_test(test_sprt_llr_wdl),   cmocka_unit_test(test_sprt_llr_penta),
        cmocka_unit_test(test_sprt_verdict),   cmocka_unit_test(test_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
