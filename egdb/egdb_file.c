/* Reading and writing one endgame class (egdb_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "egdb_file.h"
#include "variant.h"

static const char egdb_magic[8] = { 'D', 'A', 'M', 'A', 'E', 'G', 'D', 'B' };

void egdb_file_path(const char *dir, const Variant *v, EgdbClass cls, char *buf, size_t len)
{
    char name[8];
    egdb_class_name(cls, name, sizeof name);
    snprintf(buf, len, "%s/%s-%s.egdb", dir, v->name, name);
}

static void put_u32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p)
{
    uint32_t x = 0;
    for (int i = 3; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}
static uint64_t get_u64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

/* zlib's crc32 takes a uInt length: feed big buffers in pieces. */
static uint32_t crc_of(const uint8_t *p, uint64_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt chunk = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, p, chunk);
        p += chunk;
        n -= chunk;
    }
    return (uint32_t)crc;
}

static void header_fill(uint8_t *h, const Variant *v, EgdbClass cls, const char *rules_text,
                        uint64_t positions, uint64_t payload_bytes, uint32_t payload_crc)
{
    memset(h, 0, EGDB_HEADER_SIZE);
    memcpy(h, egdb_magic, sizeof egdb_magic);
    put_u32(h + 8, EGDB_FORMAT_VERSION);
    h[12] = cls.men[0];
    h[13] = cls.kings[0];
    h[14] = cls.men[1];
    h[15] = cls.kings[1];
    strncpy((char *)h + 16, v->name, 15);
    strncpy((char *)h + 32, rules_text, 63);
    put_u64(h + 96, positions);
    put_u64(h + 104, payload_bytes);
    put_u32(h + 112, payload_crc);
    put_u32(h + 124, crc_of(h, 124));
}

static bool write_all(int fd, const uint8_t *p, uint64_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : (size_t)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (uint64_t)w;
    }
    return true;
}

/* The directory entry of a renamed file is durable only once its directory is synced. */
static void sync_parent_dir(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

bool egdb_file_write(const char *path, const EgdbTable *t, const char *rules_text, char *err,
                     size_t errlen)
{
    uLongf packed_len = compressBound((uLong)t->nbytes);
    uint8_t *buf = malloc(EGDB_HEADER_SIZE + packed_len);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    if (compress2(buf + EGDB_HEADER_SIZE, &packed_len, t->bits, (uLong)t->nbytes, 6) != Z_OK) {
        free(buf);
        snprintf(err, errlen, "%s: compression failed", path);
        return false;
    }
    header_fill(buf, t->ix.variant, t->ix.cls, rules_text, t->ix.size, packed_len,
                crc_of(buf + EGDB_HEADER_SIZE, packed_len));

    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    bool ok = fd >= 0 && write_all(fd, buf, EGDB_HEADER_SIZE + (uint64_t)packed_len) && fsync(fd) == 0;
    int saved = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved = errno;
    }
    free(buf);
    if (!ok) {
        unlink(tmp);
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(saved));
        return false;
    }
    sync_parent_dir(path);
    return true;
}

bool egdb_file_read(const char *path, const Variant *v, EgdbClass cls, const char *rules_text,
                    EgdbTable *t, char *err, size_t errlen)
{
    t->bits = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, errno == ENOENT ? "missing" : strerror(errno));
        return false;
    }
    uint8_t h[EGDB_HEADER_SIZE], expect[EGDB_HEADER_SIZE];
    EgdbIndexer ix;
    egdb_indexer_init(&ix, v, cls);
    const char *bad = NULL;
    uint8_t *packed = NULL;
    uint64_t payload = 0;
    struct stat st;
    if (fread(h, 1, sizeof h, f) != sizeof h)
        bad = "truncated header";
    else if (memcmp(h, egdb_magic, sizeof egdb_magic) != 0)
        bad = "not an endgame database file (bad magic)";
    else if (get_u32(h + 124) != crc_of(h, 124))
        bad = "header checksum mismatch (corrupted)";
    else if (get_u32(h + 8) != EGDB_FORMAT_VERSION)
        bad = "unknown format version";
    else {
        payload = get_u64(h + 104);
        header_fill(expect, v, cls, rules_text, ix.size, payload, get_u32(h + 112));
        if (memcmp(h, expect, 16) != 0 || memcmp(h + 96, expect + 96, 8) != 0)
            bad = "holds another class";
        else if (memcmp(h + 16, expect + 16, 16) != 0)
            bad = "holds another variant";
        else if (memcmp(h + 32, expect + 32, 64) != 0)
            bad = "built for other rules";
        else if (fstat(fileno(f), &st) != 0 || (uint64_t)st.st_size != EGDB_HEADER_SIZE + payload)
            bad = "truncated or overlong (size differs from the header's)";
        else if (!(packed = malloc(payload ? payload : 1)) || !egdb_table_alloc(t, v, cls))
            bad = "out of memory";
        else if (fread(packed, 1, payload, f) != payload)
            bad = "truncated payload";
        else if (crc_of(packed, payload) != get_u32(h + 112))
            bad = "payload checksum mismatch (corrupted)";
        else {
            uLongf out_len = (uLongf)t->nbytes;
            if (uncompress(t->bits, &out_len, packed, (uLong)payload) != Z_OK || out_len != t->nbytes)
                bad = "payload does not decompress to the class's size (corrupted)";
        }
    }
    free(packed);
    fclose(f);
    if (bad) {
        egdb_table_free(t);
        snprintf(err, errlen, "%s: %s", path, bad);
        return false;
    }
    return true;
}
