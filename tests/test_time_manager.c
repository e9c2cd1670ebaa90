/* The time manager (engine/time_manager.c): what each kind of time control may spend.  The
 * bounds are the rules a clock imposes, worked out by hand: a fixed time is used whole but
 * for the overhead; a clock keeps a reserve, never gives one move more than half of what is
 * left (all of it only on the last move before a control), and a whole game of targets or
 * of hard limits never empties it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "time_manager.h"

static void test_fixed_time_is_used_whole_but_the_overhead(void **state)
{
    (void)state;
    TimeBudget b = time_budget(&(TimeControl){ .move_ms = 1000 });
    assert_int_equal(b.hard_ms, 1000);
    assert_int_equal(b.soft_ms, 0);
    b = time_budget(&(TimeControl){ .move_ms = 1000, .overhead_ms = 20 });
    assert_int_equal(b.hard_ms, 980);
    /* the overhead never takes more than 5 % of a short move */
    b = time_budget(&(TimeControl){ .move_ms = 100, .overhead_ms = 20 });
    assert_int_equal(b.hard_ms, 95);
    b = time_budget(&(TimeControl){ .move_ms = 1, .overhead_ms = 20 });
    assert_int_equal(b.hard_ms, 1);
}

static void test_no_time_set_means_no_limit(void **state)
{
    (void)state;
    TimeBudget b = time_budget(&(TimeControl){ 0 });
    assert_int_equal(b.hard_ms, 0);
    assert_int_equal(b.soft_ms, 0);
}

/* 60 s sudden death: reserve 100 ms; 59 900 / 30 = 1996 a move; the hard limit 3 times. */
static void test_sudden_death_share(void **state)
{
    (void)state;
    TimeBudget b = time_budget(&(TimeControl){ .time_ms = 60000 });
    assert_int_equal(b.soft_ms, 1996);
    assert_int_equal(b.hard_ms, 5988);
    /* 40 moves to go, 2 s increment: 59 900 / 40 + 1600 */
    b = time_budget(&(TimeControl){ .time_ms = 60000, .inc_ms = 2000, .moves_to_go = 40 });
    assert_int_equal(b.soft_ms, 1497 + 1600);
    assert_int_equal(b.hard_ms, 3 * (1497 + 1600));
}

/* Every kind of clock, short and long: the target is within the limit, the limit within
 * half of what may be spent (all of it on the last move before a control), and never the
 * whole clock. */
static void test_every_clock_keeps_a_reserve(void **state)
{
    (void)state;
    static const int64_t times[] = { 1, 50, 100, 1000, 10000, 60000, 600000, 5400000 };
    static const int64_t incs[] = { 0, 10, 100, 1000, 30000 };
    static const int togo[] = { 0, 1, 2, 10, 40 };
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        for (size_t j = 0; j < sizeof incs / sizeof incs[0]; j++)
            for (size_t k = 0; k < sizeof togo / sizeof togo[0]; k++)
                for (int64_t overhead = 0; overhead <= 50; overhead += 50) {
                    TimeControl tc = { .time_ms = times[i], .inc_ms = incs[j],
                                       .moves_to_go = togo[k], .overhead_ms = overhead };
                    TimeBudget b = time_budget(&tc);
                    int64_t reserve = overhead + (times[i] / 20 < 100 ? times[i] / 20 : 100);
                    int64_t avail = times[i] > reserve ? times[i] - reserve : 0;
                    int64_t most = togo[k] == 1 ? avail : avail / 2;
                    assert_true(b.soft_ms >= 1 && b.soft_ms <= b.hard_ms);
                    if (most >= 1)
                        assert_in_range(b.hard_ms, 1, most);
                    else
                        assert_int_equal(b.hard_ms, 1); /* nothing to spend: the least there is */
                    if (times[i] >= 100) /* a move never takes the whole clock */
                        assert_true(b.hard_ms < times[i]);
                }
}

/* Spends what the budget allows for a whole game; returns the least time left on the clock
 * before any move (it must stay above 0: a clock that runs out loses). */
static int64_t play_game(int64_t time_ms, int64_t inc_ms, int moves, bool spend_hard)
{
    int64_t least = time_ms;
    for (int m = 0; m < moves; m++) {
        TimeBudget b = time_budget(&(TimeControl){ .time_ms = time_ms, .inc_ms = inc_ms });
        time_ms -= spend_hard ? b.hard_ms : b.soft_ms;
        if (time_ms < least)
            least = time_ms;
        time_ms += inc_ms;
    }
    return least;
}

static void test_a_game_of_targets_never_empties_the_clock(void **state)
{
    (void)state;
    /* 100 moves a side, far more than a draughts game lasts: time remains */
    assert_true(play_game(60000, 0, 100, false) > 2000);
    assert_true(play_game(1000, 0, 100, false) > 30);
    assert_true(play_game(3000, 100, 100, false) > 100);
    /* the target spends most of a long game's clock, not a sliver of it */
    assert_true(play_game(60000, 0, 40, false) < 40000);
}

static void test_a_game_of_hard_limits_never_empties_the_clock(void **state)
{
    (void)state;
    /* the worst case, every move cut at its hard limit: still on the clock after 40 moves,
     * and with an increment for as long as the game lasts */
    assert_true(play_game(60000, 0, 40, true) > 500);
    assert_true(play_game(10000, 100, 300, true) > 100);
    assert_true(play_game(1000, 10, 300, true) > 0);
}

/* The target of a search under way, worked by hand from the rule in time_manager.h:
 * 0.6 of soft settled, 0.6 + 0.7 * changes while changing, 1.25 / 1.5 times that after a
 * fall of 0.2 / 0.5 man, never above hard nor below 1. */
static void test_target_follows_the_search(void **state)
{
    (void)state;
    TimeBudget b = { .soft_ms = 1000, .hard_ms = 3000 };
    assert_int_equal(time_target(&b, 0, 0), 600);       /* settled: less */
    assert_int_equal(time_target(&b, 1, 0), 1300);      /* just changed: more */
    assert_int_equal(time_target(&b, 0.5, 0), 950);
    assert_int_equal(time_target(&b, 1.9, 0), 1930);
    assert_int_equal(time_target(&b, 5, 0), 2000);      /* the count's bound: 2 */
    assert_int_equal(time_target(&b, 0, 19), 600);      /* a small fall: nothing */
    assert_int_equal(time_target(&b, 0, 20), 750);
    assert_int_equal(time_target(&b, 0, 50), 900);
    assert_int_equal(time_target(&b, 0, -300), 600);    /* a rise: nothing */
    assert_int_equal(time_target(&b, 1.9, 80), 2895);
    assert_int_equal(time_target(&b, 2, 80), 3000);     /* 1.5 * 2000 is the limit itself */
    b.hard_ms = 2500;
    assert_int_equal(time_target(&b, 2, 80), 2500);     /* never above the hard limit */
    b = (TimeBudget){ .soft_ms = 1, .hard_ms = 1 };
    assert_int_equal(time_target(&b, 0, 0), 1);         /* never below 1 */
    b = (TimeBudget){ .soft_ms = 1000, .hard_ms = 0 };
    assert_int_equal(time_target(&b, 2, 50), 3000);     /* no hard limit: uncapped */
}

/* On every clock, a changing search's target stays within the move's hard limit, so the
 * clock's bounds above hold whatever the search does. */
static void test_target_stays_within_every_clock(void **state)
{
    (void)state;
    static const int64_t times[] = { 1, 100, 1000, 60000, 600000 };
    static const int64_t incs[] = { 0, 100, 30000 };
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        for (size_t j = 0; j < sizeof incs / sizeof incs[0]; j++)
            for (int togo = 0; togo <= 40; togo += 20) {
                TimeBudget b = time_budget(&(TimeControl){ .time_ms = times[i], .inc_ms = incs[j],
                                                           .moves_to_go = togo });
                for (double c = 0; c <= 2; c += 0.25)
                    for (int drop = 0; drop <= 100; drop += 25)
                        assert_in_range(time_target(&b, c, drop), 1, b.hard_ms);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_time_is_used_whole_but_the_overhead),
        cmocka_unit_test(test_no_time_set_means_no_limit),
        cmocka_unit_test(test_sudden_death_share),
        cmocka_unit_test(test_every_clock_keeps_a_reserve),
        cmocka_unit_test(test_a_game_of_targets_never_empties_the_clock),
        cmocka_unit_test(test_a_game_of_hard_limits_never_empties_the_clock),
        cmocka_unit_test(test_target_follows_the_search),
        cmocka_unit_test(test_target_stays_within_every_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
