/* Variant lookup and the parts of rule options every variant shares. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

const Variant *variant_by_name(const char *name)
{
    if (strcmp(name, "turkish") == 0 || strcmp(name, "tr") == 0)
        return &turkish_variant;
    if (strcmp(name, "international") == 0 || strcmp(name, "intl") == 0)
        return &international_variant;
    return NULL;
}

const Variant *variant_at(int i)
{
    static const Variant *const all[] = { &turkish_variant, &international_variant };
    return i >= 0 && i < (int)(sizeof all / sizeof all[0]) ? all[i] : NULL;
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
