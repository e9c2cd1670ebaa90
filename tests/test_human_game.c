/* A game a person plays (play/human_game.c): moves tried and refused with the reason, the
 * engine's reply, the turn clock's time-out rule with given times, resignation, the PDN of
 * the game read back, and the finished game saved and read back from the database.  The
 * positions are small enough that the result is known by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "pinned_bench.h"
#include "test_util.h"
#include "test_tmpdir.h"

#include "human_game.h"
#include "notation.h"
#include "pdn_game.h"
#include "pdn_read.h"
#include "position.h"
#include "store.h"
#include "variant.h"

static char tmpdir[64];
static Weights weights; /* the default linear weights: the engine's level does not matter here */

static int group_setup(void **state)
{
    (void)state;
    if (!weights_default(&weights, turkish_variant.eval))
        return -1;
    return test_tmpdir_make(tmpdir, sizeof tmpdir, "human-game");
}

static int group_teardown(void **state)
{
    (void)state;
    weights_free(&weights);
    return test_tmpdir_remove(tmpdir);
}

static Position fen(const char *text)
{
    Position pos;
    char err[256];
    bool ok = position_from_fen(&pos, &turkish_variant, text, err, sizeof err);
    if (!ok)
        fail_msg("%s: %s", text, err);
    return pos;
}

static void start_game(HumanGame *g, const char *start_fen, int human, int64_t turn_ms)
{
    Position pos;
    if (start_fen)
        pos = fen(start_fen);
    Rules rules = rules_default(&turkish_variant);
    SearchLimits level = { .nodes = 5000 };
    assert_true(human_game_start(g, &turkish_variant, &rules, start_fen ? &pos : NULL, human, level,
                                 turn_ms, &weights, 0));
}

/* Plays the moves of text (blank-separated) as the person(s), each of which must be legal. */
static void play_all(HumanGame *g, const char *text, int64_t now_ms)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        MoveCheck check;
        if (!human_game_try(g, m, now_ms, &check))
            fail_msg("%s refused: %s", m, check.reason);
    }
}

static void assert_fen(const HumanGame *g, int ply, const char *expected)
{
    char buf[HUMAN_FEN_TEXT];
    assert_true(human_game_fen(g, ply, buf, sizeof buf));
    assert_string_equal(buf, expected);
}

/* A capture is compulsory: the quiet move is refused naming the piece that must take; the
 * capture takes the last black piece and wins. */
static void test_human_wins_after_a_refusal(void **state)
{
    (void)state;
    HumanGame g;
    start_game(&g, "W:Wd4,a2:Bd5", WHITE, 0);
    assert_true(human_game_human_to_move(&g));
    MoveCheck check;
    assert_false(human_game_try(&g, "a2-a3", 10, &check));
    assert_int_equal(check.refusal, REFUSAL_CAPTURE_COMPULSORY);
    assert_string_equal(move_refusal_name(check.refusal), "capture-compulsory");
    Bitboard d4 = (Bitboard)1 << 27; /* a1 = bit 0: d4 = rank 3 * 8 + file 3 */
    assert_true(check.movable == d4);
    assert_non_null(strstr(check.reason, "d4"));
    assert_false(human_game_try(&g, "d4-z9", 20, &check));
    assert_int_equal(check.refusal, REFUSAL_SYNTAX);
    assert_int_equal(human_game_plies(&g), 0);

    assert_true(human_game_try(&g, "d4xd6", 30, &check));
    assert_true(human_game_over(&g));
    assert_int_equal(g.result, RESULT_WHITE_WINS);
    assert_int_equal(g.reason, REASON_NO_MOVES);
    assert_int_equal(g.plies[0].by, MOVER_HUMAN);
    assert_fen(&g, 0, "W:Wa2,d4:Bd5");
    assert_fen(&g, 1, "B:Wa2,d6:B");
    char buf[HUMAN_FEN_TEXT];
    assert_false(human_game_fen(&g, 2, buf, sizeof buf));

    /* Over: nothing more is looked at, and the refusal is no rule's. */
    assert_false(human_game_try(&g, "a2-a3", 40, &check));
    assert_int_equal(check.refusal, REFUSAL_NONE);
    assert_string_equal(check.reason, "the game is over: white wins (no-moves)");
    assert_false(human_game_resign(&g, WHITE));
    human_game_free(&g);
}

/* The engine plays white and takes the last black piece at once: a win in one ply. */
static void test_engine_reply_wins(void **state)
{
    (void)state;
    HumanGame g;
    start_game(&g, "W:Wd4,a2:Bd5", BLACK, 0);
    assert_false(human_game_human_to_move(&g));
    assert_true(human_game_engine_to_move(&g));
    MoveCheck check;
    assert_false(human_game_try(&g, "d5-d4", 10, &check));
    assert_int_equal(check.refusal, REFUSAL_NONE);
    assert_string_equal(check.reason, "it is not your turn: the engine plays white");

    EngineReply reply;
    assert_true(human_game_engine_move(&g, 20, &reply));
    assert_string_equal(reply.text, "d4xd6");
    assert_string_equal(reply.eval_text, "win1");
    assert_int_equal(reply.eval, SCORE_WIN - 1);
    assert_int_equal(reply.eval_white, SCORE_WIN - 1);
    assert_true(reply.pv_length >= 1);
    assert_string_equal(reply.pv[0], "d4xd6");
    assert_true(reply.nodes > 0);
    assert_int_equal(g.result, RESULT_WHITE_WINS);
    assert_int_equal(g.plies[0].by, MOVER_ENGINE);
    assert_false(human_game_engine_move(&g, 30, &reply));
    human_game_free(&g);
}

/* Two people from the start: moves in order, the capture the rules then demand, and a
 * resignation. */
static void test_two_people_and_a_resignation(void **state)
{
    (void)state;
    HumanGame g;
    start_game(&g, NULL, HUMAN_BOTH, 0);
    play_all(&g, "c3-c4 c6-c5", 0);
    MoveCheck check;
    /* c4 must take c5 and then c7: the quiet move is refused. */
    assert_false(human_game_try(&g, "b3-b4", 0, &check));
    assert_int_equal(check.refusal, REFUSAL_CAPTURE_COMPULSORY);
    char legal[512];
    assert_int_equal(human_game_legal_text(&g, legal, sizeof legal), 1);
    assert_string_equal(legal, "c4xc6xc8");
    assert_true(human_game_try(&g, "c4xc8", 0, &check)); /* a partial form names the same capture */
    char *moves = human_game_moves_text(&g);
    assert_string_equal(moves, "c3-c4 c6-c5 c4xc6xc8");
    free(moves);
    assert_fen(&g, 2, "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,d3,e3,f3,g3,h3,c4:"
                      "Bc5,a6,b6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7");
    assert_false(human_game_engine_move(&g, 0, NULL)); /* no engine side */
    assert_true(human_game_resign(&g, BLACK));
    assert_int_equal(g.result, RESULT_WHITE_WINS);
    assert_int_equal(g.reason, REASON_RESIGN);
    human_game_free(&g);
}

/* Seed 000's rule with given times: the first time-out plays a move for the person, the
 * second in a row loses on time. */
static void test_second_timeout_in_a_row_loses(void **state)
{
    (void)state;
    HumanGame g;
    start_game(&g, NULL, WHITE, 1000);
    assert_int_equal(human_game_time_left(&g, 400), 600);
    assert_int_equal(human_game_tick(&g, 999), 0);
    assert_int_equal(human_game_tick(&g, 1000), 1);
    assert_int_equal(human_game_plies(&g), 1);
    assert_int_equal(g.plies[0].by, MOVER_CLOCK);
    assert_true(g.plies[0].has_eval);
    assert_int_equal(g.last_search_ply, 1); /* the clock's search is the last one */
    assert_string_equal(g.last_search.text, g.plies[0].text);
    assert_int_equal(g.last_search.eval_white, g.plies[0].eval_white);
    assert_true(human_game_engine_to_move(&g));
    assert_int_equal(human_game_tick(&g, 5000), 0); /* the engine has no clock */
    assert_true(human_game_engine_move(&g, 1200, NULL));
    assert_int_equal(g.last_search_ply, 2);
    assert_int_equal(g.plies[1].by, MOVER_ENGINE);
    /* White's turn began with the engine's move. */
    assert_int_equal(human_game_time_left(&g, 1700), 500);
    assert_int_equal(human_game_tick(&g, 2199), 0);
    assert_int_equal(human_game_tick(&g, 2200), 1);
    assert_int_equal(g.result, RESULT_BLACK_WINS);
    assert_int_equal(g.reason, REASON_TIME);
    assert_int_equal(human_game_plies(&g), 2);
    human_game_free(&g);
}

/* A move in time ends the run of time-outs; a move tried too late is not played. */
static void test_a_move_in_time_clears_the_run(void **state)
{
    (void)state;
    HumanGame g;
    start_game(&g, NULL, WHITE, 1000);
    MoveCheck check;
    assert_false(human_game_try(&g, "c3-c4", 1500, &check)); /* too late: the clock moved */
    assert_int_equal(check.refusal, REFUSAL_NONE);
    assert_non_null(strstr(check.reason, "your time ran out"));
    assert_int_equal(g.plies[0].by, MOVER_CLOCK);
    assert_true(human_game_engine_move(&g, 1600, NULL));
    char legal[4096], first[HUMAN_MOVE_TEXT];
    assert_true(human_game_legal_text(&g, legal, sizeof legal) > 0);
    sscanf(legal, "%95s", first);
    assert_true(human_game_try(&g, first, 2000, &check)); /* in time */
    assert_int_equal(g.plies[2].by, MOVER_HUMAN);
    assert_true(human_game_engine_move(&g, 2100, NULL));
    assert_int_equal(human_game_tick(&g, 3100), 1);     /* a first time-out again */
    assert_int_equal(g.result, RESULT_NONE);
    assert_int_equal(g.plies[4].by, MOVER_CLOCK);
    human_game_free(&g);
}

/* Two people who both walk away: each turn runs out in turn, from when the one before ran
 * out, until white's second time-out in a row. */
static void test_timeouts_follow_each_other(void **state)
{
    (void)state;
    HumanGame g;
    start_game(&g, NULL, HUMAN_BOTH, 1000);
    assert_int_equal(human_game_tick(&g, 3500), 3); /* white at 1000, black at 2000, white at 3000 */
    assert_int_equal(human_game_plies(&g), 2);
    assert_int_equal(g.result, RESULT_BLACK_WINS);
    assert_int_equal(g.reason, REASON_TIME);
    human_game_free(&g);
}

/* Reads PDN text back against the rules: the moves and result it names. */
typedef struct PdnBack {
    int games;
    char moves[1024];
    int result;
    char fen[256];
} PdnBack;

static int pdn_back(void *ctx, const PdnGame *game)
{
    PdnBack *b = ctx;
    b->games++;
    b->result = pdn_result_from_text(game->result);
    Position pos;
    PdnProblem problem;
    assert_true(pdn_game_start(&turkish_variant, game, &pos, NULL, &problem));
    position_to_fen(&pos, &turkish_variant, b->fen, sizeof b->fen);
    Rules rules = rules_default(&turkish_variant);
    for (int i = 0; i < game->nitems; i++) {
        if (game->items[i].kind != PDN_MOVE)
            continue;
        Move m;
        assert_true(pdn_game_move(&turkish_variant, &rules, &pos, &game->items[i], &m, &problem));
        char text[HUMAN_MOVE_TEXT];
        move_to_text(&turkish_variant, &m, text, sizeof text);
        size_t used = strlen(b->moves);
        snprintf(b->moves + used, sizeof b->moves - used, "%s%s", used ? " " : "", text);
        turkish_variant.make(&pos, &m);
    }
    return 0;
}

static void test_pdn_names_the_moves_and_result(void **state)
{
    (void)state;
    HumanGame g;
    start_game(&g, NULL, HUMAN_BOTH, 0);
    play_all(&g, "c3-c4 c6-c5 c4xc6xc8", 0);
    char *text, err[256];
    assert_true(human_game_pdn(&g, &text, err, sizeof err));
    assert_non_null(strstr(text, "1. c3-c4 c6-c5 2. c4xc6xc8 *"));
    free(text);
    assert_true(human_game_resign(&g, BLACK));
    assert_true(human_game_pdn(&g, &text, err, sizeof err));
    assert_non_null(strstr(text, "[Result \"2-0\"]"));
    assert_non_null(strstr(text, "[White \"human\"]"));
    PdnBack back = { 0 };
    assert_int_equal(pdn_read_text(text, strlen(text), pdn_back, &back, err, sizeof err), 0);
    assert_int_equal(back.games, 1);
    assert_string_equal(back.moves, "c3-c4 c6-c5 c4xc6xc8");
    assert_int_equal(back.result, RESULT_WHITE_WINS);
    free(text);
    human_game_free(&g);

    /* A game from a FEN carries it. */
    start_game(&g, "W:Wd4,a2:Bd5", BLACK, 0);
    assert_true(human_game_engine_move(&g, 0, NULL));
    assert_true(human_game_pdn(&g, &text, err, sizeof err));
    assert_non_null(strstr(text, "[Black \"human\"]"));
    memset(&back, 0, sizeof back);
    assert_int_equal(pdn_read_text(text, strlen(text), pdn_back, &back, err, sizeof err), 0);
    assert_string_equal(back.fen, "W:Wa2,d4:Bd5");
    assert_string_equal(back.moves, "d4xd6");
    assert_int_equal(back.result, RESULT_WHITE_WINS);
    free(text);
    human_game_free(&g);
}

/* The finished game read back from the file: moves, result, positions with the engine's
 * score, its run of kind play; a second game joins the run; an unfinished one is refused
 * and nothing is written. */
static void test_saved_game_reads_back(void **state)
{
    (void)state;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/play.db", tmpdir);
    Store *store = store_open(path, err, sizeof err);
    assert_non_null(store);

    HumanGame g;
    start_game(&g, "W:Wd4,a2:Bd5", BLACK, 0);
    int64_t run = 0, game_id = 0;
    assert_false(human_game_save(&g, store, 0, &run, &game_id, err, sizeof err));
    assert_string_equal(err, "the game is not over: only a finished game is saved");
    int64_t n;
    assert_true(store_count(store, "runs", &n));
    assert_int_equal(n, 0);
    assert_true(human_game_engine_move(&g, 0, NULL));
    assert_true(human_game_save(&g, store, 0, &run, &game_id, err, sizeof err));
    assert_true(run > 0 && game_id > 0);

    StoredGame sg;
    assert_true(store_game_read(store, game_id, &sg));
    assert_string_equal(sg.rec.moves, "d4xd6");
    assert_int_equal(sg.rec.result, RESULT_WHITE_WINS);
    assert_string_equal(sg.rec.reason, "no-moves");
    assert_int_equal(sg.rec.plies, 1);
    assert_true(sg.rec.mars); /* white lost no piece */
    assert_int_equal(sg.rec.npositions, 2);
    assert_true(position_equal(&sg.positions[0].pos, &g.positions[0]));
    assert_true(position_equal(&sg.positions[1].pos, &g.positions[1]));
    assert_true(sg.positions[0].has_score);
    assert_int_equal(sg.positions[0].score, SCORE_WIN - 1); /* white to move, winning */
    assert_true(sg.positions[0].capture_pending);
    assert_false(sg.positions[1].has_score);
    assert_int_equal(sg.rec.game_index, 0);
    store_game_free(&sg);
    StoredPdn pdn;
    assert_true(store_pdn_read(store, game_id, &pdn));
    assert_string_equal(pdn.opening_fen, "W:Wa2,d4:Bd5");
    assert_string_equal(pdn.run_kind, "play");
    store_pdn_free(&pdn);
    human_game_free(&g);

    /* A second game, from the start, resigned: into the same run, next index. */
    start_game(&g, NULL, WHITE, 0);
    play_all(&g, "c3-c4", 0);
    assert_true(human_game_engine_move(&g, 0, NULL));
    assert_true(human_game_resign(&g, WHITE));
    int64_t run2 = run, game2 = 0;
    assert_true(human_game_save(&g, store, 0, &run2, &game2, err, sizeof err));
    assert_int_equal(run2, run);
    assert_true(store_game_read(store, game2, &sg));
    assert_int_equal(sg.rec.game_index, 1);
    assert_int_equal(sg.rec.result, RESULT_BLACK_WINS);
    assert_string_equal(sg.rec.reason, "resign");
    assert_int_equal(sg.rec.npositions, 3);
    assert_false(sg.positions[0].has_score); /* the person's move */
    assert_true(sg.positions[1].has_score);  /* the engine's */
    store_game_free(&sg);
    human_game_free(&g);

    char kind[16], status[16], variant[16];
    int64_t games;
    assert_int_equal(store_run_info(store, run, kind, sizeof kind, status, sizeof status, &games,
                                    variant, sizeof variant), 1);
    assert_string_equal(kind, "play");
    assert_string_equal(status, "done");
    assert_string_equal(variant, "turkish");
    assert_int_equal(games, 2);
    assert_true(store_check(store));
    /* the run records the search that played, as self-play runs do */
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT bench_signature FROM runs WHERE id = ?1", -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(st, 1, run);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_non_null(sqlite3_column_text(st, 0));
    assert_string_equal((const char *)sqlite3_column_text(st, 0), PINNED_SIGNATURE);
    sqlite3_finalize(st);
    sqlite3_close(db);

    /* A game joins only a play run of its variant: refused, nothing written. */
    int64_t selfplay = store_run_begin(store, "selfplay", "turkish", NULL, NULL, NULL, 0);
    int64_t intl = 0;
    assert_true(selfplay > 0);
    start_game(&g, NULL, WHITE, 0);
    assert_true(human_game_resign(&g, WHITE));
    int64_t into = selfplay;
    assert_false(human_game_save(&g, store, 0, &into, &game2, err, sizeof err));
    assert_non_null(strstr(err, "is a selfplay run, not a play run"));
    assert_int_equal(into, selfplay);
    assert_true(store_count(store, "games", &n));
    assert_int_equal(n, 2);
    human_game_free(&g);
    Rules rules = rules_default(&international_variant);
    SearchLimits level = { .nodes = 1000 };
    /* Two people, no clock: no engine, so the Turkish weights are never used. */
    assert_true(human_game_start(&g, &international_variant, &rules, NULL, HUMAN_BOTH, level, 0, &weights, 0));
    assert_null(g.searcher);
    assert_true(human_game_resign(&g, BLACK));
    into = run; /* a Turkish play run */
    assert_false(human_game_save(&g, store, 0, &into, &game2, err, sizeof err));
    assert_non_null(strstr(err, "plays turkish, not international"));
    assert_true(human_game_save(&g, store, 0, &intl, &game2, err, sizeof err)); /* a run of its own */
    assert_true(intl > run);
    human_game_free(&g);
    store_close(store);
}

static const char *name_at(const Variant *v, int row, int col, char *buf)
{
    int sq = human_board_square(v, row, col);
    return sq < 0 ? "-" : v->square_name(sq, buf);
}

/* The board a person sees: a8 top left in Turkish; International's square 1 is the second
 * of the top row, 6 the first of the next, 50 the last of the bottom row's dark squares. */
static void test_board_geometry(void **state)
{
    (void)state;
    char buf[8];
    assert_int_equal(human_board_size(&turkish_variant), 8);
    assert_string_equal(name_at(&turkish_variant, 0, 0, buf), "a8");
    assert_string_equal(name_at(&turkish_variant, 7, 0, buf), "a1");
    assert_string_equal(name_at(&turkish_variant, 4, 3, buf), "d4");
    assert_string_equal(name_at(&turkish_variant, 8, 0, buf), "-");
    const Variant *intl = &international_variant;
    assert_int_equal(human_board_size(intl), 10);
    assert_string_equal(name_at(intl, 0, 0, buf), "-");
    assert_string_equal(name_at(intl, 0, 1, buf), "1");
    assert_string_equal(name_at(intl, 0, 9, buf), "5");
    assert_string_equal(name_at(intl, 1, 0, buf), "6");
    assert_string_equal(name_at(intl, 6, 1, buf), "31"); /* white's men start on 31-50 */
    assert_string_equal(name_at(intl, 6, 3, buf), "32");
    assert_string_equal(name_at(intl, 9, 0, buf), "46");
    assert_string_equal(name_at(intl, 9, 8, buf), "50");
    assert_string_equal(name_at(intl, 9, 9, buf), "-");
    int dark = 0;
    for (int r = 0; r < 10; r++)
        for (int c = 0; c < 10; c++)
            dark += human_board_square(intl, r, c) >= 0;
    assert_int_equal(dark, 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_human_wins_after_a_refusal),
        cmocka_unit_test(test_engine_reply_wins),
        cmocka_unit_test(test_two_people_and_a_resignation),
        cmocka_unit_test(test_second_timeout_in_a_row_loses),
        cmocka_unit_test(test_a_move_in_time_clears_the_run),
        cmocka_unit_test(test_timeouts_follow_each_other),
        cmocka_unit_test(test_pdn_names_the_moves_and_result),
        cmocka_unit_test(test_saved_game_reads_back),
        cmocka_unit_test(test_board_geometry),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
