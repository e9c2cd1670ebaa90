/* What moved out of cli/ into the rooms below it (issue 23), called as a script or the
 * server would call it, without the command line: perft divided by the first move, the
 * legal moves as text, moves as text played on a game, an empty endgame database
 * directory verified, a PDN export of a game that is not there.  Expectations come from
 * the rules (Turkish men on the third rank step forward; a capture is compulsory) and from
 * perft itself, not from the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "egdb_verify.h"
#include "game_moves.h"
#include "move_texts.h"
#include "pdn_export.h"
#include "perft.h"
#include "position.h"
#include "variant.h"

static const Variant *TR = &turkish_variant;

typedef struct Divided {
    const Variant *v;
    const Position *pos;
    const Rules *rules;
    const PerftOptions *opt;
    int depth, calls;
    MoveList moves;   /* the generator's, in its order */
} Divided;

/* Each first move's leaves must be perft of its child one ply shallower, in generated order. */
static void check_divide_line(void *ctx, const Move *move, uint64_t leaves)
{
    Divided *d = ctx;
    assert_true(d->calls < d->moves.count);
    const Move *expected = &d->moves.moves[d->calls];
    assert_int_equal(move->from, expected->from);
    assert_int_equal(move->to, expected->to);
    Position child = *d->pos;
    d->v->make(&child, move);
    assert_int_equal(leaves, perft(d->v, &child, d->rules, d->depth - 1, d->opt));
    d->calls++;
}

static void test_perft_divide_sums_to_perft(void **state)
{
    (void)state;
    Position pos;
    TR->start(&pos);
    Rules rules = rules_default(TR);
    PerftOptions opt = { .count_paths = false, .bulk = true };
    Divided d = { TR, &pos, &rules, &opt, 4, 0, { 0 } };
    TR->generate(&pos, &rules, &d.moves);
    uint64_t total = perft_divide(TR, &pos, &rules, 4, &opt, check_divide_line, &d);
    assert_int_equal(d.calls, 8); /* the eight men of the third rank step forward */
    assert_int_equal(total, perft(TR, &pos, &rules, 4, &opt));
    /* depth 0: nothing to divide, the one leaf, no line */
    d.calls = 0;
    assert_int_equal(perft_divide(TR, &pos, &rules, 0, &opt, check_divide_line, &d), 1);
    assert_int_equal(d.calls, 0);
}

static void test_legal_move_texts_sorted(void **state)
{
    (void)state;
    Position pos;
    TR->start(&pos);
    Rules rules = rules_default(TR);
    MoveTexts t = legal_move_texts(TR, &pos, &rules, false);
    assert_int_equal(t.count, 8);
    for (int i = 0; i < 8; i++) {
        char want[8];
        snprintf(want, sizeof want, "%c3-%c4", 'a' + i, 'a' + i);
        assert_string_equal(t.items[i], want);
    }
    move_texts_free(&t);
    assert_null(t.items);
    assert_int_equal(t.count, 0);
}

static void test_game_play_text(void **state)
{
    (void)state;
    Position start;
    TR->start(&start);
    Rules rules = rules_default(TR);
    Game g;
    char err[512];
    game_init(&g, TR, &rules, &start);
    assert_true(game_play_text(&g, "1. a3-a4 h6-h5 2. b3-b4", err, sizeof err));
    assert_int_equal(g.ply, 3);
    char fen[256];
    position_to_fen(&g.pos, TR, fen, sizeof fen);
    assert_string_equal(fen, "B:Wa2,b2,c2,d2,e2,f2,g2,h2,c3,d3,e3,f3,g3,h3,a4,b4:"
                             "Bh5,a6,b6,c6,d6,e6,f6,g6,a7,b7,c7,d7,e7,f7,g7,h7");
    /* a4 can take a5 (a capture is compulsory): the third move is refused, two are played */
    game_init(&g, TR, &rules, &start);
    assert_false(game_play_text(&g, "a3-a4 a6-a5 b3-b4", err, sizeof err));
    assert_non_null(strstr(err, "move 3 'b3-b4': a capture is compulsory"));
    assert_int_equal(g.ply, 2);
    char longword[200];
    memset(longword, 'x', sizeof longword - 1);
    longword[sizeof longword - 1] = '\0';
    game_init(&g, TR, &rules, &start);
    assert_false(game_play_text(&g, longword, err, sizeof err));
    assert_string_equal(err, "move 1 'xxxxxxxxxxxxxxxxxxxx...' is too long");
}

static void test_egdb_verify_empty_dir(void **state)
{
    (void)state;
    char dir[] = "/tmp/dama-test-egdb-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    EgdbVerifyTotals t = { 7, 7 };
    assert_true(egdb_verify_dir(NULL, NULL, dir, 3, 0, out, &t));
    fclose(out);
    assert_int_equal(t.classes, 0);
    assert_int_equal(t.failures, 0);
    assert_int_equal(len, 0); /* no class file, no line */
    free(text);
    rmdir(dir);
}

static void test_pdn_export_missing_game(void **state)
{
    (void)state;
    char path[] = "/tmp/dama-test-export-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* store_open makes it */
    char err[512];
    Store *s = store_open(path, err, sizeof err);
    assert_non_null(s);
    Rules rules = rules_default(TR);
    PdnExport job = { .store = s, .db_path = path, .variant = TR, .rules = &rules, .game_id = 5 };
    int64_t n = -1;
    assert_int_equal(pdn_export_run(&job, &n, err, sizeof err), 2);
    char want[600];
    snprintf(want, sizeof want, "no game 5 in %s", path);
    assert_string_equal(err, want);
    store_close(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_divide_sums_to_perft),
        cmocka_unit_test(test_legal_move_texts_sorted),
        cmocka_unit_test(test_game_play_text),
        cmocka_unit_test(test_egdb_verify_empty_dir),
        cmocka_unit_test(test_pdn_export_missing_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
