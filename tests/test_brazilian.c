/* Brazilian draughts (engine/games/brazilian/) against expectations from outside dama:
 * the published perft of the start, pydraughts' counts on positions with kings and long
 * captures (scripts/perft-vs-pydraughts, pinned below), the square text players write
 * (1..32 and a1..h8), the rules' draw counts (docs/rules-brazilian.md), its names, PDN
 * GameType 26 and its bench signature. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bitboard.h"
#include "brazilian.h"
#include "game.h"
#include "movelist.h"
#include "notation.h"
#include "perft.h"
#include "pinned_bench.h"
#include "position.h"
#include "test_tmpdir.h"
#include "test_util.h"
#include "variant.h"
#include "test_position.h"

static const Variant *V = &brazilian_variant;

/* Published with every capture path counted (issue 25; the FMJD forum's and dctl's
 * tables). */
static void test_perft_from_start(void **state)
{
    (void)state;
    static const uint64_t published[] = { 7, 49, 302, 1469, 7473, 37628, 187302 };
    Position pos = test_position(V, "start");
    Rules rules = rules_default(V);
    PerftOptions paths = { .count_paths = true, .bulk = true };
    const Variant generic = { .generate = V->generate, .count = V->count, .make = V->make };
    for (int depth = 1; depth <= 7; depth++) {
        assert_int_equal(perft(V, &pos, &rules, depth, &paths), published[depth - 1]);
        assert_int_equal(perft(&generic, &pos, &rules, depth, &paths), published[depth - 1]);
    }
    /* and through the command line */
    char out[512];
    assert_int_equal(test_dama_run(out, sizeof out, "perft -v brazilian --paths 7"), 0);
    assert_non_null(strstr(out, "nodes 187302 "));
}

/* pydraughts 0.6.7's counts: `scripts/perft-vs-pydraughts brazilian --depth 4 --random 20
 * --fens tests/vectors/brazilian/hand-positions.txt` (seed 25; depths 1-4 all equal, depth
 * 4 pinned).  The start, the positions worked by hand (a flying king's capture round the
 * corner, a man jumping onto the crowning row and off it again, the majority rule, kings on
 * both sides), then 20 positions of random games, in pydraughts' alphanumeric FEN: every
 * capture path, and moves merged by from, to and captured set. */
static const struct {
    const char *fen;
    int depth;
    uint64_t paths, merged;
} pydraughts_counts[] = {
    { "W:Wa1,c3,e3,g3,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", 4, 1469, 1469 },
    { "W:WKa1:Bc3,f6,b6", 4, 119, 73 },
    { "W:Wd6:Be7,g7,b4", 4, 3, 3 },
    { "W:WKh2,c3:Bd4,f4,d6,b6", 4, 28, 28 },
    { "W:WKb2,Kg3,e3,a3:BKh8,Kc7,d6,f6", 4, 13, 13 },
    { "B:WKd4,c3,e3,g1:Bb6,Kh2,a7", 4, 2362, 2362 },
    { "W:WKa1,Kc1,e3:BKh8", 4, 421, 421 },
    { "W:Wc3,e3,g3,b2,h2,a3:Be5,h6,a7,e7,g7", 4, 655, 654 },
    { "W:Wa1,c3,e3,g3,b4,g1,b2,d2,f2,h2,a3:Bd4,a5,g5,d6,h6,a7,c7,e7,b8,f8,h8", 4, 141, 141 },
    { "B:Wc3,c5,g1,a3:Bg7,f8,h2", 4, 328, 328 },
    { "W:Wc3,f4,g1,d2:Be5,b6,d6,h6", 4, 105, 105 },
    { "W:Wg3,b2,h2:Bh6,a7,g7,f8,h8,Kd4,Kc5", 4, 566, 566 },
    { "W:Wb4:Bg5,Kg1", 4, 22, 22 },
    { "B:Wa1,f4,c1,g7,e1,g1,b2,f2,a3:Ba5,b6,h6,c7,e7,d8,f8,h8", 4, 329, 329 },
    { "W:Wa1,c3,g3,c1,h6,e1,g1,d2,f2,h2,a3:Bh4,b6,d6,e7,g7,b8,d8,f8,h8", 4, 3118, 3118 },
    { "B:Wg3,c7,g1,b2,f2,a3:Bh4,a7,h8", 4, 123, 123 },
    { "B:Wa1,c3,a5,c1,e7,e1,g1,d2,h2:Be5,d8,f8,h8", 4, 727, 727 },
    { "B:Wa1,c3,h4,c1,h6,e1,g1,b2,h2:Bc5,a7,c7,e7,g7,d8,f8,h8,a3", 4, 1579, 1579 },
    { "W:Wa1,e3,h4,c1,e1,b2,Kf8:Bb6,a7,h8", 4, 896, 896 },
    { "W:Wa1,c1,g1,a3:Bc5,e5,h6,a7,e7,g7,b8,f8,h8,Ke1", 4, 1769, 1769 },
    { "B:Wa1,c3,h6,a7,g1:Bc7,d8,f8,h8", 4, 721, 721 },
    { "B:Wa1,f4,c1,g7,b2,f2,a3:Bb6,a7,e7,d8", 4, 1277, 1277 },
    { "W:Wb2:Bb4,f4,h4,c5,a7,e7,g7,d8,f8", 4, 3, 3 },
    { "B:Wa1,h2,Kd8:Bb4,d4", 4, 627, 627 },
    { "B:Wa1,g3,d4,h4,b2,d2,f2:Bc5,g5,b6,f6,a7,g7,b8,f8", 4, 28, 28 },
    { "W:Wa1,g3,a7,e1,g1,b2,d2,f2,h2:Ba5,f6,h6,c7,e7,d8,f8,h8", 4, 3630, 3630 },
    { "W:Wa1,h4,c1,h6,e1,g1,h2,a3:Be5,a7,c7,e7,b8,f8,h8", 4, 5091, 5091 },
};

static void test_perft_against_pydraughts(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    PerftOptions paths = { .count_paths = true, .bulk = true }, merged = { .bulk = true };
    int kings = 0;
    for (size_t i = 0; i < sizeof pydraughts_counts / sizeof pydraughts_counts[0]; i++) {
        Position pos = test_position(V, pydraughts_counts[i].fen);
        kings += (pos.kings[WHITE] | pos.kings[BLACK]) != 0;
        uint64_t p = perft(V, &pos, &rules, pydraughts_counts[i].depth, &paths);
        uint64_t m = perft(V, &pos, &rules, pydraughts_counts[i].depth, &merged);
        if (p != pydraughts_counts[i].paths || m != pydraughts_counts[i].merged)
            fail_msg("%s depth %d: paths %llu merged %llu, pydraughts %llu %llu", pydraughts_counts[i].fen,
                     pydraughts_counts[i].depth, (unsigned long long)p, (unsigned long long)m,
                     (unsigned long long)pydraughts_counts[i].paths,
                     (unsigned long long)pydraughts_counts[i].merged);
    }
    assert_true(kings >= 10);
}

/* Square 1 is b8 (top left dark square seen by White), 4 h8, 29 a1, 32 g1. */
static void test_square_text(void **state)
{
    (void)state;
    static const struct { const char *alnum; int number; } same[] = {
        { "b8", 1 }, { "h8", 4 }, { "a7", 5 }, { "g7", 8 }, { "c3", 22 }, { "d4", 18 },
        { "a1", 29 }, { "g1", 32 }, { "h2", 28 },
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char number[4], name[4];
        snprintf(number, sizeof number, "%d", same[i].number);
        int used = 0, a = V->parse_square(same[i].alnum, &used);
        assert_int_equal(used, 2);
        int n = V->parse_square(number, &used);
        assert_int_equal(used, (int)strlen(number));
        assert_int_equal(a, n);
        assert_string_equal(V->square_name(a, name), number);
    }
    static const char *const bad[] = { "a2", "b1", "h1", "i1", "a9", "a10", "0", "33", "01", "100", "-1", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int used = 0;
        if (V->parse_square(bad[i], &used) >= 0)
            fail_msg("'%s' read as a square", bad[i]);
    }
}

/* The start in numbers, in pydraughts' alphanumeric FEN and as written back. */
static void test_fen(void **state)
{
    (void)state;
    Position start = test_position(V, "start");
    Position alnum = test_position(V, "W:Wa1,c3,e3,g3,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8");
    Position numbers = test_position(V, "W:W21-32:B1-12");
    assert_true(position_equal(&start, &alnum));
    assert_true(position_equal(&start, &numbers));
    assert_int_equal(popcount(start.men[WHITE]), 12);
    char fen[256];
    position_to_fen(&start, V, fen, sizeof fen);
    Position back = test_position(V, fen);
    assert_true(position_equal(&start, &back));
    Position kings = test_position(V, "B:WKa1,c3:BKh8,b6");
    position_to_fen(&kings, V, fen, sizeof fen);
    assert_string_equal(fen, "B:W22,K29:BK4,9"); /* in square order */
    Position bad;
    char err[256];
    assert_false(position_from_fen(&bad, V, "W:Wa2:B1", err, sizeof err)); /* a light square */
}

/* A man that jumps onto the crowning row and on from it stays a man (d6xf8xh6); only the
 * captures of most pieces are moves, whatever takes them (majority=off: any capture). */
static void test_capture_rules(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    MoveList list;
    Position pos = test_position(V, "W:Wd6:Be7,g7,b4");
    V->generate(&pos, &rules, &list);
    assert_int_equal(list.count, 1);
    char text[64];
    assert_string_equal(move_to_text(V, &list.moves[0], text, sizeof text), "10x3x12"); /* d6xf8xh6 */
    assert_false(list.moves[0].promotes);
    Position after = pos;
    V->make(&after, &list.moves[0]);
    assert_int_equal(after.kings[WHITE], 0);
    /* the man on c3 takes three (d4, d6, b6), and so does the king on h2: shorter
     * captures are no moves */
    pos = test_position(V, "W:WKh2,c3:Bd4,f4,d6,b6");
    V->generate(&pos, &rules, &list);
    int majority_moves = list.count;
    for (int i = 0; i < list.count; i++)
        assert_int_equal(popcount(list.moves[i].captured), 3);
    /* with majority=off every complete capture (one that cannot go on) is a move */
    char err[256];
    assert_true(rules_parse(V, &rules, "majority=off", err, sizeof err));
    V->generate(&pos, &rules, &list);
    assert_true(list.count > majority_moves);
    bool shorter = false;
    for (int i = 0; i < list.count; i++)
        shorter |= popcount(list.moves[i].captured) < 3;
    assert_true(shorter);
}

/* CBD rule 16: 20 moves each of kings only, no capture, draw (40 plies; International: 25);
 * FMJD 6.3 and 6.4 as in International: 16 and 5 moves each. */
static void test_draw_rules(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    assert_true(international_rules(&rules).majority);
    assert_int_equal(international_rules(&rules).kingmoves_plies, 40);
    assert_int_equal(international_rules(&rules).endgame16_plies, 32);
    assert_int_equal(international_rules(&rules).endgame5_plies, 10);
    Rules intl = rules_default(&international_variant);
    assert_int_equal(international_rules(&intl).kingmoves_plies, 50);

    Position pos = test_position(V, "W:WK29,K32,26:BK4,K1,9");
    DrawCounts counts = { .since_irreversible = 39 };
    assert_int_equal(V->game_end(&pos, &rules, true, &counts).result, RESULT_NONE);
    counts.since_irreversible = 40;
    GameEnd end = V->game_end(&pos, &rules, true, &counts);
    assert_int_equal(end.result, RESULT_DRAW);
    assert_string_equal(reason_name(end.reason), "king-moves");
    /* a lone king against a king and a man: 5 moves each */
    pos = test_position(V, "W:WK29,26:BK4");
    counts = (DrawCounts){ .endgame_plies = 9 };
    assert_int_equal(V->game_end(&pos, &rules, true, &counts).result, RESULT_NONE);
    counts.endgame_plies = 10;
    end = V->game_end(&pos, &rules, true, &counts);
    assert_int_equal(end.result, RESULT_DRAW);
    assert_string_equal(reason_name(end.reason), "endgame");
    char desc[128];
    V->rules_describe(&rules, desc, sizeof desc);
    assert_string_equal(desc, "majority=on kingmoves=20 endgame16=16 endgame5=5");
    char err[256];
    assert_false(rules_parse(V, &rules, "kvm=win", err, sizeof err));
    assert_string_equal(err, "bad rules: unknown option 'kvm' (majority, kingmoves, endgame16, endgame5)");
}

/* The names other programs give the game: lidraughts' and Scan's Hub name, PDN GameType 26. */
static void test_names(void **state)
{
    (void)state;
    assert_ptr_equal(variant_by_name("brazilian"), V);
    assert_ptr_equal(variant_by_name("br"), V);
    assert_ptr_equal(variant_by_hub_name("brazilian"), V);
    assert_ptr_equal(variant_by_pdn_gametype(26), V);
    assert_string_equal(V->title, "Brazilian draughts");
}

/* A Brazilian game in PDN with alphanumeric moves, as lidraughts and pydraughts write
 * them, imported and exported again in the notation of GameType 26 (the PDN standard's
 * "26,W,8,8,A0,0": a1..h8, pdn.fmjd.org/gametype.html); a Hub GUI's game. */
static void test_pdn_and_hub(void **state)
{
    (void)state;
    char dir[64], path[128], out[4096];
    assert_int_equal(test_tmpdir_make(dir, sizeof dir, "brazilian"), 0);
    snprintf(path, sizeof path, "%s/game.pdn", dir);
    assert_true(test_write_file(path, "[Event \"Brazilian\"]\n[GameType \"26\"]\n[Result \"*\"]\n\n"
                                      "1. c3-d4 f6-e5 2. d4:f6 g7xe5 3. b2-c3 *\n"));
    assert_int_equal(test_dama_run(out, sizeof out, "pdn import -v br --db %s/g.db %s", dir, path), 0);
    assert_non_null(strstr(out, "imported 1 "));
    assert_int_equal(test_dama_run(out, sizeof out, "pdn export -v brazilian --db %s/g.db", dir), 0);
    assert_non_null(strstr(out, "[GameType \"26\"]\n"));
    assert_non_null(strstr(out, "1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. b2-c3 *"));
    /* without the variant the GameType tells which game it is */
    assert_int_equal(test_dama_run(out, sizeof out, "pdn import --db %s/t.db %s", dir, path), 2);
    assert_non_null(strstr(out, "GameType: 26 is brazilian draughts, not turkish"));
    /* the Hub protocol with lidraughts' name of the game: a legal first move */
    snprintf(path, sizeof path, "%s/hub.txt", dir);
    assert_true(test_write_file(path, "hub\nset-param name=variant value=brazilian\ninit\npos start\n"
                                      "level nodes=500\ngo think\n"));
    assert_int_equal(test_dama_run(out, sizeof out, "hub < %s", path), 0);
    const char *done = strstr(out, "done move=");
    assert_non_null(done);
    static const char *const first_moves[] = { "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20" };
    bool legal = false;
    for (size_t i = 0; i < sizeof first_moves / sizeof first_moves[0]; i++)
        legal |= strncmp(done + strlen("done move="), first_moves[i], 5) == 0;
    assert_true(legal);
    /* and the help of pdn names its GameType from the registry */
    assert_int_equal(test_dama_run(out, sizeof out, "pdn --help"), 0);
    assert_non_null(strstr(out, "26 Brazilian"));
    assert_int_equal(test_tmpdir_remove(dir), 0);
}

/* Writes text to dir/name and imports it into dir/db; the export of dir/db into out. */
static void import_then_export(const char *dir, const char *name, const char *text, const char *db, char *out,
                               size_t len)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_true(test_write_file(path, text));
    assert_int_equal(test_dama_run(out, len, "pdn import -v br --db %s/%s %s", dir, db, path), 0);
    assert_non_null(strstr(out, "imported 1 "));
    assert_int_equal(test_dama_run(out, len, "pdn export -v br --db %s/%s", dir, db), 0);
}

/* A setup in square numbers, a flying king's capture of two that another path ends on the
 * same square (29x18x8 and 29x15x8: every landing written), exported in a1..h8 with the
 * FEN in a1..h8 too, read back and exported again: the same text. */
static void test_pdn_alphanumeric_round_trip(void **state)
{
    (void)state;
    char dir[64], first[4096], again[4096];
    assert_int_equal(test_tmpdir_make(dir, sizeof dir, "brazilian-pdn"), 0);
    import_then_export(dir, "numbers.pdn",
                       "[GameType \"26\"]\n[SetUp \"1\"]\n[FEN \"W:WK29:B9,11,22,K4\"]\n[Result \"*\"]\n\n"
                       "1. 29x18x8 4x22 *\n", "a.db", first, sizeof first);
    assert_non_null(strstr(first, "[FEN \"W:WKa1:BKh8,b6,f6,c3\"]\n"));
    assert_non_null(strstr(first, "1. a1xd4xg7 h8xc3 0-2")); /* White has no piece left */
    import_then_export(dir, "letters.pdn", first, "b.db", again, sizeof again);
    assert_string_equal(again, first);
    assert_int_equal(test_tmpdir_remove(dir), 0);
}

/* The bench set and evaluation of Brazilian draughts, pinned as the other games' are
 * (tests/pinned_bench.h). */
static void test_bench_signature(void **state)
{
    (void)state;
    char sig[64], err[512];
    assert_true(bench_signature(V, sig, sizeof sig, err, sizeof err));
    assert_string_equal(sig, PINNED_SIGNATURE_BRAZILIAN);
    /* and with the shipped pattern weights, what analyze and hub play with */
    char out[8192], want[64];
    assert_int_equal(test_dama_run(out, sizeof out, "bench -v br --weights best --depth %d", BENCH_SIGNATURE_DEPTH), 0);
    snprintf(want, sizeof want, "bench %s nodes ", strchr(PINNED_SIGNATURE_BRAZILIAN_BEST, ':') + 2);
    assert_non_null(strstr(out, want));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_from_start),
        cmocka_unit_test(test_perft_against_pydraughts),
        cmocka_unit_test(test_square_text),
        cmocka_unit_test(test_fen),
        cmocka_unit_test(test_capture_rules),
        cmocka_unit_test(test_draw_rules),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_pdn_and_hub),
        cmocka_unit_test(test_pdn_alphanumeric_round_trip),
        cmocka_unit_test(test_bench_signature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
