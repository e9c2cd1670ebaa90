/* The endgame databases as the search consults them: egdb/ fills the search's probe hook
 * (SearchProbe in engine/search.h), so the engine itself knows no database files.  Also
 * the game's adjudication by the databases (self-play and matches). */
#ifndef DAMA_EGDB_SEARCH_H
#define DAMA_EGDB_SEARCH_H

#include "egdb_probe.h"
#include "game.h"
#include "search.h"

/* s probes db from its next search on (db NULL: no longer); db must outlive the use.  A
 * database of another variant or other rules than the searcher's is not attached (its
 * values would be another game's): false then, and s probes nothing. */
bool egdb_search_attach(Searcher *s, Egdb *db);

/* The game's result by the databases when the position is in them and its value is one the
 * rules would let stand (RESULT_NONE otherwise): a draw at once; a win only while the draw
 * counters are far from their limits (the same test as the search's: twice the plies
 * counted would not end the game yet), since the tables leave those counters out. */
int egdb_adjudicate(Egdb *db, const Game *game);

#endif
