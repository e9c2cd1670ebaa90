/* The endgame databases in use: the search's probes (a won kings' ending seen at a depth the
 * plain search cannot see, a drawn one scored exactly 0, a win not trusted near the draw
 * counter's limit, node-limited searches reproducible, probes counted), the adjudication of
 * a game by the databases, and `--egdb DIR` with a damaged or missing database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "test_tmpdir.h"

#include "egdb_build.h"
#include "egdb_file.h"
#include "egdb_search.h"
#include "game.h"
#include "move.h"
#include "play.h"
#include "position.h"
#include "search.h"
#include "turkish_eval.h"
#include "variant.h"
#include "weights.h"

static const Variant *V = &turkish_variant;
static char tmpdir[64];
static Egdb *db;          /* Turkish, the kings-only classes of 2-4 pieces */
static Weights weights;

/* Three kings against one, White to move, the lone king in the middle of the board and no
 * piece attacked.  Three kings win against one in Turkish draughts (docs/egdb.md: 99.3 % of
 * such positions; the one-piece-each draw needs the lone king to take one of three, which
 * they can avoid), but the catch is 11 plies deep: the plain search sees it first at depth 9
 * (`dama analyze --weights default --fen ... --depth 9`: win11; depth 8: 515). */
#define THREE_KINGS_PIECES ":WKb4,Kf4,Kg6:BKc5"
#define THREE_KINGS "W" THREE_KINGS_PIECES
/* The same as a Hub position: a8 to h8, ..., a1 to h1. */
#define THREE_KINGS_HUB "WeeeeeeeeeeeeeeeeeeeeeeWeeeBeeeeeeWeeeWeeeeeeeeeeeeeeeeeeeeeeeeee"
/* Two kings against one: a draw under the one-piece-each rule (the lone king takes one of
 * two kings sooner or later; docs/egdb.md: 0.5 % of such positions are wins, the traps with
 * the lone king on an edge next to a king, not this one with it in the middle). */
#define TWO_KINGS "W:WKa1,Kh2:BKd5"

static void parse_fen(const char *fen, Position *pos)
{
    char err[256];
    if (!position_from_fen(pos, V, fen, err, sizeof err)) {
        print_error("bad FEN %s: %s\n", fen, err);
        fail();
    }
}

static Searcher *new_searcher(bool probes)
{
    Rules rules = rules_default(V);
    Searcher *s = searcher_new(V, &rules, &weights, 8);
    assert_non_null(s);
    egdb_search_attach(s, probes ? db : NULL);
    return s;
}

static SearchInfo search_limited(Searcher *s, const Position *pos, const uint64_t *history, int nhistory,
                                 SearchLimits limits)
{
    searcher_clear(s);
    return search(s, pos, history, nhistory, &limits, NULL, NULL);
}

/* The database's value of the position after move m (for the side then to move). */
static int value_after(const Position *pos, const Move *m)
{
    Position child = *pos;
    V->make(&child, m);
    return egdb_probe(db, &child);
}

static void test_probe_sees_the_won_ending(void **state)
{
    (void)state;
    Position pos;
    parse_fen(THREE_KINGS, &pos);
    assert_int_equal(egdb_probe(db, &pos), EGDB_WIN);

    /* Without the databases: material only, even 6 plies deep (no forced win in sight). */
    Searcher *plain = new_searcher(false);
    SearchInfo p = search_limited(plain, &pos, NULL, 0, (SearchLimits){ .depth = 6 });
    assert_true(p.score < SCORE_EGDB_BOUND);
    assert_true(p.score > 0);
    assert_int_equal(p.egdb_probes, 0);

    /* With them, one ply is enough: a database win, and the move keeps it (Black is lost). */
    Searcher *probing = new_searcher(true);
    for (int depth = 1; depth <= 4; depth++) {
        SearchInfo e = search_limited(probing, &pos, NULL, 0, (SearchLimits){ .depth = depth });
        assert_true(e.score > SCORE_EGDB_BOUND);
        assert_true(e.score < SCORE_WIN_BOUND); /* not claimed as a forced win it has not seen */
        assert_int_equal(value_after(&pos, &e.pv[0]), EGDB_LOSS);
        assert_true(e.egdb_hits > 0 && e.egdb_hits <= e.egdb_probes);
    }
    searcher_free(plain);
    searcher_free(probing);
}

static void test_probe_scores_the_drawn_ending_zero(void **state)
{
    (void)state;
    Position pos;
    parse_fen(TWO_KINGS, &pos);
    assert_int_equal(egdb_probe(db, &pos), EGDB_DRAW);
    Searcher *plain = new_searcher(false), *probing = new_searcher(true);
    SearchInfo p = search_limited(plain, &pos, NULL, 0, (SearchLimits){ .depth = 4 });
    SearchInfo e = search_limited(probing, &pos, NULL, 0, (SearchLimits){ .depth = 4 });
    assert_true(p.score > 100); /* a king up, as the evaluation sees it */
    assert_int_equal(e.score, 0);
    assert_int_equal(value_after(&pos, &e.pv[0]), EGDB_DRAW);
    searcher_free(plain);
    searcher_free(probing);
}

/* 60 quiet plies already played (Turkish draws after 100 without a capture): twice that is
 * past the limit, so a database win is only "no worse than a draw" and scores as the
 * search finds it, not as a win. */
static void test_win_not_trusted_near_the_counter(void **state)
{
    (void)state;
    Position pos;
    parse_fen(THREE_KINGS, &pos);
    uint64_t history[60];
    for (int i = 0; i < 60; i++)
        history[i] = 0x1234567ULL * (uint64_t)(i + 1); /* no repetition of the root */
    Searcher *probing = new_searcher(true);
    SearchInfo fresh = search_limited(probing, &pos, history, 10, (SearchLimits){ .depth = 3 });
    SearchInfo late = search_limited(probing, &pos, history, 60, (SearchLimits){ .depth = 3 });
    assert_true(fresh.score > SCORE_EGDB_BOUND);
    assert_true(late.score >= 0 && late.score < SCORE_EGDB_BOUND);
    searcher_free(probing);
}

/* A node-limited search with probes gives the same move, score and counts every time. */
static void test_probing_search_reproducible(void **state)
{
    (void)state;
    Position pos;
    parse_fen("W:WKa1,Kb2:BKg7,Kd5", &pos);
    Searcher *a = new_searcher(true), *b = new_searcher(true);
    SearchInfo x = search_limited(a, &pos, NULL, 0, (SearchLimits){ .nodes = 20000 });
    SearchInfo y = search_limited(b, &pos, NULL, 0, (SearchLimits){ .nodes = 20000 });
    SearchInfo z = search_limited(a, &pos, NULL, 0, (SearchLimits){ .nodes = 20000 });
    assert_true(x.egdb_probes > 0);
    assert_int_equal(x.egdb_probes, y.egdb_probes);
    assert_int_equal(x.egdb_hits, z.egdb_hits);
    assert_int_equal(x.score, y.score);
    assert_int_equal(x.score, z.score);
    assert_int_equal(x.nodes, z.nodes);
    assert_true(move_same(&x.pv[0], &y.pv[0]) && move_same(&x.pv[0], &z.pv[0]));
    searcher_free(a);
    searcher_free(b);
}

/* Tables built for the default rules are not used under other rules or by another game. */
static void test_attach_refuses_other_rules(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    char err[256];
    assert_true(rules_parse(V, &rules, "noprogress=50", err, sizeof err));
    Searcher *s = searcher_new(V, &rules, &weights, 1);
    assert_non_null(s);
    assert_false(egdb_search_attach(s, db));
    Position pos;
    parse_fen(THREE_KINGS, &pos);
    SearchInfo info = search_limited(s, &pos, NULL, 0, (SearchLimits){ .depth = 2 });
    assert_int_equal(info.egdb_probes, 0);
    searcher_free(s);

    Rules intl = rules_default(&international_variant);
    Weights iw;
    assert_true(weights_default(&iw, international_variant.eval));
    s = searcher_new(&international_variant, &intl, &iw, 1);
    assert_non_null(s);
    assert_false(egdb_search_attach(s, db));
    searcher_free(s);
    weights_free(&iw);

    s = new_searcher(true);
    assert_true(s->egdb.probe != NULL);
    assert_false(egdb_search_attach(s, NULL)); /* detached */
    assert_true(s->egdb.probe == NULL);
    searcher_free(s);
}

/* A game between two searchers from start, at most cap plies. */
static PlayedGame play_from(const char *fen, Egdb *adjudicator, int cap)
{
    Position start;
    parse_fen(fen, &start);
    GameSetup setup = { .variant = V, .rules = rules_default(V), .limits = { .depth = 2 }, .move_cap = cap,
                        .egdb = adjudicator };
    Player *white = searcher_player_new(V, &setup.rules, &weights, 1, NULL);
    Player *black = searcher_player_new(V, &setup.rules, &weights, 1, NULL);
    assert_non_null(white);
    assert_non_null(black);
    PlayedGame g;
    assert_true(play_game(&setup, white, black, &start, 1, NULL, &g));
    player_free(white);
    player_free(black);
    return g;
}

static void test_adjudication_by_the_databases(void **state)
{
    (void)state;
    PlayedGame g = play_from(THREE_KINGS, db, 40);
    assert_int_equal(g.result, RESULT_WHITE_WINS);
    assert_int_equal(g.reason, REASON_EGDB);
    assert_int_equal(g.plies, 0);
    assert_string_equal(reason_name(g.reason), "egdb");
    played_game_free(&g);

    g = play_from("B" THREE_KINGS_PIECES, db, 40); /* Black to move: still White's win */
    assert_int_equal(g.result, RESULT_WHITE_WINS);
    assert_int_equal(g.reason, REASON_EGDB);
    played_game_free(&g);

    g = play_from(TWO_KINGS, db, 40);
    assert_int_equal(g.result, RESULT_DRAW);
    assert_int_equal(g.reason, REASON_EGDB);
    played_game_free(&g);

    /* Off by default: the same game is played on (here to the move cap). */
    g = play_from(TWO_KINGS, NULL, 6);
    assert_int_equal(g.reason, REASON_MOVE_CAP);
    assert_int_equal(g.plies, 6);
    played_game_free(&g);

    /* Five pieces are not in a 4-piece database: played on until a capture brings it in. */
    g = play_from("W:WKa1,Kb2,Kc3:BKh8,Kh1", db, 200);
    assert_int_equal(g.reason, REASON_EGDB);
    assert_true(g.plies > 0);
    played_game_free(&g);
}

/* Near the no-progress limit a database win is not adjudicated (the rules may still draw
 * it); a draw is, since the counters only add draws. */
static void test_adjudication_respects_the_counter(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    Position pos;
    parse_fen(THREE_KINGS, &pos);
    Game *game = malloc(sizeof *game);
    assert_non_null(game);
    game_init(game, V, &rules, &pos);
    assert_int_equal(egdb_adjudicate(db, game), RESULT_WHITE_WINS);
    game->since_capture = 49;
    assert_int_equal(egdb_adjudicate(db, game), RESULT_WHITE_WINS);
    game->since_capture = 50;
    assert_int_equal(egdb_adjudicate(db, game), RESULT_NONE);
    parse_fen(TWO_KINGS, &pos);
    game_init(game, V, &rules, &pos);
    game->since_capture = 90;
    assert_int_equal(egdb_adjudicate(db, game), RESULT_DRAW);
    assert_int_equal(egdb_adjudicate(NULL, game), RESULT_NONE);
    free(game);
}

/* `--egdb DIR` through the command line: a damaged class file is named and not used (the
 * search goes on without it), a directory without databases is named, and the games of a
 * match end by the databases. */
static void test_egdb_option(void **state)
{
    (void)state;
    char dir[160], out[1 << 14];
    snprintf(dir, sizeof dir, "%s/damaged", tmpdir);
    assert_int_equal(test_shell(">/dev/null 2>&1", "rm -rf '%s' && cp -r '%s/egdb' '%s'", dir, tmpdir, dir), 0);
    const EgdbClass three = { { 0, 0 }, { 3, 1 } }, lone = { { 0, 0 }, { 1, 3 } }; /* men, kings */
    char path3[256], path1[256];
    egdb_file_path(dir, V, three, path3, sizeof path3);
    egdb_file_path(dir, V, lone, path1, sizeof path1);
    for (int i = 0; i < 2; i++) { /* a byte of the payload: the checksum no longer matches */
        FILE *f = fopen(i ? path1 : path3, "r+b");
        assert_non_null(f);
        fseek(f, -3, SEEK_END);
        int c = fgetc(f);
        fseek(f, -3, SEEK_END);
        fputc(c ^ 0x5A, f);
        fclose(f);
    }
    int code = test_dama_run(out, sizeof out, "analyze --weights default --depth 3 --egdb %s --fen %s", dir,
                             THREE_KINGS);
    /* Both named, the search goes on with what is left (no database win: the classes of
     * the position and its quiet children are gone; only captures reach 3 pieces). */
    const char *last = strstr(out, "info depth 3 score ");
    int score = 0;
    if (code != 0 || !strstr(out, path3) || !strstr(out, path1) || !strstr(out, "not used")
        || !strstr(out, "info egdb probes") || !strstr(out, "bestmove") || !last
        || sscanf(last, "info depth 3 score %d", &score) != 1 || score > SCORE_EGDB_BOUND)
        fail_msg("analyze with damaged databases: exit %d:\n%s", code, out);

    snprintf(dir, sizeof dir, "%s/nowhere", tmpdir);
    code = test_dama_run(out, sizeof out, "analyze --depth 2 --egdb %s --fen %s", dir, THREE_KINGS);
    if (code != 0 || !strstr(out, dir) || !strstr(out, "not used") || !strstr(out, "bestmove")
        || strstr(out, "info egdb"))
        fail_msg("analyze with no databases: exit %d:\n%s", code, out);

    /* The Hub parameter: the same position scores as a database win (shown at the top of
     * the evaluation scale, 89.99, below the forced results) only with egdb set. */
    char hub_out[160];
    snprintf(hub_out, sizeof hub_out, "%s/hub.txt", tmpdir);
    for (int with = 0; with < 2; with++) {
        char param[200] = "";
        if (with)
            snprintf(param, sizeof param, "set-param name=egdb value=%s/egdb\\n", tmpdir);
        assert_int_equal(test_shell("2> /dev/null",
                                    "printf 'hub\\n%sinit\\npos pos=%s\\nlevel depth=2\\ngo think\\nquit\\n' | %s hub "
                                    "--weights default > %s", param, THREE_KINGS_HUB, test_dama_bin(), hub_out), 0);
        char *text = test_read_file(hub_out);
        assert_non_null(text);
        if (!strstr(text, "done move=") || (strstr(text, "score=89.99") != NULL) != with)
            fail_msg("hub %s egdb:\n%s", with ? "with" : "without", text);
        free(text);
    }

    /* A match from won and drawn kings' endings: each game ends at once by the databases
     * (White wins both games of the first pair, so A wins one and loses one). */
    char openings[160], db_path[160];
    snprintf(openings, sizeof openings, "%s/openings.txt", tmpdir);
    snprintf(db_path, sizeof db_path, "%s/match.db", tmpdir);
    FILE *f = fopen(openings, "w");
    assert_non_null(f);
    fprintf(f, "%s\n%s\n", THREE_KINGS, TWO_KINGS);
    fclose(f);
    code = test_dama_run(out, sizeof out, "match --a default --b default --games 4 --threads 1 --depth 2 "
                         "--openings %s --egdb %s/egdb --db %s", openings, tmpdir, db_path);
    if (code != 0 || !strstr(out, "match games 4 wins 1 draws 2 losses 1"))
        fail_msg("match --egdb: exit %d:\n%s", code, out);
}

/* The first move's score before it, from `dama annotate --csv` (its fifth column), over
 * the won three kings' ending; INT_MIN when the run or the file failed.  out: what dama
 * printed. */
static int annotated_score_before(const char *egdb_option, char *out, size_t outlen)
{
    char pdn[160], csv[160];
    snprintf(pdn, sizeof pdn, "%s/three.pdn", tmpdir);
    snprintf(csv, sizeof csv, "%s/three.csv", tmpdir);
    if (!test_write_file(pdn, "[GameType \"30\"]\n[FEN \"" THREE_KINGS "\"]\n\n1. b4-b8 c5-h5 *\n"))
        return INT_MIN;
    int code = test_dama_run(out, outlen, "annotate --in %s --weights default --depth 2 --threads 1 "
                             "--csv %s --out /dev/null %s", pdn, csv, egdb_option);
    char *text = code == 0 ? test_read_file(csv) : NULL;
    const char *row = text ? strchr(text, '\n') : NULL; /* past the header */
    int game, ply, score = INT_MIN;
    char move[16], mover[16];
    if (!row || sscanf(row + 1, "%d,%d,%15[^,],%15[^,],%d", &game, &ply, move, mover, &score) != 5)
        print_error("annotate %s: exit %d:\n%s\n%s\n", egdb_option, code, out, text ? text : "");
    free(text);
    return score;
}

/* `dama annotate --egdb DIR`: the depth-2 search that sees only material (+5 men or so)
 * scores the won ending as a database win, at the top of the scale; a directory without
 * databases is named and the annotation goes on without them. */
static void test_annotate_probes_the_databases(void **state)
{
    (void)state;
    char option[160], out[1 << 12];
    int plain = annotated_score_before("", out, sizeof out);
    assert_true(plain > INT_MIN && plain < SCORE_EGDB_BOUND);
    snprintf(option, sizeof option, "--egdb %s/egdb", tmpdir);
    int probed = annotated_score_before(option, out, sizeof out);
    assert_true(probed >= SCORE_EGDB_BOUND);
    snprintf(option, sizeof option, "--egdb %s/nowhere", tmpdir);
    assert_int_equal(annotated_score_before(option, out, sizeof out), plain);
    if (!strstr(out, option + strlen("--egdb ")) || !strstr(out, "not used"))
        fail_msg("annotate %s did not name the directory:\n%s", option, out);
}

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(tmpdir, sizeof tmpdir, "egdbsearch") != 0)
        return -1;
    weights_default(&weights, &turkish_eval_spec);
    Rules rules = rules_default(V);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/egdb", tmpdir);
    db = egdb_open(V, &rules, dir);
    EgdbBuildOptions opt = { .pieces = 4, .kings_only = true };
    char err[512];
    if (!db || egdb_build(db, &opt, err, sizeof err) != EGDB_BUILD_OK) {
        fprintf(stderr, "build: %s\n", err);
        return -1;
    }
    egdb_close(db); /* opened again: the probes read the files written */
    db = egdb_open(V, &rules, dir);
    egdb_set_quiet(db, true); /* the classes with men are not built */
    return db ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    egdb_close(db);
    weights_free(&weights);
    return test_tmpdir_remove(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_sees_the_won_ending),
        cmocka_unit_test(test_probe_scores_the_drawn_ending_zero),
        cmocka_unit_test(test_win_not_trusted_near_the_counter),
        cmocka_unit_test(test_probing_search_reproducible),
        cmocka_unit_test(test_attach_refuses_other_rules),
        cmocka_unit_test(test_adjudication_by_the_databases),
        cmocka_unit_test(test_adjudication_respects_the_counter),
        cmocka_unit_test(test_egdb_option),
        cmocka_unit_test(test_annotate_probes_the_databases),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
