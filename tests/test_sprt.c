/* Elo, LOS and SPRT against published results (fishtest runs, cutechess-cli output) and
 * numbers worked out by hand (arithmetic in the comments); and the match command's result
 * lines at small samples. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "sprt.h"
#include "test_util.h"

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
    assert_false(signbit(elo_from_score(0.5))); /* printed "-0.0" */
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
     * W = L = 100 with variance 1/4; as pairs every unit scores 1/2, variance 0.
     * Only the 1e-3 given to each empty bucket is left:
     * var = 1e-3 * (0.25 + 0.0625 + 0.0625 + 0.25) / 100.004 = 6.2498e-6,
     * se = sqrt(var / 100.004) = 2.4999e-4, 1.959964 se = 4.8997e-4; near 1/2 one unit of score is
     * 1600 / ln 10 = 694.87 Elo, so the width is 2 * 4.8997e-4 * 694.87 = 0.6809. */
    const int64_t wl[PENTA_N] = { 0, 0, 100, 0, 0 };
    EloEstimate pe = elo_from_penta(wl), te = elo_from_wdl(100, 0, 100);
    assert_near(pe.elo_hi - pe.elo_lo, 0.6809, 1e-3);
    assert_true(te.elo_hi - te.elo_lo > 50.0); /* 2 * 1.96 * sqrt(.25/200) -> ~ 48 Elo each side */
    assert_int_equal(pe.units, 100);
    assert_true(pe.interval_known);
}
/* cutechess-cli's summaries as published in a project's changelog
 * (archishou/MidnightChessEngine, changelog.md, "Add History Heuristic" and "History with
 * tighter bounds"): "Score ... 449 - 276 - 275 [0.587] ... Elo difference: 60.7 +/- 18.5,
 * LOS: 100.0 %" and "382 - 320 - 298 ... Elo difference: 21.6 +/- 18.1, LOS: 99.0 %"
 * (W - L - D; the margin is half the 95 % interval). */
static void test_elo_published(void **state)
{
    (void)state;
    EloEstimate e = elo_from_wdl(449, 275, 276);
    assert_near(e.elo, 60.7, 0.05);
    assert_near((e.elo_hi - e.elo_lo) / 2, 18.5, 0.05);
    assert_near(e.los, 1.000, 0.0005);
    e = elo_from_wdl(382, 298, 320);
    assert_near(e.elo, 21.6, 0.05);
    assert_near((e.elo_hi - e.elo_lo) / 2, 18.1, 0.05);
    assert_near(e.los, 0.990, 0.0005);
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

/* Published fishtest results (logistic bounds in braces), from Stockfish's commit
 * messages of December 2020 (tests 5fe50b9d3932f79192d3973c and 5fe552e43932f79192d39744):
 *   "LLR: 2.95 (-2.94,2.94) {-0.25,1.25} ... Ptnml(0-2): 292, 5905, 28939, 6129, 299"
 *   "LLR: 2.92 (-2.94,2.94) {0.25,1.25} ... Ptnml(0-2): 5, 418, 6043, 506, 12"
 * The normal approximation gives 2.9508 and 2.9162: the second rounds right by luck only
 * (2.916 vs fishtest's 2.9231, more digits below). */
static void test_sprt_llr_published(void **state)
{
    (void)state;
    const int64_t stc[PENTA_N] = { 292, 5905, 28939, 6129, 299 };
    const int64_t ltc[PENTA_N] = { 5, 418, 6043, 506, 12 };
    assert_near(sprt_llr_penta(stc, -0.25, 1.25), 2.95, 0.005);
    assert_near(sprt_llr_penta(ltc, 0.25, 1.25), 2.92, 0.005);
    /* The same, to 6 places, from fishtest's own LLRcalc.LLR_logistic (server/fishtest/stats,
     * run with scipy 1.10): 2.950391 and 2.923125. */
    assert_near(sprt_llr_penta(stc, -0.25, 1.25), 2.950391, 2e-6);
    assert_near(sprt_llr_penta(ltc, 0.25, 1.25), 2.923125, 2e-6);
}

/* The promotion that must not happen: a candidate passed after 4 pairs (9 games) with
 * penta [0,0,0,1,3] and LLR 4.15 under elo0 = 0, elo1 = 20 (the normal approximation with
 * the sample variance 0.0117 of four units).  fishtest's LLR_logistic (as above) gives
 * 0.223676 for it, and 0.113495 with elo1 = 10; and no verdict comes before 10 pairs. */
static void test_sprt_small_sample(void **state)
{
    (void)state;
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    const int64_t p[PENTA_N] = { 0, 0, 0, 1, 3 };
    assert_near(sprt_llr_penta(p, 0.0, 10.0), 0.113495, 2e-6);
    assert_near(sprt_llr_penta(p, 0.0, 20.0), 0.223676, 2e-6);
    assert_int_equal(sprt_verdict(sprt_llr_penta(p, 0.0, 10.0), 4, lo, hi), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(sprt_llr_penta(p, 0.0, 20.0), 4, lo, hi), SPRT_CONTINUE);
    /* Even an LLR far past the bound decides nothing before STATS_MIN_PAIRS pairs. */
    assert_int_equal(sprt_verdict(50.0, STATS_MIN_PAIRS - 1, lo, hi), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(-50.0, STATS_MIN_PAIRS - 1, lo, hi), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(50.0, STATS_MIN_PAIRS, lo, hi), SPRT_ACCEPT_H1);
    /* With few pairs the estimate says it has no interval. */
    EloEstimate e = elo_from_penta(p);
    assert_int_equal(e.units, 4);
    assert_false(e.interval_known);
    const int64_t ten[PENTA_N] = { 1, 2, 4, 2, 1 };
    assert_true(elo_from_penta(ten).interval_known);
    assert_false(elo_from_wdl(10, 5, 4).interval_known); /* 19 games */
    assert_true(elo_from_wdl(10, 6, 4).interval_known);
}

static void test_sprt_llr_wdl(void **state)
{
    (void)state;
    /* Trinomial counts through fishtest's LLR_logistic (results [L, D, W]):
     * [40, 20, 60] elo 0..10 -> 0.631484; [60, 20, 40] -> -0.749964.  The normal
     * approximation (s = 0.58333, var = 0.20139, N = 120) gave 0.652729 and -0.776067. */
    assert_near(sprt_llr_wdl(60, 20, 40, 0.0, 10.0), 0.631484, 2e-6);
    assert_near(sprt_llr_wdl(40, 20, 60, 0.0, 10.0), -0.749964, 2e-6);
    /* The score halfway between s0 and s1 is no evidence either way. */
    assert_near(sprt_llr_wdl(1000, 0, 1000, -5.0, 5.0), 0.0, 1e-9);
}

static void test_sprt_llr_penta(void **state)
{
    (void)state;
    /* Pairs 5/15/40/25/15, elo0 = 0, elo1 = 5: fishtest's LLR_logistic gives 0.688865 (the
     * normal approximation 0.740536: s1 = 0.5071951, 0.0071951 * 0.1428049 / 0.0013875). */
    const int64_t p[PENTA_N] = { 5, 15, 40, 25, 15 };
    assert_near(sprt_llr_penta(p, 0.0, 5.0), 0.688865, 2e-6);
    /* Counts x 4: the same frequencies, N four times larger: LLR x 4 (fishtest: 2.755461). */
    const int64_t p4[PENTA_N] = { 20, 60, 160, 100, 60 };
    assert_near(sprt_llr_penta(p4, 0.0, 5.0), 2.755461, 8e-6);
    /* Swapping the hypotheses flips the sign. */
    assert_near(sprt_llr_penta(p, 5.0, 0.0), -0.688865, 2e-6);
}

static void test_sprt_verdict(void **state)
{
    (void)state;
    double lo, hi;
    sprt_bounds(0.05, 0.05, &lo, &hi);
    assert_int_equal(sprt_verdict(0.0, 100, lo, hi), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(2.9, 100, lo, hi), SPRT_CONTINUE);
    assert_int_equal(sprt_verdict(2.95, 100, lo, hi), SPRT_ACCEPT_H1);
    assert_int_equal(sprt_verdict(hi, 100, lo, hi), SPRT_ACCEPT_H1);
    assert_int_equal(sprt_verdict(-2.95, 100, lo, hi), SPRT_ACCEPT_H0);
    assert_int_equal(sprt_verdict(NAN, 100, lo, hi), SPRT_CONTINUE);
    /* 4x the pairs above (LLR 2.755) is not yet enough, 5x (fishtest: 3.444326) is. */
    const int64_t p4[PENTA_N] = { 20, 60, 160, 100, 60 };
    const int64_t p5[PENTA_N] = { 25, 75, 200, 125, 75 };
    assert_int_equal(sprt_verdict(sprt_llr_penta(p4, 0.0, 5.0), 400, lo, hi), SPRT_CONTINUE);
    assert_near(sprt_llr_penta(p5, 0.0, 5.0), 3.444326, 1e-5);
    assert_int_equal(sprt_verdict(sprt_llr_penta(p5, 0.0, 5.0), 500, lo, hi), SPRT_ACCEPT_H1);
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

    /* All draws: Elo 0 with the regularised interval only: var = 1e-3 (0.25 + 0.25) / 500.002
     * = 1.0e-6, 1.959964 sqrt(var / 500.002) = 8.765e-5, width 2 * 8.765e-5 * 694.87 = 0.1218.
     * The score sits on s0, so the evidence is for H0 (fishtest: -7.238179 and -7.237921). */
    e = elo_from_wdl(0, 500, 0);
    assert_estimate_finite(e);
    assert_near(e.elo_hi - e.elo_lo, 0.1218, 1e-3);
    assert_near(e.los, 0.5, 1e-12);
    assert_near(sprt_llr_wdl(0, 500, 0, 0, 5), -7.238179, 1e-5);
    const int64_t dd[PENTA_N] = { 0, 0, 500, 0, 0 };
    assert_near(sprt_llr_penta(dd, 0, 5), -7.237921, 1e-5);

    /* All wins: the empty draw and loss buckets get 1e-3 each, s = 10.0005 / 10.002 =
     * 0.99985003, Elo = -400 log10(1 / s - 1) = 1529.572 (no longer the clamp's 2400);
     * LOS = Phi(10 / sqrt 10) = Phi(3.162) = 0.99922 */
    e = elo_from_wdl(10, 0, 0);
    assert_estimate_finite(e);
    assert_near(e.elo, 1529.572, 1e-3);
    assert_near(e.los, 0.9992173, 1e-6);
    /* ... and 10 straight wins are weak evidence between two close hypotheses (fishtest:
     * 0.142876); the normal approximation divided by a variance of zero. */
    assert_near(sprt_llr_wdl(10, 0, 0, 0, 5), 0.142876, 1e-5);
    const int64_t ww[PENTA_N] = { 0, 0, 0, 0, 7 };
    e = elo_from_penta(ww);
    assert_estimate_finite(e);
    assert_near(e.los, 1.0, 1e-9);

    /* Negative counts are read as none; one game is finite. */
    assert_estimate_finite(elo_from_wdl(-3, 1, 0));
    assert_true(isfinite(sprt_llr_wdl(1, 0, 0, 0, 5)));
    assert_true(isfinite(sprt_llr_wdl(1, 0, 1, 0, 5)));
}

/* Removes a database and its WAL files. */
static void remove_db(const char *db)
{
    char path[128];
    snprintf(path, sizeof path, "%s-wal", db);
    remove(path);
    snprintf(path, sizeof path, "%s-shm", db);
    remove(path);
    remove(db);
}

/* A perfect score has no finite Elo: it is marked, with the one-sided bound it allows.
 * 30 pairs all won: q = 0.05^(1/30) = exp(-2.995732 / 30) = 0.904966, and
 * -400 log10(1 / 0.904966 - 1) = -400 log10(0.105013) = 391.50.  20 games all won: q =
 * 0.05^(1/20) = 0.860892, -400 log10(0.161586) = 316.64.  All lost: the mirror image. */
static void test_perfect_score(void **state)
{
    (void)state;
    const int64_t ww[PENTA_N] = { 0, 0, 0, 0, 30 };
    EloEstimate e = elo_from_penta(ww);
    assert_int_equal(e.perfect, 1);
    assert_near(e.elo_bound, 391.50, 0.01);
    const int64_t ll[PENTA_N] = { 30, 0, 0, 0, 0 };
    e = elo_from_penta(ll);
    assert_int_equal(e.perfect, -1);
    assert_near(e.elo_bound, -391.50, 0.01);
    e = elo_from_wdl(20, 0, 0);
    assert_int_equal(e.perfect, 1);
    assert_near(e.elo_bound, 316.64, 0.01);
    assert_int_equal(elo_from_wdl(0, 0, 20).perfect, -1);
    /* one draw, one pair not won twice, or nothing at all: not perfect */
    assert_int_equal(elo_from_wdl(20, 1, 0).perfect, 0);
    const int64_t wd[PENTA_N] = { 0, 0, 0, 1, 29 };
    assert_int_equal(elo_from_penta(wd).perfect, 0);
    const int64_t none[PENTA_N] = { 0 };
    assert_int_equal(elo_from_penta(none).perfect, 0);
    assert_int_equal(elo_from_wdl(0, 0, 0).perfect, 0);
}

/* `dama match` against an engine that loses every game (its every move is illegal): no
 * finite Elo is printed or stored (60-0 printed "+1631.7 [+1013.8, +2400.0]"), but the bound. */
static void test_match_perfect_score(void **state)
{
    (void)state;
    static char out[1 << 14];
    char db[64], script[64], csv[80];
    snprintf(db, sizeof db, "/tmp/dama-sprt-perfect-%d.db", (int)getpid());
    snprintf(script, sizeof script, "/tmp/dama-sprt-loser-%d.sh", (int)getpid());
    snprintf(csv, sizeof csv, "/tmp/dama-sprt-perfect-%d.csv", (int)getpid());
    FILE *f = fopen(script, "w");
    assert_non_null(f);
    fputs("while read -r l; do case $l in\n"
          "hub*) echo 'id name=loser'; echo 'param name=variant value=turkish type=enum values=turkish';"
          " echo wait;;\n"
          "init*) echo ready;; go*) echo 'done move=a1-a1';; quit*) exit 0;; esac; done\n", f);
    fclose(f);
    int code = test_dama_run(out, sizeof out, "match --a default --engine-b 'sh %s' --games 20 "
                                              "--nodes 200 --db %s", script, db);
    assert_int_equal(code, 0);
    if (!strstr(out, "match games 20 wins 20 draws 0 losses 0 ")
        || !strstr(out, "elo n/a: every game won (above +182.7 ")
        || strstr(out, "elo +"))
        fail_msg("a perfect score:\n%s", out);
    /* 10 pairs: q = 0.05^(1/10) = 0.741134, -400 log10(0.349283) = 182.73, stored as the
     * low end only: the Elo and the high end are NULL */
    code = test_dama_run(out, sizeof out, "export --db %s matches --out %s", db, csv);
    assert_int_equal(code, 0);
    f = fopen(csv, "r");
    assert_non_null(f);
    char header[512], row[512];
    assert_non_null(fgets(header, sizeof header, f));
    assert_non_null(fgets(row, sizeof row, f));
    fclose(f);
    if (!strstr(header, ",elo,elo_low,elo_high,") || !strstr(row, ",1,,182."))
        fail_msg("matches.csv:\n%s%s", header, row);
    remove(script);
    remove(csv);
    remove_db(db);
}

/* `dama match` at small samples: no "-0.0", no interval and no verdict from one pair. */
static void test_match_small_sample(void **state)
{
    (void)state;
    static char out[1 << 14];
    char db[64];
    snprintf(db, sizeof db, "/tmp/dama-sprt-%d.db", (int)getpid());
    int code = test_dama_run(out, sizeof out, "match --a default --b default --games 2 --nodes 200 "
                                              "--db %s", db);
    assert_int_equal(code, 0);
    if (strstr(out, "-0.0") || !strstr(out, "elo n/a: too few pairs (1 < 10) score "))
        fail_msg("match --games 2:\n%s", out);
    code = test_dama_run(out, sizeof out, "match --a default --b material --games 2 --nodes 200 "
                                          "--sprt elo0=0,elo1=10 --db %s", db);
    assert_int_equal(code, 0);
    if (!strstr(out, "match games 2 ") || !strstr(out, " continue (no verdict before 10 pairs)"))
        fail_msg("match --games 2 --sprt:\n%s", out);
    remove_db(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_elo_from_score),     cmocka_unit_test(test_elo_wdl),
        cmocka_unit_test(test_elo_penta),          cmocka_unit_test(test_elo_published),
        cmocka_unit_test(test_sprt_bounds),        cmocka_unit_test(test_sprt_llr_published),
        cmocka_unit_test(test_sprt_small_sample),  cmocka_unit_test(test_sprt_llr_wdl),
        cmocka_unit_test(test_sprt_llr_penta),     cmocka_unit_test(test_sprt_verdict),
        cmocka_unit_test(test_degenerate),         cmocka_unit_test(test_match_small_sample),
        cmocka_unit_test(test_perfect_score),      cmocka_unit_test(test_match_perfect_score),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
