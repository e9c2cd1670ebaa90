/* Variant lookup and the parts of rule options every variant shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

/* True when word is one of the space-separated words of list (NULL: none). */
static bool word_in_list(const char *word, const char *list)
{
    size_t n = strlen(word);
    if (!list || n == 0)
        return false;
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return true;
    return false;
}

const Variant *variant_by_name(const char *name)
{
    for (int i = 0; variant_at(i); i++)
        if (strcmp(name, variant_at(i)->name) == 0 || word_in_list(name, variant_at(i)->aliases))
            return variant_at(i);
    return NULL;
}

const Variant *variant_by_hub_name(const char *name)
{
    const Variant *v = variant_by_name(name);
    for (int i = 0; !v && variant_at(i); i++)
        for (const char *const *a = variant_at(i)->hub_aliases; a && *a && !v; a++)
            if (strcmp(name, *a) == 0)
                v = variant_at(i);
    return v;
}

const Variant *variant_by_pdn_gametype(int number)
{
    for (int i = 0; variant_at(i); i++)
        if (variant_at(i)->pdn_gametype == number)
            return variant_at(i);
    return NULL;
}

int variant_index(const Variant *v)
{
    for (int i = 0; variant_at(i); i++)
        if (variant_at(i) == v)
            return i;
    return -1;
}

char *variant_names(const char *separator, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; variant_at(i) && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? separator : "", variant_at(i)->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

int variant_square_at(const Variant *v, int row, int col)
{
    for (int sq = 0; sq < 64; sq++) {
        if (!((v->board >> sq) & 1))
            continue;
        int r, c;
        v->square_cell(sq, &r, &c);
        if (r == row && c == col)
            return sq;
    }
    return -1;
}

Rules rules_default(const Variant *v) { return v->rules_default(); }

bool rules_choice(const char *val, size_t vallen, const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == vallen && memcmp(val, names[i], vallen) == 0) {
            *out = i;
            return true;
        }
    return false;
}

bool rules_number(const char *val, size_t vallen, int max, int *out)
{
    char buf[16];
    if (vallen == 0 || vallen >= sizeof buf)
        return false;
    memcpy(buf, val, vallen);
    buf[vallen] = '\0';
    char *end;
    long n = strtol(buf, &end, 10);
    if (*end || n < 0 || n > max)
        return false;
    *out = (int)n;
    return true;
}

bool rules_unknown(const Variant *v, const char *key, size_t keylen, char *err, size_t errlen)
{
    snprintf(err, errlen, "bad rules: unknown option '%.*s' (%s)", (int)keylen, key, v->rules_keys);
    return false;
}

bool rules_bad_value(const char *key, size_t keylen, const char *val, size_t vallen, char *err,
                     size_t errlen)
{
    snprintf(err, errlen, "bad rules: '%.*s' is no value for %.*s", (int)vallen, val, (int)keylen, key);
    return false;
}

bool rules_parse(const Variant *v, Rules *rules, const char *text, char *err, size_t errlen)
{
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq) {
            snprintf(err, errlen, "bad rules: '%.*s' is not key=value", (int)len, p);
            return false;
        }
        if (!v->rules_option(rules, p, (size_t)(eq - p), eq + 1, len - (size_t)(eq - p) - 1,
                          err, errlen))
            return false;
        p += len;
        if (*p == ',')
            p++;
    }
    return true;
}
