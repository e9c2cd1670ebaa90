/* A game a person plays: against the engine, or two people at one board.  What both faces
 * of it (`dama play` in the terminal, `dama serve` in the browser) share: the moves tried
 * and refused with the reason, the engine's reply with its evaluation, the turn clock with
 * seed 000's time-out rule, resignation, the history (move texts, FEN after each ply), the
 * PDN of the game and the finished game saved into the database.
 *
 * Times are passed in (milliseconds of a monotonic clock), never read here, so the clock is
 * tested without waiting.  Only human sides have the clock: the engine's thinking time is
 * its level. */
#ifndef DAMA_HUMAN_GAME_H
#define DAMA_HUMAN_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "move_check.h"
#include "search.h"
#include "store.h"
#include "turn_clock.h"
#include "types.h"
#include "weights.h"

#define HUMAN_BOTH (-1)          /* human_side: two people, no engine side */
#define HUMAN_MOVE_TEXT 96       /* the long form of the longest capture (21 squares) fits */
#define HUMAN_FEN_TEXT 256       /* a FEN of any position of either variant fits */
#define HUMAN_PV_MAX 24          /* principal variation moves kept in a reply */
/* The engine's node count for the move the clock plays for a timed-out person: a sound
 * move, found at once. */
#define HUMAN_CLOCK_NODES 2000
#define HUMAN_GAME_HASH_MB 16

/* Who played a ply. */
enum HumanMover { MOVER_HUMAN = 0, MOVER_ENGINE, MOVER_CLOCK };

/* One ply of the game.  eval is the engine's score from white's view (centi-men; a forced
 * result scores beyond SCORE_WIN_BOUND) when has_eval (engine and clock moves). */
typedef struct HumanPly {
    Move move;
    char text[HUMAN_MOVE_TEXT]; /* long form (move_to_text): what the database keeps */
    int by;                     /* enum HumanMover */
    bool has_eval;
    int eval_white;
} HumanPly;

/* The engine's move (human_game_engine_move), or the clock's for a person who ran out of
 * time. */
typedef struct EngineReply {
    Move move;
    char text[HUMAN_MOVE_TEXT];  /* long form */
    int eval;                    /* centi-men from the mover's view */
    int eval_white;              /* the same from white's view */
    char eval_text[32];          /* score_to_text of eval: "35", "win7" */
    int depth;
    uint64_t nodes;
    int pv_length;               /* at most HUMAN_PV_MAX */
    char pv[HUMAN_PV_MAX][HUMAN_MOVE_TEXT]; /* long forms, pv[0] is the move */
} EngineReply;

typedef struct HumanGame {
    const Variant *variant;
    Rules rules;
    const Weights *weights;      /* borrowed: outlives the game */
    SearchLimits level;          /* the engine's level */
    int human_side;              /* WHITE, BLACK or HUMAN_BOTH */
    Game *game;                  /* owned: position, history for the draw rules */
    Position start;
    Position *positions;         /* owned: positions[i] after i plies (MAX_GAME_PLIES + 1) */
    HumanPly *plies;             /* owned: plies[i] is ply i + 1 of the game */
    Searcher *searcher;          /* owned; NULL for two people without a clock.  The caller
                                    may set its stop_request (Ctrl-C): a search stopped before
                                    its first move plays the first legal move */
    TurnClock clock;
    /* The last search that chose a move (the engine's, or the clock's for a person), and
     * the ply it played: 0 when none has yet. */
    EngineReply last_search;
    int last_search_ply;
    int result;                  /* enum Result; RESULT_NONE while the game goes on */
    int reason;                  /* enum Reason */
} HumanGame;

/* Starts a game of v under rules from start (NULL: the initial position).  level is the
 * engine's (at least one of depth, nodes, movetime_ms should be set); turn_ms the thinking
 * time a human turn (0: no clock); weights the engine's evaluation of v.  A start position
 * whose game is over is a finished game at once.  false when out of memory (nothing to
 * free). */
bool human_game_start(HumanGame *g, const Variant *v, const Rules *rules, const Position *start,
                      int human_side, SearchLimits level, int64_t turn_ms, const Weights *weights,
                      int64_t now_ms);
void human_game_free(HumanGame *g);      /* NULL or a freed game is fine */

/* True while the game goes on and the side to move is a person's. */
bool human_game_human_to_move(const HumanGame *g);
/* True while the game goes on and the side to move is the engine's. */
bool human_game_engine_to_move(const HumanGame *g);
static inline bool human_game_over(const HumanGame *g) { return g->result != RESULT_NONE; }
static inline int human_game_plies(const HumanGame *g) { return g->game->ply; }
static inline const Position *human_game_position(const HumanGame *g) { return &g->game->pos; }

/* Tries the move a person wrote (long, short or partial form) at now_ms.  The time-out rule
 * is applied first (human_game_tick).  true: the move is played (out->move holds it).
 * false with out->refusal set: the move is illegal, out->reason says why and out->movable
 * which pieces may move.  false with out->refusal REFUSAL_NONE: the move was not looked at,
 * since the game is over or it is not a person's turn (out->reason says which). */
bool human_game_try(HumanGame *g, const char *text, int64_t now_ms, MoveCheck *out);

/* Plays the engine's move at now_ms when the engine is to move (false otherwise, or when
 * out of memory: nothing done): a search under the level, from the game's history. */
bool human_game_engine_move(HumanGame *g, int64_t now_ms, EngineReply *out);
/* The same in two steps, for a caller that lets others read the game while the engine
 * thinks (`dama serve`): the search of the position now under limits, which writes nothing
 * but the game's searcher (no move may be played meanwhile, and no other search run on
 * it); then its move played at now_ms (false when the engine is not to move, or out of
 * memory). */
SearchInfo human_game_engine_search(HumanGame *g, const SearchLimits *limits);
bool human_game_engine_play(HumanGame *g, const SearchInfo *info, int64_t now_ms);

/* The time-out rule at now_ms: while a person to move has run out of time, a legal move is
 * played for that side (the engine's choice at HUMAN_CLOCK_NODES, marked MOVER_CLOCK), its
 * next turn starting when the time ran out; a second time-out in a row ends the game, lost
 * on time (REASON_TIME).  Returns how many plies it played, or 1 more when it ended the
 * game: 0 means nothing happened. */
int human_game_tick(HumanGame *g, int64_t now_ms);
/* The time the person to move has left at now_ms (0 when there is no clock or it is not a
 * person's turn). */
int64_t human_game_time_left(const HumanGame *g, int64_t now_ms);

/* side resigns: false when the game is over or side is not a person's. */
bool human_game_resign(HumanGame *g, int side);

/* The FEN after ply plies (0: the start), into buf (HUMAN_FEN_TEXT bytes are enough);
 * false when ply is beyond the game. */
bool human_game_fen(const HumanGame *g, int ply, char *buf, size_t len);
/* The move texts in order, space-separated, long form (what the database keeps): malloc'd,
 * NULL when out of memory. */
char *human_game_moves_text(const HumanGame *g);
/* The legal moves of the side to move, as a person writes them (move_to_text_in), one
 * space between them, into buf; the count is returned (0 when the game is over). */
int human_game_legal_text(const HumanGame *g, char *buf, size_t len);

/* The PDN of the game (analysis/pdn_write, "*" while it goes on; White and Black name the
 * person and the engine) in *text (malloc'd); false with the reason in err. */
bool human_game_pdn(const HumanGame *g, char **text, char *err, size_t errlen);

/* Saves the finished game (its moves, the position after each ply with the engine's
 * scores, result and reason) into the database in one transaction.  *run_id > 0 names the
 * run of kind "play" it joins; otherwise a run of kind "play" is made in the same
 * transaction and its id put in *run_id.  weights_id names the engine's stored weights
 * (<= 0: none).  *game_id gets the game's id.  false with the reason in err (the game is
 * not over, or the store's error); nothing is written then. */
bool human_game_save(const HumanGame *g, Store *store, int64_t weights_id, int64_t *run_id,
                     int64_t *game_id, char *err, size_t errlen);

/* The board as a person sees it, white at the bottom: rows and columns counted from the top
 * left (row 0 is rank 8 in Turkish, squares 1-5 in International), as the game's Variant
 * draws it.  human_board_size: its rows (8 or 10; the boards are square);
 * human_board_square: the square index at (row, col), or -1 for a square no piece stands
 * on (International's light squares) or one off the board. */
int human_board_size(const Variant *v);
int human_board_square(const Variant *v, int row, int col);

/* "white", "black": a side for people and JSON. */
const char *human_side_name(int side);
/* "human", "engine", "clock". */
const char *human_mover_name(int by);

#endif
