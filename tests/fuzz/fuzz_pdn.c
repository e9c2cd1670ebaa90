/* PDN games for `dama analyze --in F --format pdn` (batch_read_pdn_text) on any bytes.  The
 * last byte's low bits choose the promotion rule, so all three are exercised. */
#include "fuzz_batch_common.h"
#include "turkish.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzList fl;
    fuzz_list_init(&fl);
    Rules rules = rules_default(&turkish_variant);
    RULES_SET(turkish, rules, promotion, size ? data[size - 1] % 3 : 0);
    char err[512];
    int code = batch_read_pdn_text(&fl.l, &turkish_variant, &rules, "fuzz", (const char *)data, size,
                                   NULL, err, sizeof err);
    fuzz_list_check_free(&fl, code, err);
    return 0;
}
