/* A dataset saved as one packed file and read back by mapping it: the fit then reads the
 * terms from the file through the page cache, so a data set larger than memory is paged in
 * and out by the system instead of refused.  The records and game ids are mapped too; a
 * split of a mapped dataset copies only its records (20 bytes a position) into memory.
 *
 * Layout (this machine's byte order, checked by a marker; dataset.h has the term packing):
 *     header    48 bytes: "DAMATEX\0", version 2 (1: 16-byte records
 *               before the game ids), byte-order marker 0x01020304,
 *               num_features, phase_max (int32 each), positions, terms, term bytes (uint64)
 *     game ids  positions x int64
 *     records   positions x 12 bytes (DatasetPosition), offsets into the term bytes
 *     terms     term bytes, each position's run right after the previous one's
 * Passes over the whole set (the loss, full-batch gradients) read the terms in file order,
 * which the system reads ahead; a mini-batch's shuffled order jumps about the file, so a set
 * much larger than memory wants full batches or batches of whole chunks. */
#ifndef DAMA_DATASET_FILE_H
#define DAMA_DATASET_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "dataset.h"

/* Writes ds (a view too: its positions only, terms packed again) to path.  False with the
 * reason in err on a write failure. */
bool dataset_save(const Dataset *ds, const char *path, char *err, size_t errlen);

/* Maps the file at path read-only and checks every record and term (one sequential pass):
 * a bad or truncated file is refused with its path and what is wrong in err, never read
 * out of bounds.  The dataset is read-only (dataset_add refuses it); split it, fit it,
 * dataset_free it (after its views). */
Dataset *dataset_map(const char *path, char *err, size_t errlen);

#endif
