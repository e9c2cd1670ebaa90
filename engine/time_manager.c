/* The one time manager (see time_manager.h). */
#include "time_manager.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

TimeBudget time_budget(const TimeControl *tc)
{
    if (tc->move_ms > 0) {
        int64_t margin = min64(max64(tc->overhead_ms, 0), tc->move_ms / 20);
        return (TimeBudget){ .soft_ms = 0, .hard_ms = max64(1, tc->move_ms - margin) };
    }
    if (tc->time_ms <= 0 && tc->inc_ms <= 0)
        return (TimeBudget){ 0, 0 };
    int64_t reserve = max64(tc->overhead_ms, 0) + min64(100, max64(tc->time_ms, 0) / 20);
    int64_t avail = max64(0, tc->time_ms - reserve);
    int left = tc->moves_to_go > 0 ? tc->moves_to_go : TIME_MOVES_LEFT_GUESS;
    int64_t share = avail / left + tc->inc_ms * 4 / 5;
    int64_t hard = max64(1, min64(share * 3, left == 1 ? avail : avail / 2));
    int64_t soft = max64(1, min64(share, hard));
    return (TimeBudget){ .soft_ms = soft, .hard_ms = hard };
}

int64_t time_target(const TimeBudget *b, double best_move_changes, int score_drop)
{
    double changes = best_move_changes < 0 ? 0 : best_move_changes > 2 ? 2 : best_move_changes;
    double factor = 0.6 + 0.7 * changes;
    factor *= score_drop >= 50 ? 1.5 : score_drop >= 20 ? 1.25 : 1.0;
    int64_t target = (int64_t)((double)b->soft_ms * factor + 0.5); /* to the nearest ms */
    if (b->hard_ms > 0)
        target = min64(target, b->hard_ms);
    return max64(1, target);
}
