/* What both sides of a DXP session share (dxp_session.h): a game's line and the tally. */
#include <stdio.h>

#include "dxp_session.h"
#include "game.h"

bool dxp_has_limit(const SearchLimits *l)
{
    return l->depth || l->nodes || l->movetime_ms;
}

static const char *score_text(int result)
{
    return result == RESULT_WHITE_WINS ? "2-0" : result == RESULT_BLACK_WINS ? "0-2"
         : result == RESULT_DRAW ? "1-1" : "*";
}

/* One line a game on stdout, and the tally. */
void dxp_report_game(DxpTally *t, int dama_side, const char *peer, int result, const char *why)
{
    t->games++;
    if (result == RESULT_NONE)
        t->unknown++;
    else if (result == RESULT_DRAW)
        t->draws++;
    else if ((result == RESULT_WHITE_WINS) == (dama_side == WHITE))
        t->wins++;
    else
        t->losses++;
    printf("game %d: %s - %s %s (%s)\n", t->games, dama_side == WHITE ? "dama" : peer,
           dama_side == WHITE ? peer : "dama", score_text(result), why);
    fflush(stdout);
}

void dxp_report_tally(const DxpTally *t)
{
    printf("dxp games %d wins %d draws %d losses %d unknown %d (dama's view)\n", t->games, t->wins,
           t->draws, t->losses, t->unknown);
    fflush(stdout);
}
