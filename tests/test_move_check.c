/* Refused moves and their reasons (engine/move_check.c), on positions worked out by hand
 * from the rules: Turkish men step forward or sideways and capture the same way, the
 * capture taking the most pieces is compulsory (docs/rules-turkish.md); International men
 * capture diagonally and the majority rule holds (FMJD 4.13, docs/rules-international.md). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bitboard.h"
#include "move_check.h"
#include "position.h"
#include "variant.h"

static const Variant *TR = &turkish_variant;
static const Variant *INTL = &international_variant;

static Bitboard squares(const Variant *v, const char *names)
{
    Bitboard set = 0;
    for (const char *p = names; *p;) {
        int used = 0;
        int sq = v->parse_square(p, &used);
        if (sq < 0)
            fail_msg("bad square list '%s'", names);
        set |= square_bb(sq);
        p += used;
        while (*p == ' ' || *p == ',')
            p++;
    }
    return set;
}

static MoveCheck check(const Variant *v, const char *fen, const char *text, bool legal)
{
    Position pos;
    char err[256];
    if (!position_from_fen(&pos, v, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    Rules rules = v->rules_default();
    MoveCheck c;
    assert_int_equal(move_check_text(v, &pos, &rules, text, &c), legal);
    return c;
}

/* White d3 faces black d4 with d5 empty: d3xd5 is the only legal move. */
static void test_quiet_move_refused_when_a_capture_is_legal(void **state)
{
    (void)state;
    MoveCheck c = check(TR, "W:Wd3,a2:Bd4", "a2-a3", false);
    assert_int_equal(c.refusal, REFUSAL_CAPTURE_COMPULSORY);
    assert_string_equal(c.reason, "a capture is compulsory: the piece on d3 can capture");
    assert_true(c.movable == squares(TR, "d3"));
    assert_int_equal(c.capture_count, 1);
    /* The capturing piece itself may not step aside either. */
    c = check(TR, "W:Wd3,a2:Bd4", "d3-e3", false);
    assert_int_equal(c.refusal, REFUSAL_CAPTURE_COMPULSORY);
    assert_true(c.targets == squares(TR, "d5"));
    assert_string_equal(move_refusal_name(c.refusal), "capture-compulsory");
}

/* White d3; black e3 (f3 empty) and d4, d6 (d5, d7 empty): d3xf3 takes one piece,
 * d3xd5xd7 two, so only the second is legal. */
static void test_shorter_capture_refused(void **state)
{
    (void)state;
    const char *fen = "W:Wd3:Be3,d4,d6";
    MoveCheck c = check(TR, fen, "d3xf3", false);
    assert_int_equal(c.refusal, REFUSAL_MAXIMUM_CAPTURE);
    assert_int_equal(c.capture_count, 2);
    assert_string_equal(c.reason, "the most pieces must be taken: 2, by a capture ending on d7");
    c = check(TR, fen, "d3xd5xd7", true);
    assert_int_equal(c.refusal, REFUSAL_NONE);
    assert_int_equal(c.move.njumps, 2);
    assert_true(c.move.captured == squares(TR, "d4,d6"));
    assert_string_equal(c.reason, "");
    check(TR, fen, "d3xd7", true); /* from and to are enough */
}

static void test_wrong_piece_and_blocked_piece(void **state)
{
    (void)state;
    const char *start = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
                        ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7";
    MoveCheck c = check(TR, start, "a6-a5", false);
    assert_int_equal(c.refusal, REFUSAL_NOT_YOUR_PIECE);
    assert_string_equal(c.reason, "there is no white piece on a6");
    c = check(TR, start, "a3-a5", false);
    assert_int_equal(c.refusal, REFUSAL_NO_SUCH_MOVE);
    assert_string_equal(c.reason, "the piece on a3 can go to a4 only");
    c = check(TR, start, "a2-a3", false);
    assert_int_equal(c.refusal, REFUSAL_NO_SUCH_MOVE);
    assert_string_equal(c.reason, "the piece on a2 cannot move");
    assert_true(c.movable == squares(TR, "a3,b3,c3,d3,e3,f3,g3,h3"));
    c = check(TR, start, "a3 to a4", false);
    assert_int_equal(c.refusal, REFUSAL_SYNTAX);
    c = check(TR, start, "hello", false);
    assert_int_equal(c.refusal, REFUSAL_SYNTAX);
}

/* No legal move: the lone white man on a2 is boxed in by a3 and b2, which it cannot
 * take because a4 and c2 are occupied. */
static void test_no_moves(void **state)
{
    (void)state;
    MoveCheck c = check(TR, "W:Wa2:Ba3,b2,a4,c2", "a2-a3", false);
    assert_int_equal(c.refusal, REFUSAL_NO_MOVES);
    assert_true(c.movable == 0);
}

/* International: white 32, black 27 with 21 empty: 32x21 is compulsory. */
static void test_international_capture_compulsory(void **state)
{
    (void)state;
    MoveCheck c = check(INTL, "W:W32,46:B27", "46-41", false);
    assert_int_equal(c.refusal, REFUSAL_CAPTURE_COMPULSORY);
    assert_string_equal(c.reason, "a capture is compulsory: the piece on 32 can capture");
    c = check(INTL, "W:W32,46:B27", "32x21", true);
    assert_true(c.move.captured == squares(INTL, "27"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quiet_move_refused_when_a_capture_is_legal),
        cmocka_unit_test(test_shorter_capture_refused),
        cmocka_unit_test(test_wrong_piece_and_blocked_piece),
        cmocka_unit_test(test_no_moves),
        cmocka_unit_test(test_international_capture_compulsory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
