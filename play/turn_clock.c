/* The turn clock's rule; see turn_clock.h. */
#include "turn_clock.h"

void turn_clock_init(TurnClock *clock, int64_t turn_ms, int64_t now_ms)
{
    *clock = (TurnClock){ .turn_ms = turn_ms > 0 ? turn_ms : 0, .turn_start_ms = now_ms };
}

int64_t turn_clock_left_ms(const TurnClock *clock, int64_t now_ms)
{
    if (clock->turn_ms == 0)
        return 0;
    int64_t left = clock->turn_ms - (now_ms - clock->turn_start_ms);
    return left > 0 ? left : 0;
}

int turn_clock_check(TurnClock *clock, int side, int64_t now_ms)
{
    if (clock->turn_ms == 0 || turn_clock_left_ms(clock, now_ms) > 0)
        return TIMEOUT_NONE;
    /* The rule counts time-outs in a row: the one before must have been this side's last
     * turn too, which turn_clock_moved keeps by clearing the count on a move in time. */
    return ++clock->timeouts_in_row[side] >= 2 ? TIMEOUT_FORFEIT : TIMEOUT_MOVE_FOR_IT;
}

void turn_clock_moved(TurnClock *clock, int side, bool in_time, int64_t now_ms)
{
    if (in_time)
        clock->timeouts_in_row[side] = 0;
    clock->turn_start_ms = now_ms;
}
