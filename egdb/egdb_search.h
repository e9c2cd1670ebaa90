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

/* The databases of v under rules in dir, for `--egdb DIR` and the Hub parameter: NULL,
 * after a line on stderr naming dir, when dir holds none of v's (a damaged class file is
 * reported by name when first needed, egdb_probe.h).  Never fatal: the caller goes on
 * without them. */
Egdb *egdb_open_checked(const char *dir, const Variant *v, const Rules *rules);
/* For the servers of every variant: the databases of each variant variant_at(i), i < n,
 * under its default rules into by_variant[i] (NULL where dir has none of that variant's),
 * with the line on stderr only when dir holds none of any.  A game under other rules does
 * not use them (egdb_search_attach). */
void egdb_open_each(const char *dir, Egdb **by_variant, int n);

/* The game's result by the databases when the position is in them and its value is one the
 * rules would let stand (RESULT_NONE otherwise): a draw at once; a win only while the draw
 * counters are far from their limits (the same test as the search's: twice the plies
 * counted would not end the game yet), since the tables leave those counters out. */
int egdb_adjudicate(Egdb *db, const Game *game);

#endif
