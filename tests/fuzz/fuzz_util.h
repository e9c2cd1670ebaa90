/* Helpers shared by the libFuzzer targets (built by `make fuzz`, run by scripts/fuzz).
 * A broken property aborts, which libFuzzer reports as a crash with the input saved. */
#ifndef DAMA_FUZZ_UTIL_H
#define DAMA_FUZZ_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (it may hold NUL bytes before the end); free it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* A broken property: abort here; the cmocka replay of the corpora defines it as a failure. */
#ifndef FUZZ_CHECK
#define FUZZ_CHECK(cond, ...) do { if (!(cond)) { fprintf(stderr, __VA_ARGS__); \
                                   fputc('\n', stderr); abort(); } } while (0)
#endif

/* True when err is one line that names something (what every reader's error must be). */
static inline bool fuzz_one_line(const char *err) { return err[0] && !strchr(err, '\n'); }

#endif
