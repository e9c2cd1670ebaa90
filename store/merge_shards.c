/* The shards of a merge checked, then merged in order (merge_shards.h). */
#include <stdio.h>
#include <sys/stat.h>

#include "merge_shards.h"

static int problem_exit(MergeProblem p) { return p == MERGE_BAD_INPUT ? 2 : 1; }

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int store_merge_check_all(const char *into, char *const *shards, int n, const char *variant, char *err,
                          size_t errlen)
{
    for (int i = 0; i < n; i++) {
        if (same_file(into, shards[i]))
            return snprintf(err, errlen, "%s: is the target itself", shards[i]), 2;
        MergeProblem p = store_merge_check(shards[i], variant, err, errlen);
        if (p != MERGE_OK)
            return problem_exit(p);
    }
    struct stat st;
    if (stat(into, &st) == 0) {
        MergeProblem p = store_merge_check(into, NULL, err, errlen);
        if (p != MERGE_OK)
            return problem_exit(p);
    }
    return 0;
}

int store_merge_shards(Store *s, char *const *shards, int n, const MergeHooks *hooks, FILE *progress,
                       MergeTotals *t, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        if (progress)
            fprintf(progress, "\rmerge: shard %d/%d %s  games %lld positions %lld   ", i + 1, n, shards[i],
                    (long long)t->games, (long long)t->positions);
        MergeProblem p = store_merge(s, shards[i], hooks, t);
        if (p == MERGE_OK)
            continue;
        if (progress)
            fputc('\n', progress);
        if (hooks->stop && atomic_load(hooks->stop)) {
            snprintf(err, errlen, "interrupted: %s and the shards after it are not merged; the %d before it are",
                     shards[i], i);
            return 130;
        }
        snprintf(err, errlen, "%s", store_error(s));
        return problem_exit(p);
    }
    if (progress)
        fprintf(progress, "\rmerge: %d shards  games %lld positions %lld%30s\n", n, (long long)t->games,
                (long long)t->positions, "");
    return 0;
}
