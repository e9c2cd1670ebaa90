/* Sparse training positions: append, grow, split by game. */
#include "dataset.h"

#include <stdlib.h>

/* The kernels stream these records: keep them packed. */
_Static_assert(sizeof(DatasetPosition) == 24, "DatasetPosition must stay 24 bytes");
_Static_assert(EVAL_MAX_FEATURE_TERMS <= UINT16_MAX, "DatasetPosition.count is 16 bits");

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

bool dataset_reserve(Dataset *ds, size_t positions, size_t terms)
{
    if (!ds || ds->borrowed)
        return false;
    if (positions > SIZE_MAX - ds->npos || terms > SIZE_MAX - ds->nterms)
        return false;
    void *f = ds->owned_feature, *v = ds->owned_value;
    size_t tcap_f, tcap_v;
    bool ok = grow((void **)&ds->pos, ds->pos_cap, &ds->pos_cap, ds->npos + positions, sizeof *ds->pos) &&
              grow(&f, ds->terms_cap, &tcap_f, ds->nterms + terms, sizeof *ds->owned_feature);
    ds->owned_feature = f;
    ds->feature = f;
    /* The values follow the features' capacity, so both arrays always hold terms_cap. */
    ok = ok && grow(&v, ds->terms_cap, &tcap_v, tcap_f, sizeof *ds->owned_value);
    ds->owned_value = v;
    ds->value = v;
    if (ok)
        ds->terms_cap = tcap_f;
    return ok;
}

bool dataset_add(Dataset *ds, int64_t game_id, float label, int phase, const EvalFeatureTerm *f, int n)
{
    if (!ds || ds->borrowed || n < 0 || n > EVAL_MAX_FEATURE_TERMS || (n > 0 && !f))
        return false;
    if (!(label >= 0.0f && label <= 1.0f) || phase < 0 || phase > ds->phase_max) /* NaN too */
        return false;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (f[i].feature < 0 || f[i].feature >= ds->num_features || f[i].value < INT16_MIN ||
            f[i].value > INT16_MAX)
            return false;
        kept += f[i].value != 0;
    }
    if (!dataset_reserve(ds, 1, (size_t)kept))
        return false;

    uint32_t *tf = ds->owned_feature + ds->nterms;
    int16_t *tv = ds->owned_value + ds->nterms;
    for (int i = 0; i < n; i++)
        if (f[i].value != 0) {
            *tf++ = (uint32_t)f[i].feature;
            *tv++ = (int16_t)f[i].value;
        }
    ds->pos[ds->npos++] = (DatasetPosition){ .game_id = game_id, .offset = ds->nterms, .label = label,
                                             .count = (uint16_t)kept, .phase = (uint8_t)phase };
    ds->nterms += (size_t)kept;
    return true;
}

size_t dataset_bytes(const Dataset *ds)
{
    if (!ds)
        return 0;
    size_t terms = ds->borrowed ? 0 : ds->terms_cap * (sizeof *ds->feature + sizeof *ds->value);
    return sizeof *ds + ds->pos_cap * sizeof *ds->pos + terms;
}

void dataset_free(Dataset *ds)
{
    if (!ds)
        return;
    free(ds->pos);
    free(ds->owned_feature);
    free(ds->owned_value);
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
    if (!v->pos) {
        free(v);
        return NULL;
    }
    v->pos_cap = cap;
    v->feature = parent->feature;
    v->value = parent->value;
    v->nterms = parent->nterms;
    v->terms_cap = parent->terms_cap;
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
    if (!ds || !train || !valid || !(validation_fraction >= 0.0 && validation_fraction <= 1.0))
        return false;

    /* Step 1: count, so each side gets one exact allocation. */
    size_t nvalid = 0;
    for (size_t i = 0; i < ds->npos; i++)
        nvalid += in_validation(ds->pos[i].game_id, seed, validation_fraction);

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
        Dataset *side = in_validation(ds->pos[i].game_id, seed, validation_fraction) ? v : t;
        side->pos[side->npos++] = ds->pos[i];
    }
    *train = t;
    *valid = v;
    return true;
}

void dataset_release_positions(Dataset *ds)
{
    if (!ds)
        return;
    free(ds->pos);
    ds->pos = NULL;
    ds->npos = ds->pos_cap = 0;
}
