/* The static evaluation, written once for every variant: linear in the weights.
 *
 * A variant's EvalSpec (eval_spec.h) measures the features of a position; the score is
 * their dot product with the weights divided by the spec's phase_max.  eval_features writes
 * the nonzero features, eval_extract the same sum as sparse (weight index, integer
 * coefficient) terms: the engine and the tuner use one extractor, so what is fitted is
 * exactly what is played.
 *
 * Tapering: with m = the phase (men on the board, at most phase_max), a feature of value v
 * adds the terms (NAME_MG, v * m) and (NAME_EG, v * (phase_max - m)): the two weights are
 * blended by material and the eval stays linear in them.  Feature values are from the side
 * to move, so the score is too, and evaluate(flip(pos)) == evaluate(pos) for position_flip:
 * the score from White's side changes sign when colours are exchanged.  A pattern state is
 * one more feature (eval_spec.h), of value +1 per occurrence for the side to move and -1
 * per occurrence for the opponent. */
#ifndef DAMA_EVALUATE_H
#define DAMA_EVALUATE_H

#include <stdint.h>

#include "eval_spec.h"
#include "types.h"
#include "weights.h"

/* Largest |score| evaluate returns (hundredths of a man): a search's win scores go above. */
#define EVAL_LIMIT 20000
/* Nonzero features eval_features writes at most: every linear one and every pattern
 * occurrence. */
#define EVAL_MAX_FEATURE_TERMS (EVAL_MAX_FEATURES + EVAL_MAX_PATTERN_TERMS)
/* Terms eval_extract writes at most: two per feature. */
#define EVAL_MAX_TERMS (2 * EVAL_MAX_FEATURE_TERMS)

/* One nonzero feature: weights 2 * feature (MG) and 2 * feature + 1 (EG) (eval_spec.h). */
typedef struct EvalFeatureTerm {
    int32_t feature; /* < nfeatures: a linear feature; else pattern state feature - nfeatures */
    int32_t value;   /* from the side to move */
} EvalFeatureTerm;

/* One nonzero coefficient of a weight: a plain index into Weights.w. */
typedef struct EvalTerm {
    int32_t index; /* 2 * feature (MG) or 2 * feature + 1 (EG) */
    int32_t coef;  /* feature value times its phase factor, from the side to move */
} EvalTerm;

/* Writes the nonzero features of pos (at most EVAL_MAX_FEATURE_TERMS: the linear ones in
 * order, then the pattern states ascending, each once with its occurrences summed) and
 * returns their count; *phase gets the phase (men on the board, at most phase_max). */
int eval_features(const EvalSpec *spec, const Position *pos, EvalFeatureTerm *out, int *phase);

/* Writes the nonzero terms of pos under spec (at most EVAL_MAX_TERMS, ascending index) and
 * returns their count. */
int eval_extract(const EvalSpec *spec, const Position *pos, EvalTerm *terms);

/* sum(coef * w[index]) in 64 bits, divided by the phase_max of w's spec rounding half away
 * from zero (so the score of a mirrored position is exactly the negation), clamped to
 * +-EVAL_LIMIT. */
int eval_dot(const EvalTerm *terms, int n, const Weights *w);

/* The engine's evaluation from the side to move, with w's spec; always
 * eval_dot(eval_extract(pos), w), but without writing the terms out (the spec's own fast
 * path when it has one). */
int evaluate(const Position *pos, const Weights *w);

/* evaluate without the spec's fast path: the reference the fast paths are tested against. */
int evaluate_generic(const Position *pos, const Weights *w);

/* Incremental evaluation: what a spec keeps from node to node so that evaluating a
 * position does not read the whole board again (Turkish, turkish_eval.c and
 * turkish_patterns.c): the readings of the pattern windows (each a sum of digit * 3^k over
 * its squares, so a man arriving or leaving adds or subtracts one number a window: a few
 * squares change a move, not the 70 windows), and sums of the weights of terms that are a
 * man's square alone (a piece-square table).  The layout of slot is the spec's own.  A
 * value of a few hundred bytes: the search keeps one per ply and copies the parent's
 * before the update (copy-make).  A spec without one (International) is read from scratch
 * by evaluate_inc. */
#define EVAL_INC_SLOTS 112
typedef struct EvalInc {
    int64_t sum[2]; /* MG and EG weight sums of the square terms, White's minus Black's */
    union {
        uint16_t u16[EVAL_INC_SLOTS];
        uint64_t u64[EVAL_INC_SLOTS / 4];
    } slot;
} EvalInc;

/* The state of pos read from scratch (nothing to do for a spec without inc_init). */
void eval_inc_init(EvalInc *inc, const Position *pos, const Weights *w);
/* child = the state of `after`, reached by one move from `before`, whose state is parent.
 * Inline: the search calls it at every node, and a spec without a state skips it. */
static inline void eval_inc_child(EvalInc *child, const EvalInc *parent, const Position *before,
                                  const Position *after, const Weights *w)
{
    if (w->spec->inc_update) {
        *child = *parent;
        w->spec->inc_update(child, before, after, w);
    }
}
/* evaluate(pos, w), read from inc, pos's state under w's spec. */
int evaluate_inc(const EvalInc *inc, const Position *pos, const Weights *w);

/* The scaling evaluate applies to a 64-bit sum: divided by scale rounding half away from
 * zero (so that round(-x) == -round(x)), clamped to +-EVAL_LIMIT (for the specs' fast
 * paths).  Inline: with a spec's constant phase_max the divisions become multiplications,
 * not a 64-bit division at every leaf. */
static inline int eval_scale_score(int64_t sum, int64_t scale)
{
    int64_t half = scale / 2;
    int64_t score = sum >= 0 ? (sum + half) / scale : -((-sum + half) / scale);
    return score > EVAL_LIMIT ? EVAL_LIMIT : score < -EVAL_LIMIT ? -EVAL_LIMIT : (int)score;
}

#endif
