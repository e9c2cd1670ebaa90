/* The International move generator compiled for an 8x8 board (International's rules on
 * Brazilian draughts' board), as a Brazilian game's folder would compile it: its geometry
 * comes from INTL_ROWS and INTL_COLUMNS, not from a 10x10 written into the generator.
 * Checked against the perft of Brazilian draughts from the start as published (every
 * capture path counted: 7, 49, 302, 1469, 7473, 37628, 187302 for depths 1-7, as issue 25
 * quotes them), through the generator's own perft, its bulk count and the generic loop. */
#define INTL_ROWS 8
#define INTL_COLUMNS 8
#define DIAGONAL_GAME diag8
#include "international_movegen.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

/* Just what perft needs: no text, no evaluation. */
const Variant diag8_variant = {
    .name = "diag8",
    .board = INTL_BOARD_BB,
    .generate = diag8_generate,
    .count = diag8_count,
    .make = movelist_make,
    .capture_pending = diag8_capture_pending,
};

/* 12 men each: Black on squares 1-12 (the top three rows), White on 21-32. */
static Position start_8x8(void)
{
    Position pos = { { 0, 0 }, { 0, 0 }, WHITE };
    for (int n = 1; n <= 12; n++) {
        pos.men[BLACK] |= square_bb(intl_bit_of_number(n));
        pos.men[WHITE] |= square_bb(intl_bit_of_number(n + 20));
    }
    return pos;
}

static void test_geometry(void **state)
{
    (void)state;
    assert_int_equal(INTL_SQUARES, 32);
    assert_int_equal(popcount(INTL_BOARD_BB), 32);
    /* squares 1-4 on bits 0-3, a ghost at bit 8, square 9 at bit 9, square 32 at bit 34 */
    assert_int_equal(intl_bit_of_number(4), 3);
    assert_int_equal(intl_bit_of_number(9), 9);
    assert_int_equal(intl_bit_of_number(32), 34);
    assert_int_equal(intl_number_of_bit(34), 32);
    assert_false(INTL_BOARD_BB & square_bb(8));
    /* square 5 (row 1, column a) steps up-right onto square 1 and nowhere up-left */
    assert_int_equal(intl_step(intl_bit_of_number(5), UP_RIGHT), intl_bit_of_number(1));
    assert_int_equal(intl_step(intl_bit_of_number(5), UP_LEFT), -1);
    assert_int_equal(intl_half_turn(square_bb(intl_bit_of_number(1))), square_bb(intl_bit_of_number(32)));
}

static void test_perft_from_start(void **state)
{
    (void)state;
    static const uint64_t published[] = { 7, 49, 302, 1469, 7473, 37628, 187302 };
    Position pos = start_8x8();
    Rules rules = international_rules_default();
    for (int depth = 1; depth <= 7; depth++) {
        PerftOptions paths_bulk = { .count_paths = true, .bulk = true };
        PerftOptions paths_made = { .count_paths = true, .bulk = false };
        uint64_t expected = published[depth - 1];
        assert_int_equal(diag8_perft(&pos, &rules, depth, &paths_bulk), expected);
        assert_int_equal(diag8_perft(&pos, &rules, depth, &paths_made), expected);
        /* the generic loop over generate and make: the same tree */
        const Variant generic = { .generate = diag8_generate, .count = diag8_count, .make = movelist_make };
        assert_int_equal(perft(&generic, &pos, &rules, depth, &paths_bulk), expected);
        PerftOptions merged = { .count_paths = false, .bulk = true };
        assert_int_equal(diag8_perft(&pos, &rules, depth, &merged),
                         perft(&generic, &pos, &rules, depth, &merged));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_perft_from_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
