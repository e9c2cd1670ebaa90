/* The evaluation of International draughts (terms: international_eval_features.h). */
#ifndef DAMA_INTERNATIONAL_EVAL_H
#define DAMA_INTERNATIONAL_EVAL_H

#include "eval_spec.h"

extern const EvalSpec international_eval_spec;

#endif
