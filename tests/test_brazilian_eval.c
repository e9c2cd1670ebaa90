/* Brazilian draughts' evaluation (engine/games/brazilian/brazilian_eval.c, _patterns.c):
 * feature values worked by hand, a window's state worked by hand, and the colour symmetry
 * both evaluations must have (the position seen by the other side scores the same for the
 * side to move) on positions of random games. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "bitboard.h"
#include "brazilian.h"
#include "brazilian_eval.h"
#include "brazilian_patterns.h"
#include "evaluate.h"
#include "movelist.h"
#include "position.h"
#include "weights.h"
#include "test_position.h"

static const Variant *V = &brazilian_variant;

static int feature_index(const char *name)
{
    char mg[64];
    snprintf(mg, sizeof mg, "%s_MG", name);
    for (int f = 0; f < BR_EVAL_NUM_FEATURES; f++)
        if (strcmp(br_weight_names[2 * f], mg) == 0)
            return f;
    fail_msg("no feature %s", name);
    return -1;
}

/* White men on d4 (18) and a1 (29), Black's on f6 (11), White to move.  White: two men,
 * d4 three rows up and in the centre, a1 on the edge and the home row, quiet moves d4-c5,
 * d4-e5, a1-b2.  Black, turned round: f6 is its c3 (22), two rows up, moves to b4 and d4
 * of its frame.  Nothing can be taken. */
static void test_features_by_hand(void **state)
{
    (void)state;
    static const struct { const char *name; int value; } expected[] = {
        { "MAN", 1 }, { "KING_FIRST", 0 }, { "MAN_ADV2", -1 }, { "MAN_ADV3", 1 }, { "CENTRE", 1 },
        { "EDGE_MEN", 1 }, { "BACK_GUARD", 1 }, { "MAN_MOBILITY", 1 }, { "BLOCKED", 0 },
        { "EN_PRISE", 0 }, { "SIDE_TO_MOVE", 1 },
    };
    Position pos = test_position(V, "W:W18,29:B11");
    int32_t v[EVAL_MAX_FEATURES + 1];
    assert_int_equal(brazilian_features(&pos, v), 3); /* the phase: men on the board */
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++)
        if (v[feature_index(expected[i].name)] != expected[i].value)
            fail_msg("%s is %d, expected %d", expected[i].name, v[feature_index(expected[i].name)],
                     expected[i].value);
    /* a Black man on e5 next to d4 with c3 empty behind it: each takes the other */
    pos = test_position(V, "W:W18,29:B15");
    brazilian_features(&pos, v);
    assert_int_equal(v[feature_index("EN_PRISE")], 0); /* one each */
    pos = test_position(V, "W:W18,22,29:B15"); /* c3 held: only Black's man can be taken */
    brazilian_features(&pos, v);
    assert_int_equal(v[feature_index("EN_PRISE")], -1);
    /* White's king on c3 is on the long diagonal a1-h8, Black's on b8 is not (the half
     * turn keeps that diagonal: it is Black's long diagonal too) */
    pos = test_position(V, "W:WK22:BK1");
    brazilian_features(&pos, v);
    assert_int_equal(v[feature_index("KING_FIRST")], 0);
    assert_int_equal(v[feature_index("KING_MAIN_DIAGONAL")], 1);
    pos = test_position(V, "W:WK22,K30:BK4");
    brazilian_features(&pos, v);
    assert_int_equal(v[feature_index("KING_EXTRA")], 1);
}

/* Window 0 holds squares 1, 2, 5, 6, 9, 10, 13, 14 (digits 3^0 .. 3^7): an own man on 5
 * is digit 1 at 3^2, an opponent man on 14 digit 2 at 3^7, a man on 3 is outside it. */
static void test_window_state_by_hand(void **state)
{
    (void)state;
    Position pos = test_position(V, "W:W5:B14,3");
    assert_int_equal(br_pattern_window_state(pos.men[WHITE], pos.men[BLACK], 0), 9 + 2 * 2187);
    /* window 8 (rows 4-7, columns e-h): squares 19, 20, 23, 24, 27, 28, 31, 32 */
    pos = test_position(V, "W:W32:B19");
    assert_int_equal(br_pattern_window_state(pos.men[WHITE], pos.men[BLACK], 8), 2187 + 2);
}

/* The side to move scores the same as the other colour in the position turned round. */
static void check_symmetric(const Weights *w, const Position *pos)
{
    Position flipped;
    position_flip(V, pos, &flipped);
    int a = evaluate(pos, w), b = evaluate(&flipped, w);
    if (a != b) {
        char fen[256];
        position_to_fen(pos, V, fen, sizeof fen);
        fail_msg("%s: %d, turned round %d", fen, a, b);
    }
}

static void test_colour_symmetry(void **state)
{
    (void)state;
    WEIGHTS_SCOPED linear = { 0 };
    WEIGHTS_SCOPED pattern = { 0 };
    assert_true(weights_default(&linear, V->eval));
    assert_true(weights_default(&pattern, V->pattern_eval));
    uint64_t seed = 25;
    for (int j = 2 * BR_EVAL_NUM_FEATURES; j < pattern.count; j++) { /* every table counts */
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        pattern.w[j] = (int32_t)(seed >> 58) - 32;
    }
    Rules rules = rules_default(V);
    int positions = 0, with_kings = 0;
    for (int game = 0; game < 40; game++) {
        Position pos = test_position(V, "start");
        for (int ply = 0; ply < 80; ply++) {
            MoveList list;
            V->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            check_symmetric(&linear, &pos);
            check_symmetric(&pattern, &pos);
            positions++;
            with_kings += (pos.kings[WHITE] | pos.kings[BLACK]) != 0;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            V->make(&pos, &list.moves[(seed >> 33) % (uint64_t)list.count]);
        }
    }
    assert_true(positions > 1000);
    assert_true(with_kings > 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_by_hand),
        cmocka_unit_test(test_window_state_by_hand),
        cmocka_unit_test(test_colour_symmetry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
