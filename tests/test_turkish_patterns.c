/* The Turkish pattern evaluation (turkish_patterns.c): window states worked by hand,
 * the fast evaluate against the generic loop and the sparse terms on the positions of
 * random games, the two symmetries (colours exchanged; the board mirrored left-right) and
 * the linear evaluation it contains.  DAMA_TPAT_SEED sets the seed of the games (printed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "bitboard.h"
#include "evaluate.h"
#include "movelist.h"
#include "position.h"
#include "turkish_eval.h"
#include "turkish_patterns.h"
#include "variant.h"
#include "random_pieces.h"
#include "eval_inc_walk.h"
#include "test_position.h"

#define V (&turkish_variant)
#define SPEC (&turkish_pattern_eval_spec)
#define NGAMES 60
#define GAME_PLIES 160
#define STATES TURKISH_PATTERN_STATES

static uint64_t seed(void)
{
    const char *s = getenv("DAMA_TPAT_SEED");
    uint64_t v = s ? strtoull(s, NULL, 0) : 0x243F6A8885A308D3ULL;
    printf("# DAMA_TPAT_SEED=0x%llx\n", (unsigned long long)v);
    return v ? v : 1;
}

static int random_in(uint64_t *rng, int lo, int hi)
{
    return (int)(lo + (int64_t)(next_random(rng) % (uint64_t)((int64_t)hi - lo + 1)));
}

/* Linear weights the defaults plus noise, so no feature hides behind a zero weight;
 * pattern weights uniform in [-40, 40]. */
static void random_weights(uint64_t *rng, Weights *w)
{
    assert_true(weights_init(w, SPEC));
    for (int i = 0; i < 2 * SPEC->nfeatures; i++)
        w->w[i] = SPEC->defaults[i] + random_in(rng, -20, 20);
    for (int i = 2 * SPEC->nfeatures; i < 2 * eval_spec_features(SPEC); i++)
        w->w[i] = random_in(rng, -40, 40);
}

/* w's linear weights under the linear spec, and under the pattern spec with patterns 0. */
static void linear_parts(const Weights *w, Weights *lin, Weights *zero)
{
    assert_true(weights_convert(lin, &turkish_eval_spec, w));
    assert_true(weights_convert(zero, SPEC, w));
}

/* patterns() writes view 0 (the side to move, +1) then view 1 (-1), each pair 0..6 and in
 * it offsets 0..4: occurrence k of window (view, pair, offset). */
static int occurrence(int view, int pair, int offset)
{
    return view * TURKISH_PATTERN_WINDOWS + pair * TURKISH_PATTERN_OFFSETS + offset;
}

static int table_of(int pair, int offset)
{
    static const int class_of_offset[TURKISH_PATTERN_OFFSETS] = { 0, 1, 2, 1, 0 };
    return 3 * pair + class_of_offset[offset];
}

/* Start position: every rank is uniform, so every offset (and its mirrored reading) gives
 * the same state.  A rank of own men is 1 + 3 + 9 + 27 = 40, of enemy men 80, and the upper
 * rank counts 81 times:
 *   ranks 1-2: 0 + 81 * 40 = 3240    ranks 2-3: 40 + 81 * 40 = 3280    ranks 3-4: 40
 *   ranks 4-5: 0                     ranks 5-6: 81 * 80 = 6480
 *   ranks 6-7: 80 + 81 * 80 = 6560   ranks 7-8: 80
 * Black's view is the same board: both views write the same states with opposite signs. */
static void test_start_windows(void **state)
{
    (void)state;
    static const int expect[TURKISH_PATTERN_PAIRS] = { 3240, 3280, 40, 0, 6480, 6560, 80 };
    Position pos;
    V->start(&pos);
    int32_t st[EVAL_MAX_PATTERN_TERMS];
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(SPEC->patterns(&pos, st, sign), 70);
    for (int view = 0; view < 2; view++)
        for (int pair = 0; pair < TURKISH_PATTERN_PAIRS; pair++)
            for (int offset = 0; offset < TURKISH_PATTERN_OFFSETS; offset++) {
                int k = occurrence(view, pair, offset);
                assert_int_equal(st[k], table_of(pair, offset) * STATES + expect[pair]);
                assert_int_equal(sign[k], view == 0 ? 1 : -1);
            }
    /* ... so every pattern weight cancels: the linear evaluation alone. */
    uint64_t rng = 5;
    WEIGHTS_SCOPED w = { 0 }, lin = { 0 }, zero = { 0 };
    random_weights(&rng, &w);
    linear_parts(&w, &lin, &zero);
    assert_int_equal(evaluate(&pos, &w), evaluate(&pos, &lin));
}

/* White to move: White men a2, c3, king d3; Black men b3, d4, h7.
 * White's view (+1):
 *   ranks 2-3, files a-d (table 3 * 1 + 0 = 3): rank 2 a..d = 1,0,0,0 -> 1; rank 3 a..d =
 *     0 (a3), 2 (b3), 1 (c3), 0 (d3 is a king) -> 2 * 3 + 1 * 9 = 15; 1 + 81 * 15 = 1216.
 *   ranks 2-3, files e-h (read h..e, table 3): all empty -> 0.
 *   ranks 3-4, files c-f (table 3 * 2 + 2 = 8): read c..f: rank 3 = 1,0,0,0 -> 1, rank 4 =
 *     0,2,0,0 -> 6: 1 + 81 * 6 = 487; read f..c: rank 3 -> 27, rank 4 -> 2 * 9 = 18:
 *     27 + 81 * 18 = 1485; the smaller: 487.
 * Black's view (-1), rank r seen as 9 - r: own men b6, d5, h2; enemy men a7, c6.
 *   ranks 5-6, files a-d (table 3 * 4 + 0 = 12): rank 5 = 0,0,0,1 -> 27; rank 6 = 0,1,2,0
 *     -> 3 + 18 = 21: 27 + 81 * 21 = 1728.
 *   ranks 2-3, files e-h read h..e (table 3): rank 2 = 1 (h2),0,0,0 -> 1; rank 3 empty: 1.
 *   ranks 5-6, files d-g read g..d (table 3 * 4 + 1 = 13): rank 5 = 0,0,0,1 -> 27; rank 6
 *     empty: 27. */
static void test_hand_made_windows(void **state)
{
    (void)state;
    Position pos;
    pos = test_position(V, "W:Wa2,c3,Kd3:Bb3,d4,h7");
    int32_t st[EVAL_MAX_PATTERN_TERMS];
    int8_t sign[EVAL_MAX_PATTERN_TERMS];
    assert_int_equal(SPEC->patterns(&pos, st, sign), 70);
    assert_int_equal(st[occurrence(0, 1, 0)], 3 * STATES + 1216);
    assert_int_equal(st[occurrence(0, 1, 4)], 3 * STATES + 0);
    assert_int_equal(st[occurrence(0, 2, 2)], 8 * STATES + 487);
    assert_int_equal(st[occurrence(1, 4, 0)], 12 * STATES + 1728);
    assert_int_equal(st[occurrence(1, 1, 4)], 3 * STATES + 1);
    assert_int_equal(st[occurrence(1, 4, 3)], 13 * STATES + 27);
    assert_int_equal(sign[occurrence(0, 2, 2)], 1);
    assert_int_equal(sign[occurrence(1, 4, 0)], -1);

    /* Black to move on the same board: the views exchange places and signs. */
    int32_t st2[EVAL_MAX_PATTERN_TERMS];
    int8_t sign2[EVAL_MAX_PATTERN_TERMS];
    pos.side = BLACK;
    assert_int_equal(SPEC->patterns(&pos, st2, sign2), 70);
    for (int k = 0; k < TURKISH_PATTERN_WINDOWS; k++) {
        assert_int_equal(st2[k], st[k + TURKISH_PATTERN_WINDOWS]);
        assert_int_equal(st2[k + TURKISH_PATTERN_WINDOWS], st[k]);
        assert_int_equal(sign2[k], 1);
    }
}

/* The board seen in a mirror: file f -> 7 - f. */
static Bitboard mirror_files(Bitboard b)
{
    Bitboard out = 0;
    for (int sq = 0; sq < 64; sq++)
        if (b & square_bb(sq))
            out |= square_bb(make_square(7 - square_file(sq), square_rank(sq)));
    return out;
}

static void mirror_position(const Position *pos, Position *out)
{
    for (int c = 0; c < 2; c++) {
        out->men[c] = mirror_files(pos->men[c]);
        out->kings[c] = mirror_files(pos->kings[c]);
    }
    out->side = pos->side;
}

/* Every check on one position: the fast path, the generic loop and the sparse terms agree;
 * colours exchanged and the mirror image score the same; with the pattern weights zeroed
 * (zero) the score is the linear spec's (lin). */
static void check_position(const Position *pos, const Weights *w, const Weights *zero,
                           const Weights *lin)
{
    EvalTerm terms[EVAL_MAX_TERMS];
    int score = evaluate(pos, w);
    assert_int_equal(score, evaluate_generic(pos, w));
    assert_int_equal(score, eval_dot(terms, eval_extract(SPEC, pos, terms), w));
    Position flipped, mirrored;
    position_flip(V, pos, &flipped);
    assert_int_equal(evaluate(&flipped, w), score);
    mirror_position(pos, &mirrored);
    assert_int_equal(evaluate(&mirrored, w), score);
    assert_int_equal(evaluate(&mirrored, lin), evaluate(pos, lin));
    assert_int_equal(evaluate(pos, zero), evaluate(pos, lin));
}

/* Positions of random legal games from the start: every stage from 32 men to kings. */
static void test_random_games(void **state)
{
    (void)state;
    static MoveList list;
    uint64_t rng = seed();
    WEIGHTS_SCOPED w = { 0 }, lin = { 0 }, zero = { 0 };
    random_weights(&rng, &w);
    linear_parts(&w, &lin, &zero);
    Rules rules = rules_default(V);
    int checked = 0, differ = 0;
    for (int g = 0; g < NGAMES; g++) {
        Position pos;
        V->start(&pos);
        for (int ply = 0; ply < GAME_PLIES; ply++) {
            check_position(&pos, &w, &zero, &lin);
            differ += evaluate(&pos, &w) != evaluate(&pos, &lin);
            checked++;
            V->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            V->make(&pos, &list.moves[next_random(&rng) % (uint64_t)list.count]);
        }
    }
    printf("# %d game positions, %d where the patterns change the score\n", checked, differ);
    assert_true(checked >= 3000);
    /* The patterns must matter: random weights move the score almost everywhere. */
    assert_true(differ > checked / 2);
}

/* Weights near the int32 limits: five of them overflow an int, so the fast path must add
 * them in 64 bits as the generic loop does (an int sum gave another score here). */
static void test_extreme_weights(void **state)
{
    (void)state;
    static MoveList list;
    uint64_t rng = 11;
    WEIGHTS_SCOPED w = { 0 };
    assert_true(weights_init(&w, SPEC));
    for (int i = 0; i < w.count; i++)
        w.w[i] = random_in(&rng, -(1 << 30) + 1, (1 << 30) - 1) * 2 + 1;
    Rules rules = rules_default(V);
    int checked = 0;
    for (int g = 0; g < 10; g++) {
        Position pos;
        V->start(&pos);
        for (int ply = 0; ply < GAME_PLIES; ply++) {
            EvalTerm terms[EVAL_MAX_TERMS];
            int score = evaluate(&pos, &w);
            assert_int_equal(score, evaluate_generic(&pos, &w));
            assert_int_equal(score, eval_dot(terms, eval_extract(SPEC, &pos, terms), &w));
            checked++;
            V->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            V->make(&pos, &list.moves[next_random(&rng) % (uint64_t)list.count]);
        }
    }
    assert_true(checked >= 300);
}

/* The spec: the Turkish linear features first, then 21 tables of 3^8 states. */
static void test_spec_shape(void **state)
{
    (void)state;
    assert_string_equal(SPEC->variant, "turkish");
    assert_string_equal(SPEC->eval_name, "pattern");
    assert_int_equal(SPEC->nfeatures, turkish_eval_spec.nfeatures);
    assert_int_equal(SPEC->npattern_states, 21 * 6561);
    assert_int_equal(2 * eval_spec_features(SPEC), 2 * (36 + 137781));
    assert_ptr_equal(V->pattern_eval, SPEC);
    assert_ptr_equal(SPEC->features, turkish_eval_spec.features);
    for (int i = 0; i < 2 * SPEC->nfeatures; i++) {
        assert_string_equal(SPEC->weight_names[i], turkish_eval_spec.weight_names[i]);
        assert_int_equal(SPEC->defaults[i], turkish_eval_spec.defaults[i]);
    }
}

/* The incremental state (EvalInc: the windows' readings updated by the squares a move
 * changes) gives evaluate()'s value after every legal move along random games: quiet moves,
 * captures, crowning, kings. */
static void test_incremental_along_games(void **state)
{
    (void)state;
    uint64_t rng = seed();
    WEIGHTS_SCOPED w = { 0 };
    random_weights(&rng, &w);
    eval_inc_random_patterns(&w, &rng, 1000);
    long mismatches;
    long checked = eval_inc_walk(V, &w, rng, 20, GAME_PLIES, &mismatches);
    printf("# %ld children checked\n", checked);
    assert_true(checked >= 10000);
    assert_int_equal(mismatches, 0);
    /* the linear evaluation's own (the man table's sums) */
    WEIGHTS_SCOPED lin = { 0 };
    assert_true(weights_convert(&lin, &turkish_eval_spec, &w));
    checked = eval_inc_walk(V, &lin, rng ^ 1, 20, GAME_PLIES, &mismatches);
    assert_true(checked >= 10000);
    assert_int_equal(mismatches, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_shape),
        cmocka_unit_test(test_start_windows),
        cmocka_unit_test(test_hand_made_windows),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_extreme_weights),
        cmocka_unit_test(test_incremental_along_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
