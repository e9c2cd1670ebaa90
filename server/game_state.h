/* A game in play as JSON: the "game state" every /api/games route answers with. */
#ifndef DAMA_GAME_STATE_H
#define DAMA_GAME_STATE_H

#include <jansson.h>

#include "game_table.h"

/* The state at now_ms (the clock's time left is counted to it). */
json_t *game_state_json(const GameSession *s, int64_t now_ms);

#endif
