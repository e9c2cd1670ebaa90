/* The tuner's options read the one way by tune and train (tune_options.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tune_options.h"

bool tune_option_eval(const CliOption *option, const char *value)
{
    EvalChoice *out = option->dest;
    if (strcmp(value, "linear") == 0)
        *out = EVAL_LINEAR;
    else if (strcmp(value, "pattern") == 0)
        *out = EVAL_PATTERN;
    else
        return cli_usage_error("bad value '%s' for --eval: expected linear or pattern", value), false;
    return true;
}

bool tune_option_real(const CliOption *option, const char *value)
{
    static const struct {
        const char *name, *expected;
        double min, max;
        bool min_open, max_open; /* min < v rather than min <= v; v < max rather than <= */
    } ranges[] = {
        { "lr", "a positive number", 0, INFINITY, true, false },
        { "reg", "a number >= 0", 0, 1e30, false, true },
        { "lambda", "a number in [0, 1]", 0, 1, false, false },
        { "validation", "a number in [0, 1)", 0, 1, false, true },
    };
    int r = 0;
    while (r < 3 && strcmp(ranges[r].name, option->name) != 0)
        r++;
    char *end;
    double v = strtod(value, &end);
    /* Comparisons that are false for NaN: it is refused. */
    bool above = ranges[r].min_open ? v > ranges[r].min : v >= ranges[r].min;
    bool below = ranges[r].max_open ? v < ranges[r].max : v <= ranges[r].max;
    if (end == value || *end || !above || !below)
        return cli_usage_error("bad value '%s' for --%s: expected %s", value, option->name,
                               ranges[r].expected), false;
    *(double *)option->dest = v;
    return true;
}

bool sprt_option(const CliOption *option, const char *value)
{
    char err[512];
    if (!sprt_parse(option->dest, value, err, sizeof err))
        return cli_usage_error("%s", err), false;
    return true;
}
