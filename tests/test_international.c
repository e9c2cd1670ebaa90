/* The International (FMJD 10x10) rules against independent vectors (Scan 3.1, pydraughts,
 * published perft): perft of every vector position and of the start, the legal move lists
 * the vectors name, position and move text round trips, the short/long move text rule, and
 * the command line.  DAMA_INTL_DEEP=1 runs every vector line and the start to depth 11. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "test_util.h"
#include "variant.h"
#include "test_position.h"

static const Variant *V = &international_variant;

static bool deep(void) { return getenv("DAMA_INTL_DEEP") != NULL; }

/* ---- the vector files: "FEN; depth; count" lines, '#' comments ---- */

typedef struct VectorLine {
    char fen[256];
    int depth;
    unsigned long long count;
    char moves[512]; /* "legal moves at depth 1:" of the comment above, or "" */
} VectorLine;

#define MAX_VECTOR_LINES 200
static VectorLine vectors[MAX_VECTOR_LINES];

/* Reads path into vectors; returns the number of lines. */
static int read_vectors(const char *path)
{
    char *text = test_read_file(path);
    assert_non_null(text);
    int n = 0;
    char moves[512] = "";
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        const char *tag = strstr(line, "legal moves at depth 1:");
        if (line[0] == '#') {
            if (tag)
                snprintf(moves, sizeof moves, "%s", tag + strlen("legal moves at depth 1:"));
            continue;
        }
        assert_true(n < MAX_VECTOR_LINES);
        VectorLine *v = &vectors[n];
        char *semi = strchr(line, ';');
        assert_non_null(semi);
        *semi = '\0';
        snprintf(v->fen, sizeof v->fen, "%s", line);
        assert_int_equal(sscanf(semi + 1, " %d; %llu", &v->depth, &v->count), 2);
        snprintf(v->moves, sizeof v->moves, "%s", v->depth == 1 ? moves : "");
        if (v->depth == 1)
            moves[0] = '\0';
        n++;
    }
    free(text);
    return n;
}

/* ---- perft ---- */

/* Every line of positions.txt up to 20 M leaves (300 k sanitized; all with DAMA_INTL_DEEP)
 * through perft with opt; returns how many lines were checked. */
static int check_vector_lines(const PerftOptions *opt)
{
    int n = read_vectors("tests/vectors/international/positions.txt");
    assert_int_equal(n, 100);
    unsigned long long cap = deep() ? ~0ULL : test_sanitized() ? 300000ULL : 20000000ULL;
    Rules rules = rules_default(V);
    int checked = 0;
    for (int i = 0; i < n; i++) {
        if (vectors[i].count > cap)
            continue;
        Position pos;
        pos = test_position(V, vectors[i].fen);
        uint64_t got = perft(V, &pos, &rules, vectors[i].depth, opt);
        if (got != vectors[i].count)
            fail_msg("%s depth %d%s: %llu, expected %llu", vectors[i].fen, vectors[i].depth,
                     opt->bulk ? "" : " (every leaf made)", (unsigned long long)got, vectors[i].count);
        checked++;
    }
    printf("# %d of %d vector lines checked%s\n", checked, n, opt->bulk ? "" : ", every leaf made");
    assert_true(checked >= (test_sanitized() ? 70 : 85));
    return checked;
}

/* The last ply counted without making its moves (bulk: popcounts, single jumps, men's
 * captures counted with no list). */
static void test_vector_positions(void **state)
{
    (void)state;
    PerftOptions opt = { .count_paths = false, .bulk = true };
    check_vector_lines(&opt);
}

/* The same lines with every leaf made: the quiet leaves made as the generator finds them,
 * the captures from the list. */
static void test_vector_positions_every_leaf(void **state)
{
    (void)state;
    PerftOptions opt = { .count_paths = false, .bulk = false };
    check_vector_lines(&opt);
}

/* Capture paths, counted with and without bulk, against independent counts: the start
 * position's published keep-duplicates series (perft_start.txt: d8 6483971, d9 41022614;
 * d1-7 equal to the move counts), the ring 32x32 (two paths, one move), and a king worked
 * by hand: 46 takes 37, lands on 32, 28 or 23, and from each takes 19 to land on 14, 10
 * or 5: 9 paths, 3 moves (46x14, 46x10, 46x5). */
static void test_paths(void **state)
{
    (void)state;
    Rules rules = rules_default(V);
    PerftOptions bulk_paths = { .count_paths = true, .bulk = true };
    PerftOptions leaf_paths = { .count_paths = true, .bulk = false };
    PerftOptions bulk_moves = { .count_paths = false, .bulk = true };
    PerftOptions leaf_moves = { .count_paths = false, .bulk = false };
    Position pos;
    V->start(&pos);
    if (test_sanitized()) {
        assert_int_equal(perft(V, &pos, &rules, 7, &bulk_paths), 1049442);
        assert_int_equal(perft(V, &pos, &rules, 6, &leaf_paths), 167140);
    } else {
        assert_int_equal(perft(V, &pos, &rules, 9, &bulk_paths), 41022614);
        assert_int_equal(perft(V, &pos, &rules, 8, &leaf_paths), 6483971);
    }
    const struct { const char *fen; uint64_t moves, paths; } cases[] = {
        { "W:W32:B5,28,29,38,39", 1, 2 },
        { "W:WK46:B19,37", 3, 9 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pos = test_position(V, cases[i].fen);
        assert_int_equal(perft(V, &pos, &rules, 1, &bulk_moves), cases[i].moves);
        assert_int_equal(perft(V, &pos, &rules, 1, &leaf_moves), cases[i].moves);
        assert_int_equal(perft(V, &pos, &rules, 1, &bulk_paths), cases[i].paths);
        assert_int_equal(perft(V, &pos, &rules, 1, &leaf_paths), cases[i].paths);
    }
}

/* The start position: depths 1-8 (6 sanitized, 11 with DAMA_INTL_DEEP); one depth also
 * without bulk counting, so that make-move runs at the leaves. */
static void test_start_perft(void **state)
{
    (void)state;
    int n = read_vectors("tests/vectors/international/perft_start.txt");
    assert_int_equal(n, 12);
    int max_depth = deep() ? 11 : test_sanitized() ? 6 : 8, checked = 0;
    Position start, parsed;
    V->start(&start);
    parsed = test_position(V, "W:W31-50:B1-20");
    assert_true(position_equal(&start, &parsed));
    Rules rules = rules_default(V);
    for (int i = 0; i < n; i++) {
        if (vectors[i].depth > max_depth)
            continue;
        PerftOptions opt = { .count_paths = false, .bulk = true };
        assert_int_equal(perft(V, &start, &rules, vectors[i].depth, &opt), vectors[i].count);
        checked++;
    }
    assert_int_equal(checked, max_depth);
    PerftOptions nobulk = { .count_paths = false, .bulk = false };
    assert_int_equal(perft(V, &start, &rules, 5, &nobulk), 27117);
}

/* ---- move lists and move text ---- */

static int compare_words(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The legal moves the vector comments list (short form) are exactly ours. */
static void test_vector_move_lists(void **state)
{
    (void)state;
    int n = read_vectors("tests/vectors/international/positions.txt"), lists = 0;
    Rules rules = rules_default(V);
    for (int i = 0; i < n; i++) {
        if (!vectors[i].moves[0])
            continue;
        char *want[MAX_MOVES], *got[MAX_MOVES];
        int nwant = 0;
        for (char *w = strtok(vectors[i].moves, " "); w; w = strtok(NULL, " "))
            want[nwant++] = w;
        Position pos;
        pos = test_position(V, vectors[i].fen);
        MoveList list;
        V->generate(&pos, &rules, &list);
        assert_int_equal(list.count, nwant);
        static char texts[MAX_MOVES][128];
        for (int m = 0; m < list.count; m++)
            got[m] = move_to_text_in(V, &pos, &rules, &list.moves[m], texts[m], sizeof texts[m]);
        qsort(want, (size_t)nwant, sizeof want[0], compare_words);
        qsort(got, (size_t)nwant, sizeof got[0], compare_words);
        for (int m = 0; m < nwant; m++)
            if (strcmp(want[m], got[m]) != 0)
                fail_msg("%s: move %s, expected %s", vectors[i].fen, got[m], want[m]);
        lists++;
    }
    assert_int_equal(lists, 25);
}

/* The ring capture 32x32: two paths, one move (the vector's comment says so). */
static void test_ring_paths_merge(void **state)
{
    (void)state;
    Position pos;
    pos = test_position(V, "W:W32:B5,28,29,38,39");
    Rules rules = rules_default(V);
    MoveList list;
    V->generate(&pos, &rules, &list);
    assert_int_equal(list.count, 1);
    assert_int_equal(list.npaths[0], 2);
    assert_int_equal(list.moves[0].njumps, 4);
    PerftOptions paths = { .count_paths = true, .bulk = true };
    assert_int_equal(perft(V, &pos, &rules, 1, &paths), 2);
}

typedef struct PathCheck {
    const Position *pos;
    const Rules *rules;
    int paths;
} PathCheck;

/* The long form of a path reads back as the move of that path. */
static void check_long_form(void *vctx, const Move *m)
{
    PathCheck *pc = vctx;
    char text[128], err[256];
    Move back;
    move_to_text(V, m, text, sizeof text);
    if (!move_from_text(V, pc->pos, pc->rules, text, &back, err, sizeof err))
        fail_msg("%s", err);
    assert_true(move_same(&back, m));
    pc->paths++;
}

/* Every move's text reads back as that move; quiet moves "a-b", captures "axb" unless the
 * short form names two moves. */
static void check_texts(const Position *pos, const Rules *rules, int *moves)
{
    MoveList list;
    V->generate(pos, rules, &list);
    for (int i = 0; i < list.count; i++) {
        const Move *m = &list.moves[i];
        char text[128], err[256];
        Move back;
        move_to_text_in(V, pos, rules, m, text, sizeof text);
        if (!move_from_text(V, pos, rules, text, &back, err, sizeof err))
            fail_msg("%s", err);
        assert_true(move_same(&back, m));
        const char *x = strchr(text, 'x');
        if (m->njumps == 0)
            assert_non_null(strchr(text, '-'));
        else
            assert_true(x && (!strchr(x + 1, 'x') || m->njumps > 1));
        (*moves)++;
    }
    PathCheck pc = { .pos = pos, .rules = rules };
    V->for_each_path(pos, rules, check_long_form, &pc);
    uint64_t want_paths = 0;
    for (int i = 0; i < list.count; i++)
        want_paths += list.npaths[i];
    assert_int_equal(pc.paths, want_paths);
}

/* Position and move text round trips for every vector position and its children. */
static void test_round_trips(void **state)
{
    (void)state;
    int n = read_vectors("tests/vectors/international/positions.txt"), moves = 0;
    Rules rules = rules_default(V);
    for (int i = 0; i < n; i++) {
        if (i > 0 && strcmp(vectors[i].fen, vectors[i - 1].fen) == 0)
            continue;
        Position pos;
        pos = test_position(V, vectors[i].fen);
        check_texts(&pos, &rules, &moves);
        MoveList list;
        V->generate(&pos, &rules, &list);
        for (int m = 0; m < list.count; m++) {
            Position child = pos, again;
            V->make(&child, &list.moves[m]);
            char fen[512];
            position_to_fen(&child, V, fen, sizeof fen);
            again = test_position(V, fen);
            assert_true(position_equal(&child, &again));
            check_texts(&child, &rules, &moves);
        }
    }
    printf("# %d move texts read back\n", moves);
}

/* Worked by hand: the king on 2 takes 13, 23, 11 (2x19x28x6) or 13, 29, 11 (2x24x33x6),
 * three pieces each way, both ending on 6, so "2x6" names two moves and each needs its
 * landing squares; an unambiguous capture keeps the short form. */
static void test_short_and_long_form(void **state)
{
    (void)state;
    Position pos;
    pos = test_position(V, "W:WK2,K7:B11,13,14,23,29,37");
    Rules rules = rules_default(V);
    MoveList list;
    V->generate(&pos, &rules, &list);
    int used;
    Bitboard via23 = square_bb(V->parse_square("11", &used)) | square_bb(V->parse_square("13", &used))
                   | square_bb(V->parse_square("23", &used));
    Bitboard via29 = (via23 & ~square_bb(V->parse_square("23", &used))) | square_bb(V->parse_square("29", &used));
    int seen = 0;
    for (int i = 0; i < list.count; i++) {
        char text[128];
        move_to_text_in(V, &pos, &rules, &list.moves[i], text, sizeof text);
        if (list.moves[i].captured == via23) {
            assert_string_equal(text, "2x19x28x6");
            seen |= 1;
        } else if (list.moves[i].captured == via29) {
            assert_string_equal(text, "2x24x33x6");
            seen |= 2;
        }
        assert_int_equal(list.moves[i].njumps, 3);
    }
    assert_int_equal(seen, 3);

    char err[256];
    Move m;
    assert_false(move_from_text(V, &pos, &rules, "2x6", &m, err, sizeof err));
    assert_non_null(strstr(err, "ambiguous"));
    assert_non_null(strstr(err, "2x19x28x6"));
    assert_non_null(strstr(err, "2x24x33x6"));
    assert_true(move_from_text(V, &pos, &rules, "2x19x6", &m, err, sizeof err));
    assert_true(m.captured == via23);
    assert_true(move_from_text(V, &pos, &rules, "2x24x6", &m, err, sizeof err));
    assert_true(m.captured == via29);
    assert_false(move_from_text(V, &pos, &rules, "2x19x28", &m, err, sizeof err)); /* stops early */
    assert_non_null(strstr(err, "illegal"));

    /* a three-piece capture with one way to its end is written short */
    pos = test_position(V, "W:WK1:B7,9,17,19,20,30,31,33,43,44");
    V->generate(&pos, &rules, &list);
    assert_int_equal(list.count, 1);
    char text[128];
    assert_string_equal(move_to_text_in(V, &pos, &rules, &list.moves[0], text, sizeof text), "1x15");
    assert_true(move_from_text(V, &pos, &rules, "1x15", &m, err, sizeof err));
    assert_true(move_same(&m, &list.moves[0]));
}

/* The order of the list is the search's move order (its node counts, the bench signature,
 * depend on it): by piece in square order, then direction (up-left, up-right, down-left,
 * down-right), a king's steps outwards.  Worked by hand: the king on 28 runs 22 17 11 6,
 * then 23 19 14 10 5, 32 37 41 46, 33 39 44 50; the man on 33 takes 28 and 29 (up-left,
 * up-right) before the man on 38 takes 32 and 43 (up-left, down-right). */
static void test_move_order(void **state)
{
    (void)state;
    static const struct { const char *fen, *moves; } cases[] = {
        { "W:WK28:B1", "28-22 28-17 28-11 28-6 28-23 28-19 28-14 28-10 28-5 28-32 28-37 28-41 "
                       "28-46 28-33 28-39 28-44 28-50 " },
        { "W:W33,38:B28,29,32,43,1", "33x22 33x24 38x27 38x49 " },
    };
    Rules rules = rules_default(V);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        Position pos;
        pos = test_position(V, cases[c].fen);
        MoveList list;
        V->generate(&pos, &rules, &list);
        char got[512] = "", text[128];
        for (int i = 0; i < list.count; i++) {
            strncat(got, move_to_text_in(V, &pos, &rules, &list.moves[i], text, sizeof text),
                    sizeof got - strlen(got) - 2);
            strcat(got, " ");
        }
        assert_string_equal(got, cases[c].moves);
    }
}

/* ---- position text ---- */

static void expect_fen(const char *in, const char *canonical)
{
    Position pos, again;
    pos = test_position(V, in);
    char out[512];
    position_to_fen(&pos, V, out, sizeof out);
    assert_string_equal(out, canonical);
    again = test_position(V, out);
    assert_true(position_equal(&pos, &again));
}

static void expect_bad_fen(const Variant *v, const char *in, const char *why)
{
    Position pos;
    char err[256];
    if (position_from_fen(&pos, v, in, err, sizeof err))
        fail_msg("'%s' was read", in);
    if (!strstr(err, why))
        fail_msg("'%s': %s (expected '%s')", in, err, why);
}

static void test_fen(void **state)
{
    (void)state;
    /* the layout of international_board.h: square 1 bit 0, ghosts after 10, 20, 30, 40 */
    int used;
    assert_int_equal(V->parse_square("1", &used), 0);
    assert_int_equal(V->parse_square("10", &used), 9);
    assert_int_equal(V->parse_square("11", &used), 11);
    assert_int_equal(V->parse_square("50", &used), 53);
    assert_int_equal(used, 2);

    expect_fen("W:W31-50:B1-20",
               "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
               ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
    expect_fen("W:W31,32,K45:B1-5,K12.", "W:W31,32,K45:B1,2,3,4,5,K12");
    expect_fen("B:WK1-3,50:BK46,K47,k48", "B:WK1,K2,K3,50:BK46,K47,K48");
    expect_fen(" W:B20,19:W40,K10 ", "W:WK10,40:B19,20");
    expect_fen("W:W9-12:B", "W:W9,10,11,12:B"); /* the ghost bit after 10 is no square */

    expect_bad_fen(V, "W:W51", "no such square");
    expect_bad_fen(V, "W:W0", "no such square");
    expect_bad_fen(V, "W:W07", "no such square");
    expect_bad_fen(V, "W:Wa1", "no such square");
    expect_bad_fen(V, "W:W31-", "no such square");
    expect_bad_fen(V, "W:W31-51", "no such square");
    expect_bad_fen(V, "W:W35-31", "a range must go up");
    expect_bad_fen(V, "W:W31-35,33", "square given twice");
    expect_bad_fen(V, "W:W3", "a white man on the rank where it would have been crowned");
    expect_bad_fen(V, "B:W30:B48", "a black man on the rank where it would have been crowned");
    expect_bad_fen(V, "W:W21-50:B1-10", "30 white pieces (at most 20)");
    /* ranges stay an International thing: Turkish squares are no numbers */
    expect_bad_fen(&turkish_variant, "W:Wa2-a4", "no such square");
}

/* ---- the command line ---- */


static void test_cli(void **state)
{
    (void)state;
    test_dama_expect("perft --variant international 6", 0, "nodes 167140 ");
    test_dama_expect("perft --variant intl --fen W:W31-50:B1-20. --divide 2", 0, "31-26 9\n");
    test_dama_expect("perft --variant international --fen W:W32:B5,28,29,38,39 --paths 1", 0, "nodes 2 ");
    test_dama_expect("moves --variant international --fen W:WK46:B23", 0, "46x10\n46x14\n46x19\n46x5\n");
    test_dama_expect("moves --variant international --fen W:WK2,K7:B11,13,14,23,29,37", 0, "2x19x28x6\n2x24x33x6\n");
    test_dama_expect("moves --variant international --fen W:W32:B5,28,29,38,39 --paths", 0,
               "32x23x34x43x32\n32x43x34x23x32\n");
    test_dama_expect("perft --variant international --fen W:W51 1", 2, "no such square");
    /* Majority rule (rules doc, captures 2).  32x23 over 28 goes on over 18 to 12: two pieces;
     * 32x21 over 27 ends there: one.  Majority keeps 32x12 alone; majority=off (seed 002's
     * reading: any complete capture, still compulsory) allows both.  32x23 is no move:
     * a sequence may not stop early. */
    test_dama_expect("moves --variant international --fen W:W32:B18,27,28", 0, "32x12\n");
    test_dama_expect("moves --variant international --rules majority=on --fen W:W32:B18,27,28", 0, "32x12\n");
    test_dama_expect("perft --variant international --fen W:W32:B18,27,28 1", 0, "nodes 1 ");
    test_dama_expect("moves --variant international --rules majority=off --fen W:W32:B18,27,28", 0,
               "32x12\n32x21\n");
    /* --rules may come before --variant: the options are read by the variant chosen */
    test_dama_expect("perft --rules majority=off --variant international --fen W:W32:B18,27,28 1", 0,
               "nodes 2 ");
    test_dama_expect("perft --variant international --rules noprogress=3 1", 2,
               "bad rules: unknown option 'noprogress' (majority, kingmoves, endgame16, endgame5)");
    test_dama_expect("perft --variant international --rules majority=maybe 1", 2,
               "bad rules: 'maybe' is no value for majority");
    test_dama_expect("perft --rules majority=off 1", 2,
               "bad rules: unknown option 'majority' (promotion, kvm, noprogress)");
    /* analyze plays International with its own evaluation: the one legal move (the vector
     * W:W28,32:B23 has perft 1) is the answer, and a lone man's capture into a king's reach
     * (W:W35:B30,K40: 35x24 or 35x44, both lost) is seen as a loss */
    test_dama_expect("analyze -v intl --fen W:W28,32:B23 --depth 3", 0, "bestmove 28x19\n");
    test_dama_expect("analyze -v intl --fen W:W35:B30,K40 --depth 8", 0, " score loss");
    test_dama_expect("perft --variant checkers 1", 2, "unknown variant 'checkers'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_positions),
        cmocka_unit_test(test_vector_positions_every_leaf),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_start_perft),
        cmocka_unit_test(test_vector_move_lists),
        cmocka_unit_test(test_ring_paths_merge),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_short_and_long_form),
        cmocka_unit_test(test_move_order),
        cmocka_unit_test(test_fen),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests_name("international", tests, NULL, NULL);
}
