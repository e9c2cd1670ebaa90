/* dxp_decode on any bytes (what a DXP peer may send): never a crash; what it accepts encodes
 * to one canonical text that decodes to the same message, and to the input itself when its
 * name is written as the protocol asks; positions and moves it carries go through the
 * rules without a crash; every refusal is one line. */
#include "dxp_text.h"
#include "fuzz_util.h"
#include "variant.h"

static bool same_message(const DxpMessage *a, const DxpMessage *b)
{
    bool same = a->type == b->type && strcmp(a->name, b->name) == 0 && a->version == b->version
                && a->color == b->color && a->minutes == b->minutes && a->moves == b->moves
                && a->start == b->start && strcmp(a->position, b->position) == 0 && a->code == b->code
                && a->seconds == b->seconds && a->from == b->from && a->to == b->to
                && a->ncaptured == b->ncaptured && a->reason == b->reason && a->stop == b->stop
                && strcmp(a->text, b->text) == 0 && a->move_number == b->move_number;
    for (int i = 0; same && i < a->ncaptured; i++)
        same = a->captured[i] == b->captured[i];
    return same;
}

/* A name the encoder writes back unchanged: no leading blank, printable ASCII. */
static bool plain_name(const char *name)
{
    if (name[0] == ' ')
        return false;
    for (const char *p = name; *p; p++)
        if (*p < ' ' || *p > '~')
            return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    DxpMessage m, back;
    char err[256], out[DXP_TEXT_MAX + 1], again[DXP_TEXT_MAX + 1];
    if (dxp_decode(text, &m, err, sizeof err)) {
        size_t n = dxp_encode(&m, out, sizeof out);
        FUZZ_CHECK(n > 0 && n == strlen(out), "'%s' accepted but does not encode", text);
        FUZZ_CHECK(dxp_decode(out, &back, err, sizeof err), "'%s' encodes to '%s', refused: %s", text, out, err);
        FUZZ_CHECK(dxp_encode(&back, again, sizeof again) == n && strcmp(out, again) == 0,
                   "'%s' is not canonical: '%s'", out, again);
        if (m.type != 'A' && m.type != 'R')
            FUZZ_CHECK(same_message(&m, &back), "'%s' reads back as another message", text);
        if ((m.type == 'A' || m.type == 'R') && plain_name(m.name))
            FUZZ_CHECK(strcmp(out, text) == 0, "'%s' encodes to '%s'", text, out);
        Position pos;
        Rules rules = rules_default(&international_variant);
        if (m.type == 'R' && m.start == 'B' && dxp_position_from_text(m.position, &pos, err, sizeof err)) {
            char written[DXP_SQUARES + 2];
            dxp_position_to_text(&pos, written);
            FUZZ_CHECK(strcmp(written, m.position) == 0, "position '%s' writes back as '%s'", m.position, written);
        }
        if (m.type == 'M') {
            Move move;
            international_variant.start(&pos);
            if (dxp_move_from_message(&m, &pos, &rules, &move, err, sizeof err)) {
                DxpMessage mine;
                dxp_move_message(&move, m.seconds, &mine);
                FUZZ_CHECK(mine.from == m.from && mine.to == m.to, "'%s' names another move", text);
            } else {
                FUZZ_CHECK(fuzz_one_line(err), "no one-line reason for an illegal move: '%s'", err);
            }
        }
    } else {
        FUZZ_CHECK(fuzz_one_line(err), "no one-line reason for a refused message: '%s'", err);
    }
    free(text);
    return 0;
}
