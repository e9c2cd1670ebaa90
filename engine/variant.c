/* Variant lookup and rule options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

const Variant *variant_by_name(const char *name)
{
    if (strcmp(name, "turkish") == 0)
        return &turkish_variant;
    if (strcmp(name, "international") == 0 || strcmp(name, "intl") == 0)
        return &international_variant;
    return NULL;
}

Rules rules_default(void)
{
    return (Rules){ .promotion = PROMOTE_MAN, .kvm = KVM_DRAW, .noprogress_plies = 100 };
}

/* One "key=value" option; returns false with a message on anything unknown. */
static bool rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                         size_t vallen, char *err, size_t errlen)
{
#define IS(s, n, lit) ((n) == sizeof(lit) - 1 && memcmp((s), (lit), (n)) == 0)
    if (IS(key, keylen, "promotion")) {
        if (IS(val, vallen, "man")) rules->promotion = PROMOTE_MAN;
        else if (IS(val, vallen, "stop")) rules->promotion = PROMOTE_STOP;
        else if (IS(val, vallen, "king")) rules->promotion = PROMOTE_KING;
        else goto bad_value;
        return true;
    }
    if (IS(key, keylen, "kvm")) {
        if (IS(val, vallen, "draw")) rules->kvm = KVM_DRAW;
        else if (IS(val, vallen, "win")) rules->kvm = KVM_WIN;
        else goto bad_value;
        return true;
    }
    if (IS(key, keylen, "noprogress")) {
        char buf[16];
        if (vallen == 0 || vallen >= sizeof buf)
            goto bad_value;
        memcpy(buf, val, vallen);
        buf[vallen] = '\0';
        char *end;
        long n = strtol(buf, &end, 10);
        if (*end || n < 0 || n > 100000)
            goto bad_value;
        rules->noprogress_plies = (int)n;
        return true;
    }
#undef IS
    snprintf(err, errlen, "bad rules: unknown option '%.*s' (promotion, kvm, noprogress)",
             (int)keylen, key);
    return false;
bad_value:
    snprintf(err, errlen, "bad rules: '%.*s' is no value for %.*s", (int)vallen, val,
             (int)keylen, key);
    return false;
}

bool rules_parse(Rules *rules, const char *text, char *err, size_t errlen)
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
        if (!rules_option(rules, p, (size_t)(eq - p), eq + 1, len - (size_t)(eq - p) - 1,
                          err, errlen))
            return false;
        p += len;
        if (*p == ',')
            p++;
    }
    return true;
}
