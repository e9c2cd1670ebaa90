/* Tests of annotated games (analysis/annotate*.c, cli/cmd_annotate.c): the loss and the
 * marks on hand-made scores, a hand-worked blunder the search must mark ?? with the winning
 * alternative, the PDN written back through `dama pdn import` and export, the CSV columns
 * and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "annotate.h"
#include "annotate_input.h"
#include "notation.h"
#include "weights_store.h"
#include "position.h"
#include "variant.h"
#include "test_util.h"
#include "test_tmpdir.h"
#include "test_csv.h"
#include "serve_process.h"

static char dir[64];

static int setup_dir(void **state)
{
    (void)state;
    return test_tmpdir_make(dir, sizeof dir, "annotate");
}

static int teardown_dir(void **state)
{
    (void)state;
    return test_tmpdir_remove(dir);
}

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The hand-worked Turkish blunder.  White: men c2 d3 d4 h2 g7; Black: men a6 d6 a7 b7 h7;
 * White to move, no capture for either side.  Black's h7 threatens h7xf7 (sideways over
 * g7), and g7-g8 both saves that man and crowns it: a king against five men.  d4-d5 instead
 * puts a man next to d6, and Black must take the most pieces: d6xd4 (over d5), on over d3
 * to d2, sideways over c2 to b2 -- three men -- with a man on b2 that crowns next move.
 * So d4-d5 turns a won position into a lost one: ??, with g7-g8 as the best move.  The
 * capture is then Black's only legal move, never marked. */
#define BLUNDER_FEN "W:Wd4,d3,c2,h2,g7:Bd6,h7,a7,b7,a6"
static const char blunder_pdn[] =
    "[Event \"blunder\"]\n"
    "[White \"Ali\"]\n"
    "[FEN \"" BLUNDER_FEN "\"]\n"
    "[GameType \"30\"]\n"
    "\n"
    "1. d4-d5 d6xd4xd2xb2 0-2\n";

/* The blunder game as annotate reads it. */
static void blunder_game(const Variant *v, const Rules *rules, AnnotateGame *g, Move moves[2])
{
    char why[256];
    memset(g, 0, sizeof *g);
    g->id = "1";
    assert_true(position_from_fen(&g->start, v, BLUNDER_FEN, why, sizeof why));
    Position pos = g->start;
    assert_true(move_from_text(v, &pos, rules, "d4-d5", &moves[0], why, sizeof why));
    v->make(&pos, &moves[0]);
    assert_true(move_from_text(v, &pos, rules, "d6xd4xd2xb2", &moves[1], why, sizeof why));
    g->moves = moves;
    g->nmoves = 2;
    g->setup = true;
}

static void test_loss_and_marks(void **state)
{
    (void)state;
    const AnnotateThresholds *t = &annotate_thresholds_default;
    /* the thresholds themselves, from the mover's view */
    assert_int_equal(annotate_mark(t, 30, -19, false, false), MARK_NONE);       /* 49 */
    assert_int_equal(annotate_mark(t, 30, -20, false, false), MARK_INACCURACY); /* 50 */
    assert_int_equal(annotate_mark(t, 30, -69, false, false), MARK_INACCURACY); /* 99 */
    assert_int_equal(annotate_mark(t, 30, -70, false, false), MARK_MISTAKE);    /* 100 */
    assert_int_equal(annotate_mark(t, 30, -169, false, false), MARK_MISTAKE);   /* 199 */
    assert_int_equal(annotate_mark(t, 30, -170, false, false), MARK_BLUNDER);   /* 200 */
    /* a gain is no loss */
    assert_int_equal(annotate_loss(t, -40, 60), 0);
    /* the cap: already lost by more than 5 men, losing more marks nothing ... */
    assert_int_equal(annotate_loss(t, -600, -1500), 0);
    assert_int_equal(annotate_mark(t, -600, -1500, false, false), MARK_NONE);
    assert_int_equal(annotate_mark(t, -SCORE_WIN + 10, -SCORE_WIN + 2, false, false), MARK_NONE);
    /* ... a forced win that becomes a slower one neither ... */
    assert_int_equal(annotate_mark(t, SCORE_WIN - 7, SCORE_WIN - 11, false, false), MARK_NONE);
    /* ... but a win thrown down to +1.5 men is a loss of 350 */
    assert_int_equal(annotate_loss(t, SCORE_WIN - 7, 150), 350);
    assert_int_equal(annotate_mark(t, SCORE_WIN - 7, 150, false, false), MARK_BLUNDER);
    /* the best move and an only move are never marked */
    assert_int_equal(annotate_mark(t, 300, -300, true, false), MARK_NONE);
    assert_int_equal(annotate_mark(t, 300, -300, false, true), MARK_NONE);
    assert_string_equal(annotate_mark_text(MARK_INACCURACY), "?!");
    assert_string_equal(annotate_mark_text(MARK_MISTAKE), "?");
    assert_string_equal(annotate_mark_text(MARK_BLUNDER), "??");
    assert_string_equal(annotate_mark_nag(MARK_INACCURACY), "$6");
    assert_string_equal(annotate_mark_nag(MARK_MISTAKE), "$2");
    assert_string_equal(annotate_mark_nag(MARK_BLUNDER), "$4");
    assert_string_equal(annotate_mark_text(MARK_NONE), "");
}

/* A score sequence by hand through annotate_game: the results are from the side to move,
 * so the move's "after" is minus the next position's score. */
static void test_score_sequence(void **state)
{
    (void)state;
    const Variant *v = variant_by_name("turkish");
    Rules rules = v->rules_default();
    AnnotateGame g;
    Move moves[2];
    blunder_game(v, &rules, &g, moves);
    BatchResult r[3] = {
        { .score = 40, .pv = "g7-g8 b7-b6" },
        { .score = 190, .pv = "d6xd4xd2xb2 g7-g8" },
        { .score = -200, .pv = "g7-g8" },
    };
    AnnotatedMove *m;
    assert_true(annotate_game(v, &rules, &annotate_thresholds_default, &g, r, &m));
    assert_int_equal(m[0].ply, 1);
    assert_int_equal(m[0].mover, WHITE);
    assert_string_equal(m[0].move, "d4-d5");
    assert_int_equal(m[0].before, 40);
    assert_int_equal(m[0].after, -190);
    assert_int_equal(m[0].loss, 230);
    assert_int_equal(m[0].mark, MARK_BLUNDER);
    assert_string_equal(m[0].best, "g7-g8");
    assert_string_equal(m[0].line, "g7-g8 b7-b6");
    assert_int_equal(m[1].ply, 2);
    assert_int_equal(m[1].mover, BLACK);
    assert_true(m[1].only_move);
    assert_true(m[1].best_played);
    assert_int_equal(m[1].before, 190);
    assert_int_equal(m[1].after, 200);
    assert_int_equal(m[1].loss, 0);
    assert_int_equal(m[1].mark, MARK_NONE);
    /* the notes: the NAG then the comment after ply 1, a comment after ply 2 */
    StorePdnNote *notes;
    int n;
    assert_true(annotate_notes(m, 2, &notes, &n));
    assert_int_equal(n, 3);
    assert_int_equal(notes[0].ply, 1);
    assert_string_equal(notes[0].text, "$4");
    assert_string_equal(notes[1].text, "{40 -> -190; best g7-g8: g7-g8 b7-b6}");
    assert_int_equal(notes[2].ply, 2);
    assert_string_equal(notes[2].text, "{190 -> 200}");
    annotate_notes_free(notes, n);
    annotated_moves_free(m, 2);
}

static void search_game(const Variant *v, const Rules *rules, const AnnotateGame *g, SearchLimits limits,
                        int threads, BatchList *list, BatchResult **r)
{
    Weights w;
    char err[256];
    assert_true(weights_by_name(&w, v, "best", err, sizeof err));
    batch_list_init(list, stderr, true);
    assert_true(annotate_positions(v, g, 1, list));
    assert_int_equal(list->count, g->nmoves + 1);
    assert_string_equal(list->items[1].id, "game1:ply1");
    BatchConfig cfg = { .variant = v, .rules = *rules, .weights = &w, .limits = limits, .threads = threads,
                        .hash_mb = 4 };
    bool interrupted;
    assert_true(batch_run(&cfg, list, r, &interrupted, err, sizeof err));
    assert_false(interrupted);
    weights_free(&w);
}

/* The real search on the hand-worked blunder. */
static void test_forced_blunder(void **state)
{
    (void)state;
    const Variant *v = variant_by_name("turkish");
    Rules rules = v->rules_default();
    AnnotateGame g;
    Move moves[2];
    blunder_game(v, &rules, &g, moves);
    BatchList list;
    BatchResult *r;
    search_game(v, &rules, &g, (SearchLimits){ .depth = 8 }, 2, &list, &r);
    AnnotatedMove *m;
    assert_true(annotate_game(v, &rules, &annotate_thresholds_default, &g, r, &m));
    assert_int_equal(m[0].mark, MARK_BLUNDER);
    assert_string_equal(m[0].best, "g7-g8");
    assert_true(strncmp(m[0].line, "g7-g8 ", 6) == 0);
    assert_true(m[0].before >= 150);  /* a king against men */
    assert_true(m[0].after <= -150);  /* two men against five, one of them crowning */
    assert_true(m[1].only_move);
    assert_int_equal(m[1].mark, MARK_NONE);
    annotated_moves_free(m, 2);
    batch_results_free(r, list.count);
    batch_list_free(&list);
}

/* Under --nodes, the scores and lines do not depend on the threads. */
static void test_nodes_deterministic(void **state)
{
    (void)state;
    const Variant *v = variant_by_name("turkish");
    Rules rules = v->rules_default();
    AnnotateGame g;
    Move moves[2];
    blunder_game(v, &rules, &g, moves);
    BatchList l1, l2;
    BatchResult *r1, *r2;
    search_game(v, &rules, &g, (SearchLimits){ .nodes = 30000 }, 1, &l1, &r1);
    search_game(v, &rules, &g, (SearchLimits){ .nodes = 30000 }, 2, &l2, &r2);
    for (int i = 0; i < l1.count; i++) {
        assert_int_equal(r1[i].score, r2[i].score);
        assert_string_equal(r1[i].pv, r2[i].pv);
    }
    batch_results_free(r1, l1.count);
    batch_results_free(r2, l2.count);
    batch_list_free(&l1);
    batch_list_free(&l2);
}

/* The text after the tags: the move text with its comments and NAGs. */
static const char *move_text(const char *pdn)
{
    const char *p = strstr(pdn, "\n\n");
    assert_non_null(p);
    return p + 2;
}

/* annotate -> pdn import -> pdn export keeps every comment and NAG. */
static void test_pdn_round_trip(void **state)
{
    (void)state;
    char out[8192];
    write_file("blunder.pdn", blunder_pdn);
    int code = test_dama_run(out, sizeof out, "annotate --in %s/blunder.pdn --depth 8 --threads 2 --out %s/a.pdn",
                             dir, dir);
    assert_int_equal(code, 0);
    assert_non_null(strstr(out, "annotated 1 game: 0 ?!, 0 ?, 1 ??"));
    char path[128];
    snprintf(path, sizeof path, "%s/a.pdn", dir);
    char *a = test_read_file(path);
    assert_non_null(a);
    assert_non_null(strstr(a, "[White \"Ali\"]"));
    assert_non_null(strstr(a, "[FEN \""));
    assert_non_null(strstr(a, "1. d4-d5 $4\n{"));
    assert_non_null(strstr(a, "; best g7-g8: g7-g8 "));
    assert_non_null(strstr(a, "1... d6xd4xd2xb2 {"));
    code = test_dama_run(out, sizeof out, "pdn import --db %s/rt.db %s/a.pdn", dir, dir);
    assert_int_equal(code, 0);
    assert_non_null(strstr(out, "imported 1"));
    code = test_dama_run(out, sizeof out, "pdn export --db %s/rt.db --out %s/b.pdn", dir, dir);
    assert_int_equal(code, 0);
    snprintf(path, sizeof path, "%s/b.pdn", dir);
    char *b = test_read_file(path);
    assert_non_null(b);
    assert_string_equal(move_text(b), move_text(a));
    free(a);
    free(b);

    /* the stored game annotated from the database: the same marks, stored as an analysis */
    code = test_dama_run(out, sizeof out, "annotate --game 1 --db %s/rt.db --depth 8 --out %s/c.pdn", dir, dir);
    assert_int_equal(code, 0);
    assert_non_null(strstr(out, "annotated 1 game: 0 ?!, 0 ?, 1 ??"));
    snprintf(path, sizeof path, "%s/rt.db", dir);
    char err[256];
    Store *s = store_open_readonly(path, err, sizeof err);
    assert_non_null(s);
    int64_t rows;
    assert_true(store_count(s, "analyses", &rows));
    assert_int_equal(rows, 3); /* the positions before, between and after the two moves */
    store_close(s);
}

static void test_csv_columns(void **state)
{
    (void)state;
    char out[8192], path[128];
    write_file("blunder.pdn", blunder_pdn);
    int code = test_dama_run(out, sizeof out, "annotate --in %s/blunder.pdn --depth 8 --csv %s/a.csv --out /dev/null",
                             dir, dir);
    assert_int_equal(code, 0);
    snprintf(path, sizeof path, "%s/a.csv", dir);
    Csv *c = csv_load(path);
    assert_int_equal(c->nrows, 3);
    assert_int_equal(c->ncols[0], ANNOTATE_CSV_NCOLUMNS);
    static const char *const names[] = { "game_id", "ply", "move", "mover", "score_before", "score_after",
                                         "loss", "mark", "best_move", "best_line" };
    for (int i = 0; i < ANNOTATE_CSV_NCOLUMNS; i++)
        assert_string_equal(c->rows[0][i], names[i]);
    assert_string_equal(csv_cell(c, 1, "game_id"), "1");
    assert_string_equal(csv_cell(c, 1, "ply"), "1");
    assert_string_equal(csv_cell(c, 1, "move"), "d4-d5");
    assert_string_equal(csv_cell(c, 1, "mover"), "white");
    assert_string_equal(csv_cell(c, 1, "mark"), "??");
    assert_string_equal(csv_cell(c, 1, "best_move"), "g7-g8");
    int before = atoi(csv_cell(c, 1, "score_before")), after = atoi(csv_cell(c, 1, "score_after"));
    int capped = (before > 500 ? 500 : before) - (after < -500 ? -500 : after);
    assert_int_equal(atoi(csv_cell(c, 1, "loss")), capped);
    assert_string_equal(csv_cell(c, 2, "ply"), "2");
    assert_string_equal(csv_cell(c, 2, "mover"), "black");
    assert_string_equal(csv_cell(c, 2, "mark"), "");
    /* the mover's view: Black's score before the capture is White's after d4-d5, negated */
    assert_int_equal(atoi(csv_cell(c, 2, "score_before")), -after);
    csv_release(c);
}

static void test_bad_input(void **state)
{
    (void)state;
    char args[512];
    test_dama_expect("annotate --depth 2", 2, "give one of --in FILE.pdn, --game ID or --run R");
    snprintf(args, sizeof args, "annotate --in %s/missing.pdn", dir);
    test_dama_expect(args, 2, "missing.pdn");
    write_file("bad.pdn", "[GameType \"30\"]\n\n1. d2-d3 e7-e6 2. d3-d5 0-2\n");
    snprintf(args, sizeof args, "annotate --in %s/bad.pdn --depth 2", dir);
    test_dama_expect(args, 2, "bad.pdn:3: game 1");
    write_file("blunder.pdn", blunder_pdn);
    snprintf(args, sizeof args, "pdn import --db %s/bad.db %s/blunder.pdn", dir, dir);
    test_dama_expect(args, 0, NULL);
    snprintf(args, sizeof args, "annotate --game 99 --db %s/bad.db --depth 2", dir);
    test_dama_expect(args, 2, "no game 99 in the database");
    snprintf(args, sizeof args, "annotate --run 99 --db %s/bad.db --depth 2", dir);
    test_dama_expect(args, 2, "no run 99 in the database");
    snprintf(args, sizeof args, "annotate --game 1 --db %s/none.db", dir);
    test_dama_expect(args, 1, "no such database");
}

/* GET /api/db/games/N gives a stored game's annotation from its newest analysis, and null
 * for a game without one, even when another file's "game2" was analysed into the file. */
static void test_served_annotation(void **state)
{
    (void)state;
    char srv[80], args[512];
    snprintf(srv, sizeof srv, "%.60s/srv", dir);
    assert_int_equal(mkdir(srv, 0700), 0);
    assert_int_equal(serve_make_folders(srv, "annotate"), 0);
    write_file("two.pdn", "[GameType \"30\"]\n[FEN \"" BLUNDER_FEN "\"]\n\n1. d4-d5 d6xd4xd2xb2 0-2\n\n"
                          "[GameType \"30\"]\n\n1. c3-c4 f6-f5 0-2\n");
    write_file("other.pdn", "[GameType \"30\"]\n\n1. a3-a4 0-2\n\n[GameType \"30\"]\n\n1. h3-h4 0-2\n");
    snprintf(args, sizeof args, "pdn import --db %s/serve.db %s/two.pdn", srv, dir);
    test_dama_expect(args, 0, "imported 2");
    snprintf(args, sizeof args, "annotate --game 1 --db %s/serve.db --depth 6 --out /dev/null", srv);
    test_dama_expect(args, 0, "1 ??");
    snprintf(args, sizeof args, "analyze --in %s/other.pdn --db %s/serve.db --depth 2 --out /dev/null", dir, srv);
    test_dama_expect(args, 0, "analyzed 4 positions");
    int port;
    pid_t pid = serve_start(srv, NULL, &port);
    assert_true(pid > 0);
    json_t *g = serve_api(port, "GET", "/api/db/games/1", NULL, 200);
    json_t *a = json_object_get(g, "annotation");
    assert_true(json_is_array(a));
    assert_int_equal(json_array_size(a), 2);
    json_t *first = json_array_get(a, 0), *second = json_array_get(a, 1);
    assert_string_equal(json_string_value(json_object_get(first, "move")), "d4-d5");
    assert_string_equal(json_string_value(json_object_get(first, "mover")), "white");
    assert_string_equal(json_string_value(json_object_get(first, "mark")), "??");
    assert_string_equal(json_string_value(json_object_get(first, "best")), "g7-g8");
    assert_true(json_integer_value(json_object_get(first, "loss")) >= 200);
    assert_string_equal(json_string_value(json_object_get(second, "mark")), "");
    assert_string_equal(json_string_value(json_object_get(second, "mover")), "black");
    json_decref(g);
    g = serve_api(port, "GET", "/api/db/games/2", NULL, 200);
    assert_true(json_is_null(json_object_get(g, "annotation")));
    json_decref(g);
    serve_kill(pid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loss_and_marks),
        cmocka_unit_test(test_score_sequence),
        cmocka_unit_test(test_forced_blunder),
        cmocka_unit_test(test_nodes_deterministic),
        cmocka_unit_test(test_pdn_round_trip),
        cmocka_unit_test(test_csv_columns),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_served_annotation),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
