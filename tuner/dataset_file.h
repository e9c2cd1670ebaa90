/* A dataset saved as one packed file and read back by mapping it: the fit then reads the
 * terms from the file through the page cache, so a data set larger than memory is paged in
 * and out by the system instead of refused.  The records and game ids are mapped too; a
 * split of a mapped dataset copies only its records (8 bytes a position, and its game ids
 * until they are released) into memory.
 *
 * Layout (this machine's byte order, checked by a marker; dataset.h has the term packing):
 *     header    88 bytes: "DAMATEX\0", version 6 (5, still read: no key size; 4: 12-byte records, the phase in
 *               the record; 3: runs without short terms; 2: no tag nor scores; 1: 16-byte
 *               records before the game ids; older versions are refused),
 *               byte-order marker 0x01020304,
 *               num_features, phase_max (int32 each), positions, terms, term bytes (uint64),
 *               has scores (uint32: 0 or 1), the pattern key's bytes of a keyed dataset
 *               (uint32, 0 when not keyed), tag (32 bytes, NUL-padded: what the features
 *               are, e.g. the evaluation's name and version, checked by the reader)
 *     game ids  positions x int64
 *     scores    with has scores: positions x float, the stored search score of each
 *               position (NAN when none), so labels can be blended when fitting
 *     records   positions x 8 bytes (DatasetPosition), offsets into the term bytes
 *     terms     term bytes, each position's run right after the previous one's
 * Passes over the whole set (the loss, full-batch gradients) read the terms in file order,
 * which the system reads ahead; a mini-batch's shuffled order jumps about the file, so a set
 * much larger than memory wants full batches or batches of whole chunks. */
#ifndef DAMA_DATASET_FILE_H
#define DAMA_DATASET_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "dataset.h"

/* Longest tag a file holds (the rest of its 32 bytes is NUL). */
#define DATASET_TAG_MAX 31

/* What a file holds besides the dataset; every field may be zero / NULL. */
typedef struct DatasetFileExtras {
    const char *tag;      /* at most DATASET_TAG_MAX bytes; NULL = "" */
    const float *scores;  /* ds->npos search scores (NAN: none), or NULL for no section */
    /* Called now and then while writing, with the positions written and the total. */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *ctx;
} DatasetFileExtras;

/* Writes ds (a view too: its positions only, terms packed again) to path, atomically:
 * to path.tmp first, renamed to path once complete (an interrupted save leaves path as it
 * was).  extras may be NULL.  False with the reason and path in err on a write failure or
 * a tag too long. */
bool dataset_save(const Dataset *ds, const char *path, const DatasetFileExtras *extras, char *err,
                  size_t errlen);

/* Maps the file at path read-only and checks every record and term (one sequential pass):
 * a bad or truncated file is refused with its path and what is wrong in err, never read
 * out of bounds; so is one whose tag is not `tag` (NULL: any tag), and a keyed one
 * (dataset.h) unless key_spec reads its keys (it is then keyed by key_spec; key_spec may be
 * NULL, and is not used for a file without keys).  *scores (may be NULL)
 * gets the file's scores, valid until dataset_free, or NULL when it has none.  The dataset
 * is read-only (dataset_add refuses it); split it, fit it, dataset_free it (after its
 * views). */
Dataset *dataset_map(const char *path, const char *tag, const EvalSpec *key_spec, const float **scores,
                     char *err, size_t errlen);

#endif
