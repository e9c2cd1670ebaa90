/* A player that is a DXP engine (docs/dxp.md) across a TCP connection: dama is the initiator.
 * Its first move of a game sends the game request (the follower's colour is the side this
 * player holds, the start position, the thinking time), then every move of the game is one
 * MOVE message each way; at the end the game is closed with GAMEEND messages.
 *
 * The EngineConfig says where (dxp_address "HOST:PORT") and, when command is not empty,
 * which program to start first (by /bin/sh -c, in its own process group; connections are
 * tried until the start-up timeout).  One connection serves every game.
 *
 * A failure is the engine's loss, as with a Hub engine (hub/engine_player.h): the connection
 * closed, a message that is not DXP, or a refused game (engine-crash); no move within its
 * time (time-forfeit): what is left of its game time, or its clock, plus the margin; a move
 * that is not legal (illegal-move); a GAMEEND that gives up (resign).  After a crash or a
 * time forfeit the connection is closed (and the program ended) and made again for the next
 * game. */
#ifndef DAMA_DXP_PLAYER_H
#define DAMA_DXP_PLAYER_H

#include "engine_config.h"

/* A DXP player for cfg (cfg->dxp_address set; cfg must outlive it); it connects at the first
 * new game.  NULL when out of memory. */
Player *dxp_player_new(const EngineConfig *cfg);
/* Connects now (starting the program first when there is one): the check a command makes
 * before its games.  False with the reason in err. */
bool dxp_player_connect(Player *p, char *err, size_t errlen);
/* The name the engine gave in its last game accept (its address before any). */
const char *dxp_player_peer_name(Player *p);

#endif
