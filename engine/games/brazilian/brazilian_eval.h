/* The evaluation of Brazilian draughts (terms: brazilian_eval_features.h): the linear
 * features, shared by the linear spec (brazilian_eval.c) and the pattern spec
 * (brazilian_patterns.c), which has them in front of its windows. */
#ifndef DAMA_BRAZILIAN_EVAL_H
#define DAMA_BRAZILIAN_EVAL_H

#include "brazilian.h"
#include "brazilian_eval_features.h"
#include "eval_spec.h"

int brazilian_features(const Position *pos, int32_t *v);
extern const char *const br_weight_names[2 * BR_EVAL_NUM_FEATURES];
extern const char *const br_feature_why[BR_EVAL_NUM_FEATURES];
extern const int32_t br_defaults[2 * BR_EVAL_NUM_FEATURES];
extern const int32_t br_material_only[2 * BR_EVAL_NUM_FEATURES];

#define BR_LINEAR_EVAL_FIELDS                                                               \
    .variant = "brazilian", .nfeatures = BR_EVAL_NUM_FEATURES,                              \
    .weight_names = br_weight_names, .feature_why = br_feature_why, .defaults = br_defaults, \
    .material_only = br_material_only, .phase_max = BR_PHASE_MAX,                           \
    .features = brazilian_features

#endif
