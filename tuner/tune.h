/* The tuning job: positions from the database, features from the engine's own extractor,
 * a Texel fit, and integer weights ready for the engine. */
#ifndef DAMA_TUNE_H
#define DAMA_TUNE_H

#include "store.h"
#include "texel.h"
#include "weights.h"

typedef struct TuneConfig {
    const char *variant;     /* Variant.name of start's spec: only its games are learnt from */
    const int64_t *run_ids;  /* self-play runs to learn from; nruns = 0: every run */
    int nruns;
    Weights start;           /* starting point, borrowed (the caller owns and frees it); the
                                man weights stay fixed (the scale) */
    double validation;       /* share of games held out (split by game) */
    int epochs;
    double learning_rate;
    size_t batch;            /* positions per step; 0 = full batch (default: full for a linear
                                spec, TUNE_PATTERN_BATCH for a pattern spec) */
    double reg;              /* L2 pull toward the start weights (texel.h); 0 = none */
    bool dedup;              /* drop a position seen before (the first one stays); default on */
    bool pattern_keys;       /* hold a pattern spec's occurrences as its keys (dataset.h): 2-3
                                times less memory, passes a quarter to a third slower; default on */
    int patience;            /* epochs without a better validation loss before stopping */
    int threads;
    int skip_plies;          /* positions before this ply are skipped (random openings) */
    double lambda;           /* label = (1 - lambda) * result + lambda * sigmoid(K * search
                                score), where a position has a stored score; 0 = results only */
    uint64_t seed;
    const char *data_path;   /* fit the positions of this packed file (tune_save_data wrote it,
                                mapped: dataset_file.h) instead of the store's; the selection
                                above (runs, skip_plies, dedup) was the save's; NULL = the store */
    TexelProgress progress;  /* per epoch; may be NULL */
    /* Now and then while positions are read from the store (stage "read", total 0: not
     * known) or written to a file ("write"); may be NULL. */
    void (*data_progress)(void *ctx, const char *stage, size_t done, size_t total);
    void *ctx;               /* both callbacks' */
} TuneConfig;

/* Positions read or written between two calls of data_progress. */
#define TUNE_PROGRESS_EVERY ((size_t)1 << 18)

typedef struct TuneOutcome {
    Weights weights;         /* the fitted weights, rounded; owned: weights_free them */
    double K;
    double start_loss;       /* validation loss of the start weights */
    double train_loss, valid_loss; /* at the best epoch */
    size_t positions, train_positions, valid_positions;
    size_t duplicates;       /* positions dropped as seen before (dedup) */
    size_t dataset_bytes;    /* memory of the loaded positions and their terms */
    double touched_per_step; /* mean features an Adam step touched */
    int epochs_run, best_epoch;
    double extract_seconds, fit_seconds;
    char error[320];
} TuneOutcome;

/* Mini-batch of a pattern spec: tens of millions of positions make full batches too few
 * steps; 16384 positions give a gradient whose noise Adam absorbs. */
#define TUNE_PATTERN_BATCH 16384
/* A pattern spec's step, pull toward the parent and patience (tune_default_config). */
#define TUNE_PATTERN_LR 0.25
#define TUNE_PATTERN_REG 1e-9
#define TUNE_PATTERN_PATIENCE 10

/* Defaults for the variant of spec: validation 0.1, 300 epochs, learning rate 1, full batch,
 * reg 0, patience 50 (a pattern spec: TUNE_PATTERN_LR, _BATCH, _REG, _PATIENCE), dedup on,
 * skip 8 plies, seed 1, all threads; start is left empty for the caller. */
void tune_default_config(TuneConfig *cfg, const EvalSpec *spec);

/* Loads, checks, fits.  False with out->error on a database failure, on too few positions,
 * or when the extractor's dot product disagrees with the engine's evaluation; with
 * cfg->data_path (store unused, may be NULL) on a file that cannot be mapped, is damaged or
 * holds another game's, evaluation's or feature set's positions (the error names it).
 * Fitting a file gives the same weights, bit for bit, as fitting the same selection from
 * the store; with lambda the labels are blended in the split's in-memory records. */
bool tune_run(Store *store, const TuneConfig *cfg, TuneOutcome *out);

/* Loads and checks the positions cfg selects as tune_run does, and writes them to path as a
 * packed file (dataset_file.h: whole, before any split, labelled with the results, with
 * their search scores and a tag naming the game, evaluation and feature set), atomically.
 * Fills out's positions, duplicates and dataset_bytes.  False with out->error. */
bool tune_save_data(Store *store, const TuneConfig *cfg, const char *path, TuneOutcome *out);

#endif
