/* Text input: whole files, the byte-order mark, NUL bytes and UTF-8. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_input.h"

bool text_file_read(const char *path, size_t max_bytes, char **text, size_t *len, char *err,
                    size_t errlen)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return false;
    }
    char *buf = NULL;
    size_t used = 0, cap = 0;
    bool ok = true;
    for (;;) {
        if (cap - used < 2) {
            size_t new_cap = cap ? 2 * cap : 8192;
            char *grown = new_cap > cap ? realloc(buf, new_cap) : NULL;
            if (!grown) {
                snprintf(err, errlen, "%s: cannot read: out of memory", path);
                ok = false;
                break;
            }
            buf = grown;
            cap = new_cap;
        }
        size_t n = fread(buf + used, 1, cap - used - 1, f);
        used += n;
        if (max_bytes && used > max_bytes) {
            snprintf(err, errlen, "%s: larger than %zu bytes", path, max_bytes);
            ok = false;
            break;
        }
        if (n == 0)
            break;
    }
    if (ok && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        ok = false;
    }
    fclose(f);
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
