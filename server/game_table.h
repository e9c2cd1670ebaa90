/* The games in play, in memory: each a HumanGame behind its own lock, found by id.  At most
 * GAME_TABLE_MAX at once (each has its engine's transposition table).  A game in play is
 * never dropped while its player is active: a new game takes a free place, else that of a
 * finished game, else that of a game nobody has asked about for GAME_IDLE_RECLAIM_MS (the
 * one left alone longest first), never one a request is using; when there is none, the
 * table is full. */
#ifndef DAMA_GAME_TABLE_H
#define DAMA_GAME_TABLE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "human_game.h"

#define GAME_TABLE_MAX 32
#define GAME_IDLE_RECLAIM_MS (30 * 60 * 1000)

typedef struct GameSession {
    int64_t id;
    HumanGame game;
    int64_t saved_game;   /* the database's id once saved; 0 before */
    char save_error[512]; /* why the last save failed ("" when none) */
    /* The engine is thinking about this game, without its lock (searches.c): no other search
     * and no move until it is done.  Under the lock. */
    bool searching;
    /* the table's bookkeeping */
    int refs;
    uint64_t last_used;
    int64_t last_used_ms;
    pthread_mutex_t lock;
} GameSession;

typedef struct GameTable GameTable;

GameTable *game_table_new(void);
void game_table_free(GameTable *t); /* NULL is fine; every game is freed */

/* Adds the started game at now_ms (the table owns it from now on, whatever the outcome);
 * its id, or 0 when the table is full (the game is freed). */
int64_t game_table_add(GameTable *t, HumanGame *game, int64_t now_ms);
/* The game with id, locked for the caller and used at now_ms; NULL when there is none. */
GameSession *game_table_acquire(GameTable *t, int64_t id, int64_t now_ms);
/* Unlocks s and lets it go. */
void game_table_release(GameTable *t, GameSession *s);

#endif
