/* The International pattern evaluation (international_patterns.c): the shape of the
 * spec, window states worked out by hand, the states against a square-by-square reading on
 * positions of random games, the colour flip, and the fast path against the generic sums
 * and the sparse terms with random pattern weights.
 * DAMA_INTL_PATTERN_SEED sets the seed of the random games and weights (printed). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "evaluate.h"
#include "international_board.h"
#include "international_eval.h"
#include "international_patterns.h"
#include "position.h"
#include "random_pieces.h"
#include "eval_inc_walk.h"
#include "variant.h"
#include "weights.h"

static const Variant *V = &international_variant;
static const EvalSpec *P = &international_pattern_eval_spec;

#define NGAMES 60
#define GAME_PLIES 150
#define MAX_POSITIONS (NGAMES * GAME_PLIES)
/* Pattern weights drawn from [-PATTERN_RANGE, PATTERN_RANGE]. */
#define PATTERN_RANGE 60

static uint64_t seed = 0x9E3779B97F4A7C15ULL;
static Position positions[MAX_POSITIONS];
static int npositions;

static void parse_fen(Position *pos, const char *fen)
{
    char err[256];
    if (!position_from_fen(pos, V, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
}

/* Positions along random games from the start (every stage, kings included). */
static int setup_games(void **state)
{
    (void)state;
    const char *env = getenv("DAMA_INTL_PATTERN_SEED");
    if (env && *env)
        seed = strtoull(env, NULL, 0) | 1;
    printf("DAMA_INTL_PATTERN_SEED=%llu\n", (unsigned long long)seed);
    static MoveList list;
    Rules rules = rules_default(V);
    uint64_t rng = seed;
    npositions = 0;
    for (int g = 0; g < NGAMES; g++) {
        Position pos;
        V->start(&pos);
        for (int ply = 0; ply < GAME_PLIES; ply++) {
            positions[npositions++] = pos;
            V->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            V->make(&pos, &list.moves[next_random(&rng) % (uint64_t)list.count]);
        }
    }
    return 0;
}

/* ---- the spec ---- */

static void test_spec_shape(void **state)
{
    (void)state;
    const EvalSpec *L = &international_eval_spec;
    assert_string_equal(P->variant, "international");
    assert_string_equal(P->eval_name, "pattern");
    assert_true(eval_spec_is_pattern(P));
    assert_ptr_equal(V->pattern_eval, P);
    /* the linear features in front, unchanged */
    assert_int_equal(P->nfeatures, L->nfeatures);
    assert_ptr_equal(P->features, L->features);
    assert_ptr_equal(P->weight_names, L->weight_names);
    assert_ptr_equal(P->defaults, L->defaults);
    assert_int_equal(P->phase_max, 40);
    /* 16 windows of 3^8 states, each read twice */
    assert_int_equal(P->npattern_states, 16 * 6561);
    assert_int_equal(P->max_pattern_terms, 32);
    assert_int_equal(2 * eval_spec_features(P), 2 * (30 + 104976));
}

/* ---- window states by hand ---- */

/* The start, White to move: the side to move's men are 31-50, the opponent's 1-20.  Window
 * 0 (squares 1, 2, 6, 7, 11, 12, 16, 17): eight opponent men, 2 * (1 + 3 + ... + 2187) =
 * 6560.  Window 4 (11, 12, 16, 17, 21, 22, 26, 27): digits 2 2 2 2 0 0 0 0 = 2 * 40 = 80.
 * Window 8 (21, 22, 26, 27, 31, 32, 36, 37): 0 0 0 0 1 1 1 1 = 81 + 243 + 729 + 2187 = 3240.
 * Window 12 (31, 32, 36, 37, 41, 42, 46, 47): eight own men, 3280.  The other columns are
 * the same rows: the start reads alike in every column.  Black sees the same position, so
 * both views are equal and every occurrence cancels its twin. */
static void test_start_windows(void **state)
{
    (void)state;
    Position pos;
    V->start(&pos);
    const int32_t by_row[4] = { 6560, 80, 3240, 3280 };
    int32_t st[EVAL_MAX_PATTERN_TERMS];
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(P->patterns(&pos, st, sign), 32);
    for (int w = 0; w < 16; w++) {
        assert_int_equal(intl_pattern_window_state(pos.men[WHITE], pos.men[BLACK], w), by_row[w / 4]);
        assert_int_equal(st[w], w * 6561 + by_row[w / 4]);
        assert_int_equal(sign[w], 1);
        assert_int_equal(st[16 + w], w * 6561 + by_row[w / 4]);
        assert_int_equal(sign[16 + w], -1);
    }
}

/* W:W28,33,K46:B19,23, White to move.  Square n is in row (n - 1) / 5 at place (n - 1) % 5;
 * window 4i + j holds rows 2i .. 2i + 3, places j and j + 1; digit k = 2 (row - 2i) +
 * (place - j).  White's view (the board as it is; own 28, 33; opponent 19, 23):
 *   window 6 (i 1, j 2: 13 14 18 19 23 24 28 29): 19 opp k 3, 23 opp k 4, 28 own k 6:
 *     2 * 27 + 2 * 81 + 729 = 945;
 *   window 10 (i 2, j 2: 23 24 28 29 33 34 38 39): 23 opp k 0, 28 own k 2, 33 own k 4:
 *     2 + 9 + 81 = 92;
 *   window 3 (i 0, j 3: 4 5 9 10 14 15 19 20): 19 opp k 6: 2 * 729 = 1458;
 *   window 12 (31 32 36 37 41 42 46 47): only the king on 46, read as empty: 0;
 *   windows 0 (1 2 6 7 11 12 16 17) and 1 (2 3 7 8 12 13 17 18): no man: 0.
 * Black's view (n -> 51 - n; own 32, 28, opponent 23, 18):
 *   window 5 (i 1, j 1: 12 13 17 18 22 23 27 28): 18 opp k 3, 23 opp k 5, 28 own k 7:
 *     2 * 27 + 2 * 243 + 2187 = 2727. */
static void test_handmade_windows(void **state)
{
    (void)state;
    Position pos;
    parse_fen(&pos, "W:W28,33,K46:B19,23");
    int32_t st[EVAL_MAX_PATTERN_TERMS];
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(P->patterns(&pos, st, sign), 32);
    assert_int_equal(st[6], 6 * 6561 + 945);
    assert_int_equal(st[10], 10 * 6561 + 92);
    assert_int_equal(st[12], 12 * 6561);
    assert_int_equal(st[16 + 5], 5 * 6561 + 2727);
    assert_int_equal(sign[16 + 5], -1);
    assert_int_equal(st[3], 3 * 6561 + 1458);
    assert_int_equal(st[0], 0);
    assert_int_equal(st[1], 1 * 6561);
    /* Black to move: the two views exchange places, the signs stay (+1 first) */
    pos.side = BLACK;
    int32_t st_b[EVAL_MAX_PATTERN_TERMS];
    int8_t sign_b[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(P->patterns(&pos, st_b, sign_b), 32);
    for (int w = 0; w < 16; w++) {
        assert_int_equal(st_b[w], st[16 + w]);
        assert_int_equal(st_b[16 + w], st[w]);
        assert_int_equal(sign_b[w], 1);
        assert_int_equal(sign_b[16 + w], -1);
    }
}

/* ---- every position of the random games ---- */

/* Window 4i + j read square by square from the square numbers (not the bit gather). */
static int window_by_squares(Bitboard own, Bitboard opp, int w)
{
    int i = w / 4, j = w % 4, state = 0, power = 1;
    for (int row = 0; row < 4; row++)
        for (int place = 0; place < 2; place++) {
            int n = 10 * i + 5 * row + j + place + 1;
            Bitboard sq = square_bb(intl_bit_of_number(n));
            state += power * ((own & sq) ? 1 : (opp & sq) ? 2 : 0);
            power *= 3;
        }
    return state;
}

/* The states against the square-by-square reading (White's view as it is, Black's with
 * n -> 51 - n), and patterns(flip(pos)) == patterns(pos): the flip exchanges the colours
 * and the side to move, so both views are read alike. */
static void test_states_and_flip(void **state)
{
    (void)state;
    for (int p = 0; p < npositions; p++) {
        const Position *pos = &positions[p];
        int32_t st[EVAL_MAX_PATTERN_TERMS], st_f[EVAL_MAX_PATTERN_TERMS];
        int8_t sign[EVAL_MAX_PATTERN_TERMS], sign_f[EVAL_MAX_PATTERN_TERMS];
        assert_int_equal(P->patterns(pos, st, sign), 32);
        Bitboard white = pos->men[WHITE], black = pos->men[BLACK];
        const int32_t *white_view = pos->side == WHITE ? st : st + 16;
        const int32_t *black_view = pos->side == WHITE ? st + 16 : st;
        for (int w = 0; w < 16; w++) {
            assert_int_equal(white_view[w], w * 6561 + window_by_squares(white, black, w));
            assert_int_equal(black_view[w], w * 6561 + window_by_squares(intl_half_turn(black),
                                                                          intl_half_turn(white), w));
        }
        Position flipped;
        position_flip(V, pos, &flipped);
        assert_int_equal(P->patterns(&flipped, st_f, sign_f), 32);
        assert_memory_equal(st, st_f, sizeof st[0] * 32);
        assert_memory_equal(sign, sign_f, sizeof sign[0] * 32);
    }
}

/* Weights of the pattern spec: the linear defaults, pattern weights random (or 0). */
static void pattern_weights(Weights *w, uint64_t *rng)
{
    assert_true(weights_default(w, P));
    assert_int_equal(w->count, 2 * (P->nfeatures + P->npattern_states));
    for (int i = 2 * P->nfeatures; rng && i < w->count; i++)
        w->w[i] = (int32_t)(next_random(rng) % (2 * PATTERN_RANGE + 1)) - PATTERN_RANGE;
}

/* evaluate (the fast path) == evaluate_generic == eval_dot(eval_extract), and the colour
 * flip keeps the score. */
static void test_evaluate_paths(void **state)
{
    (void)state;
    uint64_t rng = seed ^ 0x5851F42D4C957F2DULL;
    Weights w = { 0 };
    pattern_weights(&w, &rng);
    int nonzero_patterns = 0;
    for (int p = 0; p < npositions; p++) {
        const Position *pos = &positions[p];
        EvalTerm terms[EVAL_MAX_TERMS];
        int n = eval_extract(P, pos, terms);
        int fast = evaluate(pos, &w);
        assert_int_equal(fast, evaluate_generic(pos, &w));
        assert_int_equal(fast, eval_dot(terms, n, &w));
        Position flipped;
        position_flip(V, pos, &flipped);
        assert_int_equal(evaluate(&flipped, &w), fast);
        for (int i = 0; i < n; i++)
            nonzero_patterns += terms[i].index >= 2 * P->nfeatures;
    }
    /* the games left the start: the tables were read, not only cancelled */
    assert_true(nonzero_patterns > npositions);
    weights_free(&w);
}

/* Pattern weights at +-INT32_MAX (a weights file may hold any int32): the fast path sums
 * them in 64 bits like the generic one and the terms, so all three still agree. */
static void test_extreme_weights(void **state)
{
    (void)state;
    uint64_t rng = seed ^ 0x2545F4914F6CDD1DULL;
    Weights w = { 0 };
    pattern_weights(&w, NULL);
    for (int i = 2 * P->nfeatures; i < w.count; i++)
        w.w[i] = next_random(&rng) & 1 ? INT32_MAX : -INT32_MAX;
    for (int p = 0; p < npositions; p++) {
        EvalTerm terms[EVAL_MAX_TERMS];
        int n = eval_extract(P, &positions[p], terms);
        assert_int_equal(evaluate(&positions[p], &w), evaluate_generic(&positions[p], &w));
        assert_int_equal(evaluate(&positions[p], &w), eval_dot(terms, n, &w));
    }
    weights_free(&w);
}

/* Pattern weights 0: the linear evaluation exactly. */
static void test_zero_patterns_are_linear(void **state)
{
    (void)state;
    Weights w = { 0 }, linear = { 0 };
    pattern_weights(&w, NULL);
    assert_true(weights_default(&linear, &international_eval_spec));
    for (int p = 0; p < npositions; p++)
        assert_int_equal(evaluate(&positions[p], &w), evaluate(&positions[p], &linear));
    weights_free(&w);
    weights_free(&linear);
}

/* The search's incremental evaluation (evaluate_inc on an EvalInc carried from move to
 * move) gives evaluate()'s value after every legal move along random games: quiet moves,
 * captures of men and kings, crowning, kings.  (International reads its windows from
 * scratch today; this holds any incremental state it gets.) */
static void test_incremental_along_games(void **state)
{
    (void)state;
    uint64_t rng = seed ^ 0x94D049BB133111EBULL;
    Weights w = { 0 };
    pattern_weights(&w, NULL);
    eval_inc_random_patterns(&w, &rng, 1000);
    long mismatches;
    long checked = eval_inc_walk(V, &w, rng, 20, GAME_PLIES, &mismatches);
    printf("# %ld children checked\n", checked);
    assert_true(checked >= 10000);
    assert_int_equal(mismatches, 0);
    weights_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_shape),
        cmocka_unit_test(test_start_windows),
        cmocka_unit_test(test_handmade_windows),
        cmocka_unit_test(test_states_and_flip),
        cmocka_unit_test(test_evaluate_paths),
        cmocka_unit_test(test_extreme_weights),
        cmocka_unit_test(test_zero_patterns_are_linear),
        cmocka_unit_test(test_incremental_along_games),
    };
    return cmocka_run_group_tests(tests, setup_games, NULL);
}
