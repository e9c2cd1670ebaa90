/* Match statistics: logistic Elo with a 95 % interval, likelihood of superiority, and the
 * SPRT log-likelihood ratio, from trinomial (W/D/L) or pentanomial (game pair) counts.
 * Pure functions: no state, no allocation; degenerate inputs give finite numbers. */
#ifndef DAMA_SPRT_H
#define DAMA_SPRT_H

#include <stdbool.h>
#include <stdint.h>

/* Pentanomial buckets: penta[k] = number of game pairs (same opening, colours swapped)
 * in which the player scored k/2 points. */
enum { PENTA_LL = 0, PENTA_LD = 1, PENTA_DD_WL = 2, PENTA_WD = 3, PENTA_WW = 4, PENTA_N = 5 };

/* Fewer whole pairs than this: no SPRT verdict and no Elo interval.  Why 10: the pair
 * distribution has 5 buckets; with fewer than two pairs a bucket its variance, and so both
 * the interval and the likelihood ratio, rests on a guess (the regularising prior), and the
 * SPRT's error rates assume the sample describes the pairs.  The exact LLR below cannot
 * cross a bound that early for elo1 - elo0 up to about 100 (all pairs won accepts H1 after
 * 104 pairs for 0..10, 53 for 0..20, 12 for 0..100, but 8 for 0..200), so the rule costs
 * nothing in the usual ranges and stops decisions on a handful of games in the wide ones. */
enum { STATS_MIN_PAIRS = 10 };
/* The same for per-game (trinomial) counts. */
enum { STATS_MIN_GAMES = 2 * STATS_MIN_PAIRS };

typedef enum SprtVerdict { SPRT_CONTINUE = 0, SPRT_ACCEPT_H1, SPRT_ACCEPT_H0 } SprtVerdict;

typedef struct EloEstimate {
    double score;          /* mean score per game, in [0, 1] */
    double elo;            /* elo_from_score(score) */
    double elo_lo, elo_hi; /* 95 % interval: elo_from_score(score -/+ 1.96 * standard error) */
    double los;            /* likelihood of superiority, P(true Elo > 0), in [0, 1] */
    int64_t units;         /* games (trinomial) or pairs (pentanomial) counted */
    bool interval_known;   /* enough units (STATS_MIN_*) for the interval and LOS to mean much */
    /* +1 when every unit is a full win (no draw, no loss), -1 when every unit is a full
     * loss, 0 otherwise.  Such a score's Elo is infinite: elo and the interval above are then
     * the regularisation's numbers (finite, as promised, but not estimates); what the result
     * does allow is elo_bound. */
    int perfect;
    /* perfect: the one-sided 95 % bound on the Elo (a lower bound for +1, an upper one for
     * -1): a unit's score is at least its chance q of being a full win, and n full wins in
     * n units happen with chance q^n, so q >= 0.05^(1/n) at 95 % (exact; 30 won pairs give
     * q >= 0.905, +391.6 Elo).  0 when not perfect. */
    double elo_bound;
} EloEstimate;

/* The Elo of the clamped score 1 - 1e-6 (2400.0002): an interval end at or beyond +-this is
 * the clamp, not a bound. */
#define ELO_CLAMPED 2400.0

/* Logistic Elo: elo = -400 log10(1 / score - 1); the score is clamped to [1e-6, 1 - 1e-6]
 * first, so 0 and 1 give -/+2400 rather than infinity.  Never -0. */
double elo_from_score(double score);

/* Inverse: score = 1 / (1 + 10^(-elo / 400)). */
double score_from_elo(double elo);

/* Per-game results.  No games: score 0.5, Elo 0, interval [0, 0], LOS 0.5.  The variance
 * is that of the regularised counts (below). */
EloEstimate elo_from_wdl(int64_t wins, int64_t draws, int64_t losses);

/* Game pairs: the variance is that of the pair score, which is smaller than the trinomial
 * one when paired games are correlated (the point of playing pairs). */
EloEstimate elo_from_penta(const int64_t penta[PENTA_N]);

/* log(beta / (1 - alpha)) and log((1 - beta) / alpha): -/+2.944 for alpha = beta = 0.05. */
void sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* The generalised log-likelihood ratio of H1: elo = elo1 against H0: elo = elo0 as fishtest
 * computes it (LLR_logistic): an empty bucket counts as 1e-3 of a unit (regularisation),
 * and each hypothesis is the distribution of that mean score closest to the observed one
 * (the multinomial maximum-likelihood estimate), not a normal approximation, which at small
 * samples overstates the evidence of a lopsided result many times over.  0 with no games. */
double sprt_llr_wdl(int64_t wins, int64_t draws, int64_t losses, double elo0, double elo1);
double sprt_llr_penta(const int64_t penta[PENTA_N], double elo0, double elo1);

/* llr >= upper: accept H1; llr <= lower: accept H0; otherwise, and always while fewer than
 * STATS_MIN_PAIRS pairs are counted, continue. */
SprtVerdict sprt_verdict(double llr, int64_t pairs, double lower, double upper);

#endif
