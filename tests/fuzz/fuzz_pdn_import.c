/* PDN import on any bytes: every game that import accepts (pdn_record_make) is written back
 * as `dama pdn export` writes it (pdn_record_write), and that text reads back as the same
 * number of good games and writes the same bytes again: export -> import -> export is the
 * identity.  The last byte's low bit chooses the variant, so both are exercised. */
#include "fuzz_util.h"
#include "game.h"
#include "pdn_import.h"
#include "text_input.h"
#include "variant.h"

typedef struct ImportPass {
    const PdnImportConfig *cfg;
    Game *game;
    FILE *out;
    int good;
} ImportPass;

static int import_pass_game(void *ctx, const PdnGame *g)
{
    ImportPass *p = ctx;
    PdnRecord r;
    int made = pdn_record_make(p->cfg, "fuzz", g, p->game, &r);
    FUZZ_CHECK(made >= 0, "pdn_record_make: out of memory");
    if (made) {
        char err[512];
        bool ok = pdn_record_write(p->out, &r, p->cfg->variant, &p->cfg->rules, err, sizeof err);
        pdn_record_free(&r);
        FUZZ_CHECK(ok, "an imported game does not write back: %s", err);
        p->good++;
    }
    return 0;
}

/* The good games of text written back into a malloc'd buffer. */
static char *import_pass(const PdnImportConfig *cfg, Game *game, const char *text, size_t len, int *good,
                         size_t *outlen)
{
    char *buf = NULL;
    ImportPass p = { cfg, game, open_memstream(&buf, outlen), 0 };
    FUZZ_CHECK(p.out != NULL, "open_memstream failed");
    char err[512] = "";
    int code = pdn_read_text(text, len, import_pass_game, &p, err, sizeof err);
    FUZZ_CHECK(code == 0, "pdn_read_text: %d %s", code, err);
    FUZZ_CHECK(fclose(p.out) == 0, "memstream failed");
    *good = p.good;
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Variant *v = size && (data[size - 1] & 1) ? &international_variant : &turkish_variant;
    PdnImportConfig cfg = { .variant = v, .rules = rules_default(v) };
    const char *text = (const char *)data;
    size_t len = size;
    char err[512];
    if (!text_prepare("fuzz", &text, &len, err, sizeof err))
        return 0;
    Game *game = malloc(sizeof *game);
    FUZZ_CHECK(game != NULL, "out of memory");
    int good1 = 0, good2 = 0;
    size_t n1 = 0, n2 = 0;
    char *t1 = import_pass(&cfg, game, text, len, &good1, &n1);
    char *t2 = import_pass(&cfg, game, t1, n1, &good2, &n2);
    FUZZ_CHECK(good1 == good2, "%d good games written back read back as %d", good1, good2);
    FUZZ_CHECK(n1 == n2 && memcmp(t1, t2, n1) == 0, "written back, read and written again, the text differs:\n%s---\n%s",
               t1, t2);
    free(t1);
    free(t2);
    free(game);
    return 0;
}
