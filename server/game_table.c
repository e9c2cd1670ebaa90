#include <stdlib.h>
#include "game_table.h"
struct GameTable { int n; };
GameTable *game_table_new(void) { return calloc(1, sizeof(GameTable)); }
void game_table_free(GameTable *t) { free(t); }
