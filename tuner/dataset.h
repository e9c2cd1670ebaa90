/* Training positions in compact sparse form: what the Texel fit reads, tens of millions at
 * a time.
 *
 * A position keeps what eval_features wrote (evaluate.h): its phase and its nonzero
 * FEATURE-level terms (feature, value), not the weight-level pairs: the kernels expand each
 * feature into its MG weight 2f (coefficient value * phase) and EG weight 2f + 1
 * (coefficient value * (phase_max - phase)), so
 *     eval = sum over terms of value * (phase * w[2f] + (phase_max - phase) * w[2f + 1]) / phase_max
 * in the engine's units (hundredths of a man).
 *
 * The terms of all positions are packed in one byte arena that is only ever appended to
 * (grown by doubling, or sized once with dataset_reserve); a position records where its
 * run starts.  A position's run of n terms is a byte with its phase, a byte L, then its
 * first L terms ("long"), then its other n - L ("short"), then the long terms' escapes (L
 * = DATASET_ALL_LONG: all n are long).  The long terms are L 16-bit words (this machine's
 * byte order), the steps feature - previous feature (0 before the first), then L int8
 * values; the escapes, in the order of their terms, are two words (low first) with the
 * feature of a term whose step is DATASET_STEP_ESCAPE (features out of order or far
 * apart) and an int16 word with the value of a term whose value byte is
 * DATASET_VALUE_ESCAPE (values outside int8), the feature before the value.  A short term
 * is one word, its step << 2 | a code of its value (+1, -1, +2, -2: dataset_short_value):
 * what a pattern occurrence is (eval_spec.h: a state a step or two past the previous one,
 * counted once or twice for a side).  The short terms are the longest tail of the run
 * that fits that word, so a pattern position's linear features take 3 bytes a term and
 * its occurrences 2.  Every word and byte is at a place the counts fix and the escapes
 * are rare, so unpacking has no chain of loads and no branch the data mispredicts.  The
 * order of the terms is kept, so the kernels' sums are the same as from unpacked terms.
 * Labels may be blended (e.g. result and search score) after they are added.
 *
 * A keyed dataset (dataset_use_keys) stores a pattern evaluation's occurrences as the
 * position's pattern key instead (eval_spec.h: the men its windows read, 16 bytes for
 * Turkish against 140 as terms): its runs hold the linear terms as above, then the key,
 * and the kernels read the occurrences again from the key (dataset_key_terms), one
 * term +1 or -1 for each, unmerged. */
#ifndef DAMA_DATASET_H
#define DAMA_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "eval_spec.h"
#include "evaluate.h"

/* One position, 8 bytes: where its run starts in Dataset.terms (40 bits: a terabyte of
 * terms), its number of stored terms (9 bits; a keyed dataset's occurrences are not
 * counted) and its label (15 bits, in 1/DATASET_LABEL_ONE: the
 * results 0, 1/2 and 1 exactly, a blended label to 0.00003).  Its phase is its run's first
 * byte.  Two 32-bit words, so that it needs only the 4-byte alignment a packed file gives
 * it after the scores.  Read and write it through the functions below. */
typedef struct DatasetPosition {
    uint32_t low;  /* the offset's low 32 bits */
    uint32_t high; /* the offset's high 8 bits, the count << 8, the label << 17 */
} DatasetPosition;

/* Most bytes of terms a dataset holds: what the record's 40 bits address. */
#define DATASET_MAX_BYTES ((uint64_t)1 << 40)
/* A label of 1 (a win for the side to move); the label's 15 bits hold 0 .. 2 of it. */
#define DATASET_LABEL_ONE 16384
#define DATASET_COUNT_SHIFT 8
#define DATASET_LABEL_SHIFT 17

static inline uint64_t dataset_offset(const DatasetPosition *p)
{
    return p->low | (uint64_t)(p->high & 0xFF) << 32;
}

/* Its number of terms (at most EVAL_MAX_FEATURE_TERMS). */
static inline int dataset_count(const DatasetPosition *p)
{
    return (int)(p->high >> DATASET_COUNT_SHIFT & 0x1FF);
}

/* Expected score for the side to move: 1 win, 0.5 draw, 0 loss, or a blend. */
static inline double dataset_label(const DatasetPosition *p)
{
    return (double)(p->high >> DATASET_LABEL_SHIFT) / DATASET_LABEL_ONE;
}

static inline DatasetPosition dataset_record(uint64_t offset, int count, double label)
{
    uint32_t q = (uint32_t)(label * DATASET_LABEL_ONE + 0.5); /* label in [0, 1]: nearest */
    return (DatasetPosition){ (uint32_t)offset, (uint32_t)(offset >> 32) | (uint32_t)count << DATASET_COUNT_SHIFT |
                                                    q << DATASET_LABEL_SHIFT };
}

static inline void dataset_set_offset(DatasetPosition *p, uint64_t offset)
{
    *p = dataset_record(offset, dataset_count(p), dataset_label(p));
}

static inline void dataset_set_label(DatasetPosition *p, double label)
{
    *p = dataset_record(dataset_offset(p), dataset_count(p), label);
}

/* Read its fields freely; change it only through the functions below. */
typedef struct Dataset {
    int num_features;          /* features 0 .. num_features - 1 */
    int num_weights;           /* 2 * num_features: the MG and EG weight of each */
    int phase_max;             /* the spec's: eval = sum / phase_max */
    DatasetPosition *pos;      /* positions in insertion order */
    int64_t *game;             /* per position, the game it came from: the validation split
                                  keeps games whole and hashes this, so it must name the game
                                  the same way on every run (the tuner numbers games in stream
                                  order, not by database rowid); NULL once released */
    size_t npos, pos_cap;
    const uint8_t *terms;      /* the packed terms: owned, or borrowed from a split's parent */
    uint8_t *owned_terms;      /* == terms when owned, NULL in a split's view */
    size_t nbytes, bytes_cap;  /* bytes of terms used and allocated */
    size_t nterms;             /* terms of all positions */
    bool borrowed;             /* read-only: a split's view, or a mapped file's */
    void *mapped;              /* a packed file mapped in memory (dataset_file.h): records,
                                  game ids and terms point into it; NULL otherwise */
    size_t mapped_len;
    const EvalSpec *key_spec;  /* keyed: the spec whose pattern keys end the runs; else NULL */
    int key_bytes;             /* its pattern_key_bytes, 0 when not keyed */
} Dataset;

/* A step or value byte of these marks a term whose feature or value is in the escapes. */
#define DATASET_STEP_ESCAPE 0xFFFF
#define DATASET_VALUE_ESCAPE INT8_MIN
/* A run's first byte when every term is long (a run of more long terms than a byte counts). */
#define DATASET_ALL_LONG 0xFF
/* The largest step a short term's word holds. */
#define DATASET_SHORT_STEP_MAX 0x3FFF

static inline uint32_t dataset_word(const uint8_t *p)
{
    uint16_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* Unpacks term j of the n-term run at p, its escapes read from *e onwards (advanced past
 * them); f holds the previous term's feature (0 before the first) and gets this one's. */
static inline int32_t dataset_term(const uint8_t *p, int n, int j, const uint8_t **e, uint32_t *f)
{
    uint32_t step = dataset_word(p + 2 * (size_t)j);
    int32_t value = (int8_t)p[2 * (size_t)n + (size_t)j];
    if (step == DATASET_STEP_ESCAPE) { /* rare: a spec's ascending features are near */
        *f = dataset_word(*e) | dataset_word(*e + 2) << 16;
        *e += 4;
    } else {
        *f += step;
    }
    if (value == DATASET_VALUE_ESCAPE) { /* rare: values are counts on a board */
        value = (int16_t)dataset_word(*e);
        *e += 2;
    }
    return value;
}

/* The phase of the position whose run is at p: men on the board, 0 .. phase_max. */
static inline int dataset_run_phase(const uint8_t *p)
{
    return p[0];
}

/* The long terms of the n-term run at p. */
static inline int dataset_long_terms(const uint8_t *p, int n)
{
    return p[1] == DATASET_ALL_LONG ? n : p[1];
}

/* Where the run of p starts. */
static inline const uint8_t *dataset_run(const Dataset *ds, const DatasetPosition *p)
{
    return ds->terms + dataset_offset(p);
}

/* The phase of position p: men on the board, 0 .. phase_max. */
static inline int dataset_phase(const Dataset *ds, const DatasetPosition *p)
{
    return dataset_run_phase(dataset_run(ds, p));
}

/* The value a short term's word codes: +1, -1, +2, -2 for codes 0 .. 3, without a branch. */
static inline int32_t dataset_short_value(uint32_t word)
{
    int32_t magnitude = 1 + (int32_t)(word >> 1 & 1), negative = -(int32_t)(word & 1);
    return (magnitude ^ negative) - negative;
}

/* Unpacks the n terms of the run at p into feature[] and value[]; returns the byte after
 * the run. */
static inline const uint8_t *dataset_unpack(const uint8_t *p, int n, uint32_t *restrict feature,
                                            int32_t *restrict value)
{
    const int nl = dataset_long_terms(p, n);
    const uint8_t *b = p + 2, *s = b + 3 * (size_t)nl, *e = s + 2 * (size_t)(n - nl); /* the escapes */
    uint32_t f = 0;
    for (int j = 0; j < nl; j++) {
        value[j] = dataset_term(b, nl, j, &e, &f);
        feature[j] = f;
    }
    for (int j = nl; j < n; j++) {
        uint32_t w = dataset_word(s + 2 * (size_t)(j - nl));
        f += w >> 2;
        feature[j] = f;
        value[j] = dataset_short_value(w);
    }
    return e;
}

/* The pattern occurrences of a keyed dataset's key (at the end of a run, after the
 * escapes: where dataset_unpack returns), as features and signs +1 / -1; their number, at
 * most the spec's max_pattern_terms.  The reader writes its states straight into feature
 * (int32_t may alias uint32_t), which are then made features in place: no copy. */
static inline int dataset_key_terms(const Dataset *ds, const uint8_t *key, uint32_t *feature, int8_t *sign)
{
    const int n = ds->key_spec->key_patterns(key, (int32_t *)feature, sign);
    const uint32_t first = (uint32_t)ds->key_spec->nfeatures;
    for (int j = 0; j < n; j++)
        feature[j] += first;
    return n;
}

/* Writes the terms of position i into out (room for EVAL_MAX_FEATURE_TERMS) in the order
 * they were added, a keyed dataset's occurrences after them; returns their number. */
int dataset_terms(const Dataset *ds, size_t i, EvalFeatureTerm *out);

/* Bytes of the run of position i. */
size_t dataset_run_bytes(const Dataset *ds, size_t i);

/* An empty dataset; NULL on bad arguments (num_features < 1 or > INT32_MAX / 2, phase_max
 * outside 1 .. 255) or out of memory. */
Dataset *dataset_new(int num_features, int phase_max);

/* Reserve room for more positions and terms (two bytes a position and its key, at most 3
 * bytes a term without escapes) so a loader of known size rarely reallocates. */
bool dataset_reserve(Dataset *ds, size_t positions, size_t terms);

/* Append one position: the n features eval_features wrote and its phase.  Values 0 are
 * dropped; a feature given twice counts twice.  False (dataset unchanged) on a feature out
 * of range, a value outside int16, a phase outside 0 .. phase_max, n outside
 * 0 .. EVAL_MAX_FEATURE_TERMS, a label outside [0, 1] or NaN, out of memory, or when ds is
 * a split's view. */
bool dataset_add(Dataset *ds, int64_t game_id, float label, int phase, const EvalFeatureTerm *f, int n);

/* Makes an empty dataset keyed (see above) by spec, whose features it must have
 * (eval_spec_features); false (ds unchanged) when it holds positions, is a view, or spec
 * has no pattern key. */
bool dataset_use_keys(Dataset *ds, const EvalSpec *spec);

/* dataset_add for a keyed dataset: f holds the linear terms only (at most
 * EVAL_MAX_FEATURES), key the position's pattern key (spec->pattern_key).  dataset_add
 * refuses a keyed dataset, and this one a dataset that is not. */
bool dataset_add_keyed(Dataset *ds, int64_t game_id, float label, int phase, const EvalFeatureTerm *f,
                       int n, const uint8_t *key);

/* Gives back the capacity beyond the records and bytes in use, once loading is done (the
 * arena grows by doubling, so up to half of it is slack).  Before dataset_split only: a
 * view keeps the parent's address.  False (ds unchanged) on a view. */
bool dataset_trim(Dataset *ds);

/* Bytes the dataset holds (position records, game ids and terms, capacity included; a view
 * counts its records and game ids only, the terms being its parent's; a mapped file none:
 * its pages are the file's, read and dropped by the system as the fit goes). */
size_t dataset_bytes(const Dataset *ds);

void dataset_free(Dataset *ds);

/* Split by game: every position of a game goes to the same side, a game landing in
 * `valid` with probability validation_fraction, decided by a hash of (game id, seed), so
 * the split is the same on every run and does not depend on the order of positions.
 * train and valid share the terms of ds (no copy of the big arrays): free them before ds.
 * False (and *train = *valid = NULL) on a fraction outside [0, 1] or out of memory. */
bool dataset_split(const Dataset *ds, double validation_fraction, uint64_t seed,
                   Dataset **train, Dataset **valid);

/* Frees the position records of a split's parent, keeping its terms, which the views read:
 * the fit needs only the views' own copies of the records (16 bytes a position saved with
 * the game ids).
 * ds then holds no positions; free it after the views, as before. */
void dataset_release_positions(Dataset *ds);

/* Frees the game ids (8 bytes a position), which only dataset_split reads: a split's views
 * need them no more.  dataset_split and dataset_add then refuse ds. */
void dataset_release_games(Dataset *ds);

#endif
