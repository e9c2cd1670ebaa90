/* book_parse on any bytes, as they are and with their checksum line made right (so that the
 * body's checks are reached too): never a crash, one line of error naming the file; an
 * accepted book formats into text that parses back and formats the same. */
#include <inttypes.h>

#include "book_file.h"
#include "fuzz_util.h"

static void parse_one(const char *text, size_t len)
{
    Book b, back;
    char err[512];
    if (!book_parse(&b, "fuzz", text, len, err, sizeof err)) {
        FUZZ_CHECK(fuzz_one_line(err) && strncmp(err, "fuzz", 4) == 0, "bad error: '%s'", err);
        return;
    }
    char *once, *twice;
    size_t n1, n2;
    FUZZ_CHECK(book_format(&b, &once, &n1), "cannot format an accepted book");
    FUZZ_CHECK(book_parse(&back, "formatted", once, n1, err, sizeof err), "%s", err);
    FUZZ_CHECK(book_format(&back, &twice, &n2), "cannot format it again");
    FUZZ_CHECK(n1 == n2 && memcmp(once, twice, n1) == 0, "a book changed in a round trip");
    free(once);
    free(twice);
    book_free(&b);
    book_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    parse_one(text, size);
    /* The checksum line's 16 hex digits rewritten to fit the rest. */
    char *line = strstr(text, "\nchecksum ");
    char *end = line ? memchr(line + 1, '\n', size - (size_t)(line + 1 - text)) : NULL;
    if (end && end - line == 26) {
        size_t header_len = (size_t)(line + 1 - text);
        char digits[17];
        snprintf(digits, sizeof digits, "%016" PRIx64,
                 book_checksum(text, header_len, end + 1, size - (size_t)(end + 1 - text)));
        memcpy(line + 10, digits, 16);
        parse_one(text, size);
    }
    free(text);
    return 0;
}
