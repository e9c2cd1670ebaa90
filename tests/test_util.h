/* Small helpers shared by the test programs (cmocka is included by each test). */
#ifndef DAMA_TEST_UTIL_H
#define DAMA_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>

/* Reads a whole file into a NUL-terminated buffer (caller frees); NULL on failure. */
static inline char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The dama binary end-to-end tests drive (make sets DAMA_BIN). */
static inline const char *test_dama_bin(void)
{
    const char *b = getenv("DAMA_BIN");
    return b ? b : "bin/dama";
}

/* True under the sanitizer build: deep perfts are cut to keep the suite short. */
static inline int test_sanitized(void) { return getenv("DAMA_SANITIZE") != NULL; }

#endif
