/* Text input shared by every reader (positions, PDN, weights): a file read whole within a
 * bound (so no input can exhaust the memory, and Ctrl-C or SIGTERM stops the reading),
 * then checked to be text before any line of it is parsed, so that no reader can loop on,
 * or silently cut a line at, a NUL byte.
 *
 * Accepted: UTF-8 (RFC 3629), an optional byte-order mark at the start (skipped), LF or
 * CRLF line ends (the readers treat '\r' as a blank).  Refused with "NAME:LINE: reason":
 * a NUL byte, invalid UTF-8. */
#ifndef DAMA_TEXT_INPUT_H
#define DAMA_TEXT_INPUT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* The bound of every whole-file text input (positions, openings, PDN, weights): a file
 * larger than this is refused, so no input can take more memory than about this much. */
#define TEXT_FILE_MAX ((size_t)64 << 20)

/* What a whole-file read may take. */
typedef struct TextLimit {
    const char *what;        /* the kind of file, for the size error: "a weights file" */
    size_t max_bytes;        /* a larger file is refused (0: TEXT_FILE_MAX) */
    const atomic_bool *stop; /* Ctrl-C or SIGTERM (may be NULL): reading stops within 0.1 s */
} TextLimit;

/* Reads the file at path into a malloc'd buffer with a NUL after its last byte (*text, free
 * it) and its length in *len, never keeping more than limit->max_bytes + 2 bytes (a regular
 * file larger than the limit is refused before any byte is read; a pipe or a device such as
 * /dev/zero when its bytes pass the limit).  A FIFO without a writer yet, or a terminal, is
 * waited for until limit->stop is set.  False with one of these in err:
 *     "PATH: cannot read: why"
 *     "PATH: larger than the 64 MiB limit of a weights file"
 *     "PATH: interrupted while reading" (and *limit->stop is set: the caller exits 130) */
bool text_file_read(const char *path, const TextLimit *limit, char **text, size_t *len, char *err,
                    size_t errlen);

/* Waits until fd (a pipe, FIFO or terminal) has bytes or its end, looking at *stop (may be
 * NULL) every 0.1 s: 1 ready, 0 stopped, -1 failed (errno says why). */
int text_wait_readable(int fd, const atomic_bool *stop);

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
