/* A side of a game: dama's searcher with its weights, or an outside engine (hub/engine_player.c,
 * dxp/dxp_player.c, made by the caller's factory: engine_config.h).
 * The game loop (play.c) asks a Player for a move and knows nothing else of it, so self-play,
 * matches and gauntlets against other programs are one loop. */
#ifndef DAMA_PLAYER_H
#define DAMA_PLAYER_H

#include <stdatomic.h>

#include "game.h"
#include "search.h"

/* What the player is told for one move. */
typedef struct PlayerTurn {
    const Game *game;            /* the game so far; game->pos is to move */
    const Position *start;       /* where the game began */
    const Move *moves;           /* the game->ply moves played from start */
    const SearchLimits *limits;  /* per move, when there is no clock */
    bool clock;                  /* a game clock instead of limits: */
    int time_ms, inc_ms;         /*   the mover's remaining time and the increment */
    const atomic_bool *stop;     /* Ctrl-C (may be NULL) */
} PlayerTurn;

typedef enum PlayerStatus {
    PLAYER_MOVED,    /* move is a legal move of the position */
    PLAYER_FAILED,   /* the player loses the game: failure (enum Reason) says how */
    PLAYER_STOPPED,  /* interrupted by the stop flag, or out of memory: the game is abandoned */
} PlayerStatus;

typedef struct PlayerChoice {
    Move move;
    bool has_score;
    int score;                   /* hundredths of a man, from the side to move */
    int failure;                 /* enum Reason, for PLAYER_FAILED */
    char detail[192];            /* what went wrong, in words, for PLAYER_FAILED */
} PlayerChoice;

typedef struct Player Player;
typedef struct PlayerOps {
    /* Before each game: forget the previous one.  seed feeds the searcher's noise. */
    void (*new_game)(Player *p, uint64_t seed, int noise);
    PlayerStatus (*choose)(Player *p, const PlayerTurn *turn, PlayerChoice *out);
    void (*destroy)(Player *p);
    /* Optional (NULL for most players): the game is over with result (enum Result); final
     * holds the whole game and this player's clock.  A DXP engine is told the end here. */
    void (*game_over)(Player *p, const PlayerTurn *final, int result);
} PlayerOps;

struct Player {
    const PlayerOps *ops;
};

/* dama's searcher with weights w (which must outlive it); NULL when out of memory. */
Player *searcher_player_new(const Variant *v, const Rules *rules, const Weights *w, size_t hash_mb,
                            const atomic_bool *stop);
/* The searcher of a player made by searcher_player_new, NULL for any other player. */
Searcher *player_searcher(Player *p);

static inline void player_new_game(Player *p, uint64_t seed, int noise) { p->ops->new_game(p, seed, noise); }
static inline PlayerStatus player_choose(Player *p, const PlayerTurn *t, PlayerChoice *out)
{
    return p->ops->choose(p, t, out);
}
static inline void player_game_over(Player *p, const PlayerTurn *final, int result)
{
    if (p->ops->game_over)
        p->ops->game_over(p, final, result);
}
static inline void player_free(Player *p)
{
    if (p)
        p->ops->destroy(p);
}

#endif
