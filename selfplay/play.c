/* The game loop: search, record, play, until the rules say the game is over. */
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "game.h"
#include "notation.h"
#include "play.h"
#include "position.h"
#include "variant.h"

void played_game_free(PlayedGame *g)
{
    free(g->moves);
    free(g->positions);
    g->moves = NULL;
    g->positions = NULL;
}

/* Appends " text" to the growing move list. */
static bool append_move(char **buf, size_t *len, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 2 > *cap) {
        size_t ncap = (*cap + n + 2) * 2;
        char *p = realloc(*buf, ncap);
        if (!p)
            return false;
        *buf = p;
        *cap = ncap;
    }
    if (*len)
        (*buf)[(*len)++] = ' ';
    memcpy(*buf + *len, text, n + 1);
    *len += n;
    return true;
}

bool play_game(const GameSetup *setup, Searcher *white, Searcher *black, const Position *start,
               uint64_t seed, const atomic_bool *stop, PlayedGame *out)
{
    const Variant *v = setup->variant;
    memset(out, 0, sizeof *out);
    Game *game = malloc(sizeof *game);
    int cap_plies = setup->move_cap < MAX_GAME_PLIES ? setup->move_cap : MAX_GAME_PLIES;
    out->positions = calloc((size_t)cap_plies + 1, sizeof *out->positions);
    size_t len = 0, cap = 0;
    if (!game || !out->positions)
        goto fail;
    game_init(game, v, &setup->rules, start);
    searcher_clear(white);
    searcher_clear(black);
    white->noise = black->noise = setup->noise;
    white->noise_seed = seed;
    black->noise_seed = seed ^ 0xB1AC4ULL;
    int start_pieces[2] = { popcount(position_pieces(start, WHITE)), popcount(position_pieces(start, BLACK)) };

    for (;;) {
        StoredPosition *sp = &out->positions[game->ply];
        sp->pos = game->pos;
        sp->capture_pending = v->capture_pending(&game->pos);
        out->npositions = game->ply + 1;
        int reason;
        int result = game_result(game, &reason);
        if (result == RESULT_NONE && game->ply >= cap_plies) {
            result = RESULT_DRAW;
            reason = REASON_MOVE_CAP;
        }
        if (result != RESULT_NONE) {
            out->result = result;
            out->reason = reason;
            break;
        }
        if (stop && atomic_load(stop))
            goto fail;
        Searcher *s = game->pos.side == WHITE ? white : black;
        const uint64_t *history = &game->keys[game->ply - game->since_capture];
        s->root_endgame_plies = game->endgame_plies;
        SearchInfo info = search(s, &game->pos, history, game->since_capture, &setup->limits, NULL, NULL);
        if (info.interrupted || info.pv_length == 0)
            goto fail; /* stopped, or cannot happen: game_result saw a legal move */
        sp->score = info.score;
        sp->has_score = true;
        char text[128];
        if (!append_move(&out->moves, &len, &cap, move_to_text(v, &info.pv[0], text, sizeof text)))
            goto fail;
        game_play(game, &info.pv[0]);
    }
    out->plies = game->ply;
    if (!out->moves && !(out->moves = calloc(1, 1)))
        goto fail;
    if (out->result == RESULT_WHITE_WINS || out->result == RESULT_BLACK_WINS) {
        int winner = out->result == RESULT_WHITE_WINS ? WHITE : BLACK;
        out->mars = popcount(position_pieces(&game->pos, winner)) == start_pieces[winner];
    }
    free(game);
    return true;
fail:
    free(game);
    played_game_free(out);
    return false;
}
