/* The games registry (engine/games/registry.c) walked game by game: each game's geometry
 * against facts stated here independently of its code (board sizes, square counts, where
 * the corner squares are drawn), the names it answers to, its own end reasons, its shipped
 * weights, and the database taking the games the registry knows and no other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "game.h"
#include "help_text.h"
#include "random_pieces.h"
#include "shipped_weights.h"
#include "store.h"
#include "test_util.h"
#include "test_tmpdir.h"
#include "variant.h"

/* A square named by its game and the cell it is drawn in, White at the bottom. */
typedef struct Corner {
    const char *name;
    int row, col;
} Corner;

/* What the rules books say of each board, not what the code computes. */
static const struct {
    const char *name, *title;
    int rows, columns, squares, pdn_gametype, labels;
    bool dark_squares_only; /* only the cells with row + col odd are played on */
    Corner corners[4];
} facts[] = {
    { "turkish", "Turkish draughts", 8, 8, 64, 30, LABELS_EDGES, false,
      { { "a1", 7, 0 }, { "h1", 7, 7 }, { "a8", 0, 0 }, { "h8", 0, 7 } } },
    /* square 1 is the top left dark square (b10), 5 the top right, 46 the bottom left
     * (a1), 50 the bottom right dark square (i1) */
    { "international", "International draughts", 10, 10, 50, 20, LABELS_NUMBERS, true,
      { { "1", 0, 1 }, { "5", 0, 9 }, { "46", 9, 0 }, { "50", 9, 8 } } },
    /* square 1 is b8, 4 h8, 29 a1 (White's left corner), 32 g1 */
    { "brazilian", "Brazilian draughts", 8, 8, 32, 26, LABELS_NUMBERS, true,
      { { "1", 0, 1 }, { "4", 0, 7 }, { "29", 7, 0 }, { "32", 7, 6 } } },
};

static int fact_index(const char *name)
{
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
        if (strcmp(facts[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Every game: its cells are on the board, distinct, one per playable square, and
 * variant_square_at finds the square again from its cell. */
static void test_geometry_consistent(void **state)
{
    (void)state;
    assert_non_null(variant_at(0));
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        assert_int_equal(popcount(v->board), v->squares);
        assert_true(v->rows > 0 && v->columns > 0 && v->squares <= v->rows * v->columns);
        bool seen[16][16] = { { false } };
        assert_true(v->rows <= 16 && v->columns <= 16);
        for (Bitboard b = v->board; b;) {
            int sq = pop_lsb(&b), row = -1, col = -1;
            v->square_cell(sq, &row, &col);
            assert_true(row >= 0 && row < v->rows && col >= 0 && col < v->columns);
            if (seen[row][col])
                fail_msg("%s: two squares drawn at row %d column %d", v->name, row, col);
            seen[row][col] = true;
            assert_int_equal(variant_square_at(v, row, col), sq);
            /* a step along a line lands on a square drawn next to this one */
            for (int dir = 0; dir < 4; dir++) {
                int to = v->step(sq, dir), r2 = -1, c2 = -1;
                if (to < 0)
                    continue;
                assert_true(v->board & square_bb(to));
                v->square_cell(to, &r2, &c2);
                assert_true(abs(r2 - row) <= 1 && abs(c2 - col) <= 1 && (r2 != row || c2 != col));
            }
        }
        for (int k = 0; k < v->black_man_backs; k++) /* back: towards Black's side, row 0 */
            for (Bitboard b = v->board; b;) {
                int sq = pop_lsb(&b), to = v->step(sq, v->black_man_back[k]), r1, c1, r2, c2;
                if (to < 0)
                    continue;
                v->square_cell(sq, &r1, &c1);
                v->square_cell(to, &r2, &c2);
                assert_true(r2 <= r1);
            }
        int cells = 0;
        for (int r = 0; r < v->rows; r++)
            for (int c = 0; c < v->columns; c++)
                cells += variant_square_at(v, r, c) >= 0;
        assert_int_equal(cells, v->squares);
        assert_int_equal(variant_square_at(v, -1, 0), -1);
        assert_int_equal(variant_square_at(v, 0, v->columns), -1);
    }
}

/* The games known here: sizes, titles, PDN GameType, labels and corner squares as the rules
 * state them. */
static void test_geometry_facts(void **state)
{
    (void)state;
    int known = 0;
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        int f = fact_index(v->name);
        if (f < 0)
            continue; /* a game added later: test_geometry_consistent covers it */
        known++;
        assert_string_equal(v->title, facts[f].title);
        assert_int_equal(v->rows, facts[f].rows);
        assert_int_equal(v->columns, facts[f].columns);
        assert_int_equal(v->squares, facts[f].squares);
        assert_int_equal(v->pdn_gametype, facts[f].pdn_gametype);
        assert_int_equal(v->labels, facts[f].labels);
        for (int c = 0; c < 4; c++) {
            const Corner *k = &facts[f].corners[c];
            int used = 0, sq = v->parse_square(k->name, &used);
            assert_true(sq >= 0);
            assert_int_equal(variant_square_at(v, k->row, k->col), sq);
            char buf[8];
            assert_string_equal(v->square_name(sq, buf), k->name);
        }
        for (int r = 0; r < v->rows; r++)
            for (int c = 0; c < v->columns; c++)
                if (facts[f].dark_squares_only && (r + c) % 2 == 0)
                    assert_int_equal(variant_square_at(v, r, c), -1);
    }
    assert_int_equal(known, (int)(sizeof facts / sizeof facts[0]));
}

/* Names: each game by its name, its aliases and (for Hub) its Hub names; PDN GameType; its
 * place in the registry. */
static void test_names(void **state)
{
    (void)state;
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        assert_ptr_equal(variant_by_name(v->name), v);
        assert_ptr_equal(variant_by_hub_name(v->name), v);
        assert_ptr_equal(variant_by_pdn_gametype(v->pdn_gametype), v);
        assert_int_equal(variant_index(v), i);
    }
    assert_ptr_equal(variant_by_name("tr"), &turkish_variant);
    assert_ptr_equal(variant_by_name("intl"), &international_variant);
    assert_null(variant_by_name("normal")); /* a Hub name, not dama's */
    assert_ptr_equal(variant_by_hub_name("normal"), &international_variant);
    assert_ptr_equal(variant_by_hub_name("standard"), &international_variant);
    assert_null(variant_by_name("chess"));
    assert_null(variant_by_name("tr international"));
    assert_null(variant_by_pdn_gametype(0));
    char buf[64];
    /* the registry's order: Turkish, the default, first; then International */
    assert_int_equal(strncmp(variant_names("|", buf, sizeof buf), "turkish|international", 21), 0);
}

/* Each game's own end reasons have their stored names and no two games share a code. */
static void test_game_reasons(void **state)
{
    (void)state;
    assert_string_equal(reason_name(game_reason(&turkish_variant, 0)), "no-progress");
    assert_string_equal(reason_name(game_reason(&turkish_variant, 1)), "one-each");
    assert_string_equal(reason_name(game_reason(&international_variant, 0)), "king-moves");
    assert_string_equal(reason_name(game_reason(&international_variant, 1)), "endgame");
    assert_string_equal(reason_name(REASON_REPETITION), "repetition");
    assert_string_equal(reason_name(REASON_COUNT), "none");
    assert_string_equal(reason_name(game_reason(&turkish_variant, 2)), "none");
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        assert_true(v->reason_count <= REASON_GAME_SPAN);
        for (int k = 0; k < v->reason_count; k++) {
            assert_true(game_reason(v, k) >= REASON_GAME_FIRST);
            assert_string_equal(reason_name(game_reason(v, k)), v->reasons[k]);
        }
    }
}

/* The weights built in are the bytes of data/weights/NAME-pattern.txt. */
static void test_shipped_weights(void **state)
{
    (void)state;
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        char path[128];
        snprintf(path, sizeof path, "data/weights/%s-pattern.txt", v->name);
        static unsigned char file[1 << 22]; /* the files hold binary tables: no strlen */
        FILE *f = fopen(path, "rb");
        size_t size = f ? fread(file, 1, sizeof file, f) : 0;
        if (f)
            fclose(f);
        assert_true(size < sizeof file);
        const unsigned char *data = NULL;
        size_t len = 0;
        assert_int_equal(shipped_weights(v->name, &data, &len), f != NULL);
        if (f) {
            assert_int_equal(len, size);
            assert_memory_equal(data, file, len);
        }
    }
    const unsigned char *data = NULL;
    size_t len = 0;
    assert_false(shipped_weights("chess", &data, &len));
}

/* The database takes a run, an opening and a game of every game the registry knows, by
 * its own name, and refuses a name the registry does not know. */
static void test_database_takes_registry_games(void **state)
{
    (void)state;
    char dir[64], path[96], err[256];
    assert_int_equal(test_tmpdir_make(dir, sizeof dir, "games"), 0);
    snprintf(path, sizeof path, "%s/games.db", dir);
    Store *s = store_open(path, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        assert_true(store_run_begin(s, "selfplay", v->name, NULL, NULL, NULL, 0) > 0);
        char fen[48];
        snprintf(fen, sizeof fen, "W:W%d:B%d", i + 1, i + 2); /* text only: not parsed */
        assert_true(store_opening_put(s, v->name, fen, NULL) > 0);
    }
    const char *unknown[] = { "chess", "tr", "Turkish", "frisian" };
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        assert_true(store_run_begin(s, "selfplay", unknown[i], NULL, NULL, NULL, 0) < 0);
        assert_non_null(strstr(store_error(s), "unknown variant"));
        assert_true(store_opening_put(s, unknown[i], "W:W1:B2", NULL) < 0);
    }
    store_close(s);
    assert_int_equal(test_tmpdir_remove(dir), 0);
}

/* Help text names the games through the registry: {GAMETYPES} gives each game's PDN
 * GameType and name, {TITLES} the games in words, the first two as they always were. */
static void test_help_names_registry_games(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    help_text_print("GameType {GAMETYPES}\n{TITLES}\n", f);
    fclose(f);
    assert_non_null(strstr(text, "GameType 30 Turkish, 20 International"));
    assert_non_null(strstr(text, "\nTurkish, International"));
    for (int i = 0; variant_at(i); i++) {
        char item[64];
        snprintf(item, sizeof item, "%d %.*s", variant_at(i)->pdn_gametype,
                 (int)strcspn(variant_at(i)->title, " "), variant_at(i)->title);
        if (!strstr(text, item))
            fail_msg("'%s' not in: %s", item, text);
    }
    assert_non_null(strstr(text, " draughts\n"));
    free(text);
}

/* Every game's shortcuts for the search (Variant.has_quiet_move, generate_known) agree with
 * count and generate on random boards, from nearly empty to crowded ones where men are
 * blocked: whether the side to move can move, and the same list in the same order. */
static void test_search_shortcuts_agree(void **state)
{
    (void)state;
    static MoveList want, got;
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        if (!v->has_quiet_move || !v->generate_known)
            continue;
        Rules rules = rules_default(v);
        uint64_t rng = 0x9E3779B97F4A7C15ULL + (uint64_t)i;
        int blocked = 0;
        for (int trial = 0; trial < 20000; trial++) {
            Bitboard occupied = 0;
            /* up to half the board a side: crowded past any game, where all may be blocked */
            int n = 1 + (int)(next_random(&rng) % (uint64_t)(popcount(v->board) / 2));
            Position pos = { { 0, 0 }, { 0, 0 }, (int)(next_random(&rng) & 1) };
            for (int c = WHITE; c <= BLACK; c++) {
                int kings = (next_random(&rng) & 3) == 0 ? (int)(next_random(&rng) % 3) : 0;
                pos.men[c] = drop(&rng, &occupied, v->board & ~v->promotion_bb[c], n);
                pos.kings[c] = drop(&rng, &occupied, v->board, kings);
            }
            bool capture = v->capture_pending(&pos);
            if (!capture) {
                bool can_move = v->count(&pos, &rules, false) > 0;
                assert_int_equal(v->has_quiet_move(&pos), can_move);
                blocked += !can_move;
            }
            v->generate(&pos, &rules, &want);
            v->generate_known(&pos, &rules, capture, &got);
            assert_int_equal(got.count, want.count);
            for (int k = 0; k < want.count; k++) {
                assert_int_equal(got.moves[k].from, want.moves[k].from);
                assert_int_equal(got.moves[k].to, want.moves[k].to);
                assert_true(got.moves[k].captured == want.moves[k].captured);
                assert_int_equal(got.moves[k].promotes, want.moves[k].promotes);
                assert_int_equal(got.npaths[k], want.npaths[k]);
            }
        }
        assert_true(blocked > 0); /* the boards reached positions with no move */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry_consistent),
        cmocka_unit_test(test_geometry_facts),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_game_reasons),
        cmocka_unit_test(test_shipped_weights),
        cmocka_unit_test(test_database_takes_registry_games),
        cmocka_unit_test(test_help_names_registry_games),
        cmocka_unit_test(test_search_shortcuts_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
