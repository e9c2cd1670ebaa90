/* Training positions in compact sparse form: what the Texel fit reads, millions at a time.
 *
 * The model is linear: eval(x) = sum_i w[idx_i] * coef_i / scale, in the engine's units
 * (hundredths of a man).  Each position keeps only its nonzero terms; all terms of all
 * positions live in one array that is only ever appended to (bump allocation, grown by
 * doubling, or sized once with dataset_reserve), and a position records where its run
 * starts.  Labels may be blended (e.g. result and search score) before they are added. */
#ifndef DAMA_DATASET_H
#define DAMA_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One sparse term, 8 bytes: the inner loops stream these. */
typedef struct DatasetTerm {
    int32_t index; /* weight index, 0 <= index < num_weights */
    int32_t coef;  /* integer coefficient of that weight, as the feature extractor gives it */
} DatasetTerm;

/* One position, 24 bytes. */
typedef struct DatasetPosition {
    int64_t game_id; /* the game it came from: the validation split keeps games whole and
                        hashes this, so it must name the game the same way on every run
                        (the tuner numbers games in stream order, not by database rowid) */
    uint64_t offset; /* first term in Dataset.terms */
    float label;     /* expected score for the side to move: 1 win, 0.5 draw, 0 loss, or a blend */
    int32_t count;   /* number of terms */
} DatasetPosition;

/* Read its fields freely; change it only through the functions below. */
typedef struct Dataset {
    int num_weights;
    int scale;                 /* eval = sum(w * coef) / scale */
    DatasetPosition *pos;      /* positions in insertion order */
    size_t npos, pos_cap;
    const DatasetTerm *terms;  /* all terms: owned, or borrowed from the parent of a split */
    DatasetTerm *owned;        /* == terms when owned, NULL in a split's view */
    size_t nterms, terms_cap;
    bool borrowed;             /* a split's read-only view on its parent's terms */
} Dataset;

/* An empty dataset; NULL on bad arguments (num_weights < 1, scale < 1) or out of memory. */
Dataset *dataset_new(int num_weights, int scale);

/* Reserve room for more positions and terms so a loader of known size never reallocates. */
bool dataset_reserve(Dataset *ds, size_t positions, size_t terms);

/* Append one position.  Terms with coefficient 0 are dropped; repeated indices add up.
 * False (dataset unchanged) on an index out of range, n < 0, a label outside [0, 1] or NaN,
 * out of memory, or when ds is a split's view. */
bool dataset_add(Dataset *ds, int64_t game_id, float label, const int32_t *idx,
                 const int32_t *coef, int n);

void dataset_free(Dataset *ds);

/* Split by game: every position of a game goes to the same side, a game landing in
 * `valid` with probability validation_fraction, decided by a hash of (game id, seed), so
 * the split is the same on every run and does not depend on the order of positions.
 * train and valid share the terms of ds (no copy of the big array): free them before ds.
 * False (and *train = *valid = NULL) on a fraction outside [0, 1] or out of memory. */
bool dataset_split(const Dataset *ds, double validation_fraction, uint64_t seed,
                   Dataset **train, Dataset **valid);

#endif
