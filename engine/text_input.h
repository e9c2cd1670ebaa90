/* Text input shared by every reader (positions, PDN, weights): a file read whole, then
 * checked to be text before any line of it is parsed, so that no reader can loop on, or
 * silently cut a line at, a NUL byte.
 *
 * Accepted: UTF-8 (RFC 3629), an optional byte-order mark at the start (skipped), LF or
 * CRLF line ends (the readers treat '\r' as a blank).  Refused with "NAME:LINE: reason":
 * a NUL byte, invalid UTF-8. */
#ifndef DAMA_TEXT_INPUT_H
#define DAMA_TEXT_INPUT_H

#include <stdbool.h>
#include <stddef.h>

/* Reads the file at path into a malloc'd buffer with a NUL after its last byte (*text, free
 * it) and its length in *len.  A file longer than max_bytes (0 = no limit) is refused.
 * False with "PATH: cannot read: why" or "PATH: larger than N bytes" in err. */
bool text_file_read(const char *path, size_t max_bytes, char **text, size_t *len, char *err,
                    size_t errlen);

/* Skips a UTF-8 byte-order mark at the start of [*text, *text + *len) and checks the rest
 * is text.  False with "NAME:LINE: NUL byte" or "NAME:LINE: invalid UTF-8 (byte 0xXX at
 * column C)" in err. */
bool text_prepare(const char *name, const char **text, size_t *len, char *err, size_t errlen);

/* The check of text_prepare for a piece of a text read piece by piece: [text, text + len)
 * is whole characters (see text_incomplete_tail), starts at line `line` of the whole text,
 * and column_start characters into that line.  False with "NAME:LINE: NUL byte" or
 * "NAME:LINE: invalid UTF-8 (byte 0xXX at column C)" in err. */
bool text_check_piece(const char *name, long line, size_t column_start, const char *text, size_t len,
                      char *err, size_t errlen);
/* How many bytes at the end of [text, text + len) begin a UTF-8 character that the next
 * piece may complete (0 to 3): what a piece reader keeps back until it reads more. */
size_t text_incomplete_tail(const char *text, size_t len);

/* Writes at most max bytes of [text, text + len) into out for an error message: control
 * bytes as \xNN (so a message stays one line), a cut marked by "...", never half a UTF-8
 * character.  Returns out. */
char *text_quote(char *out, size_t outlen, const char *text, size_t len, size_t max);

#endif
