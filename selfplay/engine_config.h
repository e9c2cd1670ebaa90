/* An outside engine as a side of a run: what the caller knows of it (how to start or reach
 * it, its margins and parameters) and the factory that makes its player.  The protocols live
 * above selfplay/ (hub/engine_player.h for Hub engines, dxp/dxp_player.h for DXP engines):
 * the caller that builds the config picks the factory, so the runner never names either. */
#ifndef DAMA_ENGINE_CONFIG_H
#define DAMA_ENGINE_CONFIG_H

#include <stdatomic.h>

#include "player.h"

#define ENGINE_MAX_PARAMS 16

typedef struct EngineConfig EngineConfig;

struct EngineConfig {
    const char *command;          /* run by /bin/sh -c */
    const Variant *variant;
    int margin_ms;                /* wall time allowed beyond the move's time budget */
    int timeout_ms;               /* the budget of a move under a node or depth limit, and of
                                     the start-up (hub ... wait, init ... ready) */
    const char *params[ENGINE_MAX_PARAMS]; /* "NAME=VALUE": set-param before init */
    int nparams;
    char rules[256];              /* the match's rule options as `--rules` takes them ("" for
                                     the defaults): sent when the engine has a rules parameter */
    char name[128];               /* what the engine calls itself (engine_probe fills it) */
    const atomic_bool *stop;      /* Ctrl-C (may be NULL): cuts a start-up short too */
    /* A DXP engine instead (dxp/dxp_player.h): "HOST:PORT" to connect to, command then
     * the program to start first ("" for none), and the thinking time in minutes its game
     * requests give (0: the clock's time, or else the timeout's, rounded up). */
    const char *dxp_address;
    int dxp_minutes;
    /* Makes a player for this config (which must outlive it), one per worker thread; NULL
     * when out of memory: hub/engine_player.h's engine_player_new or dxp/dxp_player.h's
     * dxp_player_new. */
    Player *(*new_player)(const EngineConfig *cfg);
};

#endif
