/* Folding dama databases into one (`dama db merge`): the shards of self-play runs played
 * on many machines, or any dama file into another, without losing or duplicating a row. */
#ifndef DAMA_MERGE_H
#define DAMA_MERGE_H

#include <stdatomic.h>
#include "store.h"

/* Gives run_id its identity: a hash of its kind, variant, search signature, weights hash
 * and options (the settings that decide its games, without the shard, any length: see
 * run_settings_identity), the same on every machine, so that the shards of one run merge into one run.  shard, shards: the run plays
 * shard `shard` of `shards` (0, 0: the whole run). */
bool store_run_identify(Store *s, int64_t run_id, const char *options, int shard, int shards);

typedef enum MergeProblem {
    MERGE_OK = 0,
    MERGE_BAD_INPUT, /* a missing file, not a dama database, newer schema, other variant */
    MERGE_FAILED,    /* I/O or database failure */
} MergeProblem;

/* Checks that the file at path can be merged, reading it only (never changed): it exists
 * and is a dama database of a schema this build knows (older ones are migrated in a copy
 * by store_merge), and when variant is not NULL every run, opening and weight set in it is
 * of variant.  MERGE_OK, or the problem with "PATH: what is wrong" in err. */
MergeProblem store_merge_check(const char *path, const char *variant, char *err, size_t errlen);

typedef struct MergeTotals {
    int64_t runs, weights, openings;       /* rows new in the target */
    int64_t games, positions;              /* added */
    int64_t skipped_games;                 /* already in the target: the same run and index */
    int64_t differing_games;               /* of those, with other moves or result there */
} MergeTotals;

typedef struct MergeHooks {
    const atomic_bool *stop;               /* set: the merge stops and rolls back */
    void (*before_commit)(void *ctx);      /* inside the transaction, just before its commit
                                              (stop is read after it) */
    void *ctx;
} MergeHooks;

/* Copies everything the database at path holds into s in one write transaction: all of it
 * or nothing.  Weights are matched by variant and hash, openings by FEN, runs by identity
 * (runs without one get one from their kind, variant, host, process, start and id), games
 * by run and game index (PDN games also by their identity): what the target holds already
 * is skipped, so merging a file twice adds nothing.  The shards of one run merge into one
 * run, whose status is 'done' once all its shards are merged done ('partial' before).  Ids
 * are remapped; the file at path is never changed (an older schema is migrated in a
 * temporary copy).  Adds to *t; on failure the message is in store_error(s). */
MergeProblem store_merge(Store *s, const char *path, const MergeHooks *hooks, MergeTotals *t);

#endif
