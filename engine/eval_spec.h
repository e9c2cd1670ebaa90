/* What one variant's evaluation is: a table of linear features, the names, defaults and
 * reasons of their weights, and the function that measures the features of a position.
 * Each variant fills one EvalSpec in its own file (turkish_eval.c, international_eval.c);
 * evaluate.c (taper and dot product), weights.c (names and the text format) and the tuner
 * are written once against it.
 *
 * Feature f owns two weights: 2f counts when many men are on the board (NAME_MG), 2f + 1
 * when few (NAME_EG); see evaluate.h for the blend.  Feature 0 of every spec is the man:
 * the unit of the scores, which the tuner keeps fixed. */
#ifndef DAMA_EVAL_SPEC_H
#define DAMA_EVAL_SPEC_H

#include <stdint.h>

#include "types.h"

/* Features any variant may have: the bound of the fixed-size arrays below and in Weights. */
#define EVAL_MAX_FEATURES 64
#define EVAL_MAX_WEIGHTS (2 * EVAL_MAX_FEATURES)

typedef struct EvalSpec {
    const char *variant;              /* name of the variant the weights are for: "turkish" */
    int nfeatures;                    /* at most EVAL_MAX_FEATURES */
    const char *const *weight_names;  /* 2 * nfeatures: "MAN_MG", "MAN_EG", ... */
    const char *const *feature_why;   /* nfeatures: why the feature exists (weights files) */
    const int32_t *defaults;          /* 2 * nfeatures hand-set weights, hundredths of a man */
    const int32_t *material_only;     /* 2 * nfeatures: men and kings valued, all else 0 */
    int phase_max;                    /* men on the board at the start: the full middlegame */
    /* Writes the feature values of pos into v[0 .. nfeatures - 1], each feature(White) -
     * feature(Black) with Black seen from its own side, all negated when Black is to move,
     * so they are from the side to move.  v has room for EVAL_MAX_FEATURES + 1 values: slot
     * nfeatures is free for scratch.  Returns the phase: men on the board, at most phase_max. */
    int (*features)(const Position *pos, int32_t *v);
} EvalSpec;

#endif
