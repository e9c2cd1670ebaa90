/* move_from_text against the legal moves of a position.  Input: one byte choosing the
 * promotion rule, a FEN line (a fixed position when it does not parse), then the move text.
 * A move found writes back (long form) to text that finds the same move. */
#include "fuzz_util.h"
#include "notation.h"
#include "position.h"
#include "variant.h"
#include "turkish.h"

static const char *const fallback[] = {
    "start",
    "W:Wb3:Bc3,d4,e5,f6,e7,a6",      /* one long capture */
    "W:WKa1:Ba4,a7,h5",              /* a king's captures, two paths to one move */
    "W:Wd6:Bd7,a2,Ke8",              /* a man crowned mid-capture */
    "B:Wa5,b4:Bb5,Kh8",
    "W:Wa5:Bb5,e5,a6,c6,b7,d7,f7",
    "W:WKd4,Ke4,Kd5,Ke5:Bb2,g7,a8",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const Variant *v = &turkish_variant;
    Rules rules = rules_default(&turkish_variant);
    RULES_SET(turkish, rules, promotion, data[0] % 3);
    char *text = fuzz_string(data + 1, size - 1);
    char *move_text = text, err[1024];
    Position pos;
    char *nl = strchr(text, '\n');
    bool have = false;
    if (nl) {
        *nl = '\0';
        move_text = nl + 1;
        have = position_from_fen(&pos, v, text, err, sizeof err);
    }
    if (!have)
        FUZZ_CHECK(position_from_fen(&pos, v, fallback[data[0] / 3 % (sizeof fallback / sizeof fallback[0])],
                                     err, sizeof err), "fallback: %s", err);
    Move m, again;
    if (move_from_text(v, &pos, &rules, move_text, &m, err, sizeof err)) {
        char written[256];
        move_to_text(v, &m, written, sizeof written);
        FUZZ_CHECK(move_from_text(v, &pos, &rules, written, &again, err, sizeof err),
                   "'%s' (from '%s') does not read back: %s", written, move_text, err);
        FUZZ_CHECK(move_same(&m, &again), "'%s' reads back as another move", written);
        Position after = pos;
        v->make(&after, &m);
        FUZZ_CHECK(after.side != pos.side, "the side to move did not change");
    } else {
        FUZZ_CHECK(fuzz_one_line(err), "no one-line reason for a refused move: '%s'", err);
    }
    free(text);
    return 0;
}
