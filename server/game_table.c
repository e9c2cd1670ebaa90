/* The games in play (game_table.h).  The table's lock guards the slots and the reference
 * counts; each game's own lock is held while a request works on it (an engine search
 * included), so requests on other games never wait for it. */
#include <pthread.h>
#include <stdlib.h>

#include "game_table.h"

struct GameTable {
    pthread_mutex_t lock;
    GameSession *slots[GAME_TABLE_MAX];
    int64_t next_id;
    uint64_t tick;        /* orders last_used */
};

GameTable *game_table_new(void)
{
    GameTable *t = calloc(1, sizeof *t);
    if (t && pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return NULL;
    }
    if (t)
        t->next_id = 1;
    return t;
}

static void session_free(GameSession *s)
{
    if (!s)
        return;
    human_game_free(&s->game);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void game_table_free(GameTable *t)
{
    if (!t)
        return;
    for (int i = 0; i < GAME_TABLE_MAX; i++)
        session_free(t->slots[i]);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* A free slot, or the one to empty (game_table.h): games no request uses, finished ones
 * first, then those left alone GAME_IDLE_RECLAIM_MS, the one left alone longest first.
 * -1 when there is none.  Under the table's lock.  (A game's result is written under its
 * own lock only by a request, which holds a reference: refs == 0 means no writer.) */
static int slot_for_new(GameTable *t, int64_t now_ms)
{
    int victim = -1;
    for (int i = 0; i < GAME_TABLE_MAX; i++) {
        GameSession *s = t->slots[i];
        if (!s)
            return i;
        if (s->refs > 0)
            continue;
        bool over = human_game_over(&s->game);
        if (!over && now_ms - s->last_used_ms < GAME_IDLE_RECLAIM_MS)
            continue;
        if (victim < 0)
            victim = i;
        else {
            GameSession *v = t->slots[victim];
            bool v_over = human_game_over(&v->game);
            if ((over && !v_over) || (over == v_over && s->last_used < v->last_used))
                victim = i;
        }
    }
    return victim;
}

int64_t game_table_add(GameTable *t, HumanGame *game, int64_t now_ms)
{
    GameSession *s = calloc(1, sizeof *s);
    if (!s || pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s);
        human_game_free(game);
        return 0;
    }
    s->game = *game;
    pthread_mutex_lock(&t->lock);
    int slot = slot_for_new(t, now_ms);
    if (slot >= 0) {
        session_free(t->slots[slot]);
        s->id = t->next_id++;
        s->last_used = ++t->tick;
        s->last_used_ms = now_ms;
        t->slots[slot] = s;
    }
    pthread_mutex_unlock(&t->lock);
    if (slot < 0) {
        session_free(s);
        return 0;
    }
    return s->id;
}

GameSession *game_table_acquire(GameTable *t, int64_t id, int64_t now_ms)
{
    GameSession *found = NULL;
    pthread_mutex_lock(&t->lock);
    for (int i = 0; i < GAME_TABLE_MAX && !found; i++)
        if (t->slots[i] && t->slots[i]->id == id)
            found = t->slots[i];
    if (found) {
        found->refs++;
        found->last_used = ++t->tick;
        found->last_used_ms = now_ms;
    }
    pthread_mutex_unlock(&t->lock);
    if (found)
        pthread_mutex_lock(&found->lock);
    return found;
}

void game_table_release(GameTable *t, GameSession *s)
{
    if (!s)
        return;
    pthread_mutex_unlock(&s->lock);
    pthread_mutex_lock(&t->lock);
    s->refs--;
    pthread_mutex_unlock(&t->lock);
}
