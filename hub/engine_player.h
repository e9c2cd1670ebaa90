/* A player that is an outside program speaking the Hub protocol (version 2; `dama hub --help`
 * and docs/design.md sum it up): started through `/bin/sh -c COMMAND`, told the variant,
 * then for each move the start position and the moves so far, a level and `go think`.
 *
 * A failure is the engine's loss, never dama's: it exited or closed its output, or said
 * `error` (engine-crash), gave no `done` within its budget plus the margin (time-forfeit),
 * or named a move that is not legal in the position (illegal-move).  After a crash or a time
 * forfeit the process is ended and started again for the next game. */
#ifndef DAMA_ENGINE_PLAYER_H
#define DAMA_ENGINE_PLAYER_H

#include <stddef.h>

#include "player.h"

#define ENGINE_MAX_PARAMS 16

typedef struct EngineConfig {
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
    /* A DXP engine instead (selfplay/dxp_player.h): "HOST:PORT" to connect to, command then
     * the program to start first ("" for none), and the thinking time in minutes its game
     * requests give (0: the clock's time, or else the timeout's, rounded up). */
    const char *dxp_address;
    int dxp_minutes;
} EngineConfig;

/* A player for cfg (which must outlive it); the process starts at the first new game.  NULL
 * when out of memory.  With cfg->dxp_address set, the DXP player of dxp_player.h. */
Player *engine_player_new(const EngineConfig *cfg);

/* Starts the engine once, reads its name into cfg->name ("NAME" or "NAME VERSION" from `id`)
 * and quits it: the check a command makes before a run.  False with a one-line reason in err. */
bool engine_probe(EngineConfig *cfg, char *err, size_t errlen);

#endif
