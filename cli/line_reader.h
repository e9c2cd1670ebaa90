/* Lines from a file descriptor with a timeout: what a line protocol needs when it must also
 * act on time (the Hub server stops a ponder search at its deadline; a client waits for an
 * engine's answer no longer than it should).  Reads with read(2) into its own buffer, so
 * poll(2) sees every byte not yet handed out (stdio's buffer would hide lines from it). */
#ifndef DAMA_LINE_READER_H
#define DAMA_LINE_READER_H

#include <stddef.h>

typedef struct LineReader {
    int fd;
    char *buf;         /* bytes read, not yet handed out (from start) */
    size_t start, len, cap;
    int eof;           /* the other end closed the descriptor, or a read failed */
} LineReader;

enum LineStatus { LINE_OK, LINE_TIMEOUT, LINE_END };

void line_reader_init(LineReader *r, int fd);
void line_reader_free(LineReader *r);
/* The next line, without its "\n" (nor a "\r" before it), in *line: valid until the next
 * call.  Waits at most timeout_ms (-1: for ever).  LINE_END at the end of input (a last line
 * without "\n" is still handed out first) or when memory runs out. */
int line_reader_next(LineReader *r, int timeout_ms, char **line);

#endif
