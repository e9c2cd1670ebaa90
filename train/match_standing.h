/* Where a match stands, read from its database file: what `dama match` would print had it
 * stopped there.  A match at a second a move runs for hours in the background, in chunks
 * across sessions, and its running Elo is only on its terminal; the file has the games. */
#ifndef DAMA_MATCH_STANDING_H
#define DAMA_MATCH_STANDING_H

#include <stdbool.h>
#include <stdint.h>

#include "sprt.h"
#include "store.h"

typedef struct MatchStanding {
    int64_t run_id;
    char variant[24];
    char status[16];     /* the run's: running, done, interrupted, failed, stale, partial */
    int64_t planned;     /* the games the run was started for (its games=N); 0 when unknown */
    int64_t stored;      /* games the file holds */
    /* A's view over the counted games: those of whole pairs (A has White in the first game
     * of a pair, game_index even), or, once the match wrote its row at the end, that row's
     * counts (which stop at an SPRT's decision). */
    int64_t games, wins, draws, losses;
    int64_t penta[PENTA_N];
    bool final;          /* the counts are the match's row */
} MatchStanding;

typedef int (*MatchStandingFn)(void *ctx, const MatchStanding *standing);

/* Calls fn for every run of kind 'match' in the file (only run_id when > 0), in id order,
 * each game's variant as stored.  fn returning non-zero stops the walk (still a success).
 * Returns the number of match runs reported, or -1 on a read error (store_error says it);
 * run_id that is no match run: 0. */
int match_standings(Store *store, int64_t run_id, MatchStandingFn fn, void *ctx);

#endif
