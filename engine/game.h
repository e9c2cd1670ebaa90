/* A game in progress: position plus what the draw rules need (key history, no-capture
 * counter), and the result with its reason. */
#ifndef DAMA_GAME_H
#define DAMA_GAME_H

#include <stddef.h>

#include "types.h"

#define MAX_GAME_PLIES 2048

enum Result { RESULT_NONE = 0, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW };
/* Why a game ended: the reasons every game shares.  A game's own rules add reasons of their
 * own (Variant.reasons, numbered by game_reason), so a new game edits no list here. */
enum Reason {
    REASON_NONE = 0,
    REASON_NO_MOVES,    /* the side to move has no legal move and loses */
    REASON_REPETITION,  /* same position and side to move a third time */
    REASON_MOVE_CAP,    /* adjudicated: the game reached the move cap */
    REASON_RESIGN,
    REASON_TIME,
    REASON_ADJUDICATION,
    /* A player that is an outside engine lost the game by failing to give a move: */
    REASON_ENGINE_CRASH,/* it exited, closed its output or reported an error */
    REASON_TIME_FORFEIT,/* no move within its time budget plus the margin */
    REASON_ILLEGAL_MOVE,/* its move is not a legal move of the position */
    REASON_EGDB,        /* adjudicated: the endgame databases know the result */
    REASON_COUNT
};
/* The reason code of reasons[k] of game v: REASON_GAME_FIRST + REASON_GAME_SPAN * (its place
 * in the registry) + k.  Codes live in memory only; what is stored is reason_name. */
#define REASON_GAME_FIRST 64
#define REASON_GAME_SPAN 16
int game_reason(const Variant *v, int k);

struct Game {
    const Variant *variant;
    Rules rules;
    Position pos;
    int ply;                          /* plies played */
    int since_capture;                /* plies since the last irreversible move (a capture;
                                         in International a man's move too) */
    int endgame_plies;                /* plies since the variant's endgame class last changed */
    uint64_t keys[MAX_GAME_PLIES + 1];/* key of the position before each ply, and now */
};

/* What the draw rules count.  since_irreversible: plies since the last irreversible move
 * (move_irreversible in variant.h); repetitions: earlier occurrences of this position since
 * then (count_repetitions); endgame_plies: plies since the material class that the variant's endgame counts
 * look at last changed (variant->endgame_class; 0 where a variant has none). */
typedef struct DrawCounts {
    int since_irreversible;
    int repetitions;
    int endgame_plies;
} DrawCounts;

/* The end of a game by the rules of v, decided in one place for play, search and the tests
 * (Turkish: turkish_rules.c, International: international_rules.c state the precedence).
 * can_move: the side to move has a legal move.  Returns RESULT_NONE (and REASON_NONE) while
 * the game goes on. */
typedef struct GameEnd {
    int result;  /* enum Result */
    int reason;  /* enum Reason */
} GameEnd;
#define REPETITIONS_FOR_DRAW 2 /* earlier occurrences: the third time draws */
/* The repetition count of DrawCounts, for play and search alike: earlier occurrences of
 * keys[now] (the position keys of a line of play, keys[i] before ply i) with the same side
 * to move, looking back no further than since_irreversible plies, counted up to
 * REPETITIONS_FOR_DRAW.  An occurrence at index twice_from or later counts twice: the
 * search passes its root, since the side that steered into a cycle inside its own tree can
 * go round it once more; play passes now + 1 (none). */
int count_repetitions(const uint64_t *keys, int now, int since_irreversible, int twice_from);
GameEnd game_end(const Variant *v, const Position *pos, const Rules *rules, bool can_move,
                 DrawCounts counts);
/* The side to move has no legal move: it loses (every variant). */
GameEnd game_end_no_moves(const Position *pos);
/* "black wins (no-moves)", "draw (one-each)": the end in words, for messages.  Returns buf. */
char *game_end_text(GameEnd end, char *buf, size_t len);
/* A finished game's result from the side to move: +1 it won, -1 it lost, 0 a draw. */
int result_for_side(int result, int side);

void game_init(Game *game, const Variant *v, const Rules *rules, const Position *start);
/* Plays a legal move; returns false when the game is full (MAX_GAME_PLIES). */
bool game_play(Game *game, const Move *move);
/* Result of the game as it stands (RESULT_NONE while it goes on); *reason gets why.
 * game_end on the current position and the game's history. */
int game_result(const Game *game, int *reason);
/* Stable names for storage and CSV: "1-0"-style is avoided; see game.c.  reason_name
 * names a game's own reasons too ("no-progress"); "none" for a code it does not know. */
const char *result_name(int result);
const char *reason_name(int reason);

#endif
