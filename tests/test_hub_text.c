/* The Hub protocol codecs: position and move text (engine/hub_text.c) and the line syntax
 * (hub/hub_line.c), against strings written by hand from the protocol and the vectors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "hub_line.h"
#include "hub_text.h"
#include "move.h"
#include "notation.h"
#include "position.h"
#include "test_util.h"
#include "variant.h"

static const Variant *INTL = &international_variant;
static const Variant *TR = &turkish_variant;

static void fen(const Variant *v, Position *pos, const char *text)
{
    char err[256];
    if (!position_from_fen(pos, v, text, err, sizeof err))
        fail_msg("%s: %s", text, err);
}

/* The International start as Hub and Scan write it (hub.md). */
static void test_international_start(void **state)
{
    (void)state;
    const char *hub = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    Position start, read;
    INTL->start(&start);
    char buf[HUB_POSITION_MAX];
    assert_string_equal(hub_position_to_text(INTL, &start, buf, sizeof buf), hub);
    char err[256];
    assert_true(hub_position_from_text(INTL, hub, &read, err, sizeof err));
    assert_true(position_equal(&read, &start));
    assert_int_equal(hub_square_count(INTL), 50);
}

/* Turkish: 64 squares from a8 to h1; the men start on ranks 2, 3 (White) and 6, 7. */
static void test_turkish_start(void **state)
{
    (void)state;
    const char *hub = "W" "eeeeeeee" "bbbbbbbb" "bbbbbbbb" "eeeeeeee" "eeeeeeee" "wwwwwwww" "wwwwwwww"
                      "eeeeeeee";
    Position start;
    TR->start(&start);
    char buf[HUB_POSITION_MAX];
    assert_string_equal(hub_position_to_text(TR, &start, buf, sizeof buf), hub);
    assert_int_equal(hub_square_count(TR), 64);
    char name[8];
    assert_string_equal(TR->square_name(hub_square_at(TR, 0), name), "a8");
    assert_string_equal(TR->square_name(hub_square_at(TR, 7), name), "h8");
    assert_string_equal(TR->square_name(hub_square_at(TR, 8), name), "a7");
    assert_string_equal(TR->square_name(hub_square_at(TR, 63), name), "h1");
}

/* Kings and both sides to move, against the FEN of the same position. */
static void test_position_against_fen(void **state)
{
    (void)state;
    char hub[HUB_POSITION_MAX], err[256];
    /* International: Black to move; white man 28, king 1; black men 2, 3, king 50. */
    memset(hub, 'e', 51);
    hub[0] = 'B';
    hub[28] = 'w';
    hub[1] = 'W';
    hub[50] = 'B';
    hub[2] = 'b';
    hub[3] = 'b';
    hub[51] = '\0';
    Position a, b;
    assert_true(hub_position_from_text(INTL, hub, &a, err, sizeof err));
    fen(INTL, &b, "B:W28,K1:B2,3,K50");
    assert_true(position_equal(&a, &b));
    char back[HUB_POSITION_MAX];
    assert_string_equal(hub_position_to_text(INTL, &b, back, sizeof back), hub);

    /* Turkish: the 4th character is d8, the 61st e1 (row 1 starts at character 57). */
    memset(hub, 'e', 65);
    hub[0] = 'W';
    hub[4] = 'B';  /* d8 */
    hub[61] = 'W'; /* e1 */
    hub[1 + 4 * 8 + 3] = 'w'; /* rank 4 is the fifth row from the top: d4 */
    hub[65] = '\0';
    assert_true(hub_position_from_text(TR, hub, &a, err, sizeof err));
    fen(TR, &b, "W:Wd4,Ke1:BKd8");
    assert_true(position_equal(&a, &b));
}

static void expect_bad_position(const Variant *v, const char *text, const char *needle)
{
    Position pos;
    char err[256];
    if (hub_position_from_text(v, text, &pos, err, sizeof err))
        fail_msg("'%s' was accepted", text);
    if (!strstr(err, needle))
        fail_msg("'%s': message '%s' lacks '%s'", text, err, needle);
}

static void test_bad_positions(void **state)
{
    (void)state;
    expect_bad_position(INTL, "Wbbb", "needs 51 characters");
    expect_bad_position(INTL, "Xbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", "W or B");
    expect_bad_position(INTL, "Wbbbbbbbbbbbbbbbbbbbbeeeeezeeeewwwwwwwwwwwwwwwwwwww", "square 26 is 'z'");
    /* a white man on square 3, the row where it is crowned */
    char crowned[52];
    memset(crowned, 'e', 51);
    crowned[0] = 'W';
    crowned[3] = 'w';
    crowned[51] = '\0';
    expect_bad_position(INTL, crowned, "white man on 3");
    expect_bad_position(TR, "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww", "needs 65 characters");
}

static void expect_move(const Variant *v, const char *position_fen, const char *hub_text,
                        const char *long_text)
{
    Position pos;
    fen(v, &pos, position_fen);
    Rules rules = rules_default(v);
    Move m, want;
    char err[256], buf[HUB_MOVE_MAX];
    if (!move_from_text(v, &pos, &rules, long_text, &want, err, sizeof err))
        fail_msg("%s: %s", long_text, err);
    assert_string_equal(hub_move_to_text(v, &want, buf, sizeof buf), hub_text);
    if (!hub_move_from_text(v, &pos, &rules, hub_text, &m, err, sizeof err))
        fail_msg("%s: %s", hub_text, err);
    assert_true(move_same(&m, &want));
}

/* Captures of the vector files, written by hand in Hub form: from, to, then the captured
 * squares in ascending order. */
static void test_capture_texts(void **state)
{
    (void)state;
    expect_move(INTL, "W:W28,32:B23", "28x19x23", "28x19");
    /* 15 takes 20, 19 and 8, landing on 24, 13 and 2 */
    expect_move(INTL, "W:W15:B8,19,20", "15x2x8x19x20", "15x24x13x2");
    expect_move(INTL, "W:W28:B1", "28-23", "28-23");
    /* Turkish vectors: d4 takes d5, d7 (landing d6, d8); the zigzag b3 takes five */
    expect_move(TR, "W:Wd4:Bd5,d7,e4,h6", "d4xd8xd5xd7", "d4xd6xd8");
    expect_move(TR, "W:Wb3:Bc3,d4,e5,f6,e7,a6", "b3xd7xc3xd4xe5xf6xe7", "b3xd3xd5xf5xf7xd7");
    expect_move(TR, "W:Wd4:Bh6", "d4-d5", "d4-d5");
}

/* "2x6" names two captures (test_international.c works them out by hand); the captured
 * squares pick one, in any order. */
static void test_ambiguous_and_order(void **state)
{
    (void)state;
    Position pos;
    fen(INTL, &pos, "W:WK2,K7:B11,13,14,23,29,37");
    Rules rules = rules_default(INTL);
    Move m, n;
    char err[256], buf[HUB_MOVE_MAX];
    assert_false(hub_move_from_text(INTL, &pos, &rules, "2x6", &m, err, sizeof err));
    assert_non_null(strstr(err, "ambiguous"));
    assert_true(hub_move_from_text(INTL, &pos, &rules, "2x6x23", &m, err, sizeof err));
    assert_string_equal(hub_move_to_text(INTL, &m, buf, sizeof buf), "2x6x11x13x23");
    assert_true(hub_move_from_text(INTL, &pos, &rules, "2x6x29x13x11", &n, err, sizeof err));
    assert_string_equal(hub_move_to_text(INTL, &n, buf, sizeof buf), "2x6x11x13x29");
    assert_false(hub_move_from_text(INTL, &pos, &rules, "2x6x37", &m, err, sizeof err));
    assert_non_null(strstr(err, "illegal"));
    assert_false(hub_move_from_text(INTL, &pos, &rules, "2-6", &m, err, sizeof err));
    assert_non_null(strstr(err, "illegal"));
    assert_false(hub_move_from_text(INTL, &pos, &rules, "2x", &m, err, sizeof err));
    assert_non_null(strstr(err, "bad move"));
    assert_false(hub_move_from_text(INTL, &pos, &rules, "2-6-11", &m, err, sizeof err));
    assert_non_null(strstr(err, "bad move"));
    assert_false(hub_move_from_text(INTL, &pos, &rules, "2x6-11", &m, err, sizeof err));
    assert_non_null(strstr(err, "bad move"));
}

/* Every legal move of every vector position writes and reads back as itself, and every
 * position reads back from its Hub text. */
static int round_trip_file(const Variant *v, const char *path, const char *fen_key)
{
    char *text = test_read_file(path);
    assert_non_null(text);
    Rules rules = rules_default(v);
    int moves = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0])
            continue;
        char *start = fen_key ? strstr(line, fen_key) : line;
        if (!start)
            continue;
        start += fen_key ? strlen(fen_key) : 0;
        char f[512];
        size_t n = strcspn(start, ";");
        snprintf(f, sizeof f, "%.*s", (int)n, start);
        Position pos, back;
        char err[256], hub[HUB_POSITION_MAX], buf[HUB_MOVE_MAX];
        if (!position_from_fen(&pos, v, f, err, sizeof err))
            continue; /* a few rule vectors hold men no game can have (on their crowning row) */
        assert_true(hub_position_from_text(v, hub_position_to_text(v, &pos, hub, sizeof hub), &back,
                                           err, sizeof err));
        assert_true(position_equal(&pos, &back));
        MoveList list;
        v->generate(&pos, &rules, &list);
        for (int i = 0; i < list.count; i++) {
            Move m;
            hub_move_to_text(v, &list.moves[i], buf, sizeof buf);
            if (!hub_move_from_text(v, &pos, &rules, buf, &m, err, sizeof err))
                fail_msg("%s, %s: %s", f, buf, err);
            assert_true(move_same(&m, &list.moves[i]));
            moves++;
        }
    }
    free(text);
    return moves;
}

static void test_round_trips(void **state)
{
    (void)state;
    int a = round_trip_file(INTL, "tests/vectors/international/positions.txt", NULL);
    int b = round_trip_file(TR, "tests/vectors/turkish/positions.txt", "fen=");
    printf("# %d International and %d Turkish moves read back\n", a, b);
    assert_true(a > 100);
    assert_true(b > 50);
}

static void test_line_parse(void **state)
{
    (void)state;
    HubLine line;
    char err[256];
    assert_true(hub_line_parse(&line, "pos pos=Wbe moves=\"32-28 19-23\"  flag empty=\"\" tail=\r\n",
                               err, sizeof err));
    assert_string_equal(line.command, "pos");
    assert_int_equal(line.nargs, 5);
    assert_string_equal(hub_line_value(&line, "pos"), "Wbe");
    assert_string_equal(hub_line_value(&line, "moves"), "32-28 19-23");
    assert_true(hub_line_has(&line, "flag"));
    assert_null(hub_line_value(&line, "flag"));
    assert_string_equal(hub_line_value(&line, "empty"), "");
    assert_string_equal(hub_line_value(&line, "tail"), "");
    assert_false(hub_line_has(&line, "absent"));
    hub_line_free(&line);

    assert_true(hub_line_parse(&line, "   \t\n", err, sizeof err));
    assert_string_equal(line.command, "");
    hub_line_free(&line);

    static const char *const bad[] = {
        "pos moves=\"32-28", "level =3", "go\"think", "a b=\"c\"d", "a b=c\"d", "x=y",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (hub_line_parse(&line, bad[i], err, sizeof err))
            fail_msg("'%s' was accepted", bad[i]);
        assert_true(err[0] != '\0');
        assert_string_equal(line.command, "");
        hub_line_free(&line);
    }
}

static void test_line_write(void **state)
{
    (void)state;
    HubWriter w = { 0 };
    hub_writer_start(&w, "info");
    hub_writer_arg(&w, "depth", "7");
    hub_writer_arg(&w, "pv", "32-28 19-23");
    hub_writer_arg(&w, "empty", "");
    hub_writer_argf(&w, "score", "%.2f", -0.01);
    hub_writer_flag(&w, "flag");
    hub_writer_arg(&w, "message", "a \"quoted\" word");
    assert_string_equal(hub_writer_text(&w),
                        "info depth=7 pv=\"32-28 19-23\" empty=\"\" score=-0.01 flag message=\"a 'quoted' word\"");
    /* and it reads back */
    HubLine line;
    char err[256];
    assert_true(hub_line_parse(&line, hub_writer_text(&w), err, sizeof err));
    assert_string_equal(hub_line_value(&line, "pv"), "32-28 19-23");
    assert_string_equal(hub_line_value(&line, "message"), "a 'quoted' word");
    hub_line_free(&line);
    /* a long value grows the buffer */
    char big[3000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    hub_writer_start(&w, "x");
    hub_writer_argf(&w, "v", "%s", big);
    assert_int_equal(strlen(hub_writer_text(&w)), 2 + 2 + sizeof big - 1);
    hub_writer_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_international_start),
        cmocka_unit_test(test_turkish_start),
        cmocka_unit_test(test_position_against_fen),
        cmocka_unit_test(test_bad_positions),
        cmocka_unit_test(test_capture_texts),
        cmocka_unit_test(test_ambiguous_and_order),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_line_parse),
        cmocka_unit_test(test_line_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
