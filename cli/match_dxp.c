/* DXP sides of a match (match_dxp.h). */
#include <stdio.h>

#include "cli.h"
#include "dxp_link.h"
#include "interrupt.h"
#include "match_dxp.h"
#include "variant.h"

bool match_dxp_check(RunOptions *ro, int side, const MatchDxp *dxp)
{
    char host[256], port[16], err[256];
    if (!dxp->address[side])
        return cli_usage_error("--dxp-command-%c needs --dxp-%c HOST:PORT: where the program listens",
                               "ab"[side], "ab"[side]), false;
    if (!dxp_address_parse(dxp->address[side], host, port, err, sizeof err))
        return cli_usage_error("--dxp-%c: %s", "ab"[side], err), false;
    if (ro->run.cfg.setup.variant != &international_variant)
        return cli_usage_error("--dxp-%c: DXP is the protocol of International draughts; add "
                               "--variant international", "ab"[side]), false;
    if (ro->run.cfg.threads > 1)
        return cli_usage_error("--dxp-%c: a DXP engine plays over one connection, one game at a "
                               "time: --threads 1", "ab"[side]), false;
    ro->run.cfg.threads = 1;
    return true;
}

int match_dxp_side(const RunOptions *ro, int side, const MatchDxp *dxp, EngineConfig *out)
{
    run_options_engine(ro, side, dxp->command[side] ? dxp->command[side] : "", out);
    out->stop = interrupt_flag();
    run_settings_dxp_engine(out, dxp->address[side]);
    return EXIT_OK;
}
