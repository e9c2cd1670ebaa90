/* Sparse training positions: append (packing the terms), grow, split by game. */
#include "dataset.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The kernels stream these records: keep them packed. */
_Static_assert(sizeof(DatasetPosition) == 8, "DatasetPosition must stay 8 bytes");
_Static_assert(EVAL_MAX_FEATURE_TERMS <= 0x1FF, "a record's count is 9 bits");
_Static_assert(DATASET_LABEL_ONE <= 0x7FFF, "a record's label is 15 bits");
_Static_assert(DATASET_COUNT_SHIFT == 8 && DATASET_COUNT_SHIFT + 9 == DATASET_LABEL_SHIFT &&
                   DATASET_LABEL_SHIFT + 15 == 32,
               "a record's high word: the offset's 8 bits, the count's 9, the label's 15");

/* Most bytes one term takes: its word, a feature in full and a value. */
enum { TERM_MAX_BYTES = 8 };

Dataset *dataset_new(int num_features, int phase_max)
{
    if (num_features < 1 || num_features > INT32_MAX / 2 || phase_max < 1 || phase_max > UINT8_MAX)
        return NULL;
    Dataset *ds = calloc(1, sizeof *ds);
    if (!ds)
        return NULL;
    ds->num_features = num_features;
    ds->num_weights = 2 * num_features;
    ds->phase_max = phase_max;
    return ds;
}

/* Grow an array to hold at least `need` items, doubling so appends stay amortised O(1). */
static bool grow(void **array, size_t cap, size_t *new_cap, size_t need, size_t item)
{
    if (need <= cap) {
        *new_cap = cap;
        return true;
    }
    size_t cap2 = cap ? cap : 1024;
    while (cap2 < need) {
        if (cap2 > SIZE_MAX / 2 / item)
            return false;
        cap2 *= 2;
    }
    void *p = realloc(*array, cap2 * item);
    if (!p)
        return false;
    *array = p;
    *new_cap = cap2;
    return true;
}

/* Room for `positions` more records and game ids and `bytes` more bytes of terms. */
static bool reserve_bytes(Dataset *ds, size_t positions, size_t bytes)
{
    if (positions > SIZE_MAX - ds->npos)
        return false;
    void *t = ds->owned_terms;
    size_t pos_cap = ds->pos_cap, game_cap;
    bool ok = grow((void **)&ds->pos, ds->pos_cap, &pos_cap, ds->npos + positions, sizeof *ds->pos) &&
              grow((void **)&ds->game, ds->pos_cap, &game_cap, pos_cap, sizeof *ds->game);
    if (ok)
        ds->pos_cap = pos_cap; /* both arrays hold pos_cap once both have grown */
    ok = ok && bytes <= DATASET_MAX_BYTES - ds->nbytes && grow(&t, ds->bytes_cap, &ds->bytes_cap, ds->nbytes + bytes, 1);
    ds->owned_terms = t;
    ds->terms = t;
    return ok;
}

bool dataset_reserve(Dataset *ds, size_t positions, size_t terms)
{
    if (!ds || ds->borrowed || (!ds->game && ds->pos_cap) || terms > SIZE_MAX / 4 ||
        positions > SIZE_MAX / 4 / (2 + EVAL_MAX_PATTERN_KEY))
        return false;
    return reserve_bytes(ds, positions, (2 + (size_t)ds->key_bytes) * positions + 3 * terms);
}

bool dataset_use_keys(Dataset *ds, const EvalSpec *spec)
{
    if (!ds || ds->borrowed || ds->npos || !spec || !spec->pattern_key || !spec->key_patterns ||
        spec->pattern_key_bytes < 1 || spec->pattern_key_bytes > EVAL_MAX_PATTERN_KEY ||
        spec->nfeatures > EVAL_MAX_FEATURES || spec->max_pattern_terms > EVAL_MAX_PATTERN_TERMS ||
        ds->num_features != eval_spec_features(spec))
        return false;
    ds->key_spec = spec;
    ds->key_bytes = spec->pattern_key_bytes;
    return true;
}

static uint8_t *put_word(uint8_t *p, uint32_t w)
{
    uint16_t u = (uint16_t)w;
    memcpy(p, &u, sizeof u);
    return p + 2;
}

/* The step word of a term after the term of feature prev and its value byte (dataset.h);
 * esc gets the escape words it needs (0 to 3), *nesc their count. */
static uint32_t term_step(uint32_t prev, uint32_t feature, int32_t value, uint8_t *byte, uint16_t *esc,
                          int *nesc)
{
    bool near = feature >= prev && feature - prev < DATASET_STEP_ESCAPE;
    bool small = value > DATASET_VALUE_ESCAPE && value <= INT8_MAX;
    int k = 0;
    if (!near) {
        esc[k++] = (uint16_t)(feature & 0xFFFF);
        esc[k++] = (uint16_t)(feature >> 16);
    }
    if (!small)
        esc[k++] = (uint16_t)(int16_t)value;
    *nesc = k;
    *byte = (uint8_t)(int8_t)(small ? value : DATASET_VALUE_ESCAPE);
    return near ? feature - prev : DATASET_STEP_ESCAPE;
}

/* Whether a term of feature f after one of feature prev fits a short word (dataset.h). */
static bool fits_short(uint32_t prev, uint32_t f, int32_t value)
{
    return f >= prev && f - prev <= DATASET_SHORT_STEP_MAX && value != 0 && value >= -2 && value <= 2;
}

static uint32_t short_word(uint32_t prev, uint32_t f, int32_t value)
{
    uint32_t code = (value < 0) | (value == 2 || value == -2) << 1;
    return (f - prev) << 2 | code;
}

/* Appends a position, with its key when ds is keyed (key NULL otherwise). */
static bool add_position(Dataset *ds, int64_t game_id, float label, int phase, const EvalFeatureTerm *f, int n,
                         const uint8_t *key)
{
    const int most = key ? EVAL_MAX_FEATURES : EVAL_MAX_FEATURE_TERMS;
    if (!ds || ds->borrowed || (!ds->game && ds->pos_cap) || n < 0 || n > most || (n > 0 && !f) ||
        (key != NULL) != (ds->key_spec != NULL))
        return false;
    if (!(label >= 0.0f && label <= 1.0f) || phase < 0 || phase > ds->phase_max) /* NaN too */
        return false;
    uint32_t kf[EVAL_MAX_FEATURE_TERMS];
    int32_t kv[EVAL_MAX_FEATURE_TERMS];
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (f[i].feature < 0 || f[i].feature >= ds->num_features || f[i].value < INT16_MIN ||
            f[i].value > INT16_MAX)
            return false;
        if (f[i].value != 0) {
            kf[kept] = (uint32_t)f[i].feature;
            kv[kept++] = f[i].value;
        }
    }
    /* The short tail: every term from nl on fits a short word. */
    int nl = kept;
    while (nl > 0 && fits_short(nl > 1 ? kf[nl - 2] : 0, kf[nl - 1], kv[nl - 1]))
        nl--;
    if (nl >= DATASET_ALL_LONG)
        nl = kept;
    if (!reserve_bytes(ds, 1, 2 + (size_t)kept * TERM_MAX_BYTES + (size_t)ds->key_bytes))
        return false;

    /* The phase, the count of long terms, their steps and values, the short words, then the
     * escapes. */
    uint8_t *start = ds->owned_terms + ds->nbytes, *b = start + 2;
    uint8_t *s = b + 3 * (size_t)nl, *e = s + 2 * (size_t)(kept - nl);
    start[0] = (uint8_t)phase;
    start[1] = (uint8_t)(nl == kept && nl >= DATASET_ALL_LONG ? DATASET_ALL_LONG : nl);
    uint32_t prev = 0;
    for (int j = 0; j < kept; j++) {
        if (j < nl) {
            uint16_t esc[3];
            int nesc;
            uint32_t step = term_step(prev, kf[j], kv[j], &b[2 * (size_t)nl + (size_t)j], esc, &nesc);
            put_word(b + 2 * (size_t)j, step);
            for (int k = 0; k < nesc; k++)
                e = put_word(e, esc[k]);
        } else {
            put_word(s + 2 * (size_t)(j - nl), short_word(prev, kf[j], kv[j]));
        }
        prev = kf[j];
    }
    if (key) {
        memcpy(e, key, (size_t)ds->key_bytes);
        e += ds->key_bytes;
    }
    ds->game[ds->npos] = game_id;
    ds->pos[ds->npos++] = dataset_record(ds->nbytes, kept, label);
    ds->nbytes += (size_t)(e - start);
    ds->nterms += (size_t)kept;
    return true;
}

bool dataset_add(Dataset *ds, int64_t game_id, float label, int phase, const EvalFeatureTerm *f, int n)
{
    return add_position(ds, game_id, label, phase, f, n, NULL);
}

bool dataset_add_keyed(Dataset *ds, int64_t game_id, float label, int phase, const EvalFeatureTerm *f,
                       int n, const uint8_t *key)
{
    return key && add_position(ds, game_id, label, phase, f, n, key);
}

int dataset_terms(const Dataset *ds, size_t i, EvalFeatureTerm *out)
{
    const DatasetPosition *p = &ds->pos[i];
    int n = dataset_count(p);
    uint32_t f[EVAL_MAX_FEATURE_TERMS];
    int32_t v[EVAL_MAX_FEATURE_TERMS];
    const uint8_t *key = dataset_unpack(dataset_run(ds, p), n, f, v);
    if (ds->key_spec) {
        int8_t sign[EVAL_MAX_PATTERN_TERMS];
        const int k = dataset_key_terms(ds, key, f + n, sign);
        for (int j = 0; j < k; j++)
            v[n + j] = sign[j];
        n += k;
    }
    for (int j = 0; j < n; j++)
        out[j] = (EvalFeatureTerm){ (int32_t)f[j], v[j] };
    return n;
}

size_t dataset_run_bytes(const Dataset *ds, size_t i)
{
    uint32_t f[EVAL_MAX_FEATURE_TERMS];
    int32_t v[EVAL_MAX_FEATURE_TERMS];
    const uint8_t *start = dataset_run(ds, &ds->pos[i]);
    return (size_t)(dataset_unpack(start, dataset_count(&ds->pos[i]), f, v) - start) + (size_t)ds->key_bytes;
}

bool dataset_trim(Dataset *ds)
{
    if (!ds || ds->borrowed)
        return false;
    /* realloc to a smaller size may fail and leave the block as it was: then keep it. */
    if (ds->npos < ds->pos_cap && ds->game) {
        size_t cap = ds->npos ? ds->npos : 1;
        DatasetPosition *p = realloc(ds->pos, cap * sizeof *p);
        if (p)
            ds->pos = p;
        int64_t *g = p ? realloc(ds->game, cap * sizeof *g) : NULL;
        if (g)
            ds->game = g;
        if (p) /* the game ids keep room for at least as many */
            ds->pos_cap = cap;
    }
    if (ds->nbytes < ds->bytes_cap) {
        size_t cap = ds->nbytes ? ds->nbytes : 1;
        uint8_t *t = realloc(ds->owned_terms, cap);
        if (t) {
            ds->owned_terms = t;
            ds->terms = t;
            ds->bytes_cap = cap;
        }
    }
    return true;
}

size_t dataset_bytes(const Dataset *ds)
{
    if (!ds)
        return 0;
    if (ds->mapped) /* the file's pages: the system reads and drops them as the fit goes */
        return sizeof *ds;
    size_t terms = ds->borrowed ? 0 : ds->bytes_cap;
    return sizeof *ds + ds->pos_cap * (sizeof *ds->pos + (ds->game ? sizeof *ds->game : 0)) + terms;
}

void dataset_free(Dataset *ds)
{
    if (!ds)
        return;
    if (ds->mapped) {
        munmap(ds->mapped, ds->mapped_len);
        free(ds);
        return;
    }
    free(ds->pos);
    free(ds->game);
    free(ds->owned_terms);
    free(ds);
}

/* splitmix64 finaliser: a well-mixed hash, so consecutive game ids scatter evenly. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static bool in_validation(int64_t game_id, uint64_t seed, double fraction)
{
    uint64_t h = mix64((uint64_t)game_id ^ mix64(seed));
    return (double)(h >> 11) * 0x1p-53 < fraction; /* uniform in [0, 1) */
}

/* A view on the parent's terms holding room for `cap` positions. */
static Dataset *view_new(const Dataset *parent, size_t cap)
{
    Dataset *v = dataset_new(parent->num_features, parent->phase_max);
    if (!v)
        return NULL;
    v->pos = malloc((cap ? cap : 1) * sizeof *v->pos);
    v->game = malloc((cap ? cap : 1) * sizeof *v->game);
    if (!v->pos || !v->game) {
        dataset_free(v);
        return NULL;
    }
    v->pos_cap = cap;
    v->terms = parent->terms;
    v->nbytes = parent->nbytes;
    v->bytes_cap = parent->bytes_cap;
    v->key_spec = parent->key_spec;
    v->key_bytes = parent->key_bytes;
    v->borrowed = true;
    return v;
}

bool dataset_split(const Dataset *ds, double validation_fraction, uint64_t seed,
                   Dataset **train, Dataset **valid)
{
    if (train)
        *train = NULL;
    if (valid)
        *valid = NULL;
    if (!ds || !train || !valid || !(validation_fraction >= 0.0 && validation_fraction <= 1.0) ||
        (ds->npos && !ds->game))
        return false;

    /* Step 1: count, so each side gets one exact allocation. */
    size_t nvalid = 0;
    for (size_t i = 0; i < ds->npos; i++)
        nvalid += in_validation(ds->game[i], seed, validation_fraction);

    Dataset *t = view_new(ds, ds->npos - nvalid);
    Dataset *v = view_new(ds, nvalid);
    if (!t || !v) {
        dataset_free(t);
        dataset_free(v);
        return false;
    }

    /* Step 2: copy the position records, keeping their order (offsets stay increasing,
     * so the kernels still stream the shared terms forwards). */
    for (size_t i = 0; i < ds->npos; i++) {
        Dataset *side = in_validation(ds->game[i], seed, validation_fraction) ? v : t;
        side->game[side->npos] = ds->game[i];
        side->pos[side->npos++] = ds->pos[i];
        side->nterms += (size_t)dataset_count(&ds->pos[i]);
    }
    *train = t;
    *valid = v;
    return true;
}

void dataset_release_positions(Dataset *ds)
{
    if (!ds || ds->mapped)
        return;
    free(ds->pos);
    free(ds->game);
    ds->pos = NULL;
    ds->game = NULL;
    ds->npos = ds->pos_cap = 0;
}

void dataset_release_games(Dataset *ds)
{
    if (!ds || ds->mapped)
        return;
    free(ds->game);
    ds->game = NULL;
}
