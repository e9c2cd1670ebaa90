/* Weights: the vector's hash and the compressed pattern table of a weights file. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "weights_table.h"

/* The bytes of one value in a file and in the hash: little-endian, whatever the host. */
static void put_le32(unsigned char *p, int32_t value)
{
    uint32_t u = (uint32_t)value;
    p[0] = (unsigned char)u;
    p[1] = (unsigned char)(u >> 8);
    p[2] = (unsigned char)(u >> 16);
    p[3] = (unsigned char)(u >> 24);
}

static int32_t get_le32(const unsigned char *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return (int32_t)u;
}

uint64_t weights_hash(const Weights *w)
{
    uint64_t h = 0xcbf29ce484222325u; /* FNV-1a 64 */
    for (int i = 0; i < w->count; i++) {
        unsigned char b[4];
        put_le32(b, w->w[i]);
        for (int k = 0; k < 4; k++) {
            h ^= b[k];
            h *= 0x100000001b3u;
        }
    }
    return h;
}

bool weights_table_compress(const Weights *w, int first, unsigned char **out, size_t *len)
{
    size_t raw_len = (size_t)(w->count - first) * 4;
    unsigned char *raw = malloc(raw_len ? raw_len : 1);
    uLongf bound = compressBound((uLong)raw_len);
    *out = malloc(bound);
    if (!raw || !*out) {
        free(raw);
        free(*out);
        *out = NULL;
        return false;
    }
    for (int i = first; i < w->count; i++)
        put_le32(raw + 4 * (size_t)(i - first), w->w[i]);
    /* The default level: a rewrite of the same weights gives the same bytes. */
    bool ok = compress2(*out, &bound, raw, (uLong)raw_len, Z_DEFAULT_COMPRESSION) == Z_OK;
    free(raw);
    if (!ok) {
        free(*out);
        *out = NULL;
        return false;
    }
    *len = bound;
    return true;
}

TableStatus weights_table_inflate(Weights *w, int first, const unsigned char *data, size_t len)
{
    size_t raw_len = (size_t)(w->count - first) * 4;
    /* One byte more than the table: a stream with more values shows by filling it. */
    unsigned char *raw = malloc(raw_len + 1);
    if (!raw)
        return TABLE_NOMEM;
    z_stream zs = { 0 };
    if (inflateInit(&zs) != Z_OK) {
        free(raw);
        return TABLE_NOMEM;
    }
    TableStatus status = TABLE_OK;
    zs.next_out = raw;
    zs.avail_out = (uInt)(raw_len + 1);
    const unsigned char *in = data;
    size_t left = len;
    int rc = Z_OK;
    while (rc == Z_OK) {
        /* avail_in is an unsigned int: feed a large table in pieces. */
        if (zs.avail_in == 0 && left > 0) {
            zs.next_in = (Bytef *)(uintptr_t)in;
            zs.avail_in = left > (1u << 30) ? 1u << 30 : (uInt)left;
            in += zs.avail_in;
            left -= zs.avail_in;
        }
        rc = inflate(&zs, Z_NO_FLUSH);
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && left == 0)
            break; /* no input left before the end of the stream */
        if (rc == Z_OK && zs.avail_out == 0)
            break;
    }
    size_t produced = raw_len + 1 - zs.avail_out;
    if (produced > raw_len)
        status = TABLE_LONG;
    else if (rc == Z_STREAM_END)
        status = zs.avail_in > 0 || left > 0 ? TABLE_TRAILING : produced < raw_len ? TABLE_SHORT : TABLE_OK;
    else if (rc == Z_MEM_ERROR)
        status = TABLE_NOMEM;
    else if (rc == Z_BUF_ERROR || rc == Z_OK)
        status = TABLE_TRUNCATED;
    else
        status = TABLE_CORRUPT;
    inflateEnd(&zs);
    if (status == TABLE_OK)
        for (int i = first; i < w->count; i++)
            w->w[i] = get_le32(raw + 4 * (size_t)(i - first));
    free(raw);
    return status;
}

const char *weights_table_status_text(TableStatus status)
{
    switch (status) {
    case TABLE_OK: return "ok";
    case TABLE_CORRUPT: return "corrupt zlib data";
    case TABLE_TRUNCATED: return "truncated zlib data";
    case TABLE_SHORT: return "fewer weights than the pattern states need";
    case TABLE_LONG: return "more weights than the pattern states need";
    case TABLE_TRAILING: return "bytes after the end of the zlib data";
    case TABLE_NOMEM: return "out of memory";
    }
    return "?";
}
