/* The tuner's options read the one way by tune and train (tune_options.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tune_options.h"

bool eval_choice_parse(const char *text, EvalChoice *out)
{
    if (strcmp(text, "linear") == 0)
        *out = EVAL_LINEAR;
    else if (strcmp(text, "pattern") == 0)
        *out = EVAL_PATTERN;
    else
        return cli_usage_error("bad value '%s' for --eval: expected linear or pattern", text), false;
    return true;
}

bool tune_real_parse(TuneRealOption option, const char *text, double *out)
{
    static const struct {
        const char *name, *expected;
        double min, max;
        bool min_open, max_open; /* min < v rather than min <= v; v < max rather than <= */
    } opts[] = {
        [TUNE_OPT_LR] = { "--lr", "a positive number", 0, INFINITY, true, false },
        [TUNE_OPT_REG] = { "--reg", "a number >= 0", 0, 1e30, false, true },
        [TUNE_OPT_LAMBDA] = { "--lambda", "a number in [0, 1]", 0, 1, false, false },
        [TUNE_OPT_VALIDATION] = { "--validation", "a number in [0, 1)", 0, 1, false, true },
    };
    char *end;
    double v = strtod(text, &end);
    /* Comparisons that are false for NaN: it is refused. */
    bool above = opts[option].min_open ? v > opts[option].min : v >= opts[option].min;
    bool below = opts[option].max_open ? v < opts[option].max : v <= opts[option].max;
    if (end == text || *end || !above || !below)
        return cli_usage_error("bad value '%s' for %s: expected %s", text, opts[option].name,
                               opts[option].expected), false;
    *out = v;
    return true;
}
