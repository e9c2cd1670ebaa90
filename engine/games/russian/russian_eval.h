/* The evaluation of Russian draughts (terms: russian_eval_features.h). */
#ifndef DAMA_RUSSIAN_EVAL_H
#define DAMA_RUSSIAN_EVAL_H

#include "eval_spec.h"
#include "russian_eval_features.h"

/* Men on the board at the start: the full middlegame. */
#define RUSSIAN_PHASE_MAX 24

extern const EvalSpec russian_eval_spec;

/* The linear features, shared with the pattern evaluation (russian_patterns.c). */
int russian_features(const Position *pos, int32_t *v);
extern const char *const russian_weight_names[2 * RUSSIAN_EVAL_NUM_FEATURES];
extern const char *const russian_feature_why[RUSSIAN_EVAL_NUM_FEATURES];
extern const int32_t russian_defaults[2 * RUSSIAN_EVAL_NUM_FEATURES];
extern const int32_t russian_material_only[2 * RUSSIAN_EVAL_NUM_FEATURES];

/* The linear fields of a Russian EvalSpec, as designated initialisers. */
#define RUSSIAN_LINEAR_EVAL_FIELDS                                                          \
    .variant = "russian", .nfeatures = RUSSIAN_EVAL_NUM_FEATURES,                           \
    .weight_names = russian_weight_names, .feature_why = russian_feature_why,               \
    .defaults = russian_defaults, .material_only = russian_material_only,                   \
    .phase_max = RUSSIAN_PHASE_MAX, .features = russian_features

#endif
