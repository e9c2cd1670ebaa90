/* dama as the DXP initiator (dxp_initiator.h): its searcher against the follower, one
 * play_game a game, colours alternating. */
#include <stdio.h>

#include "dxp_initiator.h"
#include "dxp_player.h"
#include "play.h"

DxpEnd dxp_initiator_run(const DxpInitiatorConfig *cfg, char *err, size_t errlen)
{
    const Variant *v = cfg->variant;
    const atomic_bool *stop = cfg->stop;
    EngineConfig peer_cfg = {
        .command = "", .variant = v, .margin_ms = (int)cfg->timeout_ms, .timeout_ms = (int)cfg->timeout_ms,
        .stop = stop, .dxp_address = cfg->address, .dxp_minutes = (int)cfg->minutes,
        .new_player = dxp_player_new,
    };
    GameSetup setup = { .variant = v, .rules = *cfg->rules, .limits = cfg->level, .move_cap = MAX_GAME_PLIES,
                        .time_margin_ms = (int)cfg->timeout_ms };
    if (!dxp_has_limit(&cfg->level))
        setup.clock_ms = (int)cfg->minutes * 60000;
    Player *own = searcher_player_new(v, cfg->rules, cfg->weights, (size_t)cfg->hash_mb, stop);
    Player *peer = dxp_player_new(&peer_cfg);
    DxpTally tally = { 0 };
    DxpEnd end = DXP_END_OK;
    if (!own || !peer)
        end = DXP_END_NO_MEMORY;
    else if (!dxp_player_connect(peer, err, errlen))
        end = atomic_load(stop) ? DXP_END_INTERRUPTED : DXP_END_NO_LINK;
    for (long i = 0; end == DXP_END_OK && i < cfg->games; i++) {
        int side = i % 2 ? BLACK : WHITE;
        PlayedGame g;
        if (!play_game(&setup, side == WHITE ? own : peer, side == WHITE ? peer : own, cfg->start,
                       (uint64_t)i, stop, &g)) {
            end = atomic_load(stop) ? DXP_END_INTERRUPTED : DXP_END_NO_MEMORY;
            break;
        }
        if (g.failure[0])
            fprintf(stderr, "dxp: game %ld: %s\n", i + 1, g.failure);
        dxp_report_game(&tally, side, dxp_player_peer_name(peer), g.result, reason_name(g.reason));
        played_game_free(&g);
    }
    if (tally.games)
        dxp_report_tally(&tally);
    player_free(peer);
    player_free(own);
    return end;
}
