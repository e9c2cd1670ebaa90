/* dama as a DamExchange (DXP) engine initiating (docs/dxp.md): it connects to a follower
 * and plays N games with colours alternating, dama's searcher against dxp_player.c through
 * the match machinery (selfplay/play.h).  `dama dxp --connect` (cli/cmd_dxp.c) parses the
 * options and calls it. */
#ifndef DAMA_DXP_INITIATOR_H
#define DAMA_DXP_INITIATOR_H

#include <stdatomic.h>
#include <stddef.h>

#include "dxp_session.h"
#include "variant.h"
#include "weights.h"

typedef struct DxpInitiatorConfig {
    const char *address;        /* HOST:PORT of the follower */
    const Variant *variant;     /* International: DXP is its protocol */
    const Rules *rules;
    const Weights *weights;
    long hash_mb;
    SearchLimits level;         /* all zero: both play by the clock of minutes */
    long games, minutes;        /* games to play; each side's time a game */
    long timeout_ms;            /* the follower's time beyond its clock, and the start-up's */
    const Position *start;      /* the games' start position */
    const atomic_bool *stop;    /* Ctrl-C */
} DxpInitiatorConfig;

/* Connects and plays the games; prints a line a game and the tally (when a game was
 * played).  DXP_END_NO_LINK when it cannot connect: the reason in err. */
DxpEnd dxp_initiator_run(const DxpInitiatorConfig *cfg, char *err, size_t errlen);

#endif
