/* Datasets saved to and mapped from packed files. */
#include "dataset_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char MAGIC[8] = "DAMATEX";
enum { FILE_VERSION = 6, BYTE_ORDER_MARK = 0x01020304, TAG_BYTES = DATASET_TAG_MAX + 1 };

typedef struct FileHeader {
    char magic[8];
    uint32_t version;
    uint32_t byte_order;
    int32_t num_features;
    int32_t phase_max;
    uint64_t npos, nterms, nbytes;
    uint32_t has_scores;
    uint32_t key_bytes;
    char tag[TAG_BYTES];
} FileHeader;

_Static_assert(sizeof(FileHeader) == 88, "the header is 88 bytes");
/* The records follow the scores (4 bytes a position), so a record may start at any multiple
 * of 4 of the mapping: its alignment must not ask more. */
_Static_assert(_Alignof(DatasetPosition) <= 4, "a record needs at most 4-byte alignment");

/* Bytes a position takes outside its terms: game id, record, score if any. */
static uint64_t per_position(const FileHeader *h)
{
    return sizeof(int64_t) + sizeof(DatasetPosition) + (h->has_scores ? sizeof(float) : 0);
}

static bool write_all(FILE *out, const void *data, size_t len)
{
    return len == 0 || fwrite(data, 1, len, out) == len;
}

/* Positions between two calls of the progress callback. */
enum { PROGRESS_EVERY = 1 << 20 };

/* Writes the file's sections to out; false on a write error. */
static bool write_sections(FILE *out, const Dataset *ds, const FileHeader *h, const DatasetFileExtras *x)
{
    bool ok = write_all(out, h, sizeof *h) && write_all(out, ds->game, ds->npos * sizeof *ds->game) &&
              (!x->scores || write_all(out, x->scores, ds->npos * sizeof *x->scores));
    uint64_t at = 0;
    for (size_t i = 0; ok && i < ds->npos; i++) {
        DatasetPosition p = ds->pos[i];
        dataset_set_offset(&p, at);
        at += dataset_run_bytes(ds, i);
        ok = write_all(out, &p, sizeof p);
    }
    /* Each position's terms in order: the bulk of the file. */
    for (size_t i = 0; ok && i < ds->npos; i++) {
        ok = write_all(out, dataset_run(ds, &ds->pos[i]), dataset_run_bytes(ds, i));
        if (x->progress && (i + 1) % PROGRESS_EVERY == 0)
            x->progress(x->ctx, i + 1, ds->npos);
    }
    return ok;
}

bool dataset_save(const Dataset *ds, const char *path, const DatasetFileExtras *extras, char *err,
                  size_t errlen)
{
    const DatasetFileExtras none = { 0 }, *x = extras ? extras : &none;
    if (!ds->game && ds->npos) {
        snprintf(err, errlen, "%s: the dataset's game ids were released", path);
        return false;
    }
    if (x->tag && strlen(x->tag) > DATASET_TAG_MAX) {
        snprintf(err, errlen, "%s: tag '%s' longer than %d bytes", path, x->tag, DATASET_TAG_MAX);
        return false;
    }
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "%s: path too long", path);
        return false;
    }
    FILE *out = fopen(tmp, "wb");
    if (!out) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return false;
    }
    /* The header counts the terms first, so a reader checks the sizes before any record. */
    FileHeader h = { .version = FILE_VERSION, .byte_order = BYTE_ORDER_MARK, .num_features = ds->num_features,
                     .phase_max = ds->phase_max, .npos = ds->npos, .has_scores = x->scores != NULL,
                     .key_bytes = (uint32_t)ds->key_bytes };
    memcpy(h.magic, MAGIC, sizeof h.magic);
    if (x->tag)
        memcpy(h.tag, x->tag, strlen(x->tag));
    for (size_t i = 0; i < ds->npos; i++) {
        h.nbytes += dataset_run_bytes(ds, i);
        h.nterms += (uint64_t)dataset_count(&ds->pos[i]);
    }
    bool ok = write_sections(out, ds, &h, x);
    ok = fclose(out) == 0 && ok;
    if (ok && rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: renaming %s: %s", path, tmp, strerror(errno));
        unlink(tmp);
        return false;
    }
    if (!ok) {
        snprintf(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
        unlink(tmp);
    }
    return ok;
}

/* Checks one position's run [b, end) (dataset.h): its phase, its count of long terms, its
 * words and escapes within end, features in range, no value 0; the byte after the run, or
 * NULL with the reason. */
static const uint8_t *check_terms(const uint8_t *b, const uint8_t *end, int count, const FileHeader *h,
                                  const char **why)
{
    if (end - b < 2) {
        *why = "a position's terms run past the end";
        return NULL;
    }
    if (dataset_run_phase(b) > h->phase_max) {
        *why = "a phase above the header's phase_max";
        return NULL;
    }
    const int nl = dataset_long_terms(b, count);
    if (nl > count) {
        *why = "more long terms than terms";
        return NULL;
    }
    const uint8_t *l = b + 2;
    const size_t fixed = 2 + 3 * (size_t)nl + 2 * (size_t)(count - nl);
    if ((size_t)(end - b) < fixed) {
        *why = "a position's terms run past the end";
        return NULL;
    }
    size_t escapes = 0;
    for (int j = 0; j < nl; j++)
        escapes += (dataset_word(l + 2 * (size_t)j) == DATASET_STEP_ESCAPE ? 4 : 0) +
                   ((int8_t)l[2 * (size_t)nl + (size_t)j] == DATASET_VALUE_ESCAPE ? 2 : 0);
    if ((size_t)(end - b) - fixed < escapes) {
        *why = "a position's terms run past the end";
        return NULL;
    }
    uint32_t f[EVAL_MAX_FEATURE_TERMS];
    int32_t v[EVAL_MAX_FEATURE_TERMS];
    const uint8_t *next = dataset_unpack(b, count, f, v);
    for (int j = 0; j < count; j++)
        if (f[j] >= (uint32_t)h->num_features || v[j] == 0) {
            *why = f[j] >= (uint32_t)h->num_features ? "a feature out of range" : "a term of value 0";
            return NULL;
        }
    if ((size_t)(end - next) < h->key_bytes) { /* any key's bytes are safe to read (eval_spec.h) */
        *why = "a position's key runs past the end";
        return NULL;
    }
    return next + h->key_bytes;
}

/* The header's counts against the file's size and its tag against `tag`; the reason when
 * they disagree (in buf when it names the tags). */
static const char *check_header(FileHeader *h, size_t size, const char *tag, char *buf, size_t len)
{
    if (memcmp(h->magic, MAGIC, sizeof h->magic) != 0)
        return "not a packed dataset (bad magic)";
    if (h->byte_order != BYTE_ORDER_MARK)
        return "written on a machine of another byte order";
    if (h->version == 5) { /* the same layout, its flag a uint64 over both words: no key */
        h->has_scores |= h->key_bytes;
        h->key_bytes = 0;
    }
    if (h->version < 5)
        return "an older version's layout (written by an older dama): save it again with dama tune --save-data";
    if (h->version > FILE_VERSION)
        return "an unknown version";
    if (h->num_features < 1 || h->num_features > INT32_MAX / 2 || h->phase_max < 1 || h->phase_max > UINT8_MAX)
        return "bad num_features or phase_max";
    if (h->has_scores > 1 || h->key_bytes > EVAL_MAX_PATTERN_KEY || memchr(h->tag, 0, sizeof h->tag) == NULL)
        return "a bad header (scores flag, key size or tag)";
    uint64_t per = per_position(h);
    if (h->npos > (size - sizeof *h) / per || h->nbytes != size - sizeof *h - h->npos * per)
        return "its size does not match its counts (truncated?)";
    if (tag && strcmp(tag, h->tag) != 0) {
        snprintf(buf, len, "its positions are for '%s', not '%s' (another game, evaluation or feature set)",
                 h->tag, tag);
        return buf;
    }
    return NULL;
}

Dataset *dataset_map(const char *path, const char *tag, const EvalSpec *key_spec, const float **scores,
                     char *err, size_t errlen)
{
    if (scores)
        *scores = NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(FileHeader)) {
        snprintf(err, errlen, "%s: too short for a packed dataset", path);
        close(fd);
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd); /* the mapping keeps the file */
    if (map == MAP_FAILED) {
        snprintf(err, errlen, "%s: mmap: %s", path, strerror(errno));
        return NULL;
    }
    FileHeader h;
    memcpy(&h, map, sizeof h);
    char tag_why[160];
    const char *why = check_header(&h, size, tag, tag_why, sizeof tag_why);
    if (!why && h.key_bytes &&
        !(key_spec && key_spec->key_patterns && key_spec->pattern_key_bytes == (int)h.key_bytes &&
          eval_spec_features(key_spec) == h.num_features))
        why = "its positions hold pattern keys the given evaluation does not read";
    const uint8_t *base = (const uint8_t *)map;
    const float *score = (const float *)(base + sizeof h + h.npos * sizeof(int64_t));
    const DatasetPosition *pos = (const DatasetPosition *)(score + (h.has_scores ? h.npos : 0));
    const uint8_t *terms = base + sizeof h + h.npos * per_position(&h);
    const uint8_t *first = terms, *end = terms + h.nbytes;
    size_t bad = 0;
    bool in_record = false;
    uint64_t nterms = 0;
    /* Every record's run must start where the previous one's ended and hold its terms. */
    for (size_t i = 0; !why && i < h.npos; i++) {
        const DatasetPosition *p = &pos[i];
        bad = i;
        in_record = true;
        /* A keyed run's linear terms and its key's occurrences share the kernels' buffers. */
        if (dataset_offset(p) != (uint64_t)(terms - first) ||
            dataset_count(p) > (h.key_bytes ? EVAL_MAX_FEATURES : EVAL_MAX_FEATURE_TERMS) || dataset_label(p) > 1.0)
            why = "a bad record (offset, count or label)";
        else
            terms = check_terms(terms, end, dataset_count(p), &h, &why);
        nterms += (uint64_t)dataset_count(p);
    }
    if (!why) {
        in_record = false;
        if (terms != end || nterms != h.nterms)
            why = "its terms do not add up to its counts";
    }
    Dataset *ds = why ? NULL : dataset_new(h.num_features, h.phase_max);
    if (!ds) {
        if (why && in_record)
            snprintf(err, errlen, "%s: position %zu: %s", path, bad, why);
        else
            snprintf(err, errlen, "%s: %s", path, why ? why : "out of memory");
        munmap(map, size);
        return NULL;
    }
    if (h.key_bytes && !dataset_use_keys(ds, key_spec)) { /* checked above: cannot fail */
        snprintf(err, errlen, "%s: its pattern keys cannot be read", path);
        dataset_free(ds);
        munmap(map, size);
        return NULL;
    }
    ds->pos = (DatasetPosition *)pos; /* read-only pages: borrowed, so nothing writes them */
    ds->game = (int64_t *)(base + sizeof h);
    ds->npos = ds->pos_cap = (size_t)h.npos;
    ds->terms = first;
    ds->nbytes = ds->bytes_cap = (size_t)h.nbytes;
    ds->nterms = (size_t)h.nterms;
    ds->borrowed = true;
    ds->mapped = map;
    ds->mapped_len = size;
    if (scores && h.has_scores)
        *scores = score;
    return ds;
}
