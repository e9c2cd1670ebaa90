/* The International pattern evaluation (international_patterns.c): the shape of the
 * spec, region states worked out by hand, the states against a square-by-square reading on
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
    /* 4 regions of 3^12 states, each read in both frames; feature-set 2 */
    assert_int_equal(P->npattern_states, 4 * 531441);
    assert_int_equal(P->max_pattern_terms, 8);
    assert_int_equal(P->feature_set_version, 2);
    assert_int_equal(2 * eval_spec_features(P), 2 * (30 + 2125764));
}

/* ---- region states by hand ---- */

/* The start, White to move: the side to move's men are 31-50, the opponent's 1-20.  Region
 * j holds rows 4 .. 9 at places j, j + 1: rows 4 and 5 (squares 21-30) are empty, rows 6 ..
 * 9 own men, digits k = 4 .. 11: 3^4 + ... + 3^11 = (3^12 - 3^4) / 2 = 265680, the same
 * in every column.  Black's frame is the same position, so both frames read alike and every
 * occurrence cancels its twin. */
static void test_start_regions(void **state)
{
    (void)state;
    Position pos;
    V->start(&pos);
    int32_t st[EVAL_MAX_PATTERN_TERMS];
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(P->patterns(&pos, st, sign), 8);
    for (int r = 0; r < 4; r++) {
        assert_int_equal(intl_pattern_region_state(pos.men[WHITE], pos.men[BLACK], r), 265680);
        assert_int_equal(st[r], r * 531441 + 265680);
        assert_int_equal(sign[r], 1);
        assert_int_equal(st[4 + r], r * 531441 + 265680);
        assert_int_equal(sign[4 + r], -1);
    }
}

/* W:W28,33,K46:B19,23, White to move.  Square n is in row (n - 1) / 5 at place (n - 1) % 5;
 * region j holds rows 4 .. 9, places j and j + 1; digit k = 2 (row - 4) + (place - j).
 * White's frame (the board as it is; own 28, 33, the king on 46 read as empty; opponent 23,
 * 19 above row 4 unseen):
 *   region 2 (23 24 28 29 33 34 38 39 43 44 48 49): 23 opp k 0, 28 own k 2, 33 own k 4:
 *     2 + 9 + 81 = 92;
 *   region 1 (22 23 27 28 32 33 ...): 23 opp k 1, 28 own k 3, 33 own k 5: 6 + 27 + 243 = 276;
 *   region 3 (24 25 29 30 34 35 ...): no man: 0;
 *   region 0 (21 22 26 27 31 32 36 37 41 42 46 47): only the king on 46: 0.
 * Black's frame (n -> 51 - n; own 32, 28, opponent 23, 18, the king on 5 unseen):
 *   region 1 (22 23 27 28 32 33 37 38 ...): 23 opp k 1, 28 own k 3, 32 own k 4:
 *     2 * 3 + 27 + 81 = 114;
 *   region 2 (23 24 28 29 33 34 ...): 23 opp k 0, 28 own k 2: 2 + 9 = 11;
 *   region 0 (21 22 26 27 31 32 ...): 32 own k 5: 243;
 *   region 3 (24 25 29 30 ...): no man: 0. */
static void test_handmade_regions(void **state)
{
    (void)state;
    Position pos;
    parse_fen(&pos, "W:W28,33,K46:B19,23");
    int32_t st[EVAL_MAX_PATTERN_TERMS];
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(P->patterns(&pos, st, sign), 8);
    const int32_t white[4] = { 0, 276, 92, 0 }, black[4] = { 243, 114, 11, 0 };
    for (int r = 0; r < 4; r++) {
        assert_int_equal(st[r], r * 531441 + white[r]);
        assert_int_equal(sign[r], 1);
        assert_int_equal(st[4 + r], r * 531441 + black[r]);
        assert_int_equal(sign[4 + r], -1);
    }
    /* Black to move: the two frames exchange places, the signs stay (+1 first) */
    pos.side = BLACK;
    int32_t st_b[EVAL_MAX_PATTERN_TERMS];
    int8_t sign_b[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(P->patterns(&pos, st_b, sign_b), 8);
    for (int r = 0; r < 4; r++) {
        assert_int_equal(st_b[r], st[4 + r]);
        assert_int_equal(st_b[4 + r], st[r]);
        assert_int_equal(sign_b[r], 1);
        assert_int_equal(sign_b[4 + r], -1);
    }
}

/* A region of twelve men: W:W21,22,26,27,31,32,36,37,41,42,46,47:B1 holds every square of
 * White's region 0, all digits 1: (3^12 - 1) / 2 = 265720; read with the colours
 * exchanged (the same men as the opponent's) every digit is 2: 531440, the largest state. */
static void test_full_region(void **state)
{
    (void)state;
    Position pos;
    parse_fen(&pos, "W:W21,22,26,27,31,32,36,37,41,42,46,47:B1");
    assert_int_equal(intl_pattern_region_state(pos.men[WHITE], pos.men[BLACK], 0), 265720);
    assert_int_equal(intl_pattern_region_state(pos.men[BLACK], pos.men[WHITE], 0), 531440);
}

/* ---- every position of the random games ---- */

/* Region j read square by square from the square numbers (not the bit gather). */
static int region_by_squares(Bitboard own, Bitboard opp, int j)
{
    int state = 0, power = 1;
    for (int row = 4; row < 10; row++)
        for (int place = 0; place < 2; place++) {
            int n = 5 * row + j + place + 1;
            Bitboard sq = square_bb(intl_bit_of_number(n));
            state += power * ((own & sq) ? 1 : (opp & sq) ? 2 : 0);
            power *= 3;
        }
    return state;
}

/* The states against the square-by-square reading (White's frame as it is, Black's with
 * n -> 51 - n), and patterns(flip(pos)) == patterns(pos): the flip exchanges the colours
 * and the side to move, so both frames are read alike. */
static void test_states_and_flip(void **state)
{
    (void)state;
    for (int p = 0; p < npositions; p++) {
        const Position *pos = &positions[p];
        int32_t st[EVAL_MAX_PATTERN_TERMS], st_f[EVAL_MAX_PATTERN_TERMS];
        int8_t sign[EVAL_MAX_PATTERN_TERMS], sign_f[EVAL_MAX_PATTERN_TERMS];
        assert_int_equal(P->patterns(pos, st, sign), 8);
        Bitboard white = pos->men[WHITE], black = pos->men[BLACK];
        const int32_t *white_view = pos->side == WHITE ? st : st + 4;
        const int32_t *black_view = pos->side == WHITE ? st + 4 : st;
        for (int r = 0; r < 4; r++) {
            assert_int_equal(white_view[r], r * 531441 + region_by_squares(white, black, r));
            assert_int_equal(black_view[r], r * 531441 + region_by_squares(intl_half_turn(black),
                                                                            intl_half_turn(white), r));
        }
        Position flipped;
        position_flip(V, pos, &flipped);
        assert_int_equal(P->patterns(&flipped, st_f, sign_f), 8);
        assert_memory_equal(st, st_f, sizeof st[0] * 8);
        assert_memory_equal(sign, sign_f, sizeof sign[0] * 8);
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
 * captures of men and kings, crowning, kings.  (International reads its regions from
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
        cmocka_unit_test(test_start_regions),
        cmocka_unit_test(test_handmade_regions),
        cmocka_unit_test(test_full_region),
        cmocka_unit_test(test_states_and_flip),
        cmocka_unit_test(test_evaluate_paths),
        cmocka_unit_test(test_extreme_weights),
        cmocka_unit_test(test_zero_patterns_are_linear),
        cmocka_unit_test(test_incremental_along_games),
    };
    return cmocka_run_group_tests(tests, setup_games, NULL);
}
