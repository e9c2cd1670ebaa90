/* A scratch directory for one test program: made in the group setup, removed with all it
 * holds in the teardown.  Include after test_util.h. */
#ifndef DAMA_TEST_TMPDIR_H
#define DAMA_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* Makes /tmp/dama-test-NAME-XXXXXX into dir: 0, or -1 (a cmocka setup's result). */
static inline int test_tmpdir_make(char *dir, size_t len, const char *name)
{
    snprintf(dir, len, "/tmp/dama-test-%s-XXXXXX", name);
    return mkdtemp(dir) ? 0 : -1;
}

static inline int test_tmpdir_remove(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
