/* Match statistics: logistic Elo with a 95 % interval, likelihood of superiority, and the
 * SPRT log-likelihood ratio, from trinomial (W/D/L) or pentanomial (game pair) counts.
 * Pure functions: no state, no allocation; degenerate inputs give finite numbers. */
#ifndef DAMA_SPRT_H
#define DAMA_SPRT_H

#include <stdint.h>

/* Pentanomial buckets: penta[k] = number of game pairs (same opening, colours swapped)
 * in which the player scored k/2 points. */
enum { PENTA_LL = 0, PENTA_LD = 1, PENTA_DD_WL = 2, PENTA_WD = 3, PENTA_WW = 4, PENTA_N = 5 };

typedef enum SprtVerdict { SPRT_CONTINUE = 0, SPRT_ACCEPT_H1, SPRT_ACCEPT_H0 } SprtVerdict;

typedef struct EloEstimate {
    double score;          /* mean score per game, in [0, 1] */
    double elo;            /* elo_from_score(score) */
    double elo_lo, elo_hi; /* 95 % interval: elo_from_score(score -/+ 1.96 * standard error) */
    double los;            /* likelihood of superiority, P(true Elo > 0), in [0, 1] */
} EloEstimate;

/* Logistic Elo: elo = -400 log10(1 / score - 1); the score is clamped to [1e-6, 1 - 1e-6]
 * first, so 0 and 1 give -/+2400 rather than infinity. */
double elo_from_score(double score);

/* Inverse: score = 1 / (1 + 10^(-elo / 400)). */
double score_from_elo(double elo);

/* Per-game results.  No games: score 0.5, Elo 0, interval [0, 0], LOS 0.5. */
EloEstimate elo_from_wdl(int64_t wins, int64_t draws, int64_t losses);

/* Game pairs: the variance is that of the pair score, which is smaller than the trinomial
 * one when paired games are correlated (the point of playing pairs). */
EloEstimate elo_from_penta(const int64_t penta[PENTA_N]);

/* log(beta / (1 - alpha)) and log((1 - beta) / alpha): -/+2.944 for alpha = beta = 0.05. */
void sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* Approximate log-likelihood ratio of H1: elo = elo1 against H0: elo = elo0.  0 while
 * fewer than two outcome buckets are non-empty (no variance to measure yet). */
double sprt_llr_wdl(int64_t wins, int64_t draws, int64_t losses, double elo0, double elo1);
double sprt_llr_penta(const int64_t penta[PENTA_N], double elo0, double elo1);

/* llr >= upper: accept H1; llr <= lower: accept H0; otherwise continue. */
SprtVerdict sprt_verdict(double llr, double lower, double upper);

#endif
