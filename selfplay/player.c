/* dama's own player: the searcher, on the game's history. */
#include <stdlib.h>

#include "player.h"
#include "time_manager.h"

typedef struct SearcherPlayer {
    Player base;                 /* first: a Player * is a SearcherPlayer * */
    Searcher *searcher;
} SearcherPlayer;

static const PlayerOps searcher_ops;

static void searcher_new_game(Player *p, uint64_t seed, int noise)
{
    Searcher *s = ((SearcherPlayer *)p)->searcher;
    searcher_clear(s);
    s->noise = noise;
    s->noise_seed = seed;
}

static PlayerStatus searcher_choose(Player *p, const PlayerTurn *t, PlayerChoice *out)
{
    Searcher *s = ((SearcherPlayer *)p)->searcher;
    const Game *game = t->game;
    const uint64_t *history = &game->keys[game->ply - game->since_capture];
    s->root_endgame_plies = game->endgame_plies;
    SearchLimits clocked = { 0 };
    if (t->clock) { /* in process: no overhead beyond the time manager's reserve */
        TimeBudget b = time_budget(&(TimeControl){ .time_ms = t->time_ms, .inc_ms = t->inc_ms });
        clocked = (SearchLimits){ .movetime_ms = (int)b.hard_ms, .soft_ms = (int)b.soft_ms };
    }
    SearchInfo info = search(s, &game->pos, history, game->since_capture, t->clock ? &clocked : t->limits,
                             NULL, NULL);
    if (info.interrupted || info.pv_length == 0)
        return PLAYER_STOPPED; /* stopped, or cannot happen: the game goes on, so there is a move */
    out->move = info.pv[0];
    out->score = info.score;
    out->has_score = true;
    return PLAYER_MOVED;
}

static void searcher_destroy(Player *p)
{
    searcher_free(((SearcherPlayer *)p)->searcher);
    free(p);
}

static const PlayerOps searcher_ops = { searcher_new_game, searcher_choose, searcher_destroy, NULL };

Player *searcher_player_new(const Variant *v, const Rules *rules, const Weights *w, size_t hash_mb,
                            const atomic_bool *stop)
{
    SearcherPlayer *sp = calloc(1, sizeof *sp);
    if (!sp || !(sp->searcher = searcher_new(v, rules, w, hash_mb))) {
        free(sp);
        return NULL;
    }
    sp->base.ops = &searcher_ops;
    sp->searcher->stop_request = stop;
    return &sp->base;
}

Searcher *player_searcher(Player *p)
{
    return p && p->ops == &searcher_ops ? ((SearcherPlayer *)p)->searcher : NULL;
}
