/* A line reader over read(2) and poll(2) (line_reader.h). */
#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "line_reader.h"

void line_reader_init(LineReader *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->max_line = LINE_READER_MAX;
}

void line_reader_free(LineReader *r)
{
    free(r->buf);
    r->buf = NULL;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Cuts the first whole line of the buffer (or, at the end, what is left) into *line. */
static int take_line(LineReader *r, char **line)
{
    char *begin = r->buf + r->start;
    char *nl = memchr(begin, '\n', r->len - r->start);
    if (!nl && !(r->eof && r->len > r->start))
        return -1;
    char *end = nl ? nl : r->buf + r->len; /* the buffer always has room for the NUL */
    size_t used = (size_t)(end - begin) + (nl ? 1 : 0);
    if (end > begin && end[-1] == '\r')
        end--;
    *end = '\0';
    r->start += used;
    *line = begin;
    return LINE_OK;
}

int line_reader_next(LineReader *r, int timeout_ms, char **line)
{
    double deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;
    bool did_read = false;
    for (;;) {
        if (r->buf && r->skipping) { /* the rest of a line too long: dropped up to its end */
            char *nl = memchr(r->buf + r->start, '\n', r->len - r->start);
            r->skipping = !nl;
            r->start = nl ? (size_t)(nl - r->buf) + 1 : r->len;
        }
        if (r->buf && !r->skipping) {
            char *nl = memchr(r->buf + r->start, '\n', r->len - r->start);
            size_t pending = nl ? (size_t)(nl - (r->buf + r->start)) : r->len - r->start;
            if (pending > r->max_line) { /* dropped, whole or as far as it came */
                r->skipping = !nl;
                r->start = nl ? (size_t)(nl - r->buf) + 1 : r->len;
                return LINE_TOO_LONG;
            }
            if (take_line(r, line) == LINE_OK)
                return LINE_OK;
        }
        if (r->eof)
            return LINE_END;
        /* Room for more: drop what was handed out, then grow. */
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->len - r->start);
            r->len -= r->start;
            r->start = 0;
        }
        if (r->cap - r->len < 4096 + 1) {
            size_t cap = r->cap ? r->cap * 2 : 8192;
            char *b = realloc(r->buf, cap);
            if (!b)
                return LINE_END;
            r->buf = b;
            r->cap = cap;
        }
        int wait = -1;
        if (timeout_ms >= 0) {
            double left = deadline - now_ms();
            /* bytes that keep coming (a line without end) do not hold the caller past it */
            if (left <= 0 && did_read)
                return LINE_TIMEOUT;
            wait = left > 0 ? (int)left + 1 : 0;
        }
        struct pollfd p = { .fd = r->fd, .events = POLLIN };
        int ready = poll(&p, 1, wait);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return LINE_TIMEOUT;
        ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
        did_read = true;
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            r->eof = 1;
        else
            r->len += (size_t)n;
    }
}
