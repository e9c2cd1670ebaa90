/* The game loop: ask the side to move, record, play, until the game is over. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bitboard.h"
#include "egdb_search.h"
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

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The adjudicated result after ply plies (RESULT_NONE when the rule does not apply): the
 * scores the players gave at the last plies, each from the side that moved. */
static int adjudicate(const GameSetup *setup, const PlayedGame *g, int ply)
{
    if (setup->win_plies > 0 && ply >= setup->win_plies) {
        int white_ahead = 0, black_ahead = 0;
        for (int k = ply - setup->win_plies; k < ply; k++) {
            const StoredPosition *sp = &g->positions[k];
            if (!sp->has_score)
                break;
            int white_view = sp->pos.side == WHITE ? sp->score : -sp->score;
            white_ahead += white_view >= setup->win_cp;
            black_ahead += white_view <= -setup->win_cp;
        }
        if (white_ahead == setup->win_plies)
            return RESULT_WHITE_WINS;
        if (black_ahead == setup->win_plies)
            return RESULT_BLACK_WINS;
    }
    if (setup->draw_plies > 0 && ply >= setup->draw_plies && ply >= setup->draw_after) {
        int level = 0;
        for (int k = ply - setup->draw_plies; k < ply; k++) {
            const StoredPosition *sp = &g->positions[k];
            level += sp->has_score && sp->score <= setup->draw_cp && sp->score >= -setup->draw_cp;
        }
        if (level == setup->draw_plies)
            return RESULT_DRAW;
    }
    return RESULT_NONE;
}

/* The result of the game so far (RESULT_NONE while it goes on), and its reason: the rules,
 * the endgame database, adjudication, then the move cap. */
static int game_over_result(const GameSetup *setup, const PlayedGame *out, const Game *game, int cap_plies,
                            int *reason)
{
    int result = game_result(game, reason);
    if (result == RESULT_NONE && (result = egdb_adjudicate(setup->egdb, game)) != RESULT_NONE)
        *reason = REASON_EGDB;
    if (result == RESULT_NONE && (result = adjudicate(setup, out, game->ply)) != RESULT_NONE)
        *reason = REASON_ADJUDICATION;
    if (result == RESULT_NONE && game->ply >= cap_plies) {
        result = RESULT_DRAW;
        *reason = REASON_MOVE_CAP;
    }
    return result;
}

/* What a player is told on its turn (or at the game's end): the game and its own clock. */
static PlayerTurn turn_of(const GameSetup *setup, const Game *game, const Position *start,
                          const Move *moves, bool clock, double time_left, const atomic_bool *stop)
{
    return (PlayerTurn){
        .game = game, .start = start, .moves = moves, .limits = &setup->limits, .clock = clock,
        .time_ms = (int)(time_left > 0 ? time_left : 0), .inc_ms = setup->clock_inc_ms,
        .stop = stop,
    };
}

/* Charges the move's time (since t0) to the mover's clock and adds the increment; a move
 * past the margin becomes a loss on time.  Returns the status the move stands with. */
static PlayerStatus charge_clock(const GameSetup *setup, double *time_left, double t0, PlayerStatus status,
                                 PlayerChoice *choice)
{
    *time_left -= now_ms() - t0;
    if (status == PLAYER_MOVED && *time_left < -setup->time_margin_ms) {
        status = PLAYER_FAILED;
        choice->failure = REASON_TIME_FORFEIT;
        snprintf(choice->detail, sizeof choice->detail, "overstepped the clock by %.0f ms",
                 -*time_left);
    }
    *time_left += setup->clock_inc_ms;
    return status;
}

bool play_game(const GameSetup *setup, Player *white, Player *black, const Position *start,
               uint64_t seed, const atomic_bool *stop, PlayedGame *out)
{
    const Variant *v = setup->variant;
    memset(out, 0, sizeof *out);
    Game *game = malloc(sizeof *game);
    int cap_plies = setup->move_cap < MAX_GAME_PLIES ? setup->move_cap : MAX_GAME_PLIES;
    out->positions = calloc((size_t)cap_plies + 1, sizeof *out->positions);
    Move *moves = malloc(((size_t)cap_plies + 1) * sizeof *moves);
    size_t len = 0, cap = 0;
    if (!game || !out->positions || !moves)
        goto fail;
    game_init(game, v, &setup->rules, start);
    player_new_game(white, seed, setup->noise);
    player_new_game(black, seed ^ 0xB1AC4ULL, setup->noise);
    int start_pieces[2] = { popcount(position_pieces(start, WHITE)), popcount(position_pieces(start, BLACK)) };
    bool clock = setup->clock_ms > 0;
    double time_left[2] = { setup->clock_ms, setup->clock_ms };

    for (;;) {
        StoredPosition *sp = &out->positions[game->ply];
        sp->pos = game->pos;
        sp->capture_pending = v->capture_pending(&game->pos);
        out->npositions = game->ply + 1;
        int reason;
        int result = game_over_result(setup, out, game, cap_plies, &reason);
        if (result != RESULT_NONE) {
            out->result = result;
            out->reason = reason;
            break;
        }
        if (stop && atomic_load(stop))
            goto fail;
        int side = game->pos.side;
        PlayerTurn turn = turn_of(setup, game, start, moves, clock, time_left[side], stop);
        PlayerChoice choice = { .failure = REASON_NONE };
        double t0 = now_ms();
        PlayerStatus status = player_choose(side == WHITE ? white : black, &turn, &choice);
        if (status == PLAYER_STOPPED)
            goto fail;
        if (clock)
            status = charge_clock(setup, &time_left[side], t0, status, &choice);
        if (status == PLAYER_FAILED) {
            /* The side that could not give a legal move loses; the position stays unplayed. */
            out->result = side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            out->reason = choice.failure;
            snprintf(out->failure, sizeof out->failure, "%s at ply %d: %s",
                     side == WHITE ? "white" : "black", game->ply, choice.detail);
            break;
        }
        sp->score = choice.score;
        sp->has_score = choice.has_score;
        char text[128];
        if (!append_move(&out->moves, &len, &cap, move_to_text(v, &choice.move, text, sizeof text)))
            goto fail;
        moves[game->ply] = choice.move;
        game_play(game, &choice.move);
    }
    for (int side = WHITE; side <= BLACK; side++) {
        PlayerTurn final = turn_of(setup, game, start, moves, clock, time_left[side], stop);
        player_game_over(side == WHITE ? white : black, &final, out->result);
    }
    out->plies = game->ply;
    if (!out->moves && !(out->moves = calloc(1, 1)))
        goto fail;
    if (out->result == RESULT_WHITE_WINS || out->result == RESULT_BLACK_WINS) {
        int winner = out->result == RESULT_WHITE_WINS ? WHITE : BLACK;
        out->mars = popcount(position_pieces(&game->pos, winner)) == start_pieces[winner];
    }
    free(game);
    free(moves);
    return true;
fail:
    free(game);
    free(moves);
    played_game_free(out);
    return false;
}
