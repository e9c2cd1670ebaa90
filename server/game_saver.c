/* Finished games into the database: once each, whole (human_game_save writes a game and
 * its positions in one transaction), into one run of kind 'play' per variant for the
 * whole process.  A failed save (the file busy for too long, a full disk) is retried by
 * the game's next request; the game stays in memory meanwhile. */
#include <stdio.h>

#include "game_table.h"
#include "weights_store.h"
#include "server.h"
#include "store.h"

void server_save_if_over(Server *srv, GameSession *s)
{
    if (!human_game_over(&s->game) || s->saved_game > 0)
        return;
    int vi = server_variant_index(s->game.variant);
    char err[512];
    pthread_mutex_lock(&srv->save_lock);
    Store *store = store_open(srv->db_path, err, sizeof err);
    if (store && srv->weights_id[vi] <= 0) {
        srv->weights_id[vi] = weights_store_save(store, s->game.weights, 0, 0, "dama serve");
        if (srv->weights_id[vi] < 0)
            snprintf(err, sizeof err, "storing the engine's weights: %s", store_error(store));
    }
    int64_t game_id = 0;
    bool ok = store && srv->weights_id[vi] > 0 &&
              human_game_save(&s->game, store, srv->weights_id[vi], &srv->play_run[vi], &game_id, err,
                              sizeof err);
    if (srv->weights_id[vi] < 0)
        srv->weights_id[vi] = 0; /* tried again with the next save */
    store_close(store);
    pthread_mutex_unlock(&srv->save_lock);
    if (ok) {
        s->saved_game = game_id;
        s->save_error[0] = '\0';
    } else {
        snprintf(s->save_error, sizeof s->save_error, "%s", err);
    }
}
