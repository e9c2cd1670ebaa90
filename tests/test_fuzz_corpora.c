/* The fuzz targets' properties over their committed inputs, in the normal suite: every seed
 * and every input a fuzzer once failed on (tests/fuzz/TARGET/regressions/) goes through the
 * same checks as under libFuzzer (a broken property is a test failure here), so a finding
 * stays fixed without clang or libFuzzer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "test_util.h"

static const char *replaying; /* the input file being replayed, named on failure */
#define FUZZ_CHECK(cond, ...) do { if (!(cond)) { print_error("%s: ", replaying); \
                                                  fail_msg(__VA_ARGS__); } } while (0)

#define LLVMFuzzerTestOneInput fuzz_fen_one
#include "fuzz/fuzz_fen.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_move_one
#include "fuzz/fuzz_move.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_weights_one
#include "fuzz/fuzz_weights.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_weights_pattern_one
#include "fuzz/fuzz_weights_pattern.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_batch_fen_one
#include "fuzz/fuzz_batch_fen.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_pdn_one
#include "fuzz/fuzz_pdn.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_pdn_import_one
#include "fuzz/fuzz_pdn_import.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_run_params_one
#include "fuzz/fuzz_run_params.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_dxp_one
#include "fuzz/fuzz_dxp.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_book_one
#include "fuzz/fuzz_book.c"
#undef LLVMFuzzerTestOneInput

typedef int (*FuzzOne)(const uint8_t *data, size_t size);

/* Runs one on every file under dir (and its subdirectories); returns how many. */
static int replay(const char *dir, FuzzOne one)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            n += replay(path, one);
            continue;
        }
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        uint8_t *data = malloc((size_t)st.st_size + 1);
        assert_non_null(data);
        assert_int_equal(fread(data, 1, (size_t)st.st_size, f), (size_t)st.st_size);
        fclose(f);
        replaying = path;
        one(data, (size_t)st.st_size);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

/* At least a dozen inputs a target, as committed. */
static void check(const char *dir, FuzzOne one)
{
    int n = replay(dir, one);
    if (n < 12)
        fail_msg("%s: %d inputs, expected at least 12", dir, n);
}

static void test_fen(void **state) { (void)state; check("tests/fuzz/fen", fuzz_fen_one); }
static void test_move(void **state) { (void)state; check("tests/fuzz/move", fuzz_move_one); }
static void test_weights(void **state) { (void)state; check("tests/fuzz/weights", fuzz_weights_one); }
static void test_weights_pattern(void **state) { (void)state; check("tests/fuzz/weights_pattern", fuzz_weights_pattern_one); }
static void test_batch_fen(void **state) { (void)state; check("tests/fuzz/batch_fen", fuzz_batch_fen_one); }
static void test_pdn(void **state) { (void)state; check("tests/fuzz/pdn", fuzz_pdn_one); }
static void test_pdn_import(void **state) { (void)state; check("tests/fuzz/pdn_import", fuzz_pdn_import_one); }
static void test_run_params(void **state) { (void)state; check("tests/fuzz/run_params", fuzz_run_params_one); }
static void test_dxp(void **state) { (void)state; check("tests/fuzz/dxp", fuzz_dxp_one); }
static void test_book(void **state) { (void)state; check("tests/fuzz/book", fuzz_book_one); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fen),
        cmocka_unit_test(test_move),
        cmocka_unit_test(test_weights),
        cmocka_unit_test(test_weights_pattern),
        cmocka_unit_test(test_batch_fen),
        cmocka_unit_test(test_pdn),
        cmocka_unit_test(test_pdn_import),
        cmocka_unit_test(test_run_params),
        cmocka_unit_test(test_dxp),
        cmocka_unit_test(test_book),
    };
    return cmocka_run_group_tests_name("fuzz corpora", tests, NULL, NULL);
}
