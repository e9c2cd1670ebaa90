/* The evaluation of Turkish draughts: its EvalSpec (features in turkish_eval_features.h). */
#ifndef DAMA_TURKISH_EVAL_H
#define DAMA_TURKISH_EVAL_H

#include "eval_spec.h"

/* Men at the start: the taper's full middlegame. */
#define TURKISH_PHASE_MAX 32

/* Its linear features (EVAL_NUM_FEATURES of turkish_eval_features.h, whose enum cannot
 * share a file with evaluate.h's EvalFeature). */
#define TURKISH_NFEATURES 36

extern const EvalSpec turkish_eval_spec;

/* The parts of turkish_eval_spec, for the specs built on its features (turkish_patterns.c):
 * the features function (EvalSpec.features) and its weights' names, reasons, hand-set and
 * material-only values (nfeatures = turkish_eval_spec.nfeatures). */
int turkish_features(const Position *pos, int32_t *v);

/* The incremental evaluation's linear half (evaluate.h, EvalInc): the man table's weights
 * kept in EvalInc.sum from move to move.  turkish_inc_score is the score of pos from that
 * state and the sums mg, eg of the pattern weights (0 for the linear evaluation), as
 * evaluate gives it. */
struct EvalInc;
struct Weights;
void turkish_inc_init(struct EvalInc *inc, const Position *pos, const struct Weights *w);
void turkish_inc_update(struct EvalInc *inc, const Position *before, const Position *after,
                        const struct Weights *w);
int turkish_inc_score(const struct EvalInc *inc, const Position *pos, const struct Weights *w,
                      int64_t mg, int64_t eg);
extern const char *const turkish_weight_names[];
extern const char *const turkish_feature_why[];
extern const int32_t turkish_default_values[];
extern const int32_t turkish_material_values[];
/* Those parts as the designated initialisers of an EvalSpec: turkish_eval_spec is them alone. */
#define TURKISH_LINEAR_EVAL_FIELDS                                                         \
    .variant = "turkish", .nfeatures = TURKISH_NFEATURES,                                   \
    .weight_names = turkish_weight_names, .feature_why = turkish_feature_why,               \
    .defaults = turkish_default_values, .material_only = turkish_material_values,           \
    .phase_max = TURKISH_PHASE_MAX, .features = turkish_features

#endif
