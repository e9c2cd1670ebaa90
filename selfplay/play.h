/* One game between two searchers: the game loop shared by self-play and matches. */
#ifndef DAMA_PLAY_H
#define DAMA_PLAY_H

#include <stdatomic.h>

#include "search.h"
#include "store.h"

typedef struct GameSetup {
    const Variant *variant;
    Rules rules;
    SearchLimits limits;  /* per move */
    int move_cap;         /* plies; reaching it ends the game as an adjudicated draw */
    int noise;            /* evaluation noise for variety (see Searcher.noise); 0 = none */
} GameSetup;

typedef struct PlayedGame {
    int result;               /* enum Result */
    int reason;               /* enum Reason */
    int plies;
    bool mars;                /* the winner lost no piece */
    char *moves;              /* space-separated long form (owned) */
    StoredPosition *positions;/* positions[i] after i plies, plies + 1 of them (owned) */
    int npositions;
} PlayedGame;

/* Plays from start until the rules end the game or the move cap.  Both searchers are
 * cleared first, so the game depends only on its inputs (seed feeds the noise).  Returns false when stop became
 * non-zero (the game is abandoned) or memory ran out; out is then freed. */
bool play_game(const GameSetup *setup, Searcher *white, Searcher *black, const Position *start,
               uint64_t seed, const atomic_bool *stop, PlayedGame *out);
void played_game_free(PlayedGame *g);

#endif
