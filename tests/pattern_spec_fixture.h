/* A small pattern evaluation for tests of the weights file and its loading, until the
 * variants have their own: the Turkish linear features, then PATTERN_FIXTURE_STATES pattern
 * states of which patterns() picks two by the men of each side.  Call
 * pattern_fixture_spec() for the spec and pattern_fixture_variant() for Turkish with it as
 * its pattern evaluation. */
#ifndef DAMA_PATTERN_SPEC_FIXTURE_H
#define DAMA_PATTERN_SPEC_FIXTURE_H

#include "bitboard.h"
#include "turkish_eval.h"
#include "variant.h"

#ifndef PATTERN_FIXTURE_STATES
#define PATTERN_FIXTURE_STATES 1000
#endif
#define PATTERN_FIXTURE_VERSION 7u

static int pattern_fixture_patterns(const Position *pos, int32_t *state, int8_t *sign)
{
    int own = pos->side, other = 1 - own;
    state[0] = (int32_t)(popcount(pos->men[own]) % PATTERN_FIXTURE_STATES);
    sign[0] = 1;
    state[1] = (int32_t)(popcount(pos->men[other]) % PATTERN_FIXTURE_STATES);
    sign[1] = -1;
    return 2;
}

static inline const EvalSpec *pattern_fixture_spec(void)
{
    static EvalSpec spec;
    if (!spec.variant) {
        spec = turkish_eval_spec;
        spec.eval_name = "pattern";
        spec.npattern_states = PATTERN_FIXTURE_STATES;
        spec.max_pattern_terms = 2;
        spec.feature_set_version = PATTERN_FIXTURE_VERSION;
        spec.patterns = pattern_fixture_patterns;
        spec.evaluate = NULL;
    }
    return &spec;
}

static inline const Variant *pattern_fixture_variant(void)
{
    static Variant v;
    if (!v.name) {
        v = turkish_variant;
        v.pattern_eval = pattern_fixture_spec();
    }
    return &v;
}

#endif
