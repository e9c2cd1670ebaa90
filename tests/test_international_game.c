/* The end of an International game (docs/rules-international.md, "End of the game";
 * FMJD article 6) played through Game as self-play plays it: a loss with no legal move,
 * threefold repetition, 25 king moves each, the 16- and 5-move lone-king endgames, and the
 * International rule options.  The Turkish end of the game stays in test_rules.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "notation.h"
#include "position.h"
#include "variant.h"
#include "international.h"

static const Variant *V = &international_variant;

static void start_game(Game *game, const Rules *rules, const char *fen)
{
    Position pos;
    char err[256];
    if (!position_from_fen(&pos, V, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    game_init(game, V, rules, &pos);
}

static void play_text(Game *game, const char *text)
{
    Move m;
    char err[256];
    if (!move_from_text(V, &game->pos, &game->rules, text, &m, err, sizeof err))
        fail_msg("%s: %s", text, err);
    assert_true(game_play(game, &m));
}

static void expect_going_on(const Game *game)
{
    int reason;
    if (game_result(game, &reason) != RESULT_NONE)
        fail_msg("ply %d: the game ended (%s), expected it to go on", game->ply, reason_name(reason));
}

static void expect_end(const Game *game, int result, int reason)
{
    int got_reason;
    int got = game_result(game, &got_reason);
    if (got != result || got_reason != reason)
        fail_msg("ply %d: %s (%s), expected %s (%s)", game->ply, result_name(got),
                 reason_name(got_reason), result_name(result), reason_name(reason));
}

/* Plays the first legal quiet move that leads to a position not seen in this game and
 * leaves the opponent no capture, White staying on rows 8-10 and Black on rows 1-3 (so
 * that neither walks into the other's reach): a walk of quiet moves with no repetition,
 * so that only the draw count under test can end it.  Fails when there is none. */
static void play_fresh_quiet_move(Game *game, bool kings_only)
{
    MoveList list;
    V->generate(&game->pos, &game->rules, &list);
    for (int i = 0; i < list.count; i++) {
        const Move *m = &list.moves[i];
        bool king = (game->pos.kings[game->pos.side] >> m->from) & 1;
        char name[4];
        int number = atoi(V->square_name(m->to, name));
        bool home = game->pos.side == WHITE ? number >= 36 : number <= 15;
        if (m->captured || (kings_only && !king) || !home)
            continue;
        Position child = game->pos;
        V->make(&child, m);
        uint64_t key = position_key(&child);
        bool seen = false;
        for (int p = 0; p <= game->ply; p++)
            seen |= game->keys[p] == key;
        if (seen || V->capture_pending(&child))
            continue;
        assert_true(game_play(game, m));
        return;
    }
    char fen[256];
    position_to_fen(&game->pos, V, fen, sizeof fen);
    fail_msg("ply %d: %s: no fresh quiet move", game->ply, fen);
}

/* plies fresh quiet moves, the game going on before each. */
static void walk_going_on(Game *game, int plies, bool kings_only)
{
    for (int ply = 0; ply < plies; ply++) {
        expect_going_on(game);
        play_fresh_quiet_move(game, kings_only);
    }
}

static void test_options(void **state)
{
    (void)state;
    char err[256];
    Rules r = rules_default(V);
    assert_true(international_rules(&r).majority);
    assert_int_equal(international_rules(&r).kingmoves_plies, 50); /* 25 moves each */
    assert_int_equal(international_rules(&r).endgame16_plies, 32);
    assert_int_equal(international_rules(&r).endgame5_plies, 10);
    assert_true(rules_parse(V, &r, "majority=off,kingmoves=30,endgame16=0,endgame5=7", err, sizeof err));
    assert_false(international_rules(&r).majority);
    assert_int_equal(international_rules(&r).kingmoves_plies, 60);
    assert_int_equal(international_rules(&r).endgame16_plies, 0);
    assert_int_equal(international_rules(&r).endgame5_plies, 14);
    assert_false(rules_parse(V, &r, "kvm=win", err, sizeof err));
    assert_string_equal(err, "bad rules: unknown option 'kvm' (majority, kingmoves, endgame16, endgame5)");
    assert_false(rules_parse(V, &r, "kingmoves=-1", err, sizeof err));
    assert_string_equal(err, "bad rules: '-1' is no value for kingmoves");
    /* and Turkish keeps its own: no International option there */
    Rules t = rules_default(&turkish_variant);
    assert_false(rules_parse(&turkish_variant, &t, "majority=off", err, sizeof err));
    assert_string_equal(err, "bad rules: unknown option 'majority' (promotion, kvm, noprogress)");
}

/* A man's move and a capture are irreversible in International; in Turkish only a capture
 * (men step sideways there). */
static void test_irreversible_moves(void **state)
{
    (void)state;
    Game game;
    Rules rules = rules_default(V);
    start_game(&game, &rules, "W:WK47,48,50:BK3,4,1");
    play_text(&game, "47-42");
    assert_int_equal(game.since_capture, 1);
    play_text(&game, "3-9");
    assert_int_equal(game.since_capture, 2);
    play_text(&game, "50-45"); /* a man */
    assert_int_equal(game.since_capture, 0);
    play_text(&game, "1-6");   /* a man */
    assert_int_equal(game.since_capture, 0);

    Game tr;
    Rules trules = rules_default(&turkish_variant);
    Position pos;
    char err[256];
    assert_true(position_from_fen(&pos, &turkish_variant, "W:Wa3:Bh6", err, sizeof err));
    game_init(&tr, &turkish_variant, &trules, &pos);
    Move m;
    assert_true(move_from_text(&turkish_variant, &tr.pos, &trules, "a3-a4", &m, err, sizeof err));
    assert_true(game_play(&tr, &m));
    assert_int_equal(tr.since_capture, 1);
}

/* White's man on 46 is blocked: 41 is taken, and 37 behind it too, so it cannot capture. */
static void test_no_move_loses(void **state)
{
    (void)state;
    Game game;
    Rules rules = rules_default(V);
    start_game(&game, &rules, "W:W46:B37,41");
    expect_end(&game, RESULT_BLACK_WINS, REASON_NO_MOVES);
    start_game(&game, &rules, "B:W46:B37,41");
    expect_going_on(&game);
    start_game(&game, &rules, "B:WK46:B"); /* no pieces: no move */
    expect_end(&game, RESULT_WHITE_WINS, REASON_NO_MOVES);
}

/* Two kings each shuffle: the start position comes back after 4 plies and a third time
 * after 8 (article 6.1). */
static void test_threefold_repetition(void **state)
{
    (void)state;
    Game game;
    Rules rules = rules_default(V);
    start_game(&game, &rules, "W:WK47,K48:BK3,K4");
    static const char *const cycle[] = { "47-42", "3-9", "42-47", "9-3" };
    for (int ply = 0; ply < 8; ply++) {
        expect_going_on(&game);
        play_text(&game, cycle[ply % 4]);
    }
    expect_end(&game, RESULT_DRAW, REASON_REPETITION);
}

/* Article 6.2: 25 moves each of kings only, nothing captured, draw (50 plies).  A man's move
 * starts the count again. */
static void test_king_moves(void **state)
{
    (void)state;
    Game game;
    Rules rules = rules_default(V);
    start_game(&game, &rules, "W:WK47,K48,50:BK3,K4,1");
    for (int ply = 0; ply < 20; ply++)
        play_fresh_quiet_move(&game, true);
    play_text(&game, "50-45"); /* white's man: the count restarts */
    walk_going_on(&game, 50, true);
    expect_end(&game, RESULT_DRAW, game_reason(&international_variant, INTERNATIONAL_REASON_KING_MOVES));

    RULES_SET(international, rules, kingmoves_plies, 0); /* never */
    game.rules = rules;
    expect_going_on(&game);
}

/* Article 6.4: a lone king against one king (or two pieces with a king): 5 moves each. */
static void test_five_move_endgame(void **state)
{
    (void)state;
    Game game;
    Rules rules = rules_default(V);
    start_game(&game, &rules, "W:WK47,45:BK3");
    walk_going_on(&game, 10, true);
    expect_end(&game, RESULT_DRAW, game_reason(&international_variant, INTERNATIONAL_REASON_ENDGAME));
}

/* Article 6.3: a lone king against three pieces with a king: 16 moves each, counted from
 * the capture that makes the endgame (before it White had four pieces: no count). */
static void test_sixteen_move_endgame(void **state)
{
    (void)state;
    Game game;
    Rules rules = rules_default(V);
    start_game(&game, &rules, "B:WK46,K47,K48,33:BK28");
    play_text(&game, "28x50");
    assert_int_equal(game.endgame_plies, 0);
    walk_going_on(&game, 32, false);
    expect_end(&game, RESULT_DRAW, game_reason(&international_variant, INTERNATIONAL_REASON_ENDGAME));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_irreversible_moves),
        cmocka_unit_test(test_no_move_loses),
        cmocka_unit_test(test_threefold_repetition),
        cmocka_unit_test(test_king_moves),
        cmocka_unit_test(test_five_move_endgame),
        cmocka_unit_test(test_sixteen_move_endgame),
    };
    return cmocka_run_group_tests_name("international_game", tests, NULL, NULL);
}
