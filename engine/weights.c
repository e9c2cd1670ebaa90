/* Weights: defaults, names and the text format. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "text_input.h"
#include "weights.h"

/* Longest token quoted back in an error message. */
#define QUOTE_MAX 40
/* Missing names listed by name before "and N more". */
#define MISSING_LISTED 4
/* A weights file is a few kilobytes; a larger one is not a weights file. */
#define WEIGHTS_FILE_MAX (1u << 20)

/* The header line naming the variant: "variant turkish". */
#define VARIANT_KEY "variant"

/* The weights that have names: those of the linear features (pattern weights are a table). */
static int linear_count(const EvalSpec *spec) { return 2 * spec->nfeatures; }

bool weights_init(Weights *w, const EvalSpec *spec)
{
    int n = weights_count(spec);
    *w = (Weights){ .spec = spec, .count = n, .w = calloc((size_t)n, sizeof *w->w) };
    if (!w->w) {
        *w = (Weights){ 0 };
        return false;
    }
    return true;
}

bool weights_equal(const Weights *a, const Weights *b)
{
    return a->spec == b->spec && a->count == b->count &&
           memcmp(a->w, b->w, (size_t)a->count * sizeof a->w[0]) == 0;
}

void weights_free(Weights *w)
{
    free(w->w);
    *w = (Weights){ 0 };
}

/* The linear weights from values, the pattern weights 0. */
static bool weights_fill(Weights *w, const EvalSpec *spec, const int32_t *values)
{
    if (!weights_init(w, spec))
        return false;
    memcpy(w->w, values, (size_t)linear_count(spec) * sizeof w->w[0]);
    return true;
}

bool weights_default(Weights *w, const EvalSpec *spec) { return weights_fill(w, spec, spec->defaults); }

bool weights_material_only(Weights *w, const EvalSpec *spec) { return weights_fill(w, spec, spec->material_only); }

bool weights_copy(Weights *dst, const Weights *src)
{
    if (!weights_init(dst, src->spec))
        return false;
    memcpy(dst->w, src->w, (size_t)src->count * sizeof src->w[0]);
    return true;
}

bool weights_convert(Weights *dst, const EvalSpec *spec, const Weights *src)
{
    if (spec->nfeatures != src->spec->nfeatures || strcmp(spec->variant, src->spec->variant) != 0)
        return false;
    return weights_fill(dst, spec, src->w);
}

const char *weight_name(const EvalSpec *spec, int index)
{
    return index >= 0 && index < linear_count(spec) ? spec->weight_names[index] : NULL;
}

/* Lookup of a name that is not NUL-terminated (a token inside a line). */
static int index_of(const EvalSpec *spec, const char *name, size_t len)
{
    for (int i = 0; i < linear_count(spec); i++)
        if (strlen(spec->weight_names[i]) == len && memcmp(spec->weight_names[i], name, len) == 0)
            return i;
    return -1;
}

int weight_index(const EvalSpec *spec, const char *name) { return index_of(spec, name, strlen(name)); }

__attribute__((format(printf, 3, 4)))
static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Not isspace(): the format must not depend on the locale. */
static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && is_blank(*p))
        p++;
    return p;
}

static const char *token_end(const char *p, const char *end)
{
    while (p < end && !is_blank(*p))
        p++;
    return p;
}

/* Decimal integer with an optional sign filling all of [p, end).  Returns 0 when it is one
 * and fits int32, 1 when it is not an integer, 2 when it is out of range. */
static int parse_int32(const char *p, const char *end, int32_t *out)
{
    bool negative = false;
    if (p < end && (*p == '+' || *p == '-'))
        negative = *p++ == '-';
    if (p == end)
        return 1;
    int64_t value = 0;
    bool too_big = false;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return 1;
        if (!too_big)
            value = value * 10 + (*p - '0');
        too_big = too_big || value > (int64_t)INT32_MAX + 1;
    }
    if (negative)
        value = -value;
    if (too_big || value > INT32_MAX || value < INT32_MIN)
        return 2;
    *out = (int32_t)value;
    return 0;
}

/* A token of the text as an error message quotes it. */
typedef struct Quoted {
    char text[4 * QUOTE_MAX + 4];
} Quoted;

static Quoted quote(const char *p, const char *end)
{
    Quoted q;
    text_quote(q.text, sizeof q.text, p, (size_t)(end - p), QUOTE_MAX);
    return q;
}

/* Parsing state shared by the lines of one text. */
typedef struct Parse {
    Weights values;
    long set_on_line[EVAL_MAX_WEIGHTS]; /* 0 while unnamed */
    long variant_line;                  /* line of the "variant" header, 0 while none */
    const char *source;
    char *err;
    size_t errlen;
} Parse;

/* "variant NAME": the weights must be for the variant the caller expects. */
static bool parse_variant(Parse *ps, const char *p, const char *end, long line)
{
    if (ps->variant_line)
        return fail(ps->err, ps->errlen, "%s:%ld: second 'variant' line (first on line %ld)", ps->source,
                    line, ps->variant_line);
    const char *name_end = token_end(p, end);
    const char *expected = ps->values.spec->variant;
    if (p == end || skip_blanks(name_end, end) != end)
        return fail(ps->err, ps->errlen, "%s:%ld: 'variant' needs one name, e.g. 'variant %s'", ps->source,
                    line, expected);
    if ((size_t)(name_end - p) != strlen(expected) || memcmp(p, expected, strlen(expected)) != 0)
        return fail(ps->err, ps->errlen, "%s:%ld: weights for variant '%s', not %s", ps->source, line,
                    quote(p, name_end).text, expected);
    ps->variant_line = line;
    return true;
}

static bool parse_line(Parse *ps, const char *p, const char *end, long line)
{
    const char *hash = memchr(p, '#', (size_t)(end - p));
    if (hash)
        end = hash;
    while (end > p && is_blank(end[-1])) /* a CRLF line end, trailing blanks */
        end--;
    const char *name = skip_blanks(p, end);
    if (name == end)
        return true;
    const char *name_end = token_end(name, end);
    if ((size_t)(name_end - name) == strlen(VARIANT_KEY) && memcmp(name, VARIANT_KEY, strlen(VARIANT_KEY)) == 0)
        return parse_variant(ps, skip_blanks(name_end, end), end, line);
    const EvalSpec *spec = ps->values.spec;
    int index = index_of(spec, name, (size_t)(name_end - name));
    if (index < 0)
        return fail(ps->err, ps->errlen, "%s:%ld: unknown weight '%s'", ps->source, line,
                    quote(name, name_end).text);
    if (ps->set_on_line[index])
        return fail(ps->err, ps->errlen, "%s:%ld: duplicate weight '%s' (first on line %ld)",
                    ps->source, line, spec->weight_names[index], ps->set_on_line[index]);

    const char *value = skip_blanks(name_end, end);
    const char *value_end = token_end(value, end);
    if (value == end)
        return fail(ps->err, ps->errlen, "%s:%ld: weight '%s' has no value", ps->source, line,
                    spec->weight_names[index]);
    switch (parse_int32(value, value_end, &ps->values.w[index])) {
    case 1:
        return fail(ps->err, ps->errlen, "%s:%ld: value '%s' of '%s' is not an integer",
                    ps->source, line, quote(value, value_end).text, spec->weight_names[index]);
    case 2:
        return fail(ps->err, ps->errlen, "%s:%ld: value '%s' of '%s' is out of range (int32)",
                    ps->source, line, quote(value, value_end).text, spec->weight_names[index]);
    default:
        break;
    }
    const char *rest = skip_blanks(value_end, end);
    if (rest != end) {
        return fail(ps->err, ps->errlen, "%s:%ld: unexpected text '%s' after the value of '%s'",
                    ps->source, line, quote(rest, end).text, spec->weight_names[index]);
    }
    ps->set_on_line[index] = line;
    return true;
}

/* Names every unset weight (the first few) in one message at the last line. */
static bool report_missing(const Parse *ps, long line)
{
    char list[256] = "";
    size_t used = 0;
    int missing = 0;
    const EvalSpec *spec = ps->values.spec;
    for (int i = 0; i < linear_count(spec); i++) {
        if (ps->set_on_line[i])
            continue;
        if (missing++ < MISSING_LISTED && used < sizeof list) {
            int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", spec->weight_names[i]);
            used += n > 0 ? (size_t)n : 0;
        }
    }
    if (missing == 0)
        return true;
    if (missing > MISSING_LISTED)
        return fail(ps->err, ps->errlen, "%s:%ld: %d weights missing: %s and %d more", ps->source, line,
                    missing, list, missing - MISSING_LISTED);
    return fail(ps->err, ps->errlen, "%s:%ld: %s missing: %s", ps->source, line,
                missing == 1 ? "weight" : "weights", list);
}

bool weights_parse_text(Weights *w, const EvalSpec *spec, const char *text, size_t len,
                        const char *source_name, char *err, size_t errlen)
{
    if (!text_prepare(source_name, &text, &len, err, errlen))
        return false;
    /* Parse into new weights so that a bad file leaves *w untouched. */
    Parse ps = { .source = source_name, .err = err, .errlen = errlen };
    if (!weights_init(&ps.values, spec))
        return fail(err, errlen, "%s: out of memory", source_name);
    long line = 0;
    for (const char *p = text, *stop = text + len; p < stop;) {
        const char *end = memchr(p, '\n', (size_t)(stop - p));
        if (!end)
            end = stop;
        if (!parse_line(&ps, p, end, ++line)) {
            weights_free(&ps.values);
            return false;
        }
        p = end < stop ? end + 1 : end;
    }
    if (!report_missing(&ps, line > 0 ? line : 1)) {
        weights_free(&ps.values);
        return false;
    }
    *w = ps.values;
    return true;
}

bool weights_parse(Weights *w, const EvalSpec *spec, const char *text, const char *source_name,
                   char *err, size_t errlen)
{
    return weights_parse_text(w, spec, text, strlen(text), source_name, err, errlen);
}

bool weights_load(Weights *w, const EvalSpec *spec, const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    if (!text_file_read(path, WEIGHTS_FILE_MAX, &text, &len, err, errlen))
        return false;
    bool ok = weights_parse_text(w, spec, text, len, path, err, errlen);
    free(text);
    return ok;
}

bool weights_write(const Weights *w, FILE *out)
{
    const EvalSpec *spec = w->spec;
    if (fprintf(out, "# dama evaluation weights (terms: engine/%s_eval_features.h).\n"
                     "# One \"name value\" per line; '#' starts a comment.  Unit: 1/100 of a man.\n"
                     "# NAME_MG counts with many men on the board, NAME_EG with few: the engine\n"
                     "# blends the two by the number of men left.\n"
                     VARIANT_KEY " %s\n", spec->variant, spec->variant) < 0)
        return false;
    for (int f = 0; f < spec->nfeatures; f++) {
        if (fprintf(out, "\n# %s\n%s %d\n%s %d\n", spec->feature_why[f], spec->weight_names[2 * f],
                    (int)w->w[2 * f], spec->weight_names[2 * f + 1], (int)w->w[2 * f + 1]) < 0)
            return false;
    }
    return fflush(out) == 0 && !ferror(out);
}

bool weights_save(const Weights *w, const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "%s: path too long", path);
        return false;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
        return false;
    }
    bool ok = weights_write(w, f);
    ok = fflush(f) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}
