/* The Hub engine's pos command (hub_state.h): the position and the moves played from it,
 * kept as the game's history so repetitions and the draw counters see them. */
#include <stdlib.h>
#include <string.h>

#include "hub_state.h"
#include "hub_text.h"

void hub_cmd_pos(Hub *h, const HubLine *line)
{
    if (!hub_engine_ready(h))
        return;
    const Variant *v = h->variant;
    const char *text = hub_line_value(line, "pos");
    bool start = hub_line_has(line, "start") || (text && strcmp(text, "start") == 0);
    Position pos;
    char err[512];
    h->have_pos = false; /* a bad pos leaves none: the GUI's next go gets an error, not a
                            search of a position it did not mean */
    if (start)
        v->start(&pos);
    else if (!text) {
        hub_send_error(h, "pos: expected pos=POSITION or start");
        return;
    } else if (!hub_position_from_text(v, text, &pos, err, sizeof err)) {
        hub_send_error(h, "pos: %s", err);
        return;
    }
    game_init(h->game, v, &h->rules, &pos);
    const char *moves = hub_line_value(line, "moves");
    if (moves) {
        char *copy = strdup(moves), *save = NULL;
        if (!copy) {
            hub_send_error(h, "pos: out of memory");
            return;
        }
        int n = 0;
        for (char *m = strtok_r(copy, " \t", &save); m; m = strtok_r(NULL, " \t", &save)) {
            Move move;
            n++;
            if (!hub_move_from_text(v, &h->game->pos, &h->rules, m, &move, err, sizeof err)) {
                hub_send_error(h, "pos: move %d: %s", n, err);
                free(copy);
                return;
            }
            if (!game_play(h->game, &move)) {
                hub_send_error(h, "pos: more than %d moves", MAX_GAME_PLIES);
                free(copy);
                return;
            }
        }
        free(copy);
    }
    h->have_pos = true;
}
