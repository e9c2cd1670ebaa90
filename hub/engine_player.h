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

#include "engine_config.h"

/* A player for cfg (which must outlive it); the process starts at the first new game.  NULL
 * when out of memory.  The factory of a Hub engine's EngineConfig (its new_player). */
Player *engine_player_new(const EngineConfig *cfg);

/* Starts the engine once, reads its name into cfg->name ("NAME" or "NAME VERSION" from `id`)
 * and quits it: the check a command makes before a run.  False with a one-line reason in err. */
bool engine_probe(EngineConfig *cfg, char *err, size_t errlen);

#endif
