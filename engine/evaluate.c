/* The variant-independent half of the evaluation: taper, sparse terms, dot product. */
#include "evaluate.h"

int eval_extract(const EvalSpec *spec, const Position *pos, EvalTerm *terms)
{
    int32_t v[EVAL_MAX_FEATURES + 1];
    int mg = spec->features(pos, v), eg = spec->phase_max - mg, n = 0;
    for (int i = 0; i < spec->nfeatures; i++) {
        if (v[i] == 0)
            continue;
        if (mg)
            terms[n++] = (EvalTerm){ 2 * i, v[i] * mg };
        if (eg)
            terms[n++] = (EvalTerm){ 2 * i + 1, v[i] * eg };
    }
    return n;
}

/* sum / scale, half away from zero so that round(-x) == -round(x); then clamped. */
static int scale_score(int64_t sum, int64_t scale)
{
    int64_t half = scale / 2;
    int64_t score = sum >= 0 ? (sum + half) / scale : -((-sum + half) / scale);
    return score > EVAL_LIMIT ? EVAL_LIMIT : score < -EVAL_LIMIT ? -EVAL_LIMIT : (int)score;
}

int eval_dot(const EvalTerm *terms, int n, const Weights *w)
{
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += (int64_t)terms[i].coef * w->w[terms[i].index];
    return scale_score(sum, w->spec->phase_max);
}

int evaluate(const Position *pos, const Weights *w)
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
    return scale_score(mg * sum_mg + (spec->phase_max - mg) * sum_eg, spec->phase_max);
}
