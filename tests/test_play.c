/* `dama play` driven through standard input: an illegal move refused with its reason, legal
 * moves accepted, the engine's reply (the move `dama analyze` finds at the same level), the
 * game played to a result and saved, the end of input, the Russian and Brazilian boards as
 * drawn, and bad usage. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "test_util.h"
#include "test_tmpdir.h"

static char tmpdir[64];
static char out[1 << 16];

static int group_setup(void **state)
{
    (void)state;
    return test_tmpdir_make(tmpdir, sizeof tmpdir, "play");
}

static int group_teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(tmpdir);
}

/* Runs `dama play ARGS --db DIR/db` with lines as what the person types (from the file
 * DIR/db.txt); the output goes into out, and the session must end with exit 0. */
static void play_session(const char *db, const char *args, const char *lines)
{
    char input[128];
    snprintf(input, sizeof input, "%s/%s.txt", tmpdir, db);
    FILE *f = fopen(input, "w");
    assert_non_null(f);
    fputs(lines, f);
    fclose(f);
    int code = test_dama_run(out, sizeof out, "play %s --db %s/%s < %s", args, tmpdir, db, input);
    if (code != 0)
        fail_msg("dama play %s: exit %d:\n%s", args, code, out);
}

static void assert_output_has(const char *needle)
{
    if (!strstr(out, needle))
        fail_msg("output lacks '%s':\n%s", needle, out);
}

/* From the start: a refused move, a move, dama's reply, a refused quiet move while the rules
 * demand a capture... then the person resigns; the game is saved and exported. */
static void test_game_through_standard_input(void **state)
{
    (void)state;
    /* dama's reply at this level, found by analyze with the same table size. */
    assert_int_equal(test_dama_run(out, sizeof out, "analyze --nodes 20000 --hash 16 --moves c3-c4"), 0);
    const char *best = strstr(out, "bestmove ");
    assert_non_null(best);
    char reply[32];
    assert_int_equal(sscanf(best, "bestmove %31s", reply), 1);

    play_session("play.db", "--nodes 20000 --ascii", "c3-c5\n\033[2J\nc3-c4\nmoves\nresign\n");
    assert_output_has("refused: ");
    assert_output_has("white plays c3-c4\n");
    char line[96];
    snprintf(line, sizeof line, "black (dama) plays %s   eval ", reply);
    assert_output_has(line);
    assert_output_has(" legal moves: ");
    assert_output_has("game over: black wins (resign)\n");
    assert_output_has("saved as game 1 (run 1) in ");
    assert_null(strstr(out, "\033")); /* no escape codes on a pipe, not even one typed */
    assert_output_has("\\x1B[2J");

    assert_int_equal(test_dama_run(out, sizeof out, "pdn export --db %s/play.db", tmpdir), 0);
    assert_output_has("[White \"human\"]");
    assert_output_has("[Black \"dama\"]");
    assert_output_has("[Result \"0-2\"]");
    assert_output_has("[DamaReason \"resign\"]");
    snprintf(line, sizeof line, "1. c3-c4 %s 0-2", reply);
    assert_output_has(line);
}

/* A capture is compulsory: the quiet move is refused naming the piece that must take, and
 * the capture wins; as black, dama takes at once and wins. */
static void test_games_played_to_a_result(void **state)
{
    (void)state;
    play_session("win.db", "--fen W:Wd4,a2:Bd5", "a2-a3\nd4xd6\n");
    assert_output_has("refused: a capture is compulsory: the piece on d4 can capture\n"
                      "  pieces that may move: d4\n");
    assert_output_has("white plays d4xd6\n");
    assert_output_has("game over: white wins (no-moves)\n");
    assert_output_has("saved as game 1 (run 1)");

    play_session("win.db", "--color black --fen W:Wd4,a2:Bd5", "");
    assert_output_has("white (dama) plays d4xd6   eval win1 for white, depth ");
    assert_output_has("game over: white wins (no-moves)\n");
    assert_output_has("saved as game 2 (run 2)");
    assert_int_equal(test_dama_run(out, sizeof out, "pdn export --db %s/win.db", tmpdir), 0);
    assert_output_has("[White \"human\"]\n[Black \"dama\"]");
    assert_output_has("[White \"dama\"]\n[Black \"human\"]");
    assert_output_has("[FEN \"W:Wa2,d4:Bd5\"]");
}

/* Two people; the input ends before the game does: nothing is saved. */
static void test_end_of_input_saves_nothing(void **state)
{
    (void)state;
    play_session("none.db", "--color both --ascii", "c3-c4\nc6-c5\nb3-b4\nc4xc8\n");
    assert_output_has("refused: a capture is compulsory: the piece on c4 can capture\n");
    assert_output_has("white plays c4xc6xc8\n");
    assert_output_has("[W]"); /* the king crowned on c8, marked as the last move */
    assert_output_has("end of input: the game is unfinished and not saved\n");
    assert_int_equal(test_dama_run(out, sizeof out, "pdn export --db %s/none.db", tmpdir), 0);
    assert_null(strstr(out, "[Event"));
}

/* International: the numbered board (each row's first and last square beside it), a move
 * refused with where the piece may go, dama's reply. */
static void test_international(void **state)
{
    (void)state;
    play_session("intl.db", "-v intl --nodes 5000 --ascii", "31-20\n32-28\nresign\n");
    assert_output_has("  1     b     b     b     b     b  5\n"
                      "  6  b     b     b     b     b     10\n");
    assert_output_has(" 46  w     w     w     w     w     50\n");
    assert_output_has("refused: the piece on 31 can go to 26, 27 only\n"
                      "  pieces that may move: 31 32 33 34 35\n");
    assert_output_has("white plays 32-28\nblack (dama) plays ");
    assert_output_has("game over: black wins (resign)\n");
    assert_int_equal(test_dama_run(out, sizeof out, "pdn export -v intl --db %s/intl.db", tmpdir), 0);
    assert_output_has("[GameType \"20\"]");
    assert_output_has("1. 32-28 ");
}

/* The 8x8 diagonal boards as their players see them: a1 dark in White's bottom left
 * corner, White moving up; Russian with files and ranks round the board (h1 bottom left
 * once flipped for Black), Brazilian with its square numbers, 1 = b8 to 32 = g1.  A
 * Brazilian game's PDN is in a1..h8 (GameType 26: the PDN standard's A0 notation). */
static void test_eight_by_eight_diagonal_boards(void **state)
{
    (void)state;
    play_session("russian.db", "-v russian --nodes 500 --ascii", "flip\nresign\n");
    assert_output_has("     a  b  c  d  e  f  g  h \n"
                      "  8     b     b     b     b  8\n");
    assert_output_has("  1  w     w     w     w     1\n"
                      "     a  b  c  d  e  f  g  h \n");
    assert_output_has("     h  g  f  e  d  c  b  a \n"
                      "  1     w     w     w     w  1\n");
    play_session("brazilian.db", "-v br --nodes 500 --ascii", "22-18\npdn\nresign\n");
    assert_output_has("  1     b     b     b     b  4\n"
                      "  5  b     b     b     b     8\n");
    assert_output_has(" 29  w     w     w     w     32\n");
    assert_output_has("[GameType \"26\"]\n\n1. c3-d4 ");
}

static void test_bad_usage(void **state)
{
    (void)state;
    test_dama_expect("play --color red < /dev/null", 2,
                     "dama: bad value 'red' for --color: expected white, black or both\n");
    test_dama_expect("play --turn-seconds 0 < /dev/null", 2, "--turn-seconds");
    test_dama_expect("play --fen W:Wz9:Ba6 < /dev/null", 2, "no such square");
    test_dama_expect("play --weights /nonexistent.txt < /dev/null", 2, "/nonexistent.txt");
    test_dama_expect("play extra < /dev/null", 2, "unexpected argument 'extra'");
    test_dama_expect("play --db /nonexistent/dir/x.db < /dev/null", 1, "/nonexistent/dir/x.db");
    test_dama_expect("play --help", 0, "--turn-seconds S");
    test_dama_expect("help", 0, "  play ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_through_standard_input),
        cmocka_unit_test(test_games_played_to_a_result),
        cmocka_unit_test(test_end_of_input_saves_nothing),
        cmocka_unit_test(test_international),
        cmocka_unit_test(test_eight_by_eight_diagonal_boards),
        cmocka_unit_test(test_bad_usage),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
