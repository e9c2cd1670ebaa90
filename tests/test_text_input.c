/* What every reader shares (engine/text_input.c): UTF-8 as RFC 3629 defines it, the byte-order
 * mark, where a problem is (line and column), and how input is quoted in messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "text_input.h"

/* text_prepare on n bytes: NULL when accepted, else the message (static). */
static const char *prepare(const char *bytes, size_t n)
{
    static char err[256];
    const char *text = bytes;
    size_t len = n;
    return text_prepare("t", &text, &len, err, sizeof err) ? NULL : err;
}
#define PREPARE(lit) prepare(lit, sizeof lit - 1)

static void test_utf8(void **state)
{
    (void)state;
    /* well-formed: ASCII, U+00E7, U+20AC, U+FFFD, U+10000, U+10FFFF, Turkish letters */
    assert_null(PREPARE("plain ascii\twith tab\r\n"));
    assert_null(PREPARE("\xC3\xA7 \xE2\x82\xAC \xEF\xBF\xBD \xF0\x90\x80\x80 \xF4\x8F\xBF\xBF"));
    assert_null(PREPARE("\xC5\x9F\xC4\x9F\xC4\xB1\xC3\xB6\xC3\xBC"));
    /* RFC 3629 table 3 refuses overlong forms, surrogates, code points above U+10FFFF */
    static const struct { const char *bytes; size_t n; const char *want; } bad[] = {
        { "\xC0\x80", 2, "t:1: invalid UTF-8 (byte 0xC0 at column 1)" },       /* overlong NUL */
        { "a\xC1\xBF", 3, "t:1: invalid UTF-8 (byte 0xC1 at column 2)" },      /* overlong */
        { "ab\xE0\x9F\xBF", 5, "t:1: invalid UTF-8 (byte 0xE0 at column 3)" }, /* overlong 3 */
        { "\xED\xA0\x80", 3, "t:1: invalid UTF-8 (byte 0xED at column 1)" },   /* surrogate */
        { "\xF0\x8F\xBF\xBF", 4, "t:1: invalid UTF-8 (byte 0xF0 at column 1)" }, /* overlong 4 */
        { "\xF4\x90\x80\x80", 4, "t:1: invalid UTF-8 (byte 0xF4 at column 1)" }, /* > U+10FFFF */
        { "\xF5\x80\x80\x80", 4, "t:1: invalid UTF-8 (byte 0xF5 at column 1)" },
        { "x\x80", 2, "t:1: invalid UTF-8 (byte 0x80 at column 2)" },          /* lone continuation */
        { "ok\n\xE2\x82", 5, "t:2: invalid UTF-8 (byte 0xE2 at column 1)" },   /* cut at the end */
        { "\xC3\xA7\xC3(", 5, "t:1: invalid UTF-8 (byte 0xC3 at column 2)" },  /* columns in characters */
        { "caf\xE9\n", 5, "t:1: invalid UTF-8 (byte 0xE9 at column 4)" },     /* Latin-1 */
        { "a\nb\nc\0d", 7, "t:3: NUL byte" },
        { "\0", 1, "t:1: NUL byte" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *got = prepare(bad[i].bytes, bad[i].n);
        if (!got)
            fail_msg("case %zu was accepted", i);
        assert_string_equal(got, bad[i].want);
    }
}

static void test_bom(void **state)
{
    (void)state;
    static const char with_bom[] = "\xEF\xBB\xBFstart\n";
    const char *text = with_bom;
    size_t len = sizeof with_bom - 1;
    char err[128];
    assert_true(text_prepare("t", &text, &len, err, sizeof err));
    assert_int_equal(len, 6);
    assert_memory_equal(text, "start\n", 6);
    /* only at the start: elsewhere U+FEFF is an ordinary (valid) character left in place */
    static const char inner[] = "a\xEF\xBB\xBF";
    text = inner;
    len = sizeof inner - 1;
    assert_true(text_prepare("t", &text, &len, err, sizeof err));
    assert_int_equal(len, 4);
    /* a BOM alone is an empty text; a NUL after it is still on line 1 */
    assert_null(PREPARE("\xEF\xBB\xBF"));
    assert_string_equal(PREPARE("\xEF\xBB\xBF\0"), "t:1: NUL byte");
}

static void test_quote(void **state)
{
    (void)state;
    char out[64];
    assert_string_equal(text_quote(out, sizeof out, "a\nb\x1B\x7F", 5, 40), "a\\x0Ab\\x1B\\x7F");
    assert_string_equal(text_quote(out, sizeof out, "abcdefgh", 8, 5), "abcde...");
    /* never half a character: "\xC3\xA7" is cut whole */
    assert_string_equal(text_quote(out, sizeof out, "ab\xC3\xA7", 4, 3), "ab...");
    assert_string_equal(text_quote(out, sizeof out, "ab\xC3\xA7", 4, 4), "ab\xC3\xA7");
    /* an invalid byte is shown, not copied */
    assert_string_equal(text_quote(out, sizeof out, "\xE9t\xE9", 3, 40), "\\xE9t\\xE9");
    /* a small buffer: what fits, then "...", terminated */
    char tiny[8];
    assert_string_equal(text_quote(tiny, sizeof tiny, "abcdefghij", 10, 40), "abcd...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8),
        cmocka_unit_test(test_bom),
        cmocka_unit_test(test_quote),
    };
    return cmocka_run_group_tests_name("text input", tests, NULL, NULL);
}
