/* CSV output through libcsv: a header row, then rows; RFC 4180 quoting (a field holding a
 * comma, a quote or a line break is quoted, quotes doubled), '\n' line ends, UTF-8, no BOM,
 * so pandas.read_csv, spreadsheets and gnuplot read the files without options.
 *
 * A file is written under a temporary name in the same directory and renamed into place by
 * csv_writer_commit, so a reader never sees half a file; stdout, devices and pipes are
 * written directly.
 * Numbers are formatted by hand: exporting a million rows a second leaves no room for
 * printf. */
#ifndef DAMA_CSV_WRITER_H
#define DAMA_CSV_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct CsvWriter {
    FILE *f;
    char *path;          /* final name; NULL for stdout */
    char *tmp;           /* temporary name while writing (path itself when in_place) */
    bool in_place;       /* path is a device or pipe: written directly, never renamed */
    char *buf;           /* output buffer */
    size_t len, cap;
    bool row_started;    /* a field was written on the current row */
    int error;           /* errno of the first write failure, 0 if none */
    int64_t rows;        /* rows ended (the header counts) */
} CsvWriter;

/* Opens path for writing (NULL or "-" = stdout).  false with "PATH: why" in err. */
bool csv_writer_open(CsvWriter *w, const char *path, char *err, size_t errlen);

/* Fields of the current row, left to right. */
void csv_text(CsvWriter *w, const char *text);              /* NULL = empty field */
void csv_text_len(CsvWriter *w, const char *text, size_t len);
void csv_int(CsvWriter *w, int64_t v);
void csv_uint(CsvWriter *w, uint64_t v);
void csv_real(CsvWriter *w, double v);                      /* %.10g; NaN/inf = empty */
void csv_empty(CsvWriter *w);                               /* an empty (missing) field */
/* A field whose bytes are already CSV-safe (no comma, quote or line break): no check. */
void csv_raw(CsvWriter *w, const char *text, size_t len);
void csv_end_row(CsvWriter *w);
/* The header row from names. */
void csv_header(CsvWriter *w, const char *const *names, int n);

/* Flushes, closes and renames into place.  false with "PATH: why" in err (the temporary
 * file is removed).  csv_writer_abort drops everything written. */
bool csv_writer_commit(CsvWriter *w, char *err, size_t errlen);
void csv_writer_abort(CsvWriter *w);

#endif
