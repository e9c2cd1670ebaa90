/* Text input: whole files, the byte-order mark, NUL bytes and UTF-8. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text_input.h"

/* How long a wait for bytes lasts before the stop flag is looked at again. */
#define STOP_POLL_MS 100
/* At most this much is read at a time, so a stop is seen between reads of a large file. */
#define READ_CHUNK ((size_t)1 << 20)

static void size_error(const char *path, const TextLimit *limit, size_t max, char *err, size_t errlen)
{
    const char *what = limit->what ? limit->what : "a text input";
    if (max % ((size_t)1 << 20) == 0)
        snprintf(err, errlen, "%s: larger than the %zu MiB limit of %s", path, max >> 20, what);
    else
        snprintf(err, errlen, "%s: larger than the %zu-byte limit of %s", path, max, what);
}

static bool stopped(const TextLimit *limit)
{
    return limit->stop && atomic_load(limit->stop);
}

int text_wait_readable(int fd, const atomic_bool *stop)
{
    for (;;) {
        if (stop && atomic_load(stop))
            return 0;
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int ready = poll(&p, 1, STOP_POLL_MS);
        if (ready > 0)
            return 1;
        if (ready < 0 && errno != EINTR)
            return -1;
    }
}

/* Opens path for reading and checks a regular file's size against max: the descriptor,
 * with *st filled, or -1 with err set. */
static int open_within_limit(const char *path, const TextLimit *limit, size_t max, struct stat *st,
                             char *err, size_t errlen)
{
    /* Non-blocking: opening a FIFO does not wait for a writer, and no read waits where the
     * stop flag cannot be seen (the waiting is poll's, STOP_POLL_MS at a time). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISREG(st->st_mode) && (uintmax_t)st->st_size > max) {
        size_error(path, limit, max, err, errlen);
        close(fd);
        return -1;
    }
    return fd;
}

/* Doubles the read buffer, up to max + 2 bytes; false with err set when out of memory or
 * when the buffer is already at max + 2 (the file is too large). */
static bool grow_buffer(char **buf, size_t *cap, const char *path, const TextLimit *limit, size_t max,
                        char *err, size_t errlen)
{
    size_t grown_cap = *cap > (max + 2) / 2 ? max + 2 : 2 * *cap;
    char *grown = grown_cap > *cap ? realloc(*buf, grown_cap) : NULL;
    if (!grown) {
        if (grown_cap > *cap)
            snprintf(err, errlen, "%s: cannot read: out of memory", path);
        else
            size_error(path, limit, max, err, errlen);
        return false;
    }
    *buf = grown;
    *cap = grown_cap;
    return true;
}

bool text_file_read(const char *path, const TextLimit *limit, char **text, size_t *len, char *err,
                    size_t errlen)
{
    *text = NULL;
    *len = 0;
    size_t max = limit->max_bytes ? limit->max_bytes : TEXT_FILE_MAX;
    struct stat st;
    int fd = open_within_limit(path, limit, max, &st, err, errlen);
    if (fd < 0)
        return false;
    bool regular = S_ISREG(st.st_mode);
    /* A regular file's size is known (/proc's say 0); anything else grows its buffer as
     * bytes come.  The buffer never exceeds max + 2: max bytes, one more that shows the
     * file is too large, and the NUL. */
    size_t cap = regular && st.st_size > 0 ? (size_t)st.st_size + 2 : 65536;
    if (cap > max + 2)
        cap = max + 2;
    char *buf = malloc(cap);
    size_t used = 0;
    bool ok = buf != NULL;
    if (!ok)
        snprintf(err, errlen, "%s: cannot read: out of memory", path);
    while (ok) {
        if (stopped(limit)) {
            snprintf(err, errlen, "%s: interrupted while reading", path);
            ok = false;
            break;
        }
        if (cap - used < 2 && !grow_buffer(&buf, &cap, path, limit, max, err, errlen)) {
            ok = false;
            break;
        }
        /* A FIFO reads as ended while it has no writer: wait for one (and for its bytes). */
        if (S_ISFIFO(st.st_mode)) {
            int ready = text_wait_readable(fd, limit->stop);
            if (ready < 0) {
                snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
                ok = false;
            }
            if (ready <= 0)
                continue;
        }
        size_t want = cap - used - 1;
        ssize_t n = read(fd, buf + used, want < READ_CHUNK ? want : READ_CHUNK);
        if (n > 0) {
            used += (size_t)n;
            if (used > max) {
                size_error(path, limit, max, err, errlen);
                ok = false;
            }
            continue;
        }
        if (n == 0)
            break;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            int ready = text_wait_readable(fd, limit->stop);
            if (ready < 0) {
                snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
                ok = false;
            }
            continue; /* ready, or stopped: the loop's head says so */
        }
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        ok = false;
    }
    close(fd);
    if (!ok) {
        free(buf);
        return false;
    }
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return true;
}

/* Length of the well-formed UTF-8 sequence at p (1 to 4 bytes), or 0.  RFC 3629 table 3:
 * no overlong forms, no surrogates (U+D800-DFFF), nothing above U+10FFFF. */
static size_t utf8_sequence(const unsigned char *p, size_t avail)
{
    unsigned char c = p[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (avail < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

/* Line (1-based) of byte offset at, and its column in characters. */
static void locate(const unsigned char *text, size_t at, long *line, size_t *column)
{
    *line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < at; i++)
        if (text[i] == '\n') {
            (*line)++;
            line_start = i + 1;
        }
    *column = 1;
    for (size_t i = line_start; i < at;) {
        size_t n = utf8_sequence(text + i, at - i);
        i += n ? n : 1;
        (*column)++;
    }
}

bool text_check_piece(const char *name, long line, size_t column_start, const char *text, size_t len,
                      char *err, size_t errlen)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        size_t step = p[i] ? utf8_sequence(p + i, len - i) : 0;
        if (step) {
            i += step;
            continue;
        }
        long at_line;
        size_t column;
        locate(p, i, &at_line, &column);
        if (at_line == 1)
            column += column_start;
        at_line += line - 1;
        if (!p[i])
            snprintf(err, errlen, "%s:%ld: NUL byte", name, at_line);
        else
            snprintf(err, errlen, "%s:%ld: invalid UTF-8 (byte 0x%02X at column %zu)", name, at_line,
                     p[i], column);
        return false;
    }
    return true;
}

size_t text_incomplete_tail(const char *text, size_t len)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t back = 1; back <= 3 && back <= len; back++) {
        unsigned char c = p[len - back];
        if (c < 0x80)
            return 0;
        if (c >= 0xC0) { /* a lead byte: whole when its sequence fits in what follows */
            size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            return need > back ? back : 0;
        }
    }
    return 0;
}

bool text_prepare(const char *name, const char **text, size_t *len, char *err, size_t errlen)
{
    const unsigned char *p = (const unsigned char *)*text;
    size_t n = *len;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        p += 3;
        n -= 3;
    }
    if (!text_check_piece(name, 1, 0, (const char *)p, n, err, errlen))
        return false;
    *text = (const char *)p;
    *len = n;
    return true;
}

char *text_quote(char *out, size_t outlen, const char *text, size_t len, size_t max)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t n = 0, i = 0;
    if (!outlen)
        return out;
    while (i < len && i < max) {
        size_t step = utf8_sequence(p + i, len - i);
        char piece[8];
        size_t plen;
        if (step > 1 && i + step <= max) {
            memcpy(piece, p + i, step);
            plen = step;
        } else if (step > 1) {
            break; /* the character does not fit in max */
        } else if (p[i] < 0x20 || p[i] >= 0x7F) {
            plen = (size_t)snprintf(piece, sizeof piece, "\\x%02X", p[i]);
            step = 1;
        } else {
            piece[0] = (char)p[i];
            plen = step = 1;
        }
        if (n + plen + 4 > outlen) /* room for "..." and the NUL */
            break;
        memcpy(out + n, piece, plen);
        n += plen;
        i += step;
    }
    if (i < len && n + 4 <= outlen) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}
