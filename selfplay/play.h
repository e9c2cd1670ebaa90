/* One game between two players (dama's searcher or an outside engine, player.h): the game
 * loop shared by self-play, matches and gauntlets. */
#ifndef DAMA_PLAY_H
#define DAMA_PLAY_H

#include <stdatomic.h>

#include "egdb_probe.h"
#include "player.h"
#include "store.h"

typedef struct GameSetup {
    const Variant *variant;
    Rules rules;
    SearchLimits limits;  /* per move, when there is no clock */
    int clock_ms;         /* > 0: a clock instead, this much time per side per game */
    int clock_inc_ms;     /*   plus this much after each move */
    int time_margin_ms;   /* with a clock, a side loses on time when it overspends by more */
    int move_cap;         /* plies; reaching it ends the game as an adjudicated draw */
    int noise;            /* evaluation noise for variety (see Searcher.noise); 0 = none */
    /* Adjudication, to save time where the result is clear (data generation): a side wins
     * once both players' searches have scored it at least win_cp ahead for win_plies plies
     * running; a draw once |score| <= draw_cp for draw_plies plies running from ply
     * draw_after on.  0 plies = off.  The rules' end of game comes first. */
    int win_cp, win_plies;
    int draw_cp, draw_plies, draw_after;
    /* Endgame databases (NULL = none): a game whose position they hold ends with their
     * value, reason egdb (egdb_adjudicate: a win only while the draw counters are far
     * from their limits).  After the rules' end, before the score adjudication. */
    Egdb *egdb;
} GameSetup;

typedef struct PlayedGame {
    int result;               /* enum Result */
    int reason;               /* enum Reason */
    int plies;
    bool mars;                /* the winner lost no piece */
    char *moves;              /* space-separated long form (owned) */
    StoredPosition *positions;/* positions[i] after i plies, plies + 1 of them (owned) */
    int npositions;
    char failure[256];        /* a player's failure in words ("" when none), for the log */
} PlayedGame;

/* Plays from start until the rules end the game, the move cap, or a player fails to give a
 * legal move (it loses, with the player's reason).  Both players start a new game first, so
 * with searchers the game depends only on its inputs (seed feeds the noise).  Returns false
 * when stop became non-zero (the game is abandoned) or memory ran out; out is then freed. */
bool play_game(const GameSetup *setup, Player *white, Player *black, const Position *start,
               uint64_t seed, const atomic_bool *stop, PlayedGame *out);
void played_game_free(PlayedGame *g);

#endif
