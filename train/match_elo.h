/* How a match's Elo is shown and stored: one text for every line that names it, and the
 * numbers a match row keeps (NULL where there is no number). */
#ifndef DAMA_MATCH_ELO_H
#define DAMA_MATCH_ELO_H

#include <stddef.h>

#include "sprt.h"

/* x as printed with `decimals` places, without the "-0.0" of a tiny negative number. */
double elo_shown(double x, int decimals);
/* "elo E [LOW, HIGH]" (an end at the clamp is +inf or -inf), "elo n/a: every game won
 * (above B at 95 %, one-sided)" for a perfect score, whose Elo is infinite, or "elo n/a: too
 * few pairs (N < 10)" when e has no interval: the one way match results are shown (never
 * "-0.0", never an interval of a handful of games, never a finite Elo of a perfect score). */
void match_elo_text(const EloEstimate *e, char *buf, size_t len);
/* The line that shows a result: match_elo_text and "los L%" once the interval is known, else
 * "score S%" with the plain score (points over games, in [0, 1]; a handful of pairs has no
 * interval to regularise).  `dama match` and `dama elo` both print it. */
void match_elo_line(const EloEstimate *e, double points_per_game, char *buf, size_t len);
/* The Elo, low and high of e as stored (NaN, stored as NULL, where there is no number: too
 * few pairs, the far end and the point of a perfect score, an end at the clamp), and back. */
void match_elo_stored(const EloEstimate *e, double *elo, double *lo, double *hi);
EloEstimate match_elo_from_stored(double games, double elo, double lo, double hi);

#endif
