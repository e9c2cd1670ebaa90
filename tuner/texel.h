/* Texel fit of a tapered linear evaluation (linear features and pattern states alike) to
 * game results, at the scale of a pattern evaluation: hundreds of thousands of weights,
 * tens of millions of positions.
 *
 * Model, per position x with phase m and feature terms (f, v) (dataset.h):
 *     eval(x) = sum v * (m * w[2f] + (M - m) * w[2f + 1]) / M     M = phase_max; engine units
 *     p(x)    = 1 / (1 + exp(-K * eval(x)))  natural logistic; K is per engine unit
 *     loss    = mean over positions of (p(x) - label(x))^2
 * Only K * w matters to the loss, so the trainer wants at least one weight frozen (the man,
 * say, at 100) to pin the scale; K is fitted once and held fixed while the weights move.
 *
 * Every function takes `threads` (<= 0: omp_get_max_threads()).  Positions are cut into
 * contiguous blocks whose number depends on the number of positions only, and the blocks'
 * partial sums are added in block order, so a result is the same bit for bit on every run,
 * whatever the number of threads.  A gradient is sparse: a block lists the features its
 * positions touch, so a step costs in proportion to its terms and the weights they touch,
 * never to the number of weights. */
#ifndef DAMA_TEXEL_H
#define DAMA_TEXEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataset.h"

/* p = 1 / (1 + exp(-K * eval)), without overflow warnings for large |K * eval|. */
double texel_sigmoid(double K, double eval);

/* eval of position i (summed in the same order as the kernels). */
double texel_eval(const Dataset *ds, size_t i, const double *w);

/* Mean squared error; 0 for an empty dataset. */
double texel_loss(const Dataset *ds, const double *w, double K, int threads);

/* The K > 0 minimising texel_loss for these weights: a scan over K = 2^-30 .. 2^10 by
 * factors of 2, then golden-section search in the bracket around the best grid point.
 * 0 when the dataset is empty or memory runs out. */
double texel_fit_k(const Dataset *ds, const double *w, int threads);

/* grad[j] = d loss / d w[j] (num_weights values) for the mean loss over the whole set, exact:
 *     2 (p - label) p (1 - p) K coef / N, coef = v m / M (MG) or v (M - m) / M (EG).
 * False (grad zeroed) when memory runs out. */
bool texel_gradient(const Dataset *ds, const double *w, double K, double *grad, int threads);

/* The sparse gradient of one batch, with scratch kept between calls (a training run makes
 * one).  Memory: two doubles and a byte per feature for the result; per thread four doubles
 * and a byte per feature, its copy of the weights beside its sums; and per block a list of
 * the features it touches.  texel_batch_gradient copies w into the threads' copies at every
 * call (texel_train keeps them up to date itself instead). */
typedef struct TexelBatchGradient TexelBatchGradient;

TexelBatchGradient *texel_batch_gradient_new(const Dataset *ds, int threads);
void texel_batch_gradient_free(TexelBatchGradient *bg);

/* The gradient of the mean loss over positions order[0 .. n) of ds (0 .. n when order is
 * NULL; ds must have bg's number of features).  *touched gets the *ntouched features the
 * batch's terms name (each once, in no particular order); (*grad)[2f] and (*grad)[2f + 1]
 * hold the gradient of touched feature f's weights, other entries are stale.  *sse gets the
 * sum of squared errors.  The arrays stay bg's, valid until its next call.  False when
 * memory runs out. */
bool texel_batch_gradient(TexelBatchGradient *bg, const Dataset *ds, const size_t *order, size_t n,
                          const double *w, double K, double *sse, const uint32_t **touched,
                          size_t *ntouched, const double **grad);

typedef struct TexelOptions {
    int epochs;                  /* most passes over the training set */
    double learning_rate;        /* Adam step, in weight units (hundredths of a man) */
    double lr_decay;             /* learning rate times this after each epoch; 1 = constant */
    size_t batch_size;           /* positions per Adam step; 0 = the whole training set */
    double beta1, beta2;         /* Adam moment decays */
    double epsilon;              /* Adam denominator guard; small, as gradients are small */
    double reg;                  /* L2 pull toward the starting weights (see texel_train); 0 = none */
    int patience;                /* stop after this many epochs without a better validation
                                    loss; 0 = run every epoch */
    int threads;                 /* <= 0: omp_get_max_threads() */
    double K;                    /* logistic scale; <= 0: texel_fit_k on the starting weights */
    const unsigned char *frozen; /* num_weights flags, nonzero = keep as given; at least one
                                    must be set (the scale anchor) */
    uint64_t seed;               /* order of positions in mini-batches */
} TexelOptions;

/* Called after every epoch (epoch 0 = the starting weights).  train_loss is the mean over
 * the epoch's steps, each measured before its update, as ML frameworks report it;
 * valid_loss is measured after the epoch (the training loss when there is no validation
 * set).  Both are the plain mean squared error, without the penalty.  Return false to stop
 * early (Ctrl-C); the best weights so far are kept. */
typedef bool (*TexelProgress)(void *ctx, int epoch, double train_loss, double valid_loss);

typedef struct TexelResult {
    double K;               /* the logistic scale used */
    double best_valid_loss; /* validation loss of the best epoch: the lowest seen (without a
                               validation set: the training loss of the epoch whose loss +
                               penalty was lowest) */
    int best_epoch;         /* epoch where it was seen; 0 = the starting weights */
    int epochs_run;         /* epochs completed */
    bool early_stopped;     /* by patience or by the callback */
    double touched_per_step; /* mean features a step touched (and updated) */
} TexelResult;

/* Defaults: 1000 epochs, learning rate 1, no decay, full batch, beta 0.9/0.999,
 * epsilon 1e-10, reg 0, patience 50, all threads, K fitted, nothing frozen (so set `frozen`). */
TexelOptions texel_default_options(void);

/* Lazy Adam on the training set with early stopping on the validation set (may be NULL or
 * empty).  A step updates only the weights of the features its batch touches: their
 * gradients, their moments, and their own step counts, which the bias correction uses (so
 * a weight's Adam runs as if only the steps that touch it existed; a full batch touches
 * every weight that has data every step, which is plain Adam).  Objective:
 *     loss + reg * sum over weights of (w - w_start)^2
 * applied lazily too: a step adds 2 reg (w - w_start) to the gradient of the weights it
 * touches (exact for a full batch, where an untouched weight never leaves its start).
 * On return w holds the weights of the best validation loss (no validation set: of the
 * lowest training loss + penalty).  False (w untouched) on bad
 * options (no frozen weight, epochs < 0, reg < 0, mismatched datasets, ...) or out of
 * memory. */
bool texel_train(const Dataset *train, const Dataset *valid, double *w,
                 const TexelOptions *opt, TexelProgress cb, void *ctx, TexelResult *out);

#endif
