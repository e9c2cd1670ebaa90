/* The weights file of a pattern evaluation (weights.h): the text head, the zlib table, the
 * checks on reading, and the choice of spec by the file's "eval" line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pattern_spec_fixture.h"
#include "weights_store.h"
#include "store.h"
#include "test_util.h"
#include "test_tmpdir.h"
#include "weights.h"

static char tmpdir[64];
static uint64_t seed = 12;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Pattern weights with random values of every size, the int32 extremes among them. */
static void random_pattern_weights(Weights *w)
{
    assert_true(weights_init(w, pattern_fixture_spec()));
    uint64_t s = seed;
    for (int i = 0; i < w->count; i++) {
        uint64_t r = next_random(&s);
        w->w[i] = r % 4 == 0 ? 0 : r % 4 == 1 ? (int32_t)(r >> 32) : (int32_t)((r >> 32) % 201) - 100;
    }
    w->w[3] = INT32_MIN;
    w->w[w->count - 1] = INT32_MAX;
    w->w[w->count - 2] = INT32_MIN;
}

/* First occurrence of needle in [data, data + len), or NULL (memmem is not C11/POSIX). */
static const char *find(const char *data, size_t len, const char *needle, size_t n)
{
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(data + i, needle, n) == 0)
            return data + i;
    return NULL;
}

/* Turkish as a build without a pattern evaluation has it. */
static const Variant *linear_only_variant(void)
{
    static Variant v;
    v = turkish_variant;
    v.pattern_eval = NULL;
    return &v;
}

/* The file bytes of w (caller frees). */
static char *file_bytes(const Weights *w, size_t *len)
{
    char *data = NULL;
    FILE *f = open_memstream(&data, len);
    assert_non_null(f);
    assert_true(weights_write(w, f));
    assert_int_equal(fclose(f), 0);
    return data;
}

/* Bytes with the first occurrence of old replaced by new (caller frees). */
static char *replaced(const char *data, size_t len, const char *old, const char *new, size_t *out_len)
{
    const char *at = find(data, len, old, strlen(old));
    assert_non_null(at);
    size_t before = (size_t)(at - data), after = len - before - strlen(old);
    *out_len = before + strlen(new) + after;
    char *out = malloc(*out_len + 1);
    assert_non_null(out);
    memcpy(out, data, before);
    memcpy(out + before, new, strlen(new));
    memcpy(out + before + strlen(new), at + strlen(old), after);
    out[*out_len] = '\0';
    return out;
}

/* Parsing the bytes with spec fails with an error that holds needle. */
static void expect_error(const EvalSpec *spec, const char *data, size_t len, const char *needle)
{
    WEIGHTS_SCOPED w = { 0 };
    char err[512] = "";
    bool ok = weights_parse_text(&w, spec, data, len, "p.txt", err, sizeof err);
    if (ok || !strstr(err, needle))
        fail_msg("expected an error with '%s', got %s '%s'", needle, ok ? "success" : "error", err);
    assert_null(w.w); /* untouched */
    assert_null(strchr(err, '\n'));
}

static void test_pattern_round_trip_is_byte_identical(void **state)
{
    (void)state;
    WEIGHTS_SCOPED w = { 0 }, back = { 0 }, loaded = { 0 };
    random_pattern_weights(&w);
    size_t len, len2;
    char *data = file_bytes(&w, &len);
    char err[512] = "";
    assert_true(weights_parse_text(&back, pattern_fixture_spec(), data, len, "p.txt", err, sizeof err));
    assert_true(weights_equal(&w, &back));
    assert_int_equal(back.w[w.count - 1], INT32_MAX);
    assert_int_equal(back.w[w.count - 2], INT32_MIN);
    char *again = file_bytes(&back, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(data, again, len);

    /* The head is readable text with the header lines; the hash is FNV-1a 64 of the vector. */
    char hash_line[64];
    snprintf(hash_line, sizeof hash_line, "\nhash %016" PRIx64 "\n", weights_hash(&w));
    assert_non_null(find(data, len, hash_line, strlen(hash_line)));
    assert_non_null(find(data, len, "\nvariant turkish\neval pattern\nfeature-set 7\npatterns 1000\n", 55));
    assert_non_null(find(data, len, "\nMAN_MG ", 8));

    /* Through a file, saved atomically. */
    char path[128];
    snprintf(path, sizeof path, "%s/p.txt", tmpdir);
    assert_true(weights_save(&w, path, err, sizeof err));
    assert_true(weights_load_variant(&loaded, pattern_fixture_variant(), path, err, sizeof err));
    assert_ptr_equal(loaded.spec, pattern_fixture_spec());
    assert_true(weights_equal(&w, &loaded));
    free(data);
    free(again);
}

/* The hash of a known vector, worked by hand: FNV-1a 64 over the bytes 01 00 00 00 ff ff ff ff. */
static void test_hash_known_value(void **state)
{
    (void)state;
    int32_t values[2] = { 1, -1 };
    Weights w = { .spec = NULL, .count = 2, .w = values };
    uint64_t h = 0xcbf29ce484222325u;
    const unsigned char bytes[8] = { 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff };
    for (int i = 0; i < 8; i++)
        h = (h ^ bytes[i]) * 0x100000001b3u;
    assert_true(weights_hash(&w) == h);
}

static void test_pattern_header_errors(void **state)
{
    (void)state;
    WEIGHTS_SCOPED w = { 0 };
    random_pattern_weights(&w);
    size_t len, n;
    char *data = file_bytes(&w, &len);
    const EvalSpec *spec = pattern_fixture_spec();
    struct {
        const char *old, *new, *needle;
    } cases[] = {
        { "variant turkish", "variant international", "p.txt:8: weights for variant 'international', not turkish" },
        { "eval pattern", "eval linear", "p.txt:9: weights for the 'linear' evaluation, not the pattern one" },
        { "eval pattern\n", "\n", "no 'eval pattern' line" },
        { "feature-set 7", "feature-set 8", "p.txt:10: feature-set 8, but this build's turkish pattern evaluation is feature-set 7" },
        { "patterns 1000", "patterns 999", "p.txt:11: patterns 999, but this build's turkish pattern evaluation has 1000" },
        { "patterns 1000", "patterns x", "'patterns' needs a whole number" },
        { "hash ", "hash 0", "'hash' needs 16 hex digits" },
        { "\nbinary zlib", "\nbinary gzip", "binary data must be 'zlib'" },
        { "MAN_MG", "MAN_XX", "unknown weight 'MAN_XX'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *bad = replaced(data, len, cases[i].old, cases[i].new, &n);
        expect_error(spec, bad, n, cases[i].needle);
        free(bad);
    }
    /* A pattern file read as the linear evaluation, and a linear file as the pattern one. */
    expect_error(&turkish_eval_spec, data, len, "p.txt:9: weights for the 'pattern' evaluation, not the linear one");
    char *linear = test_read_file("data/weights/turkish.txt");
    assert_non_null(linear);
    expect_error(spec, linear, strlen(linear), "no 'eval pattern' line");
    free(linear);
    free(data);
}

/* The hash line changed by one digit. */
static void test_hash_mismatch(void **state)
{
    (void)state;
    WEIGHTS_SCOPED w = { 0 };
    random_pattern_weights(&w);
    size_t len, n;
    char *data = file_bytes(&w, &len);
    char good[32], bad_hash[32];
    uint64_t h = weights_hash(&w);
    snprintf(good, sizeof good, "hash %016" PRIx64, h);
    snprintf(bad_hash, sizeof bad_hash, "hash %016" PRIx64, h ^ 1);
    char *bad = replaced(data, len, good, bad_hash, &n);
    expect_error(pattern_fixture_spec(), bad, n, "p.txt:12: hash mismatch");
    free(bad);
    /* A linear value changed: the hash covers the whole vector. */
    char man[32];
    snprintf(man, sizeof man, "\nMAN_MG %d\n", (int)w.w[0]);
    bad = replaced(data, len, man, "\nMAN_MG 12345\n", &n);
    expect_error(pattern_fixture_spec(), bad, n, "hash mismatch");
    free(bad);
    free(data);
}

/* A file of the head of data and table as the binary part, with its byte count. */
static char *with_table(const char *data, size_t len, const unsigned char *table, size_t table_len, size_t *out_len)
{
    const char *line = find(data, len, "\nbinary zlib ", 13);
    assert_non_null(line);
    size_t head = (size_t)(line - data);
    char *out = malloc(head + 64 + table_len);
    assert_non_null(out);
    memcpy(out, data, head);
    int k = sprintf(out + head, "\nbinary zlib %zu\n", table_len);
    memcpy(out + head + (size_t)k, table, table_len);
    *out_len = head + (size_t)k + table_len;
    return out;
}

static void test_table_errors(void **state)
{
    (void)state;
    WEIGHTS_SCOPED w = { 0 };
    random_pattern_weights(&w);
    const EvalSpec *spec = pattern_fixture_spec();
    size_t len, n;
    char *data = file_bytes(&w, &len);

    /* Fewer bytes than the binary line says, and more. */
    expect_error(spec, data, len - 1, "p.txt: truncated: the pattern table has");
    char *longer = malloc(len + 1);
    memcpy(longer, data, len);
    longer[len] = 'x';
    expect_error(spec, longer, len + 1, "p.txt: 1 trailing bytes after the pattern table");
    free(longer);

    /* A byte of the stream changed: zlib's check sees it. */
    char *flipped = malloc(len);
    memcpy(flipped, data, len);
    flipped[len - 20] ^= 0x55;
    expect_error(spec, flipped, len, "p.txt: pattern table (line ");
    free(flipped);

    /* Streams of the wrong shape, each with a correct byte count. */
    size_t raw_len = (size_t)(w.count - 2 * spec->nfeatures) * 4;
    unsigned char *raw = calloc(raw_len + 8, 1);
    uLongf zlen = compressBound((uLong)raw_len + 8);
    unsigned char *z = malloc(zlen + 8);
    struct {
        size_t raw;
        const char *needle;
    } shapes[] = {
        { raw_len - 4, "fewer weights than the pattern states need" },
        { raw_len + 4, "more weights than the pattern states need" },
    };
    for (size_t i = 0; i < 2; i++) {
        uLongf zl = zlen;
        assert_int_equal(compress2(z, &zl, raw, (uLong)shapes[i].raw, Z_DEFAULT_COMPRESSION), Z_OK);
        char *bad = with_table(data, len, z, zl, &n);
        expect_error(spec, bad, n, shapes[i].needle);
        free(bad);
    }
    uLongf zl = zlen;
    assert_int_equal(compress2(z, &zl, raw, (uLong)raw_len, Z_DEFAULT_COMPRESSION), Z_OK);
    char *bad = with_table(data, len, z, zl - 3, &n); /* the stream cut, the count true */
    expect_error(spec, bad, n, "truncated zlib data");
    free(bad);
    memcpy(z + zl, "tail", 4); /* bytes after the stream's end, inside the count */
    bad = with_table(data, len, z, zl + 4, &n);
    expect_error(spec, bad, n, "bytes after the end of the zlib data");
    free(bad);
    bad = with_table(data, len, (const unsigned char *)"not zlib at all", 15, &n);
    expect_error(spec, bad, n, "corrupt zlib data");
    free(bad);
    bad = with_table(data, len, z, 0, &n);
    expect_error(spec, bad, n, "truncated zlib data");
    free(bad);
    free(raw);
    free(z);
    free(data);
}

/* Linear files read as before, by weights_load and by the variant loader. */
static void test_linear_file_still_reads(void **state)
{
    (void)state;
    const char *files[] = { "data/weights/turkish.txt", "data/weights/turkish-trained.txt" };
    for (int i = 0; i < 2; i++) {
        WEIGHTS_SCOPED a = { 0 }, b = { 0 }, c = { 0 };
        char err[512];
        assert_true(weights_load(&a, &turkish_eval_spec, files[i], err, sizeof err));
        assert_true(weights_load_variant(&b, &turkish_variant, files[i], err, sizeof err));
        assert_true(weights_load_variant(&c, pattern_fixture_variant(), files[i], err, sizeof err));
        assert_ptr_equal(b.spec, &turkish_eval_spec);
        assert_ptr_equal(c.spec, &turkish_eval_spec);
        assert_true(weights_equal(&a, &b));
        assert_true(weights_equal(&a, &c));
    }
    /* "eval linear" is the same as no line. */
    char *text = test_read_file("data/weights/turkish.txt");
    size_t n;
    char *with_eval = replaced(text, strlen(text), "variant turkish\n", "variant turkish\neval linear\n", &n);
    WEIGHTS_SCOPED d = { 0 };
    char err[512];
    assert_true(weights_parse_variant(&d, pattern_fixture_variant(), with_eval, n, "l.txt", err, sizeof err));
    assert_ptr_equal(d.spec, &turkish_eval_spec);
    /* A pattern header line in a linear file. */
    char *bad = replaced(text, strlen(text), "variant turkish\n", "variant turkish\npatterns 10\n", &n);
    expect_error(&turkish_eval_spec, bad, n, "p.txt:6: 'patterns' belongs to pattern weights, not linear ones");
    free(bad);
    free(with_eval);
    free(text);
}

/* The loader picks the spec the file's eval line names, and refuses one the variant lacks. */
static void test_loader_picks_spec(void **state)
{
    (void)state;
    WEIGHTS_SCOPED w = { 0 }, back = { 0 };
    random_pattern_weights(&w);
    size_t len;
    char *data = file_bytes(&w, &len);
    char err[512] = "";
    assert_true(weights_text_is_pattern(data, len));
    assert_true(weights_parse_variant(&back, pattern_fixture_variant(), data, len, "p.txt", err, sizeof err));
    assert_ptr_equal(back.spec, pattern_fixture_spec());
    assert_true(weights_equal(&w, &back));
    WEIGHTS_SCOPED none = { 0 };
    assert_false(weights_parse_variant(&none, linear_only_variant(), data, len, "p.txt", err, sizeof err));
    assert_string_equal(err, "p.txt: pattern weights, but turkish has no pattern evaluation in this build");
    free(data);
}

/* weights_convert: the linear values kept, the pattern weights 0. */
static void test_convert_linear_to_pattern(void **state)
{
    (void)state;
    WEIGHTS_SCOPED linear = { 0 }, pattern = { 0 };
    char err[512];
    assert_true(weights_load(&linear, &turkish_eval_spec, "data/weights/turkish-trained.txt", err, sizeof err));
    assert_true(weights_convert(&pattern, pattern_fixture_spec(), &linear));
    assert_int_equal(pattern.count, 2 * (turkish_eval_spec.nfeatures + PATTERN_FIXTURE_STATES));
    assert_memory_equal(pattern.w, linear.w, (size_t)linear.count * sizeof linear.w[0]);
    for (int i = linear.count; i < pattern.count; i++)
        assert_int_equal(pattern.w[i], 0);
}

/* A pattern set through the database: stored as head and table, read back equal, the same
 * weights stored twice are one row, named by their hash. */
static void test_store_round_trip(void **state)
{
    (void)state;
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/w.db", tmpdir);
    Store *s = store_open(path, err, sizeof err);
    assert_non_null(s);
    WEIGHTS_SCOPED w = { 0 }, back = { 0 }, linear = { 0 }, linear_back = { 0 };
    random_pattern_weights(&w);
    int64_t id = weights_store_save(s, &w, 1, 0, "pattern");
    assert_true(id > 0);
    assert_int_equal(weights_store_save(s, &w, 2, 0, "again"), id);
    assert_true(weights_store_load(s, pattern_fixture_variant(), id, &back, err, sizeof err));
    assert_ptr_equal(back.spec, pattern_fixture_spec());
    assert_true(weights_equal(&w, &back));
    /* without the pattern evaluation, the stored set is refused by name */
    WEIGHTS_SCOPED none = { 0 };
    assert_false(weights_store_load(s, linear_only_variant(), id, &none, err, sizeof err));
    assert_non_null(strstr(err, "has no pattern evaluation"));
    /* linear weights keep their text and id scheme */
    assert_true(weights_default(&linear, &turkish_eval_spec));
    int64_t lid = weights_store_save(s, &linear, 0, 0, NULL);
    assert_true(lid > id);
    assert_true(weights_store_load(s, pattern_fixture_variant(), lid, &linear_back, err, sizeof err));
    assert_true(weights_equal(&linear, &linear_back));
    char *text = NULL;
    unsigned char *blob = NULL;
    size_t blob_len = 0;
    assert_true(store_weights_get_blob(s, id, &text, &blob, &blob_len));
    WeightsImage img;
    assert_true(weights_image(&w, &img));
    assert_string_equal(text, img.head);
    assert_int_equal(blob_len, img.table_len);
    assert_memory_equal(blob, img.table, blob_len);
    weights_image_free(&img);
    free(text);
    free(blob);
    store_close(s);
}

/* The starting weights of train and tune under --eval. */
static void test_start_weights_by_eval(void **state)
{
    (void)state;
    char path[128], err[512] = "";
    snprintf(path, sizeof path, "%s/start.txt", tmpdir);
    WEIGHTS_SCOPED w = { 0 }, trained = { 0 };
    random_pattern_weights(&w);
    assert_true(weights_save(&w, path, err, sizeof err));
    assert_true(weights_load(&trained, &turkish_eval_spec, "data/weights/turkish-trained.txt", err, sizeof err));
    const Variant *v = pattern_fixture_variant();
    struct {
        const char *name;
        EvalChoice eval;
        const EvalSpec *spec; /* NULL: refused with needle */
        const char *needle;
    } cases[] = {
        { "default", EVAL_AS_GIVEN, &turkish_eval_spec, NULL },
        { "default", EVAL_PATTERN, pattern_fixture_spec(), NULL },
        { "data/weights/turkish-trained.txt", EVAL_PATTERN, pattern_fixture_spec(), NULL },
        { "data/weights/turkish-trained.txt", EVAL_LINEAR, &turkish_eval_spec, NULL },
        { path, EVAL_AS_GIVEN, pattern_fixture_spec(), NULL },
        { path, EVAL_PATTERN, pattern_fixture_spec(), NULL },
        { path, EVAL_LINEAR, NULL, "--eval linear: " },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        WEIGHTS_SCOPED got = { 0 };
        bool ok = start_weights(&got, v, cases[i].name, cases[i].eval, err, sizeof err);
        if (!cases[i].spec) {
            assert_false(ok);
            assert_non_null(strstr(err, cases[i].needle));
            continue;
        }
        if (!ok)
            fail_msg("case %zu: %s", i, err);
        assert_ptr_equal(got.spec, cases[i].spec);
        if (cases[i].name == path)
            assert_true(weights_equal(&got, &w)); /* a pattern file is used as it is */
        else if (strcmp(cases[i].name, "default") != 0)
            assert_memory_equal(got.w, trained.w, (size_t)trained.count * sizeof trained.w[0]);
    }
    WEIGHTS_SCOPED none = { 0 };
    assert_false(start_weights(&none, linear_only_variant(), "default", EVAL_PATTERN, err, sizeof err));
    assert_string_equal(err, "--eval pattern: turkish has no pattern evaluation in this build");
}

/* End to end, for each variant of the build that has a pattern evaluation: `dama weights
 * --eval pattern` writes a file that --check reads, and a match of that file against the
 * shipped linear weights (trained, or the hand-set ones of a game that ships none) plays.
 * Skipped while no variant has one. */
static void test_pattern_file_plays_linear_file(void **state)
{
    (void)state;
    static char out[1 << 16];
    int tested = 0;
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        char file[160], db[160];
        snprintf(file, sizeof file, "%s/%s-pattern.txt", tmpdir, v->name);
        snprintf(db, sizeof db, "%s/%s-match.db", tmpdir, v->name);
        int code = test_dama_run(out, sizeof out, "weights -v %s --eval pattern >%s", v->name, file);
        if (!v->pattern_eval) { /* the message went into the file with stdout */
            assert_int_equal(code, 2);
            char *text = test_read_file(file);
            assert_non_null(strstr(text, "has no pattern evaluation in this build"));
            free(text);
            continue;
        }
        assert_int_equal(code, 0);
        code = test_dama_run(out, sizeof out, "weights -v %s --check %s", v->name, file);
        if (code != 0 || !strstr(out, ", eval pattern ("))
            fail_msg("weights --check %s: exit %d: %s", file, code, out);
        /* the game's trained linear weights where it ships them, else its hand-set ones */
        char linear[160];
        snprintf(linear, sizeof linear, "data/weights/%s-trained.txt", v->name);
        FILE *shipped = fopen(linear, "r");
        if (shipped)
            fclose(shipped);
        else
            snprintf(linear, sizeof linear, "default");
        code = test_dama_run(out, sizeof out, "match -v %s --a %s --b %s --games 2 "
                             "--nodes 200 --threads 1 --db %s", v->name, file, linear, db);
        if (code != 0)
            fail_msg("match of %s: exit %d: %s", v->name, code, out);
        tested++;
    }
    if (!tested) {
        printf("test_pattern_file_plays_linear_file: no variant has a pattern evaluation yet\n");
        skip();
    }
}

/* The option's values, named in the error. */
static void test_eval_option_values(void **state)
{
    (void)state;
    test_dama_expect("weights --eval nnue", 2, "bad value 'nnue' for --eval: expected linear or pattern");
    test_dama_expect("train --eval nnue", 2, "bad value 'nnue' for --eval");
    test_dama_expect("tune --eval nnue", 2, "bad value 'nnue' for --eval");
    test_dama_expect("weights --eval pattern --check data/weights/turkish.txt", 2,
                     "--eval pattern: data/weights/turkish.txt holds linear weights");
    test_dama_expect("weights --eval linear --check data/weights/turkish.txt", 0,
                     "data/weights/turkish.txt: 72 weights for turkish, eval linear, hash ");
}

static int setup(void **state)
{
    (void)state;
    const char *s = getenv("DAMA_TEST_SEED");
    if (s)
        seed = strtoull(s, NULL, 10) | 1;
    printf("test_weights_file: seed %" PRIu64 " (DAMA_TEST_SEED)\n", seed);
    return test_tmpdir_make(tmpdir, sizeof tmpdir, "weights-file");
}

static int teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_round_trip_is_byte_identical),
        cmocka_unit_test(test_hash_known_value),
        cmocka_unit_test(test_pattern_header_errors),
        cmocka_unit_test(test_hash_mismatch),
        cmocka_unit_test(test_table_errors),
        cmocka_unit_test(test_linear_file_still_reads),
        cmocka_unit_test(test_loader_picks_spec),
        cmocka_unit_test(test_convert_linear_to_pattern),
        cmocka_unit_test(test_store_round_trip),
        cmocka_unit_test(test_start_weights_by_eval),
        cmocka_unit_test(test_pattern_file_plays_linear_file),
        cmocka_unit_test(test_eval_option_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
