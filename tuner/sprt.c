/* Elo, LOS and SPRT from match counts.
 *
 * Both models reduce to the same thing: N independent units (a game, or a game pair) each
 * scoring one of k values a_i (0, 1/2, 1 per game; 0, 1/4, 1/2, 3/4, 1 per pair, the pair's
 * points halved so its mean is the per-game score), seen n_i times.
 *
 * Regularisation (as fishtest's LLRcalc.regularize): an empty bucket is given 1e-3 of a
 * unit, so that a handful of identical results still has a variance and every bucket a
 * probability whose logarithm exists.  From the regularised frequencies p_i = n_i / N:
 *     mean  s = sum p_i a_i,   var  v = sum p_i (a_i - s)^2   (per unit; the mean's is v / N)
 * Elo interval: s -/+ 1.959964 sqrt(v / N), each end mapped through elo_from_score.
 *
 * SPRT: the generalised likelihood ratio of mean s1 against mean s0 (the scores of elo1 and
 * elo0).  Under each hypothesis the model is the distribution q with mean s_j that is most
 * likely given the observation; maximising sum p_i log q_i subject to sum q_i = 1 and
 * sum q_i a_i = s_j gives q_i = p_i / (1 + x (a_i - s_j)) with x the root of
 *     g(x) = sum p_i (a_i - s_j) / (1 + x (a_i - s_j)) = 0
 * on the interval where every denominator is positive (M. Van den Bergh,
 * "support_MLE_multinomial.pdf", the method of fishtest's LLR_logistic).  Then
 *     LLR = N sum p_i (log q1_i - log q0_i).
 * g is strictly decreasing there (g' = -sum p_i d_i^2 / (1 + x d_i)^2), so bisection finds
 * the root. */
#include "sprt.h"

#include <math.h>

#define Z95 1.959963984540054 /* two-sided 95 % quantile of the normal distribution */
#define SCORE_EPS 1e-6
#define EMPTY_BUCKET 1e-3     /* fishtest's regularisation of an empty bucket */
#define MAX_BUCKETS 5

static const double wdl_values[3] = { 1.0, 0.5, 0.0 };
static const double penta_values[PENTA_N] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

static double clamp_score(double score)
{
    if (!(score >= SCORE_EPS)) /* also NaN */
        return SCORE_EPS;
    return score > 1.0 - SCORE_EPS ? 1.0 - SCORE_EPS : score;
}

double elo_from_score(double score)
{
    /* + 0.0 turns the -0 of log10(1) at score 1/2 into +0: it printed as "-0.0". */
    return -400.0 * log10(1.0 / clamp_score(score) - 1.0) + 0.0;
}

double score_from_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* The observed counts (negative ones read as none): how many units, and the regularised
 * frequencies p with their total weight *weight.  0 units: p is left unset. */
static int64_t frequencies(const int64_t *count, int k, double *p, double *weight)
{
    int64_t units = 0;
    double total = 0;
    for (int i = 0; i < k; i++) {
        int64_t c = count[i] > 0 ? count[i] : 0;
        units += c;
        p[i] = c > 0 ? (double)c : EMPTY_BUCKET;
        total += p[i];
    }
    for (int i = 0; i < k && units > 0; i++)
        p[i] /= total;
    *weight = total;
    return units;
}

static void moments(const double *p, const double *a, int k, double *mean, double *var)
{
    double s = 0, v = 0;
    for (int i = 0; i < k; i++)
        s += p[i] * a[i];
    for (int i = 0; i < k; i++)
        v += p[i] * (a[i] - s) * (a[i] - s);
    *mean = s;
    *var = v;
}

/* Normal CDF. */
static double phi(double z)
{
    return 0.5 * erfc(-z / sqrt(2.0));
}

static EloEstimate estimate(const int64_t *count, const double *a, int k, int64_t min_units)
{
    double p[MAX_BUCKETS], weight, s = 0.5, v = 0;
    int64_t units = frequencies(count, k, p, &weight);
    if (units > 0)
        moments(p, a, k, &s, &v);
    double se = units > 0 ? sqrt(v / weight) : 0.0;
    EloEstimate e = {
        .score = s,
        .elo = elo_from_score(s),
        .elo_lo = elo_from_score(s - Z95 * se),
        .elo_hi = elo_from_score(s + Z95 * se),
        .units = units,
        .interval_known = units >= min_units,
    };
    /* LOS = P(mu > 1/2) = Phi((s - 1/2) / se). */
    e.los = se > 0 ? phi((s - 0.5) / se) : 0.5;
    int64_t top = count[k - 1] > 0 ? count[k - 1] : 0, bottom = count[0] > 0 ? count[0] : 0;
    e.perfect = units == 0 ? 0 : top == units ? (a[k - 1] > a[0] ? 1 : -1)
                : bottom == units ? (a[0] > a[k - 1] ? 1 : -1) : 0;
    if (e.perfect) { /* see elo_bound in sprt.h */
        double q = pow(1.0 - 0.95, 1.0 / (double)units);
        e.elo_bound = e.perfect > 0 ? elo_from_score(q) : elo_from_score(1.0 - q);
    }
    return e;
}

EloEstimate elo_from_wdl(int64_t wins, int64_t draws, int64_t losses)
{
    const int64_t c[3] = { wins, draws, losses };
    EloEstimate e = estimate(c, wdl_values, 3, STATS_MIN_GAMES);
    /* The classic per-game LOS (chessprogramming.org, "Match Statistics"): draws carry
     * no information, LOS = Phi((W - L) / sqrt(W + L)). */
    double w = wins > 0 ? (double)wins : 0.0, l = losses > 0 ? (double)losses : 0.0;
    e.los = w + l > 0 ? phi((w - l) / sqrt(w + l)) : 0.5;
    return e;
}

EloEstimate elo_from_penta(const int64_t penta[PENTA_N])
{
    return estimate(penta, penta_values, PENTA_N, STATS_MIN_PAIRS);
}

void sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    /* Keep logs finite for nonsense error rates (fmin/fmax also map NaN to the limit). */
    alpha = fmin(fmax(alpha, 1e-12), 1.0 - 1e-12);
    beta = fmin(fmax(beta, 1e-12), 1.0 - 1e-12);
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}

/* The most likely distribution q with mean target given the observed p (see the top). */
static void closest_with_mean(const double *p, const double *a, int k, double target, double *q)
{
    double d[MAX_BUCKETS], dmin = 0, dmax = 0;
    for (int i = 0; i < k; i++) {
        d[i] = a[i] - target;
        dmin = fmin(dmin, d[i]);
        dmax = fmax(dmax, d[i]);
    }
    /* 1 + x d_i > 0 for every i  <=>  -1/dmax < x < -1/dmin (dmin < 0 < dmax as the target
     * lies strictly inside the range of values). */
    double lo = -1.0 / dmax, hi = -1.0 / dmin;
    for (int iter = 0; iter < 200; iter++) {
        double x = 0.5 * (lo + hi);
        if (x <= lo || x >= hi)
            break; /* the interval is down to adjacent doubles */
        double g = 0;
        for (int i = 0; i < k; i++)
            g += p[i] * d[i] / (1.0 + x * d[i]);
        if (g > 0)
            lo = x;
        else
            hi = x;
    }
    double x = 0.5 * (lo + hi);
    for (int i = 0; i < k; i++)
        q[i] = p[i] / (1.0 + x * d[i]);
}

static double llr(const int64_t *count, const double *a, int k, double elo0, double elo1)
{
    double p[MAX_BUCKETS], q0[MAX_BUCKETS], q1[MAX_BUCKETS], weight;
    if (frequencies(count, k, p, &weight) == 0)
        return 0.0;
    closest_with_mean(p, a, k, clamp_score(score_from_elo(elo0)), q0);
    closest_with_mean(p, a, k, clamp_score(score_from_elo(elo1)), q1);
    double sum = 0;
    for (int i = 0; i < k; i++)
        sum += p[i] * (log(q1[i]) - log(q0[i]));
    return weight * sum;
}

double sprt_llr_wdl(int64_t wins, int64_t draws, int64_t losses, double elo0, double elo1)
{
    const int64_t c[3] = { wins, draws, losses };
    return llr(c, wdl_values, 3, elo0, elo1);
}

double sprt_llr_penta(const int64_t penta[PENTA_N], double elo0, double elo1)
{
    return llr(penta, penta_values, PENTA_N, elo0, elo1);
}

SprtVerdict sprt_verdict(double llr_value, int64_t pairs, double lower, double upper)
{
    if (pairs < STATS_MIN_PAIRS)
        return SPRT_CONTINUE;
    if (llr_value >= upper)
        return SPRT_ACCEPT_H1;
    if (llr_value <= lower)
        return SPRT_ACCEPT_H0;
    return SPRT_CONTINUE; /* also for NaN */
}
