/* CSV files read back with libcsv, for the tests of what dama writes as CSV.
 * Include after cmocka.h and test_util.h. */
#ifndef DAMA_TEST_CSV_H
#define DAMA_TEST_CSV_H

#include <csv.h>
#include <stdlib.h>
#include <string.h>

typedef struct Csv {
    char ***rows;        /* rows[r][c], NUL-terminated copies */
    int *ncols;
    int nrows, cap;
    char **cur;
    int ncur, capcur;
} Csv;

static inline void csv_on_field(void *s, size_t len, void *data)
{
    Csv *c = data;
    if (c->ncur == c->capcur) {
        c->capcur = c->capcur ? 2 * c->capcur : 16;
        c->cur = realloc(c->cur, (size_t)c->capcur * sizeof *c->cur);
        assert_non_null(c->cur);
    }
    char *f = malloc(len + 1);
    assert_non_null(f);
    if (len)
        memcpy(f, s, len);
    f[len] = '\0';
    c->cur[c->ncur++] = f;
}

static inline void csv_on_row(int term, void *data)
{
    (void)term;
    Csv *c = data;
    if (c->nrows == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->rows = realloc(c->rows, (size_t)c->cap * sizeof *c->rows);
        c->ncols = realloc(c->ncols, (size_t)c->cap * sizeof *c->ncols);
        assert_non_null(c->rows);
        assert_non_null(c->ncols);
    }
    c->rows[c->nrows] = c->cur;
    c->ncols[c->nrows++] = c->ncur;
    c->cur = NULL;
    c->ncur = c->capcur = 0;
}

static inline Csv *csv_load(const char *path)
{
    char *text = test_read_file(path);
    if (!text)
        fail_msg("cannot read %s", path);
    Csv *c = calloc(1, sizeof *c);
    assert_non_null(c);
    struct csv_parser p;
    assert_int_equal(csv_init(&p, CSV_STRICT | CSV_STRICT_FINI), 0);
    size_t n = strlen(text);
    if (csv_parse(&p, text, n, csv_on_field, csv_on_row, c) != n)
        fail_msg("%s: %s", path, csv_strerror(csv_error(&p)));
    assert_int_equal(csv_fini(&p, csv_on_field, csv_on_row, c), 0);
    csv_free(&p);
    free(text);
    /* every row as wide as the header */
    for (int r = 1; r < c->nrows; r++)
        if (c->ncols[r] != c->ncols[0])
            fail_msg("%s: row %d has %d fields, the header %d", path, r, c->ncols[r], c->ncols[0]);
    return c;
}

static inline void csv_release(Csv *c)
{
    for (int r = 0; r < c->nrows; r++) {
        for (int i = 0; i < c->ncols[r]; i++)
            free(c->rows[r][i]);
        free(c->rows[r]);
    }
    free(c->rows);
    free(c->ncols);
    free(c);
}

static inline int csv_col(const Csv *c, const char *name)
{
    for (int i = 0; i < c->ncols[0]; i++)
        if (strcmp(c->rows[0][i], name) == 0)
            return i;
    fail_msg("no column '%s'", name);
    return -1;
}

static inline const char *csv_cell(const Csv *c, int row, const char *name) { return c->rows[row][csv_col(c, name)]; }

#endif
