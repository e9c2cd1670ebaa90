/* The FEN list of `dama analyze --in` (batch_read_fen_text) on any bytes. */
#include "fuzz_batch_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzList fl;
    fuzz_list_init(&fl);
    char err[512];
    int code = batch_read_fen_text(&fl.l, &turkish_variant, "fuzz", (const char *)data, size, err, sizeof err);
    fuzz_list_check_free(&fl, code, err);
    return 0;
}
