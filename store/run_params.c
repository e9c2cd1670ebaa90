/* Rewriting the row ids named in a run's params text (see run_params.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "run_params.h"

typedef struct Output {
    char *buf;
    size_t len, used;
    bool full;
} Output;

static void put(Output *o, const char *text, size_t n)
{
    if (o->used + n >= o->len) {
        o->full = true;
        return;
    }
    memcpy(o->buf + o->used, text, n);
    o->used += n;
    o->buf[o->used] = '\0';
}

/* The kind of row key= names, or -1 for a key that names none. */
static int key_kind(const char *key, size_t n)
{
    static const struct { const char *key; ParamsIdKind kind; } keys[] = {
        { "weights", PARAMS_ID_WEIGHTS }, { "a", PARAMS_ID_WEIGHTS }, { "b", PARAMS_ID_WEIGHTS },
        { "train_run", PARAMS_ID_RUN }, { "runs", PARAMS_ID_RUN },
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].key) == n && memcmp(keys[i].key, key, n) == 0)
            return (int)keys[i].kind;
    return -1;
}

/* A value that is ids only: digits, and for runs= commas between them. */
static bool ids_only(const char *v, size_t n, bool list)
{
    bool digit_before = false;
    for (size_t i = 0; i < n; i++) {
        if (isdigit((unsigned char)v[i]))
            digit_before = true;
        else if (v[i] == ',' && list && digit_before)
            digit_before = false;
        else
            return false;
    }
    return digit_before;
}

/* The value's ids, each through lookup, with the commas between them. */
static bool put_ids(Output *o, const char *v, size_t n, ParamsIdKind kind, ParamsIdLookup lookup, void *ctx)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        int64_t id = 0;
        while (j < n && v[j] != ',') {
            int digit = v[j++] - '0';
            if (id > (INT64_MAX - digit) / 10) return false; /* not an id of any file */
            id = 10 * id + digit;
        }
        int64_t to = lookup(ctx, kind, id);
        if (to == PARAMS_ID_FAILED) return false;
        if (to >= 0 && to != id) { /* an id that stays is kept as written (leading zeros too) */
            char num[24];
            put(o, num, (size_t)snprintf(num, sizeof num, "%" PRId64, to));
        } else {
            put(o, v + i, j - i);
        }
        if (j < n) put(o, ",", 1);
        i = j + 1;
    }
    return true;
}

bool run_params_remap(const char *params, ParamsIdLookup lookup, void *ctx, char *out, size_t len)
{
    Output o = { out, len, 0, len == 0 };
    if (len) out[0] = '\0';
    const char *p = params;
    int depth = 0; /* inside a=engine:NAME(COMMAND): the command's words are its own */
    while (*p) {
        size_t gap = strspn(p, " ");
        put(&o, p, gap);
        p += gap;
        size_t word = strcspn(p, " ");
        const char *eq = memchr(p, '=', word);
        int kind = eq ? key_kind(p, (size_t)(eq - p)) : -1;
        size_t key = eq ? (size_t)(eq - p) + 1 : 0;
        if (depth == 0 && kind >= 0 && ids_only(p + key, word - key, kind == PARAMS_ID_RUN)) {
            put(&o, p, key);
            if (!put_ids(&o, p + key, word - key, (ParamsIdKind)kind, lookup, ctx)) return false;
        } else {
            put(&o, p, word);
        }
        for (size_t i = 0; i < word; i++)
            depth += p[i] == '(' ? 1 : p[i] == ')' && depth > 0 ? -1 : 0;
        p += word;
    }
    return !o.full;
}
