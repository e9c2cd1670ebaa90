/* A DXP engine as a side of `dama match` (--dxp-a/--dxp-b HOST:PORT, --dxp-command-a/-b CMD):
 * the checks of the options and the EngineConfig that makes dxp/dxp_player.c the side. */
#ifndef DAMA_MATCH_DXP_H
#define DAMA_MATCH_DXP_H

#include "run_options.h"

typedef struct MatchDxp {
    const char *address[2];  /* HOST:PORT of side A, B; NULL: not a DXP side */
    const char *command[2];  /* the program to start first; NULL: none */
} MatchDxp;

/* Checks side's DXP options against ro (International, one thread, an address); sets ro's
 * threads to 1 when not given.  False after the usage error. */
bool match_dxp_check(RunOptions *ro, int side, const MatchDxp *dxp);
/* The EngineConfig of side (name "dxp:HOST:PORT", the start command or ""). */
int match_dxp_side(const RunOptions *ro, int side, const MatchDxp *dxp, EngineConfig *out);

#endif
