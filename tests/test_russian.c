/* Russian draughts (engine/games/russian/, docs/rules-russian.md) against independent
 * expectations: the published perft from the start, pydraughts' counts on positions with
 * kings, long captures and men crowned mid-capture (scripts/perft-vs-pydraughts russian
 * printed them; pinned here as constants), hand-worked positions (a man crowned in the
 * middle of a capture goes on as a king; a shorter capture may be chosen; a king lands
 * where it can go on), the square text (a1..h8 and 1..32), the draw rules, and a real
 * game in alphanumeric PDN replayed move by move. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bitboard.h"
#include "game.h"
#include "movelist.h"
#include "notation.h"
#include "pdn_game.h"
#include "pdn_read.h"
#include "pdn_write.h"
#include "perft.h"
#include "pinned_bench.h"
#include "position.h"
#include "russian.h"
#include "shipped_weights.h"
#include "variant.h"
#include "test_position.h"
#include "weights.h"

static const Variant *V = &russian_variant;

static int square(const char *text)
{
    int used = 0, sq = V->parse_square(text, &used);
    assert_true(sq >= 0);
    return sq;
}

static int text_order(const void *a, const void *b) { return strcmp(a, b); }

/* The moves of fen as text (every path), in alphabetical order, joined by spaces. */
static void moves_text(const char *fen, char *out, size_t len)
{
    Position pos = test_position(V, fen);
    Rules rules = rules_default(V);
    MoveList list;
    V->generate(&pos, &rules, &list);
    char texts[MAX_MOVES][64];
    for (int i = 0; i < list.count; i++)
        move_to_text(V, &list.moves[i], texts[i], sizeof texts[i]);
    qsort(texts, (size_t)list.count, sizeof texts[0], text_order);
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < list.count && n < len; i++)
        n += (size_t)snprintf(out + n, len - n, "%s%s", i ? " " : "", texts[i]);
}

/* Perft from the start as published (the count of one move per from, to and captured
 * set): 7 ... 22444032 for depths 1-10 (Rein Halbersma's dctl tests, from the shashki.com
 * forum thread; damforum.nl topic 2822; pydraughts gives the same to depth 6), through the
 * game's own perft and the generic loop. */
static void test_perft_published(void **state)
{
    (void)state;
    static const uint64_t published[] = { 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586 };
    Position pos;
    V->start(&pos);
    Rules rules = rules_default(V);
    const Variant generic = { .generate = russian_generate, .count = russian_count, .make = movelist_make };
    for (int depth = 1; depth <= (int)(sizeof published / sizeof published[0]); depth++) {
        PerftOptions bulk = { .count_paths = false, .bulk = true };
        PerftOptions made = { .count_paths = false, .bulk = false };
        assert_int_equal(V->perft(&pos, &rules, depth, &bulk), published[depth - 1]);
        if (depth <= 7) {
            assert_int_equal(V->perft(&pos, &rules, depth, &made), published[depth - 1]);
            assert_int_equal(perft(&generic, &pos, &rules, depth, &bulk), published[depth - 1]);
        }
    }
}

/* pydraughts (github.com/AttackingOrDefending/pydraughts, commit 3277325) on the start,
 * tests/vectors/russian/hand-positions.txt and random positions, in both counting
 * conventions: scripts/perft-vs-pydraughts russian (the command is in the header). */
typedef struct Pinned {
    const char *fen;
    int depth;
    uint64_t paths, merged;
} Pinned;

static const Pinned pydraughts_counts[] = {
#include "test_russian_pydraughts.h"
};

static void test_perft_against_pydraughts(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    int kings = 0, captures = 0;
    for (size_t i = 0; i < sizeof pydraughts_counts / sizeof pydraughts_counts[0]; i++) {
        const Pinned *p = &pydraughts_counts[i];
        Position pos = test_position(V, p->fen);
        PerftOptions paths = { .count_paths = true, .bulk = true };
        PerftOptions made = { .count_paths = true, .bulk = false };
        PerftOptions merged = { .bulk = true };
        uint64_t got = V->perft(&pos, &rules, p->depth, &paths);
        uint64_t got_merged = V->perft(&pos, &rules, p->depth, &merged);
        if (got != p->paths || got_merged != p->merged)
            fail_msg("%s depth %d: paths %llu merged %llu, pydraughts %llu %llu", p->fen, p->depth,
                     (unsigned long long)got, (unsigned long long)got_merged,
                     (unsigned long long)p->paths, (unsigned long long)p->merged);
        assert_int_equal(V->perft(&pos, &rules, p->depth, &made), p->paths);
        kings += (pos.kings[WHITE] | pos.kings[BLACK]) != 0;
        captures += V->capture_pending(&pos);
    }
    assert_true(kings >= 8 && captures >= 5); /* the set is what it claims to be */
}

/* b6xc7 lands on d8, White's crowning row: crowned at once, it goes on as a king over f6
 * to g5 or h4 (a man would have stopped on d8, with no man to take next to it). */
static void test_crowned_in_capture_goes_on_as_king(void **state)
{
    (void)state;
    char text[256];
    moves_text("W:Wb6:Bc7,f6", text, sizeof text);
    assert_string_equal(text, "b6xd8xg5 b6xd8xh4");
    Position pos = test_position(V, "W:Wb6:Bc7,f6");
    Rules rules = rules_default(V);
    Move m;
    char err[256];
    assert_true(move_from_text(V, &pos, &rules, "b6:h4", &m, err, sizeof err));
    assert_true(m.promotes);
    V->make(&pos, &m);
    assert_int_equal(pos.kings[WHITE], square_bb(square("h4")));
    assert_int_equal(pos.men[WHITE] | pos.men[BLACK] | pos.kings[BLACK], 0);
    /* Black the same way on rank 1: c3xd2 crowns on e1, then takes f2 as a king */
    moves_text("B:Wd2,f2,b4:Bc3,a7", text, sizeof text);
    assert_string_equal(text, "c3xa5 c3xe1xg3 c3xe1xh4");
    /* crowned with nothing more to take: the move ends on the crowning row, a king */
    moves_text("W:Wb6:Bc7", text, sizeof text);
    assert_string_equal(text, "b6xd8");
    pos = test_position(V, "W:Wb6:Bc7");
    assert_true(move_from_text(V, &pos, &rules, "b6xd8", &m, err, sizeof err));
    V->make(&pos, &m);
    assert_int_equal(pos.kings[WHITE], square_bb(square("d8")));
}

/* Free choice: the one-piece capture a1xc3 stands beside the two-piece b6xd8x..., and the
 * capture is compulsory (no quiet move is listed). */
static void test_free_choice_of_a_shorter_capture(void **state)
{
    (void)state;
    char text[256];
    moves_text("W:Wb6,a1:Bc7,f6,b2", text, sizeof text);
    assert_string_equal(text, "a1xc3 b6xd8xg5 b6xd8xh4");
}

/* After taking c3 the king may stop on d4 ... h8, but from e5 alone it can take f4: it
 * must land there and go on. */
static void test_king_lands_where_it_goes_on(void **state)
{
    (void)state;
    char text[256];
    moves_text("W:WKa1:Bc3,f4", text, sizeof text);
    assert_string_equal(text, "a1xe5xg3 a1xe5xh2");
    /* with nothing more to take, every square behind the piece is a landing */
    moves_text("W:WKa1:Bc3", text, sizeof text);
    assert_string_equal(text, "a1xd4 a1xe5 a1xf6 a1xg7 a1xh8");
}

/* Captured pieces stay until the move ends and block: the king's way back over d6 (taken)
 * is closed, so h2xe5 goes on over b2 or d6 only once each. */
static void test_turkish_strike(void **state)
{
    (void)state;
    char text[256];
    moves_text("W:WKh2:Bf4,d6,c5,e3,b2", text, sizeof text);
    assert_string_equal(text, "h2xe5xa1 h2xe5xb8 h2xe5xc7");
}

/* a1..h8 as Russian players write them, and the numbers 1..32 (b8 = 1, a1 = 29). */
static void test_square_text(void **state)
{
    (void)state;
    char buf[8];
    assert_int_equal(square("c3"), square("22"));
    assert_int_equal(square("a1"), square("29"));
    assert_int_equal(square("h8"), square("4"));
    assert_int_equal(square("b8"), square("1"));
    assert_int_equal(square("g1"), square("32"));
    assert_string_equal(V->square_name(square("22"), buf), "c3");
    assert_string_equal(V->square_name(square("5"), buf), "a7");
    int used;
    const char *bad[] = { "a2", "d3", "i1", "a9", "a10", "0", "33", "07", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (V->parse_square(bad[i], &used) >= 0)
            fail_msg("'%s' read as a square", bad[i]);
    /* moves: '-' for a step, ':' or 'x' for a capture, squares by name or number */
    Position pos;
    V->start(&pos);
    Rules rules = rules_default(V);
    Move a, b;
    char err[256];
    assert_true(move_from_text(V, &pos, &rules, "c3-d4", &a, err, sizeof err));
    assert_true(move_from_text(V, &pos, &rules, "22-18", &b, err, sizeof err));
    assert_true(move_same(&a, &b));
    pos = test_position(V, "W:We3:Bf4");
    assert_true(move_from_text(V, &pos, &rules, "e3:g5", &a, err, sizeof err));
    assert_true(move_from_text(V, &pos, &rules, "e3xg5", &b, err, sizeof err));
    assert_true(move_same(&a, &b));
    assert_false(move_from_text(V, &pos, &rules, "e3-d4", &a, err, sizeof err)); /* capture due */
    /* FEN with names and numbers, kings marked K */
    Position p1 = test_position(V, "W:Wc3,Ke1:Bd6,Kh8"), p2 = test_position(V, "W:W22,K31:B10,K4");
    assert_memory_equal(p1.men, p2.men, sizeof p1.men);
    assert_memory_equal(p1.kings, p2.kings, sizeof p1.kings);
    assert_int_equal(p1.side, p2.side);
    char fen[128];
    position_to_fen(&p1, V, fen, sizeof fen);
    assert_string_equal(fen, "W:Wc3,Ke1:BKh8,d6"); /* in square order: h8 = 4, d6 = 10 */
}

static GameEnd end_after(const char *fen, int since_irreversible, int endgame_plies)
{
    Position pos = test_position(V, fen);
    Rules rules = rules_default(V);
    DrawCounts counts = { since_irreversible, 0, endgame_plies };
    return V->game_end(&pos, &rules, true, &counts);
}

static void expect_draw_at(const char *fen, bool by_endgame, int plies)
{
    int reason = game_reason(V, by_endgame ? RUSSIAN_REASON_ENDGAME : RUSSIAN_REASON_KING_MOVES);
    GameEnd before = by_endgame ? end_after(fen, 0, plies - 1) : end_after(fen, plies - 1, 0);
    GameEnd at = by_endgame ? end_after(fen, 0, plies) : end_after(fen, plies, 0);
    if (before.result != RESULT_NONE)
        fail_msg("%s: over after %d plies", fen, plies - 1);
    if (at.result != RESULT_DRAW || at.reason != reason)
        fail_msg("%s: no draw (%s) after %d plies", fen, reason_name(reason), plies);
}

/* The draw rules (docs/rules-russian.md), in plies: a move of each side is 2. */
static void test_draw_rules(void **state)
{
    (void)state;
    /* three kings against a lone king off the main road: 15 moves */
    expect_draw_at("W:WKa3,Kc1,Ke1:BKh6", true, 30);
    /* the lone king on the main road (d4): 5 moves, against three kings or king and men */
    expect_draw_at("W:WKa3,Kc1,Ke1:BKd4", true, 10);
    expect_draw_at("W:WKa5,c1,e1:BKd4", true, 10);
    /* both sides with kings, balance unchanged: 2-3 pieces 5 moves, 4-5 30, 6-7 60 */
    expect_draw_at("W:WKa3,Kc1:BKh6", true, 10);
    expect_draw_at("W:WKa3,c1,e1:BKh6,h8", true, 60);
    expect_draw_at("W:WKa3,c1,e1,g1:BKh6,h8,f8", true, 120);
    /* eight pieces: no endgame count; 15 moves of kings only still draw */
    assert_int_equal(end_after("W:WKa3,c1,e1,g1:BKh6,h8,f8,d8", 0, 500).result, RESULT_NONE);
    expect_draw_at("W:WKa3,c1,e1,g1:BKh6,h8,f8,d8", false, 30);
    /* one side without a king: no endgame count (it must move men anyway) */
    assert_int_equal(end_after("W:WKa3,Kc1,Ke1:Bh6", 0, 500).result, RESULT_NONE);
    /* the count's class changes on a capture and on a man crowned, not on a man's step */
    Position a = test_position(V, "W:WKa3,c1,e1:BKh6,h8"), b = test_position(V, "W:WKa3,d2,e1:BKh6,h8");
    Position c = test_position(V, "W:WKa3,Kc1,e1:BKh6,h8"), d = test_position(V, "W:WKa3,c1:BKh6,h8");
    assert_int_equal(russian_endgame_class(&a), russian_endgame_class(&b));
    assert_int_not_equal(russian_endgame_class(&a), russian_endgame_class(&c));
    assert_int_not_equal(russian_endgame_class(&a), russian_endgame_class(&d));
    /* no move: a loss */
    Position blocked = test_position(V, "W:Wa1:Bb2,c3");
    Rules rules = rules_default(V);
    DrawCounts none = { 0, 0, 0 };
    assert_int_equal(V->game_end(&blocked, &rules, false, &none).result, RESULT_BLACK_WINS);
    DrawCounts repeated = { 8, REPETITIONS_FOR_DRAW, 0 };
    assert_int_equal(V->game_end(&a, &rules, true, &repeated).reason, REASON_REPETITION);
}

static void test_rule_options(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    char buf[160], err[256];
    V->rules_describe(&rules, buf, sizeof buf);
    assert_string_equal(buf, "kingmoves=15 threekings=15 mainroad=5 endgame3=5 endgame5=30 endgame7=60");
    assert_true(rules_parse(V, &rules, "threekings=20,kingmoves=0", err, sizeof err));
    assert_int_equal(russian_rules(&rules).threekings_plies, 40);
    assert_int_equal(russian_rules(&rules).kingmoves_plies, 0);
    assert_false(rules_parse(V, &rules, "majority=on", err, sizeof err));
    assert_non_null(strstr(err, "majority"));
    assert_false(rules_parse(V, &rules, "mainroad=-1", err, sizeof err));
    /* kingmoves=0: no draw however long only kings move */
    Position pos = test_position(V, "W:WKa3,c1,e1,g1:BKh6,h8,f8,d8");
    DrawCounts counts = { 1000, 0, 0 };
    assert_int_equal(V->game_end(&pos, &rules, true, &counts).result, RESULT_NONE);
}

/* A real game in the alphanumeric notation of Russian PDN files
 * (tests/data/pdn/russian-polousov-kazas.pdn): every move legal, Black's a3xe3 crowned on
 * c1 mid-capture, the end as the score says. */
typedef struct Replay {
    int moves;
    int crowned_mid_capture;
    Position end;
    char long_form[2048]; /* the moves as the database keeps them */
} Replay;

static int replay_game(void *ctx, const PdnGame *g)
{
    Replay *r = ctx;
    Rules rules = rules_default(V);
    Position pos;
    PdnProblem p;
    if (!pdn_game_start(V, g, &pos, NULL, &p))
        fail_msg("%s: %s", p.what, p.why);
    for (int i = 0; i < g->nitems; i++) {
        if (g->items[i].kind != PDN_MOVE)
            continue;
        Move m;
        if (!pdn_game_move(V, &rules, &pos, &g->items[i], &m, &p))
            fail_msg("line %ld: %s: %s", p.line, p.what, p.why);
        /* crowned on a square it did not end on */
        Bitboard crown = V->promotion_bb[pos.side];
        for (int j = 0; j + 1 < m.njumps; j++)
            r->crowned_mid_capture += ((pos.men[pos.side] >> m.from) & 1) && (square_bb(m.path[j]) & crown);
        char text[64];
        size_t n = strlen(r->long_form);
        snprintf(r->long_form + n, sizeof r->long_form - n, "%s%s", n ? " " : "",
                 move_to_text(V, &m, text, sizeof text));
        V->make(&pos, &m);
        r->moves++;
    }
    r->end = pos;
    return 0;
}

static void test_pdn_real_game(void **state)
{
    (void)state;
    static Replay r, again;
    char err[256];
    if (pdn_read_file("tests/data/pdn/russian-polousov-kazas.pdn", replay_game, &r, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.moves, 21);
    assert_int_equal(r.crowned_mid_capture, 2); /* a3xc1xe3, and f2x...xd8xa5 */
    char fen[160];
    position_to_fen(&r.end, V, fen, sizeof fen);
    /* pydraughts, given the same moves, ends in the same position */
    assert_string_equal(fen, "B:WKa5,c3,g3,h2,e1,g1:Bb8,f8,h8,a7,d6,f4");

    /* exported as PDN (GameType 25, squares a1..h8) and read back: the same game */
    Position start;
    V->start(&start);
    Rules rules = rules_default(V);
    PdnGameOut out = { .variant = V, .rules = &rules, .start = &start, .moves = r.long_form,
                       .result = RESULT_WHITE_WINS };
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_true(pdn_write_game(f, &out, err, sizeof err));
    fclose(f);
    assert_non_null(strstr(text, "[GameType \"25\"]"));
    assert_non_null(strstr(text, "1. c3-b4 b6-c5"));
    assert_non_null(strstr(text, "c1-d2 a3xc1xe3")); /* lines may break anywhere else */
    assert_non_null(strstr(text, "f2xd4xf6xd8xa5 2-0"));
    assert_int_equal(pdn_read_text(text, len, replay_game, &again, err, sizeof err), 0);
    assert_int_equal(again.moves, r.moves);
    char fen_again[160];
    position_to_fen(&again.end, V, fen_again, sizeof fen_again);
    assert_string_equal(fen_again, fen);
    free(text);
}

/* A game from a setup in square numbers (tests/data/pdn/russian-tsirik-borisov.pdn),
 * Black to move first: replayed to the position pydraughts reaches with the same moves. */
static void test_pdn_real_game_from_numbered_setup(void **state)
{
    (void)state;
    static Replay r;
    char err[256], fen[160];
    if (pdn_read_file("tests/data/pdn/russian-tsirik-borisov.pdn", replay_game, &r, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(r.moves, 14);
    position_to_fen(&r.end, V, fen, sizeof fen);
    assert_string_equal(fen, "B:WKh6,g1:Bc7,b6,h4");
}

/* The bench signature (tests/pinned_bench.h): a change of search or evaluation shows. */
static void test_bench_signature(void **state)
{
    (void)state;
    char sig[64], err[256];
    if (!bench_signature(V, sig, sizeof sig, err, sizeof err))
        fail_msg("%s", err);
    assert_string_equal(sig, PINNED_SIGNATURE_RUSSIAN);
    /* the shipped pattern weights (data/weights/russian-pattern.txt), as `--weights best` */
    const unsigned char *data;
    size_t len;
    assert_true(shipped_weights(V->name, &data, &len));
    WEIGHTS_SCOPED w = { 0 };
    if (!weights_parse_variant(&w, V, (const char *)data, len, "best", err, sizeof err))
        fail_msg("%s", err);
    assert_true(eval_spec_is_pattern(w.spec));
    uint64_t nodes;
    double seconds;
    assert_true(bench_run(V, &w, BENCH_SIGNATURE_DEPTH, NULL, NULL, &nodes, &seconds, err, sizeof err));
    snprintf(sig, sizeof sig, "bench depth %d: %llu", BENCH_SIGNATURE_DEPTH, (unsigned long long)nodes);
    assert_string_equal(sig, PINNED_SIGNATURE_RUSSIAN_BEST);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_published),
        cmocka_unit_test(test_perft_against_pydraughts),
        cmocka_unit_test(test_crowned_in_capture_goes_on_as_king),
        cmocka_unit_test(test_free_choice_of_a_shorter_capture),
        cmocka_unit_test(test_king_lands_where_it_goes_on),
        cmocka_unit_test(test_turkish_strike),
        cmocka_unit_test(test_square_text),
        cmocka_unit_test(test_draw_rules),
        cmocka_unit_test(test_rule_options),
        cmocka_unit_test(test_pdn_real_game),
        cmocka_unit_test(test_pdn_real_game_from_numbered_setup),
        cmocka_unit_test(test_bench_signature),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
