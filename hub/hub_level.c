/* The Hub engine's level command (hub_state.h): the limit of the next searches, checked
 * value by value, and that limit as the time manager's budget. */
#include <math.h>
#include <stdlib.h>

#include "hub_state.h"

/* A number of seconds: a non-negative real. */
static bool seconds_value(Hub *h, const char *name, const char *text, double *out)
{
    char *end;
    double x = text ? strtod(text, &end) : 0;
    if (!text || end == text || *end || !(x >= 0) || x > 1e7) {
        hub_send_error(h, "level: %s is a number of seconds, not '%s'", name, text ? text : "(none)");
        return false;
    }
    *out = x;
    return true;
}

static bool count_value(Hub *h, const char *name, const char *text, uint64_t max, uint64_t *out)
{
    char *end;
    unsigned long long x = text && *text != '-' ? strtoull(text, &end, 10) : 0;
    if (!text || *text == '-' || end == text || *end || x < 1 || x > max) {
        hub_send_error(h, "level: %s is a whole number from 1 to %llu, not '%s'", name,
                   (unsigned long long)max, text ? text : "(none)");
        return false;
    }
    *out = x;
    return true;
}

void hub_cmd_level(Hub *h, const HubLine *line)
{
    HubLevel l = { 0 };
    uint64_t n;
    const char *t;
    if ((t = hub_line_value(line, "depth")) || hub_line_has(line, "depth")) {
        if (!count_value(h, "depth", t, SEARCH_DEPTH_MAX, &n))
            return;
        l.depth = (int)n;
    }
    if ((t = hub_line_value(line, "nodes")) || hub_line_has(line, "nodes")) {
        if (!count_value(h, "nodes", t, UINT64_MAX, &n))
            return;
        l.nodes = n;
    }
    if (hub_line_has(line, "move-time") && !seconds_value(h, "move-time", hub_line_value(line, "move-time"), &l.move_time))
        return;
    if (hub_line_has(line, "time")) {
        if (!seconds_value(h, "time", hub_line_value(line, "time"), &l.time))
            return;
        l.has_time = true;
    }
    if (hub_line_has(line, "inc") && !seconds_value(h, "inc", hub_line_value(line, "inc"), &l.inc))
        return;
    if ((t = hub_line_value(line, "moves")) || hub_line_has(line, "moves")) {
        if (!count_value(h, "moves", t, 10000, &n))
            return;
        l.moves = (int)n;
    }
    l.infinite = hub_line_has(line, "infinite");
    h->level = l;
}

/* The hub's level as a time control (engine/time_manager.h); the overhead covers reading
 * the pipe, writing the answer and the GUI. */
#define HUB_OVERHEAD_MS 20

TimeBudget hub_level_budget(const HubLevel *l)
{
    TimeControl tc = { .overhead_ms = HUB_OVERHEAD_MS };
    if (l->move_time > 0)
        tc.move_ms = (int64_t)ceil(l->move_time * 1000);
    else if (l->has_time) {
        tc.time_ms = (int64_t)floor(l->time * 1000);
        tc.inc_ms = (int64_t)floor(l->inc * 1000);
        tc.moves_to_go = l->moves;
    }
    return time_budget(&tc);
}
