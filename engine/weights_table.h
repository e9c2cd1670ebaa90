/* The pattern part of a weights file (weights.h): the hash that names a weights vector and
 * the pattern weights as a zlib-compressed table of int32 little-endian values.  Used by the
 * weights text format only; the rest of the program sees weights.h. */
#ifndef DAMA_WEIGHTS_TABLE_H
#define DAMA_WEIGHTS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "weights.h"

/* Compresses w->w[first .. count - 1]; *out is malloc'd.  False when memory runs out. */
bool weights_table_compress(const Weights *w, int first, unsigned char **out, size_t *len);

typedef enum TableStatus {
    TABLE_OK,
    TABLE_CORRUPT,   /* not a zlib stream */
    TABLE_TRUNCATED, /* the stream ends before its end mark */
    TABLE_SHORT,     /* a whole stream with fewer values than the table has */
    TABLE_LONG,      /* more values than the table has */
    TABLE_TRAILING,  /* bytes after the end of the stream */
    TABLE_NOMEM,
} TableStatus;

/* Inflates [data, data + len) into w->w[first .. count - 1]; on an error the values there
 * are unspecified. */
TableStatus weights_table_inflate(Weights *w, int first, const unsigned char *data, size_t len);

/* What a TableStatus means, for an error message. */
const char *weights_table_status_text(TableStatus status);

#endif
