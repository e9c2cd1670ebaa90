/* A game a person plays in the terminal (`dama play`): against the engine, or two people at
 * one board.  The board is drawn after every move, moves and commands are read one a line
 * from standard input (a keyboard or a pipe), the engine's replies reported with their
 * evaluation and line, and the finished game saved when there is a database.  The session
 * ends with the game, a 'quit', the end of input or Ctrl-C. */
#ifndef DAMA_TERMINAL_GAME_H
#define DAMA_TERMINAL_GAME_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "search.h"
#include "store.h"
#include "types.h"
#include "weights.h"

typedef struct TerminalGameOptions {
    int human;                  /* WHITE, BLACK or HUMAN_BOTH */
    SearchLimits level;         /* the engine's */
    const char *weights_name;   /* named in the greeting and in the database */
    long turn_seconds;          /* 0: no clock */
    const char *db;             /* the database's name in messages */
    bool ascii;                 /* pieces as w W b B, empty squares '.' */
} TerminalGameOptions;

/* How a session ended. */
enum TerminalGameEnd {
    TERMINAL_GAME_ENDED = 0,    /* game over (saved when asked), quit or end of input */
    TERMINAL_GAME_FAILED,       /* out of memory, or the game could not be saved */
    TERMINAL_GAME_BAD_INPUT,    /* standard input held a line beyond the limit */
    TERMINAL_GAME_INTERRUPTED,  /* *stop was set (Ctrl-C, SIGTERM): nothing saved */
};

/* Plays one session of v under rules from start with the engine's weights (borrowed).
 * The finished game is saved into store when it is not NULL.  stop is watched while a
 * person thinks and stops the engine's search.  Returns an enum TerminalGameEnd; all but
 * TERMINAL_GAME_ENDED put the reason into err. */
int terminal_game_run(const TerminalGameOptions *opt, const Variant *v, const Rules *rules,
                      const Position *start, const Weights *weights, Store *store,
                      const atomic_bool *stop, char *err, size_t errlen);

#endif
