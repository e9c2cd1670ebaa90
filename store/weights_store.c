/* Weights by name and in the database (weights_store.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "shipped_weights.h"
#include "variant.h"
#include "weights_store.h"

int64_t weights_store_save(Store *store, const Weights *w, int generation, int64_t parent,
                               const char *note)
{
    WeightsImage img;
    if (!weights_image(w, &img))
        return -1;
    char hash[17];
    snprintf(hash, sizeof hash, "%016" PRIx64, weights_hash(w));
    int64_t id = store_weights_put_blob(store, w->spec->variant, generation, parent, img.head, img.table,
                                        img.table_len, img.table ? hash : NULL, note);
    weights_image_free(&img);
    return id;
}

bool weights_store_load(Store *store, const Variant *v, int64_t id, Weights *w, char *err,
                                  size_t errlen)
{
    char *text = NULL, source[64];
    unsigned char *blob = NULL;
    size_t blob_len = 0;
    if (!store_weights_get_blob(store, id, &text, &blob, &blob_len)) {
        snprintf(err, errlen, "weights %lld: %s", (long long)id, store_error(store));
        return false;
    }
    /* A file's bytes again: the head, then the table. */
    size_t text_len = strlen(text);
    char *file = realloc(text, text_len + blob_len + 1);
    bool ok = file != NULL;
    if (ok) {
        if (blob_len)
            memcpy(file + text_len, blob, blob_len);
        snprintf(source, sizeof source, "weights %lld", (long long)id);
        ok = weights_parse_variant(w, v, file, text_len + blob_len, source, err, errlen);
    } else {
        free(text);
        snprintf(err, errlen, "weights %lld: out of memory", (long long)id);
    }
    free(file);
    free(blob);
    return ok;
}
bool weights_by_name(Weights *w, const Variant *v, const char *name, char *err,
                              size_t errlen)
{
    if (strcmp(name, "best") == 0) {
        const unsigned char *data;
        size_t len;
        if (!shipped_weights(v->name, &data, &len)) {
            snprintf(err, errlen, "best weights: none are shipped for %s", v->name);
            return false;
        }
        return weights_parse_variant(w, v, (const char *)data, len, "built-in best weights", err, errlen);
    }
    bool builtin = strcmp(name, "default") == 0 || strcmp(name, "material") == 0;
    if (!builtin)
        return weights_load_variant_until(w, v, name, interrupt_state(), err, errlen);
    if (!(name[0] == 'd' ? weights_default(w, v->eval) : weights_material_only(w, v->eval))) {
        snprintf(err, errlen, "%s weights: out of memory", name);
        return false;
    }
    return true;
}

bool start_weights(Weights *w, const Variant *v, const char *name, EvalChoice eval, char *err,
                            size_t errlen)
{
    if (eval == EVAL_PATTERN && !v->pattern_eval) {
        snprintf(err, errlen, "--eval pattern: %s has no pattern evaluation in this build", v->name);
        return false;
    }
    Weights given = { 0 };
    if (!weights_by_name(&given, v, name, err, errlen))
        return false;
    bool pattern = eval_spec_is_pattern(given.spec);
    if (eval == EVAL_LINEAR && pattern) {
        weights_free(&given);
        snprintf(err, errlen, "--eval linear: %s holds pattern weights", name);
        return false;
    }
    if (eval != EVAL_PATTERN || pattern) {
        *w = given;
        return true;
    }
    bool ok = weights_convert(w, v->pattern_eval, &given);
    weights_free(&given);
    if (!ok)
        snprintf(err, errlen, "%s: cannot convert to the pattern evaluation of %s", name, v->name);
    return ok;
}
