/* What both sides of a DXP session share (dama following, dxp_follower.h, or initiating,
 * dxp_initiator.h): how a session ends, and the games from dama's side, one line a game on
 * stdout and the tally at the end. */
#ifndef DAMA_DXP_SESSION_H
#define DAMA_DXP_SESSION_H

#include <stdbool.h>

#include "search.h"

/* How a session ended. */
typedef enum DxpEnd {
    DXP_END_OK,            /* the games were played, or the peer closed the connection */
    DXP_END_INTERRUPTED,   /* Ctrl-C */
    DXP_END_NO_MEMORY,
    DXP_END_NO_LINK,       /* no listening socket (follower) or no connection (initiator):
                              the reason in err */
} DxpEnd;

/* Games from dama's side. */
typedef struct DxpTally {
    int games, wins, draws, losses, unknown;
} DxpTally;

/* True when the limits give a depth, nodes or a move time (else dama plays by the clock). */
bool dxp_has_limit(const SearchLimits *l);
/* One line a game on stdout ("game N: WHITE - BLACK SCORE (WHY)"), and the tally. */
void dxp_report_game(DxpTally *t, int dama_side, const char *peer, int result, const char *why);
void dxp_report_tally(const DxpTally *t);

#endif
