/* The evaluation of International draughts (terms: international_eval_features.h). */
#ifndef DAMA_INTERNATIONAL_EVAL_H
#define DAMA_INTERNATIONAL_EVAL_H

#include "eval_spec.h"
#include "international_eval_features.h"

/* Men on the board at the start: the full middlegame. */
#define INTL_PHASE_MAX 40

extern const EvalSpec international_eval_spec;

/* The linear features and their tables, shared with the pattern evaluation
 * (international_patterns.c), which has the same linear features in front of its windows:
 * international_features is international_eval_spec.features; the arrays are its
 * weight_names, feature_why, defaults and material_only. */
int international_features(const Position *pos, int32_t *v);
extern const char *const intl_weight_names[2 * INTL_EVAL_NUM_FEATURES];
extern const char *const intl_feature_why[INTL_EVAL_NUM_FEATURES];
extern const int32_t intl_defaults[2 * INTL_EVAL_NUM_FEATURES];
extern const int32_t intl_material_only[2 * INTL_EVAL_NUM_FEATURES];

/* The linear fields of an International EvalSpec, as designated initialisers: the linear
 * spec is these alone, the pattern spec these and its windows. */
#define INTL_LINEAR_EVAL_FIELDS                                                             \
    .variant = "international", .nfeatures = INTL_EVAL_NUM_FEATURES,                        \
    .weight_names = intl_weight_names, .feature_why = intl_feature_why,                     \
    .defaults = intl_defaults, .material_only = intl_material_only,                         \
    .phase_max = INTL_PHASE_MAX, .features = international_features

#endif
