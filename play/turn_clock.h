/* The thinking time of a player on its turn, with the time-out rule of the web table dama
 * started from (seed 000): when a player's time runs out, a legal move is played for it;
 * a second time-out in a row loses the game.  Times are passed in, never read here, so the
 * rule is tested without waiting. */
#ifndef DAMA_TURN_CLOCK_H
#define DAMA_TURN_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

typedef struct TurnClock {
    int64_t turn_ms;          /* thinking time a turn; 0: no clock */
    int64_t turn_start_ms;    /* when the side to move began its turn */
    int timeouts_in_row[2];   /* WHITE, BLACK: time-outs since the side last moved in time */
} TurnClock;

enum TimeoutOutcome {
    TIMEOUT_NONE = 0,   /* the side to move still has time */
    TIMEOUT_MOVE_FOR_IT,/* its time ran out: play a legal move for it, the game goes on */
    TIMEOUT_FORFEIT,    /* its second time-out in a row: it loses on time */
};

void turn_clock_init(TurnClock *clock, int64_t turn_ms, int64_t now_ms);
/* Time the side to move has left at now (turn_ms when there is no clock). */
int64_t turn_clock_left_ms(const TurnClock *clock, int64_t now_ms);
/* What the rule says for side, to move since the turn began, at now.  A time-out is counted
 * once: the caller then plays the move for it (turn_clock_moved with in_time false) or ends
 * the game. */
int turn_clock_check(TurnClock *clock, int side, int64_t now_ms);
/* side moved (in_time: by itself, before its time ran out); the other side's turn begins. */
void turn_clock_moved(TurnClock *clock, int side, bool in_time, int64_t now_ms);

#endif
