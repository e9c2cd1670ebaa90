/* What one variant's evaluation is: a table of linear features, the names, defaults and
 * reasons of their weights, and the function that measures the features of a position.
 * Each variant fills one EvalSpec in its own file (turkish_eval.c, international_eval.c);
 * evaluate.c (taper and dot product), weights.c (names and the text format) and the tuner
 * are written once against it.
 *
 * Feature f owns two weights: 2f counts when many men are on the board (NAME_MG), 2f + 1
 * when few (NAME_EG); see evaluate.h for the blend.  Feature 0 of every spec is the man:
 * the unit of the scores, which the tuner keeps fixed.
 *
 * A pattern evaluation adds binary features after the linear ones: windows of the board
 * whose states index weight tables.  Pattern state s is feature nfeatures + s, so its
 * weights are 2 (nfeatures + s) (MG) and 2 (nfeatures + s) + 1 (EG), blended like every
 * other feature; one position touches a few dozen of them. */
#ifndef DAMA_EVAL_SPEC_H
#define DAMA_EVAL_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "types.h"

/* Linear features any variant may have, and their weights: the bound of fixed-size arrays. */
#define EVAL_MAX_FEATURES 64
#define EVAL_MAX_WEIGHTS (2 * EVAL_MAX_FEATURES)
/* Pattern occurrences one position may write (max_pattern_terms is at most this). */
#define EVAL_MAX_PATTERN_TERMS 256
/* Bytes of a spec's pattern key at most (pattern_key_bytes). */
#define EVAL_MAX_PATTERN_KEY 32

struct Weights;
struct EvalInc;

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

    /* ---- Pattern features; all zero / NULL for a linear evaluation ---- */
    const char *eval_name;            /* "linear" (NULL reads as linear) or "pattern" */
    int npattern_states;              /* pattern states over all of the spec's tables */
    int max_pattern_terms;            /* most occurrences patterns() writes for one position */
    uint32_t feature_set_version;     /* changes whenever the meaning of a state changes */
    /* Writes the pattern occurrences of pos from the side to move: state[k] in
     * [0, npattern_states) and sign[k] = +1 (counts for the side to move) or -1 (for the
     * opponent); a state may occur more than once.  Returns the count. */
    int (*patterns)(const Position *pos, int32_t *state, int8_t *sign);
    /* Optional compact form of what patterns() reads, for the tuner (dataset.h): the key of
     * a position is pattern_key_bytes bytes (at most EVAL_MAX_PATTERN_KEY), and
     * key_patterns(key) writes the occurrences patterns(pos) writes, in an order of its
     * own, less each +1 and -1 of one state (which eval_features merges away: the tuner's
     * lazy Adam must not see them as touched); it must stay in bounds for any bytes (a
     * packed file's key is not trusted).  A
     * Turkish position's 70 occurrences take 140 bytes as terms and 16 as a key.  All
     * zero / NULL: the tuner stores the occurrences as terms. */
    int pattern_key_bytes;
    void (*pattern_key)(const Position *pos, uint8_t *key);
    int (*key_patterns)(const uint8_t *key, int32_t *state, int8_t *sign);
    /* Optional fast path for evaluate (evaluate.h): must equal eval_dot(eval_extract(pos))
     * on every position (tests check it); NULL = the generic loop. */
    int (*evaluate)(const Position *pos, const struct Weights *w);

    /* Optional incremental evaluation (evaluate.h, EvalInc): all three or none.  inc_init
     * reads pos from scratch; inc_update brings a copy of the state of `before` to the
     * position `after` a move reached from it; inc_evaluate must equal evaluate(pos) for
     * the state of pos (tests and the search's check_eval hold them equal).  The state may
     * hold sums of weights: it is the state of one weight vector. */
    void (*inc_init)(struct EvalInc *inc, const Position *pos, const struct Weights *w);
    void (*inc_update)(struct EvalInc *inc, const Position *before, const Position *after,
                       const struct Weights *w);
    int (*inc_evaluate)(const struct EvalInc *inc, const Position *pos, const struct Weights *w);
} EvalSpec;

/* Features (linear and pattern states) and weights of a spec. */
static inline int eval_spec_features(const EvalSpec *spec)
{
    return spec->nfeatures + spec->npattern_states;
}
static inline bool eval_spec_is_pattern(const EvalSpec *spec) { return spec->npattern_states > 0; }

#endif
