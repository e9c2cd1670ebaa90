/* The one time manager: how long a move may take, from the time control the caller has.
 * Hub (move-time, time/inc/moves), match and self-play clocks, and the fixed times of
 * analyze, play and serve all ask it, so a change to the budget is made and tested once
 * (tests/test_time_manager.c bounds what each kind of clock may spend). */
#ifndef DAMA_TIME_MANAGER_H
#define DAMA_TIME_MANAGER_H

#include <stdint.h>

/* Moves left in the game when a clock does not say (moves_to_go 0): draughts games last
 * 40-60 moves a side, and most of the clock should be left for the middlegame. */
#define TIME_MOVES_LEFT_GUESS 30

typedef struct TimeControl {
    int64_t move_ms;      /* a fixed time a move (Hub move-time, --movetime); 0 = a clock */
    int64_t time_ms;      /* with a clock: the mover's time left */
    int64_t inc_ms;       /*   added after each move */
    int moves_to_go;      /*   moves to the next time control; 0 = to the end (a guess) */
    int64_t overhead_ms;  /* time a move loses outside the search (pipes, the GUI) */
} TimeControl;

/* What a search may spend, in milliseconds: soft_ms is the target (no iteration is started
 * that is predicted to end after it; 0 = none: use hard_ms whole), hard_ms the limit that
 * stops the search wherever it is.  hard_ms >= 1; 0 only when the control sets no time. */
typedef struct TimeBudget {
    int64_t soft_ms;
    int64_t hard_ms;
} TimeBudget;

/* Fixed time: all of it, less the overhead (at most 5 % of it).  A clock: the reserve
 * (the overhead and 5 % of the clock, at most 0.1 s) is never spent; the target is an even
 * share of the rest over the moves to go plus 0.8 of the increment; the hard limit three
 * times that, never more than half of what is left (all of it on the last move before a
 * control), so a run of hard limits cannot empty the clock. */
TimeBudget time_budget(const TimeControl *tc);

/* The target of a search under way, scaled by how settled it is (as Scan spends its time):
 * more while the best move keeps changing or the score falls, less once the best move has
 * stood for several iterations.  best_move_changes halves each iteration and grows by one
 * when the best move changed (0: settled; 1 just after a change; below 2 after many);
 * score_drop is the fall of the score since the previous iteration, in hundredths of a
 * man (the mover's view).  The target goes from 0.6 of soft_ms (settled) to 2 (changing
 * every iteration), 1.25 times that after a fall of 0.2 man, 1.5 times after half a man;
 * never above hard_ms (when set) nor below 1. */
int64_t time_target(const TimeBudget *b, double best_move_changes, int score_drop);

#endif
