/* `dama db merge --into FILE SHARD...` as two calls: every file checked before the target
 * is touched, then the shards merged one after another (merge.h), each in its own
 * transaction. */
#ifndef DAMA_MERGE_SHARDS_H
#define DAMA_MERGE_SHARDS_H

#include <stdio.h>

#include "merge.h"

/* Checks every shard (of variant, NULL = any) and, when it exists, the target into, reading
 * them only: bad input leaves the target as it was.  Returns 0, 2 (a shard is the target,
 * missing, no dama database, of another variant, ...) or 1 (I/O), with err saying why. */
int store_merge_check_all(const char *into, char *const *shards, int n, const char *variant, char *err,
                          size_t errlen);

/* Merges shards[0..n) into s in order, adding to *t; with progress a line on it is
 * rewritten as each shard starts.  Returns 0, 2 (bad input), 1 (I/O or the database) or
 * 130 (hooks->stop: this shard and the ones after it not merged, the ones before are), with
 * err saying why. */
int store_merge_shards(Store *s, char *const *shards, int n, const MergeHooks *hooks, FILE *progress,
                       MergeTotals *t, char *err, size_t errlen);

#endif
