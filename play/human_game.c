/* A game a person plays; see human_game.h. */
#include "human_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bitboard.h"
#include "notation.h"
#include "pdn_write.h"
#include "position.h"
#include "variant.h"
#include "version.h"

/* The level when none is given: the engine must not think for ever. */
#define HUMAN_DEFAULT_NODES 200000

const char *human_side_name(int side) { return side == WHITE ? "white" : "black"; }

/* The game's own geometry (Variant.rows, square_cell): every board dama plays is square. */
int human_board_size(const Variant *v) { return v->rows; }

int human_board_square(const Variant *v, int row, int col) { return variant_square_at(v, row, col); }

const char *human_mover_name(int by)
{
    return by == MOVER_ENGINE ? "engine" : by == MOVER_CLOCK ? "clock" : "human";
}

static bool side_is_human(const HumanGame *g, int side)
{
    return g->human_side == HUMAN_BOTH || g->human_side == side;
}

bool human_game_human_to_move(const HumanGame *g)
{
    return g->result == RESULT_NONE && side_is_human(g, g->game->pos.side);
}

bool human_game_engine_to_move(const HumanGame *g)
{
    return g->result == RESULT_NONE && !side_is_human(g, g->game->pos.side);
}

/* The rules' verdict on the position now; a game as long as Game can hold is a draw. */
static void judge(HumanGame *g)
{
    if (g->result != RESULT_NONE)
        return;
    g->result = game_result(g->game, &g->reason);
    if (g->result == RESULT_NONE && g->game->ply >= MAX_GAME_PLIES) {
        g->result = RESULT_DRAW;
        g->reason = REASON_MOVE_CAP;
    }
}

bool human_game_start(HumanGame *g, const Variant *v, const Rules *rules, const Position *start,
                      int human_side, SearchLimits level, int64_t turn_ms, const Weights *weights,
                      int64_t now_ms)
{
    *g = (HumanGame){ .variant = v, .rules = *rules, .weights = weights, .level = level,
                      .human_side = human_side };
    if (!level.depth && !level.nodes && !level.movetime_ms)
        g->level.nodes = HUMAN_DEFAULT_NODES;
    if (start)
        g->start = *start;
    else
        v->start(&g->start);
    g->game = malloc(sizeof *g->game);
    g->positions = malloc((MAX_GAME_PLIES + 1) * sizeof *g->positions);
    g->plies = malloc(MAX_GAME_PLIES * sizeof *g->plies);
    /* Two people need the engine only for the clock's moves. */
    bool engine = human_side != HUMAN_BOTH || turn_ms > 0;
    if (engine)
        g->searcher = searcher_new(v, rules, weights, HUMAN_GAME_HASH_MB);
    if (!g->game || !g->positions || !g->plies || (engine && !g->searcher)) {
        human_game_free(g);
        return false;
    }
    game_init(g->game, v, rules, &g->start);
    g->positions[0] = g->start;
    turn_clock_init(&g->clock, turn_ms, now_ms);
    judge(g);
    return true;
}

void human_game_free(HumanGame *g)
{
    if (!g)
        return;
    searcher_free(g->searcher);
    free(g->game);
    free(g->positions);
    free(g->plies);
    g->searcher = NULL;
    g->game = NULL;
    g->positions = NULL;
    g->plies = NULL;
}

/* Plays move for the side to move at now_ms and records who played it. */
static void play_ply(HumanGame *g, const Move *move, int by, const SearchInfo *info, int64_t now_ms)
{
    Game *game = g->game;
    int side = game->pos.side;
    HumanPly *p = &g->plies[game->ply];
    p->move = *move;
    move_to_text(g->variant, move, p->text, sizeof p->text);
    p->by = by;
    p->has_eval = info != NULL;
    p->eval_white = info ? (side == WHITE ? info->score : -info->score) : 0;
    game_play(game, move); /* judge ends the game before Game is full */
    g->positions[game->ply] = game->pos;
    turn_clock_moved(&g->clock, side, by != MOVER_CLOCK, now_ms);
    judge(g);
}

/* The engine's search of the position now, with the game's history for repetitions. */
SearchInfo human_game_engine_search(HumanGame *g, const SearchLimits *limits)
{
    const Game *game = g->game;
    g->searcher->root_endgame_plies = game->endgame_plies;
    const uint64_t *history = &game->keys[game->ply - game->since_capture];
    return search(g->searcher, &game->pos, history, game->since_capture, limits, NULL, NULL);
}

/* Plays the move of info, a search of the position now, for by at now_ms; the search is
 * kept in g->last_search.  The game goes on, so there is a legal move; false only when out
 * of memory. */
static bool play_searched(HumanGame *g, SearchInfo info, int by, int64_t now_ms)
{
    int side = g->game->pos.side;
    if (info.pv_length == 0) {
        /* A search stopped from outside (searcher->stop_request) before its first move:
         * the first legal move, so that the game still gets one. */
        MoveList *list = malloc(sizeof *list);
        if (!list)
            return false;
        g->variant->generate(&g->game->pos, &g->rules, list);
        info.pv[0] = list->moves[0];
        info.pv_length = 1;
        info.score = 0;
        free(list);
    }
    EngineReply *r = &g->last_search;
    *r = (EngineReply){ .move = info.pv[0], .eval = info.score, .depth = info.depth, .nodes = info.nodes };
    r->eval_white = side == WHITE ? info.score : -info.score;
    score_to_text(info.score, r->eval_text, sizeof r->eval_text);
    move_to_text(g->variant, &r->move, r->text, sizeof r->text);
    r->pv_length = info.pv_length < HUMAN_PV_MAX ? info.pv_length : HUMAN_PV_MAX;
    for (int i = 0; i < r->pv_length; i++)
        move_to_text(g->variant, &info.pv[i], r->pv[i], sizeof r->pv[i]);
    play_ply(g, &r->move, by, &info, now_ms);
    g->last_search_ply = g->game->ply;
    return true;
}

/* Searches the position under limits and plays the move found for by at now_ms. */
static bool search_and_play(HumanGame *g, const SearchLimits *limits, int by, int64_t now_ms)
{
    return play_searched(g, human_game_engine_search(g, limits), by, now_ms);
}

int human_game_tick(HumanGame *g, int64_t now_ms)
{
    int done = 0;
    while (human_game_human_to_move(g)) {
        int side = g->game->pos.side;
        int64_t ran_out = g->clock.turn_start_ms + g->clock.turn_ms;
        int outcome = turn_clock_check(&g->clock, side, now_ms);
        if (outcome == TIMEOUT_NONE)
            break;
        done++;
        if (outcome == TIMEOUT_FORFEIT) {
            g->result = side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            g->reason = REASON_TIME;
            break;
        }
        /* The next turn began when this one's time ran out. */
        SearchLimits quick = { .nodes = HUMAN_CLOCK_NODES };
        if (!search_and_play(g, &quick, MOVER_CLOCK, ran_out)) {
            /* Out of memory: this time-out is not counted, the next tick tries again. */
            g->clock.timeouts_in_row[side]--;
            done--;
            break;
        }
    }
    return done;
}

int64_t human_game_time_left(const HumanGame *g, int64_t now_ms)
{
    return human_game_human_to_move(g) ? turn_clock_left_ms(&g->clock, now_ms) : 0;
}

/* Why a move is not looked at: the game is over, or it is the engine's turn. */
static void not_considered(const HumanGame *g, int timeouts, MoveCheck *out)
{
    *out = (MoveCheck){ .refusal = REFUSAL_NONE };
    char end[96];
    if (g->result != RESULT_NONE)
        snprintf(out->reason, sizeof out->reason, "the game is over: %s",
                 game_end_text((GameEnd){ g->result, g->reason }, end, sizeof end));
    else if (timeouts > 0)
        snprintf(out->reason, sizeof out->reason, "your time ran out: %s was played for you, and the "
                 "engine is to move", g->plies[g->game->ply - 1].text);
    else
        snprintf(out->reason, sizeof out->reason, "it is not your turn: the engine plays %s",
                 human_side_name(g->game->pos.side));
}

bool human_game_try(HumanGame *g, const char *text, int64_t now_ms, MoveCheck *out)
{
    MoveCheck local;
    if (!out)
        out = &local;
    int timeouts = human_game_tick(g, now_ms);
    if (!human_game_human_to_move(g)) {
        not_considered(g, timeouts, out);
        return false;
    }
    if (!move_check_text(g->variant, &g->game->pos, &g->rules, text, out))
        return false;
    play_ply(g, &out->move, MOVER_HUMAN, NULL, now_ms);
    return true;
}

bool human_game_engine_move(HumanGame *g, int64_t now_ms, EngineReply *out)
{
    if (!human_game_engine_to_move(g))
        return false;
    if (!search_and_play(g, &g->level, MOVER_ENGINE, now_ms))
        return false;
    if (out)
        *out = g->last_search;
    return true;
}

bool human_game_engine_play(HumanGame *g, const SearchInfo *info, int64_t now_ms)
{
    return human_game_engine_to_move(g) && play_searched(g, *info, MOVER_ENGINE, now_ms);
}

bool human_game_resign(HumanGame *g, int side)
{
    if (g->result != RESULT_NONE || (side != WHITE && side != BLACK) || !side_is_human(g, side))
        return false;
    g->result = side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    g->reason = REASON_RESIGN;
    return true;
}

bool human_game_fen(const HumanGame *g, int ply, char *buf, size_t len)
{
    if (ply < 0 || ply > g->game->ply)
        return false;
    position_to_fen(&g->positions[ply], g->variant, buf, len);
    return true;
}

char *human_game_moves_text(const HumanGame *g)
{
    size_t len = 1;
    for (int i = 0; i < g->game->ply; i++)
        len += strlen(g->plies[i].text) + 1;
    char *text = malloc(len), *p = text;
    if (!text)
        return NULL;
    *p = '\0';
    for (int i = 0; i < g->game->ply; i++)
        p += sprintf(p, "%s%s", i ? " " : "", g->plies[i].text);
    return text;
}

int human_game_legal_text(const HumanGame *g, char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (g->result != RESULT_NONE)
        return 0;
    MoveList *list = malloc(sizeof *list);
    if (!list)
        return 0;
    g->variant->generate(&g->game->pos, &g->rules, list);
    size_t used = 0;
    for (int i = 0; i < list->count; i++) {
        char text[HUMAN_MOVE_TEXT];
        move_to_text_in(g->variant, &g->game->pos, &g->rules, &list->moves[i], text, sizeof text);
        int n = snprintf(buf + used, len > used ? len - used : 0, "%s%s", i ? " " : "", text);
        if (n > 0 && used + (size_t)n < len)
            used += (size_t)n;
    }
    int count = list->count;
    free(list);
    return count;
}

/* Who sat on each side, for PDN and the run's params. */
static const char *player_name(const HumanGame *g, int side)
{
    return side_is_human(g, side) ? "human" : "dama";
}

bool human_game_pdn(const HumanGame *g, char **text, char *err, size_t errlen)
{
    *text = NULL;
    char *moves = human_game_moves_text(g);
    size_t size = 0;
    FILE *f = moves ? open_memstream(text, &size) : NULL;
    if (!f) {
        free(moves);
        snprintf(err, errlen, "PDN: out of memory");
        return false;
    }
    StorePdnTag tags[4] = {
        { "Event", "dama play" },
        { "White", (char *)player_name(g, WHITE) },
        { "Black", (char *)player_name(g, BLACK) },
        { "DamaReason", (char *)reason_name(g->reason) },
    };
    Position initial;
    g->variant->start(&initial);
    PdnGameOut out = {
        .variant = g->variant, .rules = &g->rules, .start = &g->start,
        .setup = !position_equal(&g->start, &initial), .moves = moves, .result = g->result,
        .tags = tags, .ntags = g->result != RESULT_NONE ? 4 : 3,
    };
    bool ok = pdn_write_game(f, &out, err, errlen);
    if (fclose(f) != 0 && ok) {
        snprintf(err, errlen, "PDN: out of memory");
        ok = false;
    }
    free(moves);
    if (!ok) {
        free(*text);
        *text = NULL;
    }
    return ok;
}

/* The run's params: who played, the engine's level, the clock and the rules. */
static void play_params(const HumanGame *g, char *buf, size_t len)
{
    char rules[256];
    g->variant->rules_describe(&g->rules, rules, sizeof rules);
    snprintf(buf, len, "human=%s depth=%d nodes=%llu movetime=%d turn_ms=%lld rules=%s",
             g->human_side == HUMAN_BOTH ? "both" : human_side_name(g->human_side), g->level.depth,
             (unsigned long long)g->level.nodes, g->level.movetime_ms, (long long)g->clock.turn_ms, rules);
}

bool human_game_save(const HumanGame *g, Store *store, int64_t weights_id, int64_t *run_id,
                     int64_t *game_id, char *err, size_t errlen)
{
    if (g->result == RESULT_NONE) {
        snprintf(err, errlen, "the game is not over: only a finished game is saved");
        return false;
    }
    int plies = g->game->ply;
    StoredPosition *positions = calloc((size_t)plies + 1, sizeof *positions);
    char *moves = human_game_moves_text(g);
    if (!positions || !moves) {
        free(positions);
        free(moves);
        snprintf(err, errlen, "saving the game: out of memory");
        return false;
    }
    for (int i = 0; i <= plies; i++) {
        StoredPosition *sp = &positions[i];
        sp->pos = g->positions[i];
        sp->capture_pending = g->variant->capture_pending(&sp->pos);
        /* A stored score is from the side to move: the mover of ply i + 1. */
        if (i < plies && g->plies[i].has_eval) {
            sp->has_score = true;
            sp->score = sp->pos.side == WHITE ? g->plies[i].eval_white : -g->plies[i].eval_white;
        }
    }
    bool mars = false;
    if (g->result != RESULT_DRAW) {
        int winner = g->result == RESULT_WHITE_WINS ? WHITE : BLACK;
        mars = popcount(position_pieces(&g->game->pos, winner)) == popcount(position_pieces(&g->start, winner));
    }
    GameRecord rec = {
        .variant = g->variant->name, .result = g->result, .reason = reason_name(g->reason),
        .plies = plies, .mars = mars, .moves = moves, .positions = positions, .npositions = plies + 1,
        .white_weights_id = side_is_human(g, WHITE) ? 0 : weights_id,
        .black_weights_id = side_is_human(g, BLACK) ? 0 : weights_id,
    };
    Position initial;
    g->variant->start(&initial);
    char opening[HUMAN_FEN_TEXT], params[512];
    position_to_fen(&g->start, g->variant, opening, sizeof opening);
    play_params(g, params, sizeof params);
    /* the search that played, as every run of engine games has it (none if that fails) */
    char signature[64], why[256];
    bool known = bench_signature(g->variant, signature, sizeof signature, why, sizeof why);
    PlayRunInfo info = { params, dama_engine_version(), known ? signature : NULL, weights_id };
    bool ok = store_play_game_put(store, &info, position_equal(&g->start, &initial) ? NULL : opening, &rec, run_id,
                                  game_id);
    if (!ok)
        snprintf(err, errlen, "saving the game: %s", store_error(store));
    free(positions);
    free(moves);
    return ok;
}
