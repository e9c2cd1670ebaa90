/* dama as a DamExchange (DXP) engine following (docs/dxp.md): it listens, and plays the
 * games each initiator asks for with its searcher, one connection after another.  `dama dxp
 * --listen` (cli/cmd_dxp.c) parses the options and calls it. */
#ifndef DAMA_DXP_FOLLOWER_H
#define DAMA_DXP_FOLLOWER_H

#include <stdatomic.h>
#include <stddef.h>

#include "dxp_session.h"
#include "variant.h"
#include "weights.h"

typedef struct DxpFollowerConfig {
    const char *host, *port;    /* where to listen (dxp_address_parse's parts) */
    const Variant *variant;     /* International: DXP is its protocol */
    const Rules *rules;
    const Weights *weights;
    long hash_mb;
    SearchLimits level;         /* all zero: dama plays by the game's clock */
    long timeout_ms;            /* the peer's time beyond its clock before the link closes */
    bool once;                  /* one connection only */
    const char *name;           /* what dama calls itself in its game accepts */
    const atomic_bool *stop;    /* Ctrl-C */
} DxpFollowerConfig;

/* Listens (printing "dxp listening on HOST:PORT") and follows until a connection ends with
 * once, or Ctrl-C; prints a line a game and the tally.  DXP_END_NO_LINK when it cannot
 * listen: the reason in err. */
DxpEnd dxp_follower_run(const DxpFollowerConfig *cfg, char *err, size_t errlen);

#endif
