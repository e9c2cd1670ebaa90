/* weights_parse_variant on any bytes with a small pattern evaluation (16 states): the text
 * head, the binary table and the choice of spec never crash and fail with one line naming
 * the input; accepted weights write out canonically, and that file reads back to the same
 * vector and writes out to the same bytes. */
#include "fuzz_util.h"
#define PATTERN_FIXTURE_STATES 16
#include "../pattern_spec_fixture.h"
#include "weights.h"

/* The file of w in memory (free it). */
static char *pattern_file(const Weights *w, size_t *len)
{
    char *bytes = NULL;
    FILE *f = open_memstream(&bytes, len);
    FUZZ_CHECK(f && weights_write(w, f), "cannot write weights");
    fclose(f);
    return bytes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    WEIGHTS_SCOPED w = { 0 }, back = { 0 };
    char err[512];
    if (weights_parse_variant(&w, pattern_fixture_variant(), (const char *)data, size, "fuzz", err, sizeof err)) {
        size_t len, len2;
        char *bytes = pattern_file(&w, &len);
        FUZZ_CHECK(weights_parse_variant(&back, pattern_fixture_variant(), bytes, len, "written", err, sizeof err),
                   "%s", err);
        FUZZ_CHECK(weights_equal(&w, &back), "weights changed in a round trip");
        char *again = pattern_file(&back, &len2);
        FUZZ_CHECK(len == len2 && memcmp(bytes, again, len) == 0, "a rewrite changed the bytes");
        free(bytes);
        free(again);
    } else {
        FUZZ_CHECK(fuzz_one_line(err) && strncmp(err, "fuzz:", 5) == 0, "bad error: '%s'", err);
    }
    return 0;
}
