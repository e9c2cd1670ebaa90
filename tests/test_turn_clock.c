/* The turn clock's time-out rule (play/turn_clock.c), as seed 000 states it: a player whose
 * thinking time runs out gets a legal move played for it; the second time-out in a row
 * forfeits the game.  Times are given, so nothing waits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "turn_clock.h"
#include "types.h"

static void test_time_left_counts_down_from_the_turn_start(void **state)
{
    (void)state;
    TurnClock c;
    turn_clock_init(&c, 30000, 1000);
    assert_int_equal(turn_clock_left_ms(&c, 1000), 30000);
    assert_int_equal(turn_clock_left_ms(&c, 21000), 10000);
    assert_int_equal(turn_clock_left_ms(&c, 99000), 0);
    assert_int_equal(turn_clock_check(&c, WHITE, 30999), TIMEOUT_NONE);
    turn_clock_moved(&c, WHITE, true, 30999);
    assert_int_equal(turn_clock_left_ms(&c, 31999), 29000); /* black's turn began at 30999 */
}

static void test_second_timeout_in_a_row_forfeits(void **state)
{
    (void)state;
    TurnClock c;
    turn_clock_init(&c, 1000, 0);
    assert_int_equal(turn_clock_check(&c, WHITE, 1000), TIMEOUT_MOVE_FOR_IT);
    turn_clock_moved(&c, WHITE, false, 1000);   /* a move was played for white */
    turn_clock_moved(&c, BLACK, true, 1500);    /* black answers in time */
    assert_int_equal(turn_clock_check(&c, WHITE, 2600), TIMEOUT_FORFEIT);
}

static void test_a_move_in_time_clears_the_run(void **state)
{
    (void)state;
    TurnClock c;
    turn_clock_init(&c, 1000, 0);
    assert_int_equal(turn_clock_check(&c, WHITE, 1200), TIMEOUT_MOVE_FOR_IT);
    turn_clock_moved(&c, WHITE, false, 1200);
    turn_clock_moved(&c, BLACK, true, 1300);
    turn_clock_moved(&c, WHITE, true, 1800);    /* white moves in time: the run ends */
    /* black times out once: its own count, not white's */
    assert_int_equal(turn_clock_check(&c, BLACK, 2800), TIMEOUT_MOVE_FOR_IT);
    turn_clock_moved(&c, BLACK, false, 2800);
    assert_int_equal(turn_clock_check(&c, WHITE, 3800), TIMEOUT_MOVE_FOR_IT);
}

static void test_no_clock_never_times_out(void **state)
{
    (void)state;
    TurnClock c;
    turn_clock_init(&c, 0, 0);
    assert_int_equal(turn_clock_check(&c, WHITE, INT64_C(1) << 40), TIMEOUT_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_left_counts_down_from_the_turn_start),
        cmocka_unit_test(test_second_timeout_in_a_row_forfeits),
        cmocka_unit_test(test_a_move_in_time_clears_the_run),
        cmocka_unit_test(test_no_clock_never_times_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
