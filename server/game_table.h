/* The games in play, in memory: each a HumanGame behind its own lock, found by id.  At most
 * GAME_TABLE_MAX at once (each has its engine's transposition table): a new game pushes
 * out a finished one first, else the one left alone longest, never one in use. */
#ifndef DAMA_GAME_TABLE_H
#define DAMA_GAME_TABLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "human_game.h"

#define GAME_TABLE_MAX 32

typedef struct GameSession {
    int64_t id;
    HumanGame game;
    int64_t saved_game;   /* the database's id once saved; 0 before */
    char save_error[512]; /* why the last save failed ("" when none) */
    /* the table's bookkeeping */
    int refs;
    uint64_t last_used;
    pthread_mutex_t lock;
} GameSession;

typedef struct GameTable GameTable;

GameTable *game_table_new(void);
void game_table_free(GameTable *t); /* NULL is fine; every game is freed */

/* Adds the started game (the table owns it from now on, whatever the outcome); its id, or
 * 0 when the table is full of games in use (the game is freed). */
int64_t game_table_add(GameTable *t, HumanGame *game);
/* The game with id, locked for the caller; NULL when there is none. */
GameSession *game_table_acquire(GameTable *t, int64_t id);
void game_table_release(GameTable *t, GameSession *s);

#endif
