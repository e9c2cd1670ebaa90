/* weights_parse_text on any bytes: never a crash, one line of error; accepted weights
 * write out canonically and parse back to the same vector. */
#include "fuzz_util.h"
#include "turkish_eval.h"
#include "weights.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    WEIGHTS_SCOPED w = { 0 }, back = { 0 };
    char err[512];
    if (weights_parse_text(&w, &turkish_eval_spec, (const char *)data, size, "fuzz", err, sizeof err)) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        FUZZ_CHECK(f && weights_write(&w, f), "cannot write weights");
        fclose(f);
        FUZZ_CHECK(weights_parse_text(&back, &turkish_eval_spec, text, len, "written", err, sizeof err), "%s", err);
        FUZZ_CHECK(weights_equal(&w, &back), "weights changed in a round trip");
        free(text);
    } else {
        FUZZ_CHECK(fuzz_one_line(err) && strncmp(err, "fuzz:", 5) == 0,
                   "bad error: '%s'", err);
    }
    return 0;
}
