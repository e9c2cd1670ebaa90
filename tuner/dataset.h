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
 * starts.  A term is one LEB128 varint (7 bits a byte, low bits first) of
 *     zigzag(feature - previous feature of the position) << 2 | value code
 * with value code 0: +1, 1: -1, 2: +2, 3: the value follows as a zigzag varint.
 * eval_features writes features ascending and pattern occurrences of +-1 or +-2, so a
 * linear term takes 1-2 bytes and a pattern state of a table of thousands 2 (6 bytes a term
 * unpacked; the order of the terms is kept, so the kernels' sums are the same).  Labels may
 * be blended (e.g. result and search score) after they are added. */
#ifndef DAMA_DATASET_H
#define DAMA_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evaluate.h"

/* One position, 16 bytes. */
typedef struct DatasetPosition {
    uint64_t offset; /* its first byte in Dataset.terms */
    float label;     /* expected score for the side to move: 1 win, 0.5 draw, 0 loss, or a blend */
    uint16_t count;  /* number of terms (at most EVAL_MAX_FEATURE_TERMS) */
    uint8_t phase;   /* men on the board, 0 .. phase_max */
    uint8_t unused;
} DatasetPosition;

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

/* Decodes the term at p into *feature (prev: the previous term's feature; 0 for a
 * position's first) and *value; returns the next term's first byte. */
static inline const uint8_t *dataset_term_next(const uint8_t *p, uint32_t prev, uint32_t *feature,
                                               int32_t *value)
{
    uint64_t u = *p & 0x7f;
    for (int shift = 7; *p++ & 0x80; shift += 7)
        u |= (uint64_t)(*p & 0x7f) << shift;
    uint64_t zz = u >> 2;
    *feature = prev + (uint32_t)((zz >> 1) ^ (0 - (zz & 1)));
    unsigned code = (unsigned)u & 3;
    if (code < 3) {
        *value = code == 0 ? 1 : code == 1 ? -1 : 2;
        return p;
    }
    uint64_t v = *p & 0x7f;
    for (int shift = 7; *p++ & 0x80; shift += 7)
        v |= (uint64_t)(*p & 0x7f) << shift;
    *value = (int32_t)((v >> 1) ^ (0 - (v & 1)));
    return p;
}

/* Writes the count terms of position i into out (room for EVAL_MAX_FEATURE_TERMS) in the
 * order they were added; returns the count. */
int dataset_terms(const Dataset *ds, size_t i, EvalFeatureTerm *out);

/* An empty dataset; NULL on bad arguments (num_features < 1 or > INT32_MAX / 2, phase_max
 * outside 1 .. 255) or out of memory. */
Dataset *dataset_new(int num_features, int phase_max);

/* Reserve room for more positions and terms (about 2 bytes each) so a loader of known size
 * rarely reallocates. */
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
 * the fit needs only the views' own copies of the records (24 bytes a position saved with
 * the game ids).
 * ds then holds no positions; free it after the views, as before. */
void dataset_release_positions(Dataset *ds);

/* Frees the game ids (8 bytes a position), which only dataset_split reads: a split's views
 * need them no more.  dataset_split then refuses ds. */
void dataset_release_games(Dataset *ds);

#endif
