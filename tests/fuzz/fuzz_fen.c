/* position_from_fen on any text: never a crash; what it accepts writes back canonically
 * and reads back as the same position. */
#include "fuzz_util.h"
#include "position.h"
#include "variant.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Variant *v = &turkish_variant;
    char *text = fuzz_string(data, size);
    Position pos, back;
    char err[256], fen[256], fen2[256];
    if (position_from_fen(&pos, v, text, err, sizeof err)) {
        position_to_fen(&pos, v, fen, sizeof fen);
        FUZZ_CHECK(position_from_fen(&back, v, fen, err, sizeof err), "'%s' does not read back: %s", fen, err);
        FUZZ_CHECK(position_equal(&pos, &back), "'%s' reads back as another position", fen);
        position_to_fen(&back, v, fen2, sizeof fen2);
        FUZZ_CHECK(strcmp(fen, fen2) == 0, "'%s' is not canonical: '%s'", fen, fen2);
        /* a short buffer gets a cut, terminated text */
        char small[8];
        position_to_fen(&pos, v, small, sizeof small);
        FUZZ_CHECK(strncmp(small, fen, sizeof small - 1) == 0 && strlen(small) < sizeof small,
                   "'%s' cut badly: '%s'", fen, small);
    } else {
        FUZZ_CHECK(fuzz_one_line(err), "no one-line reason for a refused FEN: '%s'", err);
    }
    free(text);
    return 0;
}
