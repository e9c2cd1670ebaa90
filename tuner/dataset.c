/* Sparse training positions: append, grow, split by game. */
#include "dataset.h"

#include <stdlib.h>

/* The kernels stream these records: keep them packed. */
_Static_assert(sizeof(DatasetTerm) == 8, "DatasetTerm must stay 8 bytes");
_Static_assert(sizeof(DatasetPosition) == 24, "DatasetPosition must stay 24 bytes");

Dataset *dataset_new(int num_weights, int scale)
{
    if (num_weights < 1 || scale < 1)
        return NULL;
    Dataset *ds = calloc(1, sizeof *ds);
    if (!ds)
        return NULL;
    ds->num_weights = num_weights;
    ds->scale = scale;
    return ds;
}

/* Grow an array to hold at least `need` items, doubling so appends stay amortised O(1). */
static bool grow(void **array, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 1024;
    while (cap2 < need) {
        if (cap2 > SIZE_MAX / 2 / item)
            return false;
        cap2 *= 2;
    }
    void *p = realloc(*array, cap2 * item);
    if (!p)
        return false;
    *array = p;
    *cap = cap2;
    return true;
}

bool dataset_reserve(Dataset *ds, size_t positions, size_t terms)
{
    if (!ds || ds->borrowed)
        return false;
    if (positions > SIZE_MAX - ds->npos || terms > SIZE_MAX - ds->nterms)
        return false;
    void *t = ds->owned;
    if (!grow((void **)&ds->pos, &ds->pos_cap, ds->npos + positions, sizeof *ds->pos) ||
        !grow(&t, &ds->terms_cap, ds->nterms + terms, sizeof *ds->owned))
        return false;
    ds->owned = t;
    ds->terms = t;
    return true;
}

bool dataset_add(Dataset *ds, int64_t game_id, float label, const int32_t *idx,
                 const int32_t *coef, int n)
{
    if (!ds || ds->borrowed || n < 0 || (n > 0 && (!idx || !coef)))
        return false;
    if (!(label >= 0.0f && label <= 1.0f)) /* also rejects NaN */
        return false;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (idx[i] < 0 || idx[i] >= ds->num_weights)
            return false;
        kept += coef[i] != 0;
    }
    if (!dataset_reserve(ds, 1, (size_t)kept))
        return false;

    DatasetTerm *t = ds->owned + ds->nterms;
    for (int i = 0; i < n; i++)
        if (coef[i] != 0)
            *t++ = (DatasetTerm){ .index = idx[i], .coef = coef[i] };
    ds->pos[ds->npos++] = (DatasetPosition){
        .game_id = game_id, .offset = ds->nterms, .label = label, .count = kept };
    ds->nterms += (size_t)kept;
    return true;
}

void dataset_free(Dataset *ds)
{
    if (!ds)
        return;
    free(ds->pos);
    free(ds->owned);
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
    Dataset *v = dataset_new(parent->num_weights, parent->scale);
    if (!v)
        return NULL;
    v->pos = malloc((cap ? cap : 1) * sizeof *v->pos);
    if (!v->pos) {
        free(v);
        return NULL;
    }
    v->pos_cap = cap;
    v->terms = parent->terms;
    v->nterms = parent->nterms;
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
