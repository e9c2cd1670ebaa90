/* Elo, LOS and SPRT from match counts.
 *
 * Both models reduce to the same thing: N independent units (a game, or a game pair) each
 * scoring one of a few values x_k (0, 1/2, 1 per game; 0, 1/4, 1/2, 3/4, 1 per pair, the
 * pair's points halved so its mean is the per-game score), seen n_k times.  From the counts:
 *     mean  s  = sum n_k x_k / N
 *     var   v  = sum n_k (x_k - s)^2 / N   (per unit; the mean's variance is v / N)
 * Elo interval: s -/+ 1.959964 sqrt(v / N), each end mapped through elo_from_score.
 *
 * SPRT (GSPRT, normal approximation; M. Van den Bergh, "A fast and accurate approximation
 * to the LLR", hardy.uhasselt.be/Toga/GSPRT_approximation.pdf; the same formula is in
 * c-chess-cli src/sprt.c and, per pair, in fishtest):  the sample mean is ~ Normal(mu, v/N);
 * with s0, s1 the scores of elo0, elo1 the log-likelihood ratio of mu = s1 against mu = s0 is
 *     LLR = [(s - s0)^2 - (s - s1)^2] / (2 v / N) = (s1 - s0) (2 s - s0 - s1) / (2 v / N). */
#include "sprt.h"

#include <math.h>

#define Z95 1.959963984540054 /* two-sided 95 % quantile of the normal distribution */
#define SCORE_EPS 1e-6

double elo_from_score(double score)
{
    if (!(score >= SCORE_EPS)) /* also NaN */
        score = SCORE_EPS;
    if (score > 1.0 - SCORE_EPS)
        score = 1.0 - SCORE_EPS;
    return -400.0 * log10(1.0 / score - 1.0);
}

double score_from_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* Counts -> (N, mean, per-unit variance); the number of non-empty buckets is returned. */
static int moments(const int64_t *count, const double *x, int k, double *n, double *mean,
                   double *var)
{
    int nonempty = 0;
    double N = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        double c = count[i] > 0 ? (double)count[i] : 0.0; /* negative counts: treat as none */
        nonempty += c > 0;
        N += c;
        sum += c * x[i];
    }
    double s = N > 0 ? sum / N : 0.5, v = 0;
    for (int i = 0; i < k; i++) {
        double c = count[i] > 0 ? (double)count[i] : 0.0;
        v += c * (x[i] - s) * (x[i] - s);
    }
    *n = N;
    *mean = s;
    *var = N > 0 ? v / N : 0.0;
    return nonempty;
}

/* Normal CDF. */
static double phi(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

static EloEstimate estimate(double n, double s, double v)
{
    double se = n > 0 ? sqrt(v / n) : 0.0;
    EloEstimate e = {
        .score = s,
        .elo = elo_from_score(s),
        .elo_lo = elo_from_score(s - Z95 * se),
        .elo_hi = elo_from_score(s + Z95 * se),
    };
    /* LOS = P(mu > 1/2) = Phi((s - 1/2) / se); a certain sign when there is no spread. */
    e.los = se > 0 ? phi((s - 0.5) / se) : s > 0.5 ? 1.0 : s < 0.5 ? 0.0 : 0.5;
    return e;
}

EloEstimate elo_from_wdl(int64_t wins, int64_t draws, int64_t losses)
{
    static const double x[3] = { 1.0, 0.5, 0.0 };
    const int64_t c[3] = { wins, draws, losses };
    double n, s, v;
    moments(c, x, 3, &n, &s, &v);
    EloEstimate e = estimate(n, s, v);
    /* The classic per-game LOS (chessprogramming.org, "Match Statistics"): draws carry
     * no information, LOS = Phi((W - L) / sqrt(W + L)). */
    double w = wins > 0 ? (double)wins : 0.0, l = losses > 0 ? (double)losses : 0.0;
    e.los = w + l > 0 ? phi((w - l) / sqrt(w + l)) : 0.5;
    return e;
}

EloEstimate elo_from_penta(const int64_t penta[PENTA_N])
{
    static const double x[PENTA_N] = { 0.0, 0.25, 0.5, 0.75, 1.0 };
    double n, s, v;
    moments(penta, x, PENTA_N, &n, &s, &v);
    return estimate(n, s, v);
}

void sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    /* Keep logs finite for nonsense error rates (fmin/fmax also map NaN to the limit). */
    alpha = fmin(fmax(alpha, 1e-12), 1.0 - 1e-12);
    beta = fmin(fmax(beta, 1e-12), 1.0 - 1e-12);
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

static double llr(const int64_t *count, const double *x, int k, double elo0, double elo1)
{
    double n, s, v;
    /* With one kind of outcome only there is no variance to measure: no evidence yet. */
    if (moments(count, x, k, &n, &s, &v) < 2 || !(v > 0))
        return 0.0;
    double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1);
    return (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v / n);
}

double sprt_llr_wdl(int64_t wins, int64_t draws, int64_t losses, double elo0, double elo1)
{
    static const double x[3] = { 1.0, 0.5, 0.0 };
    const int64_t c[3] = { wins, draws, losses };
    return llr(c, x, 3, elo0, elo1);
}

double sprt_llr_penta(const int64_t penta[PENTA_N], double elo0, double elo1)
{
    static const double x[PENTA_N] = { 0.0, 0.25, 0.5, 0.75, 1.0 };
    return llr(penta, x, PENTA_N, elo0, elo1);
}

SprtVerdict sprt_verdict(double llr_value, double lower, double upper)
{
    if (llr_value >= upper)
        return SPRT_ACCEPT_H1;
    if (llr_value <= lower)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE; /* also for NaN */
}
