/* Weights: defaults, names and the file format. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "text_input.h"
#include "variant.h"
#include "weights.h"
#include "weights_table.h"

/* Longest token quoted back in an error message. */
#define QUOTE_MAX 40
/* Missing names listed by name before "and N more". */
#define MISSING_LISTED 4
/* The header lines (weights.h). */
#define VARIANT_KEY "variant"
#define EVAL_KEY "eval"
#define FEATURE_SET_KEY "feature-set"
#define PATTERNS_KEY "patterns"
#define HASH_KEY "hash"
#define BINARY_KEY "binary"
/* The one compression the binary table has. */
#define BINARY_FORMAT "zlib"

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
    /* A pattern evaluation's header: the line of each (0 while none) and its value. */
    long eval_line, feature_set_line, patterns_line, hash_line, binary_line;
    uint64_t feature_set, patterns, hash, binary_bytes;
    bool linear_only; /* weights_parse_linear_values: the pattern header lines skipped */
    const char *source;
    char *err;
    size_t errlen;
} Parse;

static bool token_is(const char *p, const char *end, const char *word)
{
    return (size_t)(end - p) == strlen(word) && memcmp(p, word, strlen(word)) == 0;
}

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
    if (!token_is(p, name_end, expected))
        return fail(ps->err, ps->errlen, "%s:%ld: weights for variant '%s', not %s", ps->source, line,
                    quote(p, name_end).text, expected);
    ps->variant_line = line;
    return true;
}

static const char *eval_name(const EvalSpec *spec) { return eval_spec_is_pattern(spec) ? "pattern" : "linear"; }

/* "eval linear|pattern": the weights must be for the evaluation of spec. */
static bool parse_eval(Parse *ps, const char *p, const char *end, long line)
{
    if (ps->eval_line)
        return fail(ps->err, ps->errlen, "%s:%ld: second 'eval' line (first on line %ld)", ps->source, line,
                    ps->eval_line);
    const char *name_end = token_end(p, end);
    const char *expected = eval_name(ps->values.spec);
    if (p == end || skip_blanks(name_end, end) != end)
        return fail(ps->err, ps->errlen, "%s:%ld: 'eval' needs one name, e.g. 'eval %s'", ps->source, line,
                    expected);
    if (!token_is(p, name_end, expected))
        return fail(ps->err, ps->errlen, "%s:%ld: weights for the '%s' evaluation, not the %s one", ps->source,
                    line, quote(p, name_end).text, expected);
    ps->eval_line = line;
    return true;
}

/* Unsigned decimal (or, for hex, 16 hex digits) filling all of [p, end). */
static bool parse_u64(const char *p, const char *end, bool hex, uint64_t *out)
{
    if (p == end || (hex && end - p != 16) || (!hex && end - p > 19))
        return false;
    uint64_t v = 0;
    for (; p < end; p++) {
        int d = *p >= '0' && *p <= '9' ? *p - '0'
              : hex && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
        if (d < 0)
            return false;
        v = v * (hex ? 16 : 10) + (uint64_t)d;
    }
    *out = v;
    return true;
}

/* "KEY VALUE" of a pattern header: once, in a pattern file only, with a number. */
static bool parse_number_line(Parse *ps, const char *key, const char *p, const char *end, long line,
                              long *seen, uint64_t *value, bool hex)
{
    if (!eval_spec_is_pattern(ps->values.spec))
        return fail(ps->err, ps->errlen, "%s:%ld: '%s' belongs to pattern weights, not linear ones",
                    ps->source, line, key);
    if (*seen)
        return fail(ps->err, ps->errlen, "%s:%ld: second '%s' line (first on line %ld)", ps->source, line,
                    key, *seen);
    if (!parse_u64(p, end, hex, value))
        return fail(ps->err, ps->errlen, "%s:%ld: '%s' needs %s, not '%s'", ps->source, line, key,
                    hex ? "16 hex digits (0-9, a-f)" : "a whole number", quote(p, end).text);
    *seen = line;
    return true;
}

/* The pattern header lines: the values must be those of spec. */
static bool parse_pattern_header(Parse *ps, const char *key_end_name, const char *p, const char *end,
                                 long line)
{
    const EvalSpec *spec = ps->values.spec;
    if (strcmp(key_end_name, FEATURE_SET_KEY) == 0) {
        if (!parse_number_line(ps, FEATURE_SET_KEY, p, end, line, &ps->feature_set_line, &ps->feature_set, false))
            return false;
        if (ps->feature_set != spec->feature_set_version)
            return fail(ps->err, ps->errlen, "%s:%ld: feature-set %" PRIu64 ", but this build's %s pattern "
                        "evaluation is feature-set %" PRIu32, ps->source, line, ps->feature_set,
                        spec->variant, spec->feature_set_version);
        return true;
    }
    if (strcmp(key_end_name, PATTERNS_KEY) == 0) {
        if (!parse_number_line(ps, PATTERNS_KEY, p, end, line, &ps->patterns_line, &ps->patterns, false))
            return false;
        if (ps->patterns != (uint64_t)spec->npattern_states)
            return fail(ps->err, ps->errlen, "%s:%ld: patterns %" PRIu64 ", but this build's %s pattern "
                        "evaluation has %d", ps->source, line, ps->patterns, spec->variant, spec->npattern_states);
        return true;
    }
    if (strcmp(key_end_name, HASH_KEY) == 0)
        return parse_number_line(ps, HASH_KEY, p, end, line, &ps->hash_line, &ps->hash, true);
    /* BINARY_KEY: "binary zlib BYTES" */
    const char *format_end = token_end(p, end);
    if (!token_is(p, format_end, BINARY_FORMAT))
        return fail(ps->err, ps->errlen, "%s:%ld: binary data must be '" BINARY_FORMAT "', not '%s'",
                    ps->source, line, quote(p, format_end).text);
    return parse_number_line(ps, BINARY_KEY, skip_blanks(format_end, end), end, line, &ps->binary_line,
                             &ps->binary_bytes, false);
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
    const char *rest_of_line = skip_blanks(name_end, end);
    if (token_is(name, name_end, VARIANT_KEY))
        return parse_variant(ps, rest_of_line, end, line);
    static const char *const pattern_keys[] = { EVAL_KEY, FEATURE_SET_KEY, PATTERNS_KEY, HASH_KEY, BINARY_KEY };
    for (size_t k = 0; k < sizeof pattern_keys / sizeof pattern_keys[0]; k++) {
        if (!token_is(name, name_end, pattern_keys[k]))
            continue;
        if (ps->linear_only)
            return true;
        return k == 0 ? parse_eval(ps, rest_of_line, end, line)
                      : parse_pattern_header(ps, pattern_keys[k], rest_of_line, end, line);
    }
    const EvalSpec *spec = ps->values.spec;
    int index = index_of(spec, name, (size_t)(name_end - name));
    if (index < 0)
        return fail(ps->err, ps->errlen, "%s:%ld: unknown weight '%s'", ps->source, line,
                    quote(name, name_end).text);
    if (ps->set_on_line[index])
        return fail(ps->err, ps->errlen, "%s:%ld: duplicate weight '%s' (first on line %ld)",
                    ps->source, line, spec->weight_names[index], ps->set_on_line[index]);

    const char *value = rest_of_line;
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

/* The text head of a file: up to and including the "binary" line, or all of it.  Binary
 * data may hold any byte, so only the head is text. */
static size_t head_length(const char *text, size_t len)
{
    for (const char *p = text, *stop = text + len; p < stop;) {
        const char *end = memchr(p, '\n', (size_t)(stop - p));
        const char *line_end = end ? end : stop;
        const char *name = skip_blanks(p, line_end);
        if (token_is(name, token_end(name, line_end), BINARY_KEY))
            return (size_t)((end ? end + 1 : stop) - text);
        p = end ? end + 1 : stop;
    }
    return len;
}

/* The header lines of a pattern file not seen: named at the last line. */
static bool report_pattern_header(const Parse *ps, long line)
{
    const struct {
        long seen;
        const char *what;
    } lines[] = {
        { ps->eval_line, "eval pattern" }, { ps->feature_set_line, FEATURE_SET_KEY " N" },
        { ps->patterns_line, PATTERNS_KEY " N" }, { ps->hash_line, HASH_KEY " HEX" },
        { ps->binary_line, BINARY_KEY " " BINARY_FORMAT " BYTES" },
    };
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++)
        if (!lines[k].seen)
            return fail(ps->err, ps->errlen, "%s:%ld: no '%s' line: not the weights of a pattern evaluation",
                        ps->source, line, lines[k].what);
    return true;
}

/* The binary table after the head, then the hash of everything. */
static bool read_table(Parse *ps, const unsigned char *data, size_t len)
{
    if (len < ps->binary_bytes)
        return fail(ps->err, ps->errlen, "%s: truncated: the pattern table has %zu of its %" PRIu64 " bytes",
                    ps->source, len, ps->binary_bytes);
    if (len > ps->binary_bytes)
        return fail(ps->err, ps->errlen, "%s: %" PRIu64 " trailing bytes after the pattern table", ps->source,
                    (uint64_t)len - ps->binary_bytes);
    TableStatus status = weights_table_inflate(&ps->values, linear_count(ps->values.spec), data, len);
    if (status != TABLE_OK)
        return fail(ps->err, ps->errlen, "%s: pattern table (line %ld): %s", ps->source, ps->binary_line,
                    weights_table_status_text(status));
    uint64_t hash = weights_hash(&ps->values);
    if (hash != ps->hash)
        return fail(ps->err, ps->errlen, "%s:%ld: hash mismatch: the file says %016" PRIx64 ", its weights "
                    "hash to %016" PRIx64, ps->source, ps->hash_line, ps->hash, hash);
    return true;
}

static bool parse_head(Parse *ps, const char *text, size_t len)
{
    long line = 0;
    for (const char *p = text, *stop = text + len; p < stop;) {
        const char *end = memchr(p, '\n', (size_t)(stop - p));
        if (!end)
            end = stop;
        if (!parse_line(ps, p, end, ++line))
            return false;
        p = end < stop ? end + 1 : end;
    }
    if (line == 0)
        line = 1;
    return report_missing(ps, line) && (!eval_spec_is_pattern(ps->values.spec) || report_pattern_header(ps, line));
}

static bool parse_bytes(Weights *w, const EvalSpec *spec, const char *text, size_t len,
                        const char *source_name, bool linear_only, char *err, size_t errlen)
{
    size_t head_len = head_length(text, len);
    const unsigned char *table = (const unsigned char *)text + head_len;
    size_t table_len = len - head_len;
    if (!text_prepare(source_name, &text, &head_len, err, errlen))
        return false;
    /* Parse into new weights so that a bad file leaves *w untouched. */
    Parse ps = { .source = source_name, .err = err, .errlen = errlen, .linear_only = linear_only };
    if (!weights_init(&ps.values, spec))
        return fail(err, errlen, "%s: out of memory", source_name);
    if (!parse_head(&ps, text, head_len) || (eval_spec_is_pattern(spec) && !read_table(&ps, table, table_len))) {
        weights_free(&ps.values);
        return false;
    }
    *w = ps.values;
    return true;
}

bool weights_parse_text(Weights *w, const EvalSpec *spec, const char *text, size_t len,
                        const char *source_name, char *err, size_t errlen)
{
    return parse_bytes(w, spec, text, len, source_name, false, err, errlen);
}

bool weights_parse_linear_values(Weights *w, const EvalSpec *spec, const char *text, size_t len,
                                 const char *source_name, char *err, size_t errlen)
{
    if (eval_spec_is_pattern(spec))
        return fail(err, errlen, "%s: weights_parse_linear_values needs a linear spec", source_name);
    return parse_bytes(w, spec, text, len, source_name, true, err, errlen);
}

bool weights_parse(Weights *w, const EvalSpec *spec, const char *text, const char *source_name,
                   char *err, size_t errlen)
{
    return weights_parse_text(w, spec, text, strlen(text), source_name, err, errlen);
}

/* Reads the file at path and parses it as weights of spec, or else of v's evaluation its
 * eval line names. */
static bool load_file(Weights *w, const EvalSpec *spec, const Variant *v, const char *path,
                      const atomic_bool *stop, char *err, size_t errlen)
{
    char *text;
    size_t len;
    const TextLimit limit = { "a weights file", WEIGHTS_FILE_MAX, stop };
    if (!text_file_read(path, &limit, &text, &len, err, errlen))
        return false;
    bool ok = spec ? weights_parse_text(w, spec, text, len, path, err, errlen)
                   : weights_parse_variant(w, v, text, len, path, err, errlen);
    free(text);
    return ok;
}

bool weights_load(Weights *w, const EvalSpec *spec, const char *path, char *err, size_t errlen)
{
    return load_file(w, spec, NULL, path, NULL, err, errlen);
}

bool weights_text_is_pattern(const char *text, size_t len)
{
    size_t head_len = head_length(text, len);
    for (const char *p = text, *stop = text + head_len; p < stop;) {
        const char *end = memchr(p, '\n', (size_t)(stop - p));
        const char *line_end = end ? end : stop;
        const char *comment = memchr(p, '#', (size_t)(line_end - p));
        if (comment)
            line_end = comment;
        while (line_end > p && is_blank(line_end[-1]))
            line_end--;
        const char *key = skip_blanks(p, line_end);
        const char *key_end = token_end(key, line_end);
        if (token_is(key, key_end, EVAL_KEY)) {
            const char *value = skip_blanks(key_end, line_end);
            return token_is(value, token_end(value, line_end), "pattern");
        }
        p = end ? end + 1 : stop;
    }
    return false;
}

const EvalSpec *weights_spec_for(const Variant *v, const char *text, size_t len, const char *source_name,
                                 char *err, size_t errlen)
{
    bool pattern = weights_text_is_pattern(text, len);
    const EvalSpec *spec = pattern ? v->pattern_eval : v->eval;
    if (!spec)
        fail(err, errlen, "%s: %s weights, but %s has no %s evaluation in this build", source_name,
             pattern ? "pattern" : "linear", v->name, pattern ? "pattern" : "linear");
    return spec;
}

bool weights_parse_variant(Weights *w, const Variant *v, const char *text, size_t len,
                           const char *source_name, char *err, size_t errlen)
{
    const EvalSpec *spec = weights_spec_for(v, text, len, source_name, err, errlen);
    return spec && weights_parse_text(w, spec, text, len, source_name, err, errlen);
}

bool weights_load_variant(Weights *w, const Variant *v, const char *path, char *err, size_t errlen)
{
    return load_file(w, NULL, v, path, NULL, err, errlen);
}

bool weights_load_variant_until(Weights *w, const Variant *v, const char *path, const atomic_bool *stop,
                                char *err, size_t errlen)
{
    return load_file(w, NULL, v, path, stop, err, errlen);
}

/* The text head: comments, header lines, the linear weights and, when table_len is not
 * SIZE_MAX, the line announcing the binary table. */
static bool write_head(const Weights *w, FILE *out, size_t table_len)
{
    const EvalSpec *spec = w->spec;
    if (fprintf(out, "# dama evaluation weights (terms: engine/games/%s/%s_eval_features.h).\n"
                     "# One \"name value\" per line; '#' starts a comment.  Unit: 1/100 of a man.\n"
                     "# NAME_MG counts with many men on the board, NAME_EG with few: the engine\n"
                     "# blends the two by the number of men left.\n", spec->variant, spec->variant) < 0)
        return false;
    if (eval_spec_is_pattern(spec) &&
        fprintf(out, "# The pattern weights follow the last line, 'binary " BINARY_FORMAT " BYTES': BYTES\n"
                     "# bytes of int32 little-endian values, zlib-compressed; 'hash' is FNV-1a 64 of\n"
                     "# the whole weight vector (engine/weights.h).\n") < 0)
        return false;
    if (fprintf(out, VARIANT_KEY " %s\n", spec->variant) < 0)
        return false;
    if (eval_spec_is_pattern(spec) &&
        fprintf(out, EVAL_KEY " pattern\n" FEATURE_SET_KEY " %" PRIu32 "\n" PATTERNS_KEY " %d\n" HASH_KEY
                     " %016" PRIx64 "\n", spec->feature_set_version, spec->npattern_states, weights_hash(w)) < 0)
        return false;
    for (int f = 0; f < spec->nfeatures; f++) {
        if (fprintf(out, "\n# %s\n%s %d\n%s %d\n", spec->feature_why[f], spec->weight_names[2 * f],
                    (int)w->w[2 * f], spec->weight_names[2 * f + 1], (int)w->w[2 * f + 1]) < 0)
            return false;
    }
    if (table_len != SIZE_MAX && fprintf(out, "\n" BINARY_KEY " " BINARY_FORMAT " %zu\n", table_len) < 0)
        return false;
    return fflush(out) == 0 && !ferror(out);
}

void weights_image_free(WeightsImage *img)
{
    free(img->head);
    free(img->table);
    *img = (WeightsImage){ 0 };
}

bool weights_image(const Weights *w, WeightsImage *img)
{
    *img = (WeightsImage){ 0 };
    bool pattern = eval_spec_is_pattern(w->spec);
    if (pattern && !weights_table_compress(w, linear_count(w->spec), &img->table, &img->table_len))
        return false;
    FILE *f = open_memstream(&img->head, &img->head_len);
    if (!f) {
        weights_image_free(img);
        return false;
    }
    bool ok = write_head(w, f, pattern ? img->table_len : SIZE_MAX);
    if (fclose(f) != 0 || !ok) {
        weights_image_free(img);
        return false;
    }
    return true;
}

bool weights_write(const Weights *w, FILE *out)
{
    if (!eval_spec_is_pattern(w->spec))
        return write_head(w, out, SIZE_MAX);
    WeightsImage img;
    if (!weights_image(w, &img))
        return false;
    bool ok = fwrite(img.head, 1, img.head_len, out) == img.head_len &&
              fwrite(img.table, 1, img.table_len, out) == img.table_len;
    weights_image_free(&img);
    return ok && fflush(out) == 0 && !ferror(out);
}

bool weights_save(const Weights *w, const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        snprintf(err, errlen, "%s: path too long", path);
        return false;
    }
    FILE *f = fopen(tmp, "wb");
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
