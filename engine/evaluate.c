/* The variant-independent half of the evaluation: taper, sparse terms, dot product. */
#include <stdlib.h>

#include "evaluate.h"

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The pattern occurrences of pos as features: sorted by state, repeated states summed,
 * states whose occurrences cancel dropped.  Returns how many were written at out. */
static int pattern_features(const EvalSpec *spec, const Position *pos, EvalFeatureTerm *out)
{
    int32_t state[EVAL_MAX_PATTERN_TERMS];
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    int k = spec->patterns(pos, state, sign);
    /* Sort (state, sign) pairs by state: pack them into one key so one sort does it. */
    int32_t key[EVAL_MAX_PATTERN_TERMS];
    for (int i = 0; i < k; i++)
        key[i] = state[i] * 2 + (sign[i] > 0);
    qsort(key, (size_t)k, sizeof *key, compare_int32);
    int n = 0;
    for (int i = 0; i < k;) {
        int32_t s = key[i] / 2, value = 0;
        for (; i < k && key[i] / 2 == s; i++)
            value += key[i] & 1 ? 1 : -1;
        if (value)
            out[n++] = (EvalFeatureTerm){ spec->nfeatures + s, value };
    }
    return n;
}

int eval_features(const EvalSpec *spec, const Position *pos, EvalFeatureTerm *out, int *phase)
{
    int32_t v[EVAL_MAX_FEATURES + 1];
    *phase = spec->features(pos, v);
    int n = 0;
    for (int i = 0; i < spec->nfeatures; i++)
        if (v[i])
            out[n++] = (EvalFeatureTerm){ i, v[i] };
    if (spec->patterns)
        n += pattern_features(spec, pos, out + n);
    return n;
}

int eval_extract(const EvalSpec *spec, const Position *pos, EvalTerm *terms)
{
    EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
    int mg, nf = eval_features(spec, pos, f, &mg), eg = spec->phase_max - mg, n = 0;
    for (int i = 0; i < nf; i++) {
        if (mg)
            terms[n++] = (EvalTerm){ 2 * f[i].feature, f[i].value * mg };
        if (eg)
            terms[n++] = (EvalTerm){ 2 * f[i].feature + 1, f[i].value * eg };
    }
    return n;
}

int eval_dot(const EvalTerm *terms, int n, const Weights *w)
{
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += (int64_t)terms[i].coef * w->w[terms[i].index];
    return eval_scale_score(sum, w->spec->phase_max);
}

int evaluate_generic(const Position *pos, const Weights *w)
{
    /* The same sum as eval_dot over eval_extract's terms, regrouped per phase:
     * sum(v * mg * w_mg + v * eg * w_eg) = mg * sum(v * w_mg) + eg * sum(v * w_eg). */
    const EvalSpec *spec = w->spec;
    int32_t v[EVAL_MAX_FEATURES + 1];
    int mg = spec->features(pos, v);
    int64_t sum_mg = 0, sum_eg = 0;
    for (int i = 0; i < spec->nfeatures; i++) {
        sum_mg += (int64_t)v[i] * w->w[2 * i];
        sum_eg += (int64_t)v[i] * w->w[2 * i + 1];
    }
    if (spec->patterns) {
        int32_t state[EVAL_MAX_PATTERN_TERMS];
        int8_t sign[EVAL_MAX_PATTERN_TERMS];
        int k = spec->patterns(pos, state, sign);
        const int32_t *table = w->w + 2 * spec->nfeatures;
        for (int i = 0; i < k; i++) {
            sum_mg += sign[i] * (int64_t)table[2 * state[i]]; /* 64 bits: -1 * INT32_MIN */
            sum_eg += sign[i] * (int64_t)table[2 * state[i] + 1];
        }
    }
    return eval_scale_score(mg * sum_mg + (spec->phase_max - mg) * sum_eg, spec->phase_max);
}

int evaluate(const Position *pos, const Weights *w)
{
    return w->spec->evaluate ? w->spec->evaluate(pos, w) : evaluate_generic(pos, w);
}

void eval_inc_init(EvalInc *inc, const Position *pos, const Weights *w)
{
    if (w->spec->inc_init)
        w->spec->inc_init(inc, pos, w);
}

int evaluate_inc(const EvalInc *inc, const Position *pos, const Weights *w)
{
    return w->spec->inc_evaluate ? w->spec->inc_evaluate(inc, pos, w) : evaluate(pos, w);
}
