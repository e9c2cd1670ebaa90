/* Texel fit of a linear evaluation to game results.
 *
 * Model, per position x with sparse terms (i, c):
 *     eval(x) = sum w[i] * c / scale          engine units: hundredths of a man
 *     p(x)    = 1 / (1 + exp(-K * eval(x)))  natural logistic; K is per engine unit
 *     loss    = mean over positions of (p(x) - label(x))^2
 * Only K * w matters to the loss, so the trainer wants at least one weight frozen (the man,
 * say, at 100) to pin the scale; K is fitted once and held fixed while the weights move.
 *
 * Every function takes `threads` (<= 0: omp_get_max_threads()).  Positions are cut into
 * contiguous blocks whose number depends on the number of positions only (at most 64),
 * and the blocks' partial sums are added in block order, so a result is the same bit for
 * bit on every run, whatever the number of threads. */
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

/* grad[j] = d loss / d w[j] for the mean loss, exact:
 *     2 (p - label) p (1 - p) K c / scale / N, summed over the terms (j, c) of every position.
 * Per-block gradient buffers, reduced in block order; no atomics. */
void texel_gradient(const Dataset *ds, const double *w, double K, double *grad, int threads);

typedef struct TexelOptions {
    int epochs;                  /* most passes over the training set */
    double learning_rate;        /* Adam step, in weight units (hundredths of a man) */
    double lr_decay;             /* learning rate times this after each epoch; 1 = constant */
    size_t batch_size;           /* positions per Adam step; 0 = the whole training set */
    double beta1, beta2;         /* Adam moment decays */
    double epsilon;              /* Adam denominator guard; small, as gradients are small */
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
 * set).  Return false to stop early (Ctrl-C); the best weights so far are kept. */
typedef bool (*TexelProgress)(void *ctx, int epoch, double train_loss, double valid_loss);

typedef struct TexelResult {
    double K;               /* the logistic scale used */
    double best_valid_loss; /* lowest validation loss seen */
    int best_epoch;         /* epoch where it was seen; 0 = the starting weights */
    int epochs_run;         /* epochs completed */
    bool early_stopped;     /* by patience or by the callback */
} TexelResult;

/* Defaults: 1000 epochs, learning rate 1, no decay, full batch, beta 0.9/0.999,
 * epsilon 1e-10, patience 50, all threads, K fitted, nothing frozen (so set `frozen`). */
TexelOptions texel_default_options(void);

/* Adam on the training set with early stopping on the validation set (may be NULL or
 * empty).  On return w holds the weights of the best validation loss.  False (w untouched)
 * on bad options (no frozen weight, epochs < 0, mismatched datasets, ...) or out of memory. */
bool texel_train(const Dataset *train, const Dataset *valid, double *w,
                 const TexelOptions *opt, TexelProgress cb, void *ctx, TexelResult *out);

#endif
