/* Lines from a file descriptor with a timeout: what a line protocol needs when it must also
 * act on time (the Hub engine stops a ponder search at its deadline; a client waits for an
 * engine's answer no longer than it should).  Reads with read(2) into its own buffer, so
 * poll(2) sees every byte not yet handed out (stdio's buffer would hide lines from it). */
#ifndef DAMA_LINE_READER_H
#define DAMA_LINE_READER_H

#include <stddef.h>

/* The longest line handed out by default: a line protocol's lines are far shorter, and
 * the buffer never holds much more than this (a 200 MB line cost 400 MB before). */
#define LINE_READER_MAX 65536

typedef struct LineReader {
    int fd;
    char *buf;         /* bytes read, not yet handed out (from start) */
    size_t start, len, cap;
    size_t max_line;   /* longer lines are not handed out (LINE_TOO_LONG) */
    int eof;           /* the other end closed the descriptor, or a read failed */
    int skipping;      /* dropping the rest of a line that was too long */
} LineReader;

enum LineStatus { LINE_OK, LINE_TIMEOUT, LINE_END, LINE_TOO_LONG };

/* A reader of fd with max_line LINE_READER_MAX (set the field to change it). */
void line_reader_init(LineReader *r, int fd);
void line_reader_free(LineReader *r);
/* The next line, without its "\n" (nor a "\r" before it), in *line: valid until the next
 * call.  Waits at most timeout_ms (-1: for ever).  LINE_END at the end of input (a last line
 * without "\n" is still handed out first) or when memory runs out.  LINE_TOO_LONG as soon as
 * a line passes max_line bytes without its end: the next call goes on after that line's
 * "\n", its bytes dropped as they come. */
int line_reader_next(LineReader *r, int timeout_ms, char **line);

#endif
