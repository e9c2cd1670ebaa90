/* How a match's Elo is shown and stored (match_elo.h). */
#include <math.h>
#include <stdio.h>

#include "match_elo.h"

/* x as printed with `decimals` places, without the "-0.0" of a tiny negative number. */
double elo_shown(double x, int decimals)
{
    return fabs(x) < 0.5 * pow(10.0, -decimals) ? 0.0 : x;
}

/* An interval end as printed: "+inf" or "-inf" where the clamp (or NULL) stands. */
static void bound_text(double x, char *buf, size_t len)
{
    if (isnan(x) || fabs(x) >= ELO_CLAMPED)
        snprintf(buf, len, "%sinf", isnan(x) || x > 0 ? "+" : "-");
    else
        snprintf(buf, len, "%+.1f", elo_shown(x, 1));
}

void match_elo_stored(const EloEstimate *e, double *elo, double *lo, double *hi)
{
    *elo = *lo = *hi = NAN;
    if (!e->interval_known)
        return;
    if (e->perfect) {
        *(e->perfect > 0 ? lo : hi) = e->elo_bound;
        return;
    }
    *elo = e->elo;
    *lo = e->elo_lo > -ELO_CLAMPED ? e->elo_lo : NAN;
    *hi = e->elo_hi < ELO_CLAMPED ? e->elo_hi : NAN;
}

EloEstimate match_elo_from_stored(double games, double elo, double lo, double hi)
{
    EloEstimate e = { .elo = elo, .elo_lo = isnan(lo) ? -INFINITY : lo, .elo_hi = isnan(hi) ? INFINITY : hi,
                      .units = (int64_t)games / 2, .interval_known = !isnan(elo) || !isnan(lo) || !isnan(hi) };
    if (isnan(elo) && e.interval_known) { /* a perfect score: only its bound was stored */
        e.perfect = isnan(lo) ? -1 : 1;
        e.elo_bound = isnan(lo) ? hi : lo;
    }
    return e;
}

void match_elo_text(const EloEstimate *e, char *buf, size_t len)
{
    if (e->interval_known && e->perfect) {
        snprintf(buf, len, "elo n/a: every game %s (%s %+.1f at 95 %%, one-sided)",
                 e->perfect > 0 ? "won" : "lost", e->perfect > 0 ? "above" : "below", elo_shown(e->elo_bound, 1));
    } else if (e->interval_known) {
        char lo[32], hi[32];
        bound_text(e->elo_lo, lo, sizeof lo);
        bound_text(e->elo_hi, hi, sizeof hi);
        snprintf(buf, len, "elo %+.1f [%s, %s]", elo_shown(e->elo, 1), lo, hi);
    } else
        snprintf(buf, len, "elo n/a: too few pairs (%lld < %d)", (long long)e->units,
                 STATS_MIN_PAIRS);
}

void match_elo_line(const EloEstimate *e, double points_per_game, char *buf, size_t len)
{
    char elo[96];
    match_elo_text(e, elo, sizeof elo);
    if (e->interval_known)
        snprintf(buf, len, "%s los %.1f%%", elo, 100 * e->los);
    else
        snprintf(buf, len, "%s score %.1f%%", elo, 100 * points_per_game);
}
