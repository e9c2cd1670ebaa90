/* The static evaluation of Turkish draughts: linear in the weights.
 *
 * One extractor turns a position into sparse (weight index, integer coefficient) terms; the
 * score is their dot product with the weights divided by EVAL_SCALE.  The engine and the
 * tuner use the same extractor, so what is fitted is exactly what is played.
 *
 * Tapering: with m = men on the board (at most EVAL_PHASE_MAX), a feature of value v adds the
 * terms (NAME_MG, v * m) and (NAME_EG, v * (EVAL_PHASE_MAX - m)): the two weights are blended
 * by material and the eval stays linear in them.  Values are feature(White) - feature(Black)
 * with Black mirrored, then negated when Black is to move: coefficients, and so the score,
 * are from the side to move.  evaluate(flip(pos)) == evaluate(pos) for position_flip, i.e.
 * the score from White's side changes sign when colours are exchanged. */
#ifndef DAMA_EVALUATE_H
#define DAMA_EVALUATE_H

#include <stdint.h>

#include "types.h"
#include "weights.h"

/* Phase = men on the board, capped: 32 is the start, 0 only kings. */
#define EVAL_PHASE_MAX 32
/* Divisor of the dot product: the blend of _MG and _EG sums to EVAL_PHASE_MAX. */
#define EVAL_SCALE EVAL_PHASE_MAX
/* Largest |score| evaluate returns (hundredths of a man): a search's win scores go above. */
#define EVAL_LIMIT 20000
/* Terms eval_extract writes at most: two per feature.  Pattern features added later grow this
 * bound by the patterns present in one position, not by the number of pattern weights. */
#define EVAL_MAX_TERMS (2 * EVAL_NUM_FEATURES)

/* One nonzero coefficient of a weight.  A plain index into Weights.w, so pattern tables
 * (millions of weights) would only be more indices. */
typedef struct EvalTerm {
    int32_t index; /* enum EvalWeight */
    int32_t coef;  /* feature value times its phase factor, from the side to move */
} EvalTerm;

/* Writes the nonzero terms of pos (at most EVAL_MAX_TERMS, ascending index) and returns
 * their count. */
int eval_extract(const Position *pos, EvalTerm *terms);

/* sum(coef * w[index]) in 64 bits, divided by EVAL_SCALE rounding half away from zero (so
 * the score of a mirrored position is exactly the negation), clamped to +-EVAL_LIMIT. */
int eval_dot(const EvalTerm *terms, int n, const Weights *w);

/* The engine's evaluation from the side to move; always eval_dot(eval_extract(pos), w), but
 * without writing the terms out. */
int evaluate(const Position *pos, const Weights *w);

#endif
