/* Buffered CSV writing; libcsv does the quoting. */
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "csv_writer.h"

#define CSV_BUFFER (256 * 1024)

static void set_err(char *err, size_t errlen, const char *path, int e)
{
    if (err && errlen)
        snprintf(err, errlen, "%s: %s", path ? path : "stdout", strerror(e));
}

bool csv_writer_open(CsvWriter *w, const char *path, char *err, size_t errlen)
{
    static unsigned counter;
    memset(w, 0, sizeof *w);
    if (!(w->buf = malloc(CSV_BUFFER))) {
        set_err(err, errlen, path, ENOMEM);
        return false;
    }
    w->cap = CSV_BUFFER;
    if (!path || strcmp(path, "-") == 0) {
        w->f = stdout;
        return true;
    }
    /* A device or pipe (/dev/null, /dev/stdout, a FIFO) is written in place: renaming a
     * file over it would replace it. */
    struct stat st;
    bool special = stat(path, &st) == 0 && !S_ISREG(st.st_mode);
    if (special && S_ISDIR(st.st_mode)) {
        set_err(err, errlen, path, EISDIR);
        csv_writer_abort(w);
        return false;
    }
    size_t n = strlen(path) + 48;
    w->path = strdup(path);
    w->tmp = malloc(n);
    if (!w->path || !w->tmp) {
        set_err(err, errlen, path, ENOMEM);
        csv_writer_abort(w);
        return false;
    }
    if (special)
        snprintf(w->tmp, n, "%s", path);
    else
        snprintf(w->tmp, n, "%s.tmp%ld.%u", path, (long)getpid(), counter++);
    w->in_place = special;
    if (!(w->f = fopen(w->tmp, "w"))) {
        set_err(err, errlen, path, errno);
        csv_writer_abort(w);
        return false;
    }
    return true;
}

static void flush_buffer(CsvWriter *w)
{
    if (w->len && !w->error && fwrite(w->buf, 1, w->len, w->f) != w->len)
        w->error = errno ? errno : EIO;
    w->len = 0;
}

/* Room for need more bytes in the buffer (need <= cap). */
static inline char *reserve(CsvWriter *w, size_t need)
{
    if (w->len + need > w->cap)
        flush_buffer(w);
    return w->buf + w->len;
}

static inline void separator(CsvWriter *w)
{
    if (w->row_started) {
        *reserve(w, 1) = ',';
        w->len++;
    }
    w->row_started = true;
}

void csv_raw(CsvWriter *w, const char *text, size_t len)
{
    separator(w);
    if (len > w->cap / 2) {
        flush_buffer(w);
        if (!w->error && fwrite(text, 1, len, w->f) != len)
            w->error = errno ? errno : EIO;
        return;
    }
    memcpy(reserve(w, len), text, len);
    w->len += len;
}

void csv_text_len(CsvWriter *w, const char *text, size_t len)
{
    if (!text) {
        csv_empty(w);
        return;
    }
    /* Leading or trailing blanks are quoted too: some readers (libcsv among them) trim
     * them from unquoted fields. */
    bool quote = len > 0 && (text[0] == ' ' || text[0] == '\t' || text[len - 1] == ' ' ||
                             text[len - 1] == '\t');
    for (size_t i = 0; i < len && !quote; i++) {
        char c = text[i];
        quote = c == ',' || c == '"' || c == '\n' || c == '\r';
    }
    if (!quote) {
        csv_raw(w, text, len);
        return;
    }
    separator(w);
    size_t need = 2 * len + 2; /* every byte a quote, plus the two around */
    if (need > w->cap / 2) {
        flush_buffer(w);
        if (!w->error && csv_fwrite(w->f, text, len) != 0)
            w->error = errno ? errno : EIO;
        return;
    }
    char *dst = reserve(w, need);
    w->len += csv_write(dst, need, text, len);
}

void csv_text(CsvWriter *w, const char *text)
{
    csv_text_len(w, text, text ? strlen(text) : 0);
}

void csv_empty(CsvWriter *w) { separator(w); }

/* Decimal digits of v, written backwards from end two at a time; returns the start. */
static inline char *format_u64(uint64_t v, char *end)
{
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char *p = end;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * d, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    return p;
}

void csv_uint(CsvWriter *w, uint64_t v)
{
    separator(w);
    char tmp[24];
    char *start = format_u64(v, tmp + sizeof tmp);
    size_t n = (size_t)(tmp + sizeof tmp - start);
    memcpy(reserve(w, n), start, n);
    w->len += n;
}

void csv_int(CsvWriter *w, int64_t v)
{
    separator(w);
    char tmp[24];
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char *start = format_u64(mag, tmp + sizeof tmp);
    if (v < 0)
        *--start = '-';
    size_t n = (size_t)(tmp + sizeof tmp - start);
    memcpy(reserve(w, n), start, n);
    w->len += n;
}

void csv_real(CsvWriter *w, double v)
{
    if (!isfinite(v)) {
        csv_empty(w);
        return;
    }
    char tmp[40];
    int n = snprintf(tmp, sizeof tmp, "%.10g", v);
    csv_raw(w, tmp, (size_t)n);
}

void csv_end_row(CsvWriter *w)
{
    *reserve(w, 1) = '\n';
    w->len++;
    w->row_started = false;
    w->rows++;
}

void csv_header(CsvWriter *w, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        csv_text(w, names[i]);
    csv_end_row(w);
}

static void release(CsvWriter *w)
{
    free(w->buf);
    free(w->path);
    free(w->tmp);
    w->buf = w->path = w->tmp = NULL;
    w->f = NULL;
}

bool csv_writer_commit(CsvWriter *w, char *err, size_t errlen)
{
    flush_buffer(w);
    if (!w->error && fflush(w->f) != 0)
        w->error = errno ? errno : EIO;
    if (w->f == stdout) {
        int e = w->error;
        release(w);
        if (e)
            set_err(err, errlen, NULL, e);
        return !e;
    }
    if (fclose(w->f) != 0 && !w->error)
        w->error = errno ? errno : EIO;
    w->f = NULL;
    if (!w->error && !w->in_place && rename(w->tmp, w->path) != 0)
        w->error = errno;
    int e = w->error;
    if (e) {
        set_err(err, errlen, w->path, e);
        if (!w->in_place)
            unlink(w->tmp);
    }
    release(w);
    return !e;
}

void csv_writer_abort(CsvWriter *w)
{
    if (w->f && w->f != stdout) {
        fclose(w->f);
        if (!w->in_place)
            unlink(w->tmp);
    }
    release(w); /* stdout: what is still buffered is dropped */
}
