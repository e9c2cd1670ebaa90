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
 * (grown by doubling, or sized once with dataset_reserve); a position records where its run
 * starts.  A position's run of n terms is n 16-bit words (this machine's byte order), then
 * the value bytes, then the escapes.  A term's word is step << 2 | code: step = feature -
 * previous feature of the position (0 before the first), and code 0, 1 or 2 for the values
 * +1, -1 and +2, the values of almost every pattern occurrence, or DATASET_CODE_EXTRA for a
 * value in the value bytes: one int8 byte a term of that code, in term order, or
 * DATASET_VALUE_ESCAPE for a value outside int8, which then is an int16 word in the
 * escapes.  The escapes, in term order: the feature as two words (low first) of a term
 * whose step is DATASET_STEP_ESCAPE (features out of order or far apart), and the int16
 * values (a term's feature before its value).  eval_features writes features ascending: a
 * pattern occurrence takes 2 bytes and a linear feature 3 (today's Turkish pattern
 * positions about 2.1 a term).  The order of the terms is kept, so the kernels' sums are
 * the same as from unpacked terms.  Labels may be blended (e.g. result and search score)
 * after they are added. */
#ifndef DAMA_DATASET_H
#define DAMA_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "evaluate.h"

/* One position, 12 bytes: the offset of its run in 40 bits (a terabyte of terms). */
typedef struct DatasetPosition {
    uint32_t offset_low; /* its first byte in Dataset.terms: offset_low + offset_high 2^32 */
    float label;         /* expected score for the side to move: 1 win, 0.5 draw, 0 loss, or a blend */
    uint16_t count;      /* number of terms (at most EVAL_MAX_FEATURE_TERMS) */
    uint8_t phase;       /* men on the board, 0 .. phase_max */
    uint8_t offset_high;
} DatasetPosition;

/* Most bytes of terms a dataset holds: what the record's 40 bits address. */
#define DATASET_MAX_BYTES ((uint64_t)1 << 40)

static inline uint64_t dataset_offset(const DatasetPosition *p)
{
    return p->offset_low | (uint64_t)p->offset_high << 32;
}

static inline void dataset_set_offset(DatasetPosition *p, uint64_t offset)
{
    p->offset_low = (uint32_t)offset;
    p->offset_high = (uint8_t)(offset >> 32);
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
} Dataset;

/* A step of DATASET_STEP_ESCAPE sends the term's feature to the escapes, a code of
 * DATASET_CODE_EXTRA its value to the value bytes, where DATASET_VALUE_ESCAPE sends it on to
 * the escapes as an int16 word. */
#define DATASET_STEP_ESCAPE 0x3FFF
#define DATASET_CODE_EXTRA 3
#define DATASET_VALUE_ESCAPE INT8_MIN

static inline uint32_t dataset_word(const uint8_t *p)
{
    uint16_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* A reader of one position's run: its words, its next value byte and its next escape. */
typedef struct DatasetRun {
    const uint8_t *word, *value, *escape; /* escape: NULL until the first one is read */
    int n;
    uint32_t feature;                     /* the last term's; 0 before the first */
} DatasetRun;

static inline DatasetRun dataset_run(const uint8_t *p, int n)
{
    return (DatasetRun){ .word = p, .value = p + 2 * (size_t)n, .escape = NULL, .n = n, .feature = 0 };
}

/* Where the run's escapes start: after its value bytes, one a word of code
 * DATASET_CODE_EXTRA.  Only a run with an escape asks, so the scan is rare. */
static inline const uint8_t *dataset_run_escapes(const DatasetRun *r)
{
    size_t values = 0;
    for (int j = 0; j < r->n; j++)
        values += (dataset_word(r->word + 2 * (size_t)j) & 3) == DATASET_CODE_EXTRA;
    return r->word + 2 * (size_t)r->n + values;
}

/* Unpacks term j (terms are read in order): returns its value, r->feature gets its
 * feature.  The value bytes stand at places only the codes decide, so a term's reads never
 * wait for an earlier term's value. */
static inline int32_t dataset_term(DatasetRun *r, int j)
{
    uint32_t word = dataset_word(r->word + 2 * (size_t)j), step = word >> 2, code = word & 3;
    if (step == DATASET_STEP_ESCAPE) { /* rare: a spec's ascending features are near */
        if (!r->escape)
            r->escape = dataset_run_escapes(r);
        r->feature = dataset_word(r->escape) | dataset_word(r->escape + 2) << 16;
        r->escape += 4;
    } else {
        r->feature += step;
    }
    /* The value's byte: the code's own (+1, -1, +2) or the next value byte, chosen without a
     * branch: codes follow the random signs of pattern occurrences, which no predictor
     * learns. */
    static const uint8_t code_value[4] = { 1, 0xFF, 2, 0 };
    const bool extra = code == DATASET_CODE_EXTRA;
    const uint8_t *byte = extra ? r->value : &code_value[code];
    int32_t value = (int8_t)*byte;
    r->value += extra;
    if (value == DATASET_VALUE_ESCAPE) { /* rare: values are counts on a board */
        if (!r->escape)
            r->escape = dataset_run_escapes(r);
        value = (int16_t)dataset_word(r->escape);
        r->escape += 2;
    }
    return value;
}

/* Unpacks the n terms of the run at p into feature[] and value[]; returns the byte after
 * the run. */
static inline const uint8_t *dataset_unpack(const uint8_t *p, int n, uint32_t *restrict feature,
                                            int32_t *restrict value)
{
    DatasetRun r = dataset_run(p, n);
    for (int j = 0; j < n; j++) {
        value[j] = dataset_term(&r, j);
        feature[j] = r.feature;
    }
    return r.escape ? r.escape : r.value; /* every escape read: the escapes end the run */
}

/* The bytes of the n-term run at p, reading no byte at or past p + avail; SIZE_MAX when the
 * run would (a damaged file). */
size_t dataset_run_size(const uint8_t *p, int n, size_t avail);

/* Writes the count terms of position i into out (room for EVAL_MAX_FEATURE_TERMS) in the
 * order they were added; returns the count. */
int dataset_terms(const Dataset *ds, size_t i, EvalFeatureTerm *out);

/* An empty dataset; NULL on bad arguments (num_features < 1 or > INT32_MAX / 2, phase_max
 * outside 1 .. 255) or out of memory. */
Dataset *dataset_new(int num_features, int phase_max);

/* Reserve room for more positions and terms (3 bytes each, a linear feature's size) so a
 * loader of known size rarely reallocates. */
bool dataset_reserve(Dataset *ds, size_t positions, size_t terms);

/* Append one position: the n features eval_features wrote and its phase.  Values 0 are
 * dropped; a feature given twice counts twice.  False (dataset unchanged) on a feature out
 * of range, a value outside int16, a phase outside 0 .. phase_max, n outside
 * 0 .. EVAL_MAX_FEATURE_TERMS, a label outside [0, 1] or NaN, out of memory, or when ds is
 * a split's view. */
bool dataset_add(Dataset *ds, int64_t game_id, float label, int phase, const EvalFeatureTerm *f, int n);

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
 * the fit needs only the views' own copies of the records (20 bytes a position saved with
 * the game ids).
 * ds then holds no positions; free it after the views, as before. */
void dataset_release_positions(Dataset *ds);

/* Frees the game ids (8 bytes a position), which only dataset_split reads: a split's views
 * need them no more.  dataset_split and dataset_add then refuse ds. */
void dataset_release_games(Dataset *ds);

#endif
