/* The evaluation of Turkish draughts: its EvalSpec (features in turkish_eval_features.h). */
#ifndef DAMA_TURKISH_EVAL_H
#define DAMA_TURKISH_EVAL_H

#include "eval_spec.h"

/* Men at the start: the taper's full middlegame. */
#define TURKISH_PHASE_MAX 32

extern const EvalSpec turkish_eval_spec;

#endif
