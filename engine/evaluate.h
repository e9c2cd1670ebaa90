/* The static evaluation, written once for every variant: linear in the weights.
 *
 * A variant's EvalSpec (eval_spec.h) measures the features of a position; the score is
 * their dot product with the weights divided by the spec's phase_max.  eval_extract writes
 * the same sum as sparse (weight index, integer coefficient) terms: the engine and the tuner
 * use one extractor, so what is fitted is exactly what is played.
 *
 * Tapering: with m = the phase (men on the board, at most phase_max), a feature of value v
 * adds the terms (NAME_MG, v * m) and (NAME_EG, v * (phase_max - m)): the two weights are
 * blended by material and the eval stays linear in them.  Feature values are from the side
 * to move, so the score is too, and evaluate(flip(pos)) == evaluate(pos) for position_flip:
 * the score from White's side changes sign when colours are exchanged. */
#ifndef DAMA_EVALUATE_H
#define DAMA_EVALUATE_H

#include <stdint.h>

#include "eval_spec.h"
#include "types.h"
#include "weights.h"

/* Largest |score| evaluate returns (hundredths of a man): a search's win scores go above. */
#define EVAL_LIMIT 20000
/* Terms eval_extract writes at most: two per feature.  Pattern features added later grow this
 * bound by the patterns present in one position, not by the number of pattern weights. */
#define EVAL_MAX_TERMS EVAL_MAX_WEIGHTS

/* One nonzero coefficient of a weight: a plain index into Weights.w, so pattern tables
 * (millions of weights) would only be more indices. */
typedef struct EvalTerm {
    int32_t index; /* 2 * feature (MG) or 2 * feature + 1 (EG) */
    int32_t coef;  /* feature value times its phase factor, from the side to move */
} EvalTerm;

/* Writes the nonzero terms of pos under spec (at most EVAL_MAX_TERMS, ascending index) and
 * returns their count. */
int eval_extract(const EvalSpec *spec, const Position *pos, EvalTerm *terms);

/* sum(coef * w[index]) in 64 bits, divided by the phase_max of w's spec rounding half away
 * from zero (so the score of a mirrored position is exactly the negation), clamped to
 * +-EVAL_LIMIT. */
int eval_dot(const EvalTerm *terms, int n, const Weights *w);

/* The engine's evaluation from the side to move, with w's spec; always
 * eval_dot(eval_extract(pos), w), but without writing the terms out. */
int evaluate(const Position *pos, const Weights *w);

#endif
