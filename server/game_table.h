/* The games in play, in memory: each a HumanGame behind its own lock, found by id. */
#ifndef DAMA_GAME_TABLE_H
#define DAMA_GAME_TABLE_H

typedef struct GameTable GameTable;

GameTable *game_table_new(void);
void game_table_free(GameTable *t); /* NULL is fine */

#endif
