/* The International evaluation's features (international_eval.c): the shape of the
 * spec, the weights file against it, feature values on hand-built positions worked out in
 * the comments, and the colour flip on the vector positions, on positions of random games
 * and on random piece sets.  Run from the project root.
 * DAMA_INTL_EVAL_SEED sets the seed of the random positions (printed). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "international_board.h"
#include "international_eval.h"
#include "position.h"
#include "random_pieces.h"
#include "test_util.h"
#include "variant.h"
#include "international.h"
#include "test_position.h"

static const Variant *V = &international_variant;
static const EvalSpec *S = &international_eval_spec;

#define WEIGHTS_FILE "data/weights/international.txt"
#define NRANDOM 5000
#define NGAMES 200

/* Index of the feature whose weights are NAME_MG / NAME_EG. */
static int feature_index(const char *name)
{
    size_t len = strlen(name);
    for (int f = 0; f < S->nfeatures; f++) {
        const char *mg = S->weight_names[2 * f];
        if (strncmp(mg, name, len) == 0 && strcmp(mg + len, "_MG") == 0)
            return f;
    }
    fail_msg("no feature %s", name);
    return -1;
}

/* Value of feature name in the position fen, from the side to move. */
static int32_t feature(const char *fen, const char *name)
{
    Position pos;
    pos = test_position(V, fen);
    int32_t v[EVAL_MAX_FEATURES + 1];
    S->features(&pos, v);
    return v[feature_index(name)];
}

/* The colour flip, built square by square: colours exchanged, square n -> 51 - n, the other
 * side to move. */
static Bitboard turn_squares(Bitboard b)
{
    Bitboard out = 0;
    for (int n = 1; n <= INTL_SQUARES; n++)
        if (b & square_bb(intl_bit_of_number(n)))
            out |= square_bb(intl_bit_of_number(INTL_SQUARES + 1 - n));
    return out;
}

static void colour_flip(const Position *pos, Position *out)
{
    Position p = {
        .men = { turn_squares(pos->men[BLACK]), turn_squares(pos->men[WHITE]) },
        .kings = { turn_squares(pos->kings[BLACK]), turn_squares(pos->kings[WHITE]) },
        .side = !pos->side,
    };
    *out = p;
}

/* features(flip(pos)) == features(pos), the same phase; and the same pieces with the other
 * side to move negate every feature but SIDE_TO_MOVE. */
static void check_flip(const Position *pos)
{
    int32_t a[EVAL_MAX_FEATURES + 1], b[EVAL_MAX_FEATURES + 1];
    Position flipped, other_side = *pos, by_variant;
    colour_flip(pos, &flipped);
    /* the variant's own flip (its mirror, the half turn) is the square-by-square one */
    position_flip(&international_variant, pos, &by_variant);
    assert_true(position_equal(&by_variant, &flipped));
    other_side.side = !pos->side;
    int pa = S->features(pos, a), pb = S->features(&flipped, b);
    char fen[512];
    position_to_fen(pos, V, fen, sizeof fen);
    if (pa != pb)
        fail_msg("%s: phase %d, flipped %d", fen, pa, pb);
    for (int f = 0; f < S->nfeatures; f++)
        if (a[f] != b[f])
            fail_msg("%s: %s is %d, flipped %d", fen, S->weight_names[2 * f], a[f], b[f]);
    S->features(&other_side, b);
    int stm = feature_index("SIDE_TO_MOVE");
    for (int f = 0; f < S->nfeatures; f++)
        if (b[f] != (f == stm ? 1 : -a[f]))
            fail_msg("%s: %s is %d, %d with the other side to move", fen, S->weight_names[2 * f],
                     a[f], b[f]);
    assert_in_range(pa, 0, S->phase_max);
}

/* ---- the spec ---- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

static void test_spec_shape(void **state)
{
    (void)state;
    assert_string_equal(S->variant, "international");
    assert_in_range(S->nfeatures, 15, 40);
    assert_int_equal(S->phase_max, 40);
    assert_string_equal(S->weight_names[0], "MAN_MG");
    assert_string_equal(S->weight_names[1], "MAN_EG");
    assert_int_equal(S->defaults[0], 100);
    assert_int_equal(S->defaults[1], 100);
    for (int f = 0; f < S->nfeatures; f++) {
        const char *mg = S->weight_names[2 * f], *eg = S->weight_names[2 * f + 1];
        assert_true(ends_with(mg, "_MG"));
        assert_true(ends_with(eg, "_EG"));
        assert_int_equal(strlen(mg), strlen(eg));
        assert_memory_equal(mg, eg, strlen(mg) - 3); /* one NAME for both */
        assert_non_null(S->feature_why[f]);
        assert_true(strlen(S->feature_why[f]) > 10);
        assert_null(strchr(S->feature_why[f], '\n'));
    }
    for (int i = 0; i < 2 * S->nfeatures; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(S->weight_names[i], S->weight_names[j]) == 0)
                fail_msg("weight name %s twice", S->weight_names[i]);
    assert_int_equal(feature_index("KING_FIRST"), 1);
    assert_int_equal(feature_index("KING_EXTRA"), 2);
}

/* Material alone: men 100, the first king 300, each further king 200, in both phases. */
static void test_material_only(void **state)
{
    (void)state;
    int man = feature_index("MAN"), first = feature_index("KING_FIRST");
    int extra = feature_index("KING_EXTRA");
    for (int f = 0; f < S->nfeatures; f++) {
        int32_t want = f == man ? 100 : f == first ? 300 : f == extra ? 200 : 0;
        assert_int_equal(S->material_only[2 * f], want);
        assert_int_equal(S->material_only[2 * f + 1], want);
    }
    /* and the default signs where the literature agrees */
    assert_true(S->defaults[2 * first] > 2 * S->defaults[2 * man]);
    assert_true(S->defaults[2 * feature_index("RUNAWAY") + 1] > 0);
    assert_true(S->defaults[2 * feature_index("EN_PRISE")] < 0);
    assert_true(S->defaults[2 * feature_index("BLOCKED")] < 0);
}

/* data/weights/international.txt: "variant international" first, then for every feature a
 * comment with its reason and NAME_MG, NAME_EG with the defaults, in order. */
static void test_weights_file(void **state)
{
    (void)state;
    char *text = test_read_file(WEIGHTS_FILE);
    assert_non_null(text);
    int next = 0; /* weight expected next */
    bool header = false;
    const char *last_comment = "";
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') {
            last_comment = line;
            continue;
        }
        if (!header) {
            assert_string_equal(line, "variant international");
            header = true;
            continue;
        }
        char name[64];
        int value;
        if (sscanf(line, "%63s %d", name, &value) != 2)
            fail_msg("%s: bad line '%s'", WEIGHTS_FILE, line);
        assert_true(next < 2 * S->nfeatures);
        assert_string_equal(name, S->weight_names[next]);
        assert_int_equal(value, S->defaults[next]);
        if (next % 2 == 0) {
            const char *why = S->feature_why[next / 2];
            if (strncmp(last_comment, "# ", 2) != 0 || strcmp(last_comment + 2, why) != 0)
                fail_msg("%s: before %s: '%s'", WEIGHTS_FILE, name, last_comment);
        }
        next++;
    }
    assert_true(header);
    assert_int_equal(next, 2 * S->nfeatures);
    free(text);
}

/* ---- feature values on hand-built positions ---- */

/* The start: every term is the same for both sides (the board turned half a turn is the
 * same position), so all are 0 but SIDE_TO_MOVE; 40 men is the full middlegame. */
static void test_start(void **state)
{
    (void)state;
    Position pos;
    V->start(&pos);
    for (int side = 0; side < 2; side++) {
        pos.side = side;
        int32_t v[EVAL_MAX_FEATURES + 1];
        assert_int_equal(S->features(&pos, v), 40);
        for (int f = 0; f < S->nfeatures; f++)
            assert_int_equal(v[f], f == feature_index("SIDE_TO_MOVE") ? 1 : 0);
    }
}

static void test_material(void **state)
{
    (void)state;
    /* White: men 28, 31 and a king; Black: a king.  Both sides have a king, White 2 men up. */
    assert_int_equal(feature("W:W28,31,K50:BK1", "MAN"), 2);
    assert_int_equal(feature("W:W28,31,K50:BK1", "KING_FIRST"), 0);
    assert_int_equal(feature("W:W28,31,K50:BK1", "KINGS_BOTH_MEN"), 2);
    assert_int_equal(feature("B:W28,31,K50:BK1", "KINGS_BOTH_MEN"), -2);
    /* no Black king: the men are worth their full value */
    assert_int_equal(feature("W:W28,31,K50:B1", "KINGS_BOTH_MEN"), 0);
    /* three kings against one: the first cancels, two extra */
    assert_int_equal(feature("W:WK46,K47,K48:BK1", "KING_FIRST"), 0);
    assert_int_equal(feature("W:WK46,K47,K48:BK1", "KING_EXTRA"), 2);
    assert_int_equal(feature("B:WK46,K47,K48:B1", "KING_FIRST"), -1);
    Position pos;
    int32_t v[EVAL_MAX_FEATURES + 1];
    pos = test_position(V, "W:W28,46:B20"); /* three men */
    assert_int_equal(S->features(&pos, v), 3);
}

static void test_advancement_and_tempo(void **state)
{
    (void)state;
    /* White: 28 is 4 rows in front of 46-50, 46 is on it: tempo 4 * (4 + 0) / 2 = 8.  Black:
     * 20 is 3 rows in front of its home row 1-5: tempo 4 * 3 / 1 = 12.  8 - 12 = -4. */
    const char *fen = "W:W28,46:B20";
    assert_int_equal(feature(fen, "TEMPO"), -4);
    assert_int_equal(feature(fen, "MAN_ADV4"), 1);
    assert_int_equal(feature(fen, "MAN_ADV3"), -1);
    assert_int_equal(feature(fen, "MAN_ADV1"), 0);
    /* 8 rows in front: White on 6-10, Black on 41-45 */
    assert_int_equal(feature("W:W7,8:B41", "MAN_ADV8"), 1);
    assert_int_equal(feature("B:W7,8:B41", "MAN_ADV8"), -1);
}

static void test_centre_and_classic(void **state)
{
    (void)state;
    /* White holds 27, 28, 32: three centre men and the classical centre; Black's 1 neither */
    assert_int_equal(feature("W:W27,28,32:B1", "CENTRE"), 3);
    assert_int_equal(feature("W:W27,28,32:B1", "CLASSIC"), 1);
    /* Black's classical centre is 19, 23, 24 (all centre squares from its side: 32, 28, 27);
     * White's 27, 28 are two: 2 - 3 = -1 */
    assert_int_equal(feature("W:W27,28:B19,23,24", "CLASSIC"), -1);
    assert_int_equal(feature("W:W27,28:B19,23,24", "CENTRE"), -1);
}

static void test_outposts(void **state)
{
    (void)state;
    /* 24 with 29 and 30 behind it: a held outpost */
    assert_int_equal(feature("W:W24,29,30:B3", "OUTPOST"), 1);
    assert_int_equal(feature("W:W24,29,30:B3", "OUTPOST_WEAK"), 0);
    /* 30 missing: the outpost hangs */
    assert_int_equal(feature("W:W24,29:B3", "OUTPOST"), 0);
    assert_int_equal(feature("W:W24,29:B3", "OUTPOST_WEAK"), 1);
    /* a king behind counts as support */
    assert_int_equal(feature("W:W24,29,K30:B3", "OUTPOST"), 1);
    /* Black's 27 with 21 and 22 behind it is the same outpost from its side: 1 - 1 */
    assert_int_equal(feature("W:W24,29,30:B27,21,22", "OUTPOST"), 0);
    assert_int_equal(feature("B:W24,29:B27,21,22", "OUTPOST"), 1);
    assert_int_equal(feature("B:W24,29:B27,21,22", "OUTPOST_WEAK"), -1);
}

static void test_wings_and_edges(void **state)
{
    (void)state;
    /* White 31, 36, 41, 46 are all on columns a-b: halves |4 - 0| = 4, flanks a-c v h-j
     * |4 - 0| = 4, edge men 36, 46.  Black's 5 is on column j, its own column a: halves 1,
     * flanks 1, edge 1.  So 3, 3, 1. */
    const char *fen = "W:W31,36,41,46:B5";
    assert_int_equal(feature(fen, "HALF_IMBALANCE"), 3);
    assert_int_equal(feature(fen, "FLANK_IMBALANCE"), 3);
    assert_int_equal(feature(fen, "EDGE_MEN"), 1);
    /* 28 (column e) and 29 (column g): one man each half, but no flank man at all; 33
     * (column f) tips the halves: |1 - 2| = 1 */
    assert_int_equal(feature("W:W28,29:B", "HALF_IMBALANCE"), 0);
    assert_int_equal(feature("W:W28,29,33:B", "HALF_IMBALANCE"), 1);
    assert_int_equal(feature("W:W28,29,33:B", "FLANK_IMBALANCE"), 0);
}

static void test_back_guard(void **state)
{
    (void)state;
    /* 47, 48, 49 held: three guards, counted 2; 48 is the golden man */
    assert_int_equal(feature("W:W46,47,48,49,50:B20", "BACK_GUARD"), 2);
    assert_int_equal(feature("W:W46,47,48,49,50:B20", "GOLDEN_MAN"), 1);
    assert_int_equal(feature("B:W46,47,48,49,50:B20", "BACK_GUARD"), -2);
    /* Black's 3 and 4 are its 48 and 47: 1 guard - 2, golden 0 - 1 */
    assert_int_equal(feature("W:W47:B3,4", "BACK_GUARD"), -1);
    assert_int_equal(feature("W:W47:B3,4", "GOLDEN_MAN"), -1);
    /* 46 and 50 are home-row squares but not guards */
    assert_int_equal(feature("W:W46,50:B20", "BACK_GUARD"), 0);
}

static void test_mobility_and_blocked(void **state)
{
    (void)state;
    /* White 46: 41 in front-right is taken, front-left is off the board: blocked.  41 moves
     * to 36 and 37: 2 moves.  Black 45 moves to 50 only: 1 move.  2 - 1 and 1 - 0. */
    assert_int_equal(feature("W:W46,41:B45", "MAN_MOBILITY"), 1);
    assert_int_equal(feature("W:W46,41:B45", "BLOCKED"), 1);
    /* a man behind enemy men is blocked too: 28 under 22, 23.  Black's 22 and 23 each have
     * one move (27 and 29; 28 is taken): 0 - 2 */
    assert_int_equal(feature("W:W28:B22,23", "BLOCKED"), 1);
    assert_int_equal(feature("W:W28:B22,23", "MAN_MOBILITY"), -2);
}

static void test_runaway(void **state)
{
    (void)state;
    /* 28's way up is empty.  Black's 26, on 28's row four columns away, moves down away from
     * it and can never stop it; Black's man does not count against White's king on 50. */
    assert_int_equal(feature("W:W28,K50:B26", "RUNAWAY"), 1);
    assert_int_equal(feature("B:W28,K50:B26", "RUNAWAY"), -1);
    /* without the king Black's 26 is a runaway too (nothing below it, White's 28 a row up
     * and four columns away): 1 - 1 */
    assert_int_equal(feature("W:W28:B26", "RUNAWAY"), 0);
    /* Black's 21, a row ahead and three columns to the left, meets it: after 28-22 it steps to
     * 27 and takes 27x18 */
    assert_int_equal(feature("W:W28,K50:B21", "RUNAWAY"), 0);
    /* a man in the cone ahead: 13 is three rows up, one column right */
    assert_int_equal(feature("W:W28,K50:B13", "RUNAWAY"), 0);
    /* an own man in the way: 22 stands in 28's cone, so only 22 runs (Black's 26 is a row
     * behind it and three columns off, and moves away): 1 */
    assert_int_equal(feature("W:W28,22,K50:B26", "RUNAWAY"), 1);
    /* far away: from 41 the man on 3, eight rows up and four columns right, is in the cone;
     * Black's 45 on 41's row is not */
    assert_int_equal(feature("W:W41,K50:B3", "RUNAWAY"), 0);
    assert_int_equal(feature("W:W41,K50:B45", "RUNAWAY"), 1);
    /* no runaway against a king */
    assert_int_equal(feature("W:W28:BK1", "RUNAWAY"), 0);
}

static void test_kings_and_en_prise(void **state)
{
    (void)state;
    /* The king on 46 sees 41, 37, 32, 28, 23 up to Black's 19.  On 23 the man on 19 would
     * take it (19x28), the other four are safe.  46 is on the long diagonal; Black's 19 is
     * en prise (46x14), the king on the edge is not: 0 - 1. */
    const char *fen = "W:WK46:B19";
    assert_int_equal(feature(fen, "KING_MOBILITY"), 4);
    assert_int_equal(feature(fen, "KING_DENIED"), 1);
    assert_int_equal(feature(fen, "KING_MAIN_DIAGONAL"), 1);
    assert_int_equal(feature(fen, "EN_PRISE"), -1);
    assert_int_equal(feature("B:WK46:B19", "EN_PRISE"), 1);
    /* a king alone on 28 sees the long diagonal 46-5 (9 other squares) and 6-50 (6, 11, 17,
     * 22, 33, 39, 44, 50): 17 */
    assert_int_equal(feature("W:WK28:B", "KING_MOBILITY"), 17);
    /* White's 28 takes 23 (to 19); Black's 23 cannot take 28, 32 is behind it: 0 - 1 */
    assert_int_equal(feature("W:W28,32:B23", "EN_PRISE"), -1);
    /* Both can take: 1 - 1 */
    assert_int_equal(feature("W:W28:B23", "EN_PRISE"), 0);
    /* a Black king far off on the line 50-6 takes 39 (to 33 or beyond): White's 39 en prise */
    assert_int_equal(feature("W:W39:BK50", "EN_PRISE"), 1);
}

/* ---- kings' reach and pieces en prise against independent counts ---- */

/* Empty squares color's kings reach, walked square by square. */
static int king_reach_walked(const Position *pos, int color)
{
    Bitboard occupied = position_occupied(pos), reach = 0;
    for (Bitboard k = pos->kings[color]; k;) {
        int from = pop_lsb(&k);
        for (int dir = 0; dir < 4; dir++)
            for (int sq = intl_step(from, dir); sq >= 0 && !(occupied & square_bb(sq));
                 sq = intl_step(sq, dir))
                reach |= square_bb(sq);
    }
    return popcount(reach);
}

/* Adds the first victim of the capture path move to *(Bitboard *)ctx: the piece between the
 * start and the first landing square. */
static void add_first_victim(void *ctx, const Move *m)
{
    if (m->njumps == 0)
        return;
    for (int dir = 0; dir < 4; dir++) {
        Bitboard line = 0;
        int sq = intl_step(m->from, dir);
        while (sq >= 0 && sq != m->path[0]) {
            line |= square_bb(sq);
            sq = intl_step(sq, dir);
        }
        if (sq == m->path[0])
            *(Bitboard *)ctx |= line & m->captured;
    }
}

/* Pieces of !color that color could take with its first jump now: every capture path with
 * majority=off (moves merge paths with the same end and victims, which hides the first
 * jump of all but one). */
static int en_prise_generated(const Position *pos, int color)
{
    Position p = *pos;
    p.side = color;
    Rules rules = rules_default(V);
    RULES_SET(international, rules, majority, false);
    Bitboard victims = 0;
    V->for_each_path(&p, &rules, add_first_victim, &victims);
    return popcount(victims);
}

static void check_against_walks(const Position *pos)
{
    int32_t v[EVAL_MAX_FEATURES + 1];
    S->features(pos, v);
    int sign = pos->side == WHITE ? 1 : -1;
    int reach = v[feature_index("KING_MOBILITY")] + v[feature_index("KING_DENIED")];
    assert_int_equal(reach, sign * (king_reach_walked(pos, WHITE) - king_reach_walked(pos, BLACK)));
    int want = sign * (en_prise_generated(pos, BLACK) - en_prise_generated(pos, WHITE));
    if (v[feature_index("EN_PRISE")] != want) {
        char fen[512];
        position_to_fen(pos, V, fen, sizeof fen);
        fail_msg("%s: EN_PRISE %d, the move generator's first victims give %d", fen,
                 v[feature_index("EN_PRISE")], want);
    }
}

/* ---- the colour flip ---- */

/* Every line of the vector files. */
static void test_flip_vectors(void **state)
{
    (void)state;
    const char *files[] = { "tests/vectors/international/positions.txt",
                            "tests/vectors/international/perft_start.txt" };
    int checked = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *text = test_read_file(files[i]);
        assert_non_null(text);
        for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
            if (line[0] == '#' || !strchr(line, ';'))
                continue;
            *strchr(line, ';') = '\0';
            Position pos;
            pos = test_position(V, line);
            check_flip(&pos);
            checked++;
        }
        free(text);
    }
    assert_true(checked >= 100);
}

static uint64_t seed(void)
{
    const char *s = getenv("DAMA_INTL_EVAL_SEED");
    uint64_t v = s ? strtoull(s, NULL, 0) : 0x9E3779B97F4A7C15ULL;
    printf("# DAMA_INTL_EVAL_SEED=0x%llx\n", (unsigned long long)v);
    return v ? v : 1;
}

/* Positions of random legal games from the start: every stage from 40 men to kings.  Also
 * the kings' reach and the pieces en prise against the walks above. */
static void test_flip_games(void **state)
{
    (void)state;
    static MoveList list;
    uint64_t rng = seed();
    Rules rules = rules_default(V);
    int checked = 0;
    for (int g = 0; g < NGAMES; g++) {
        Position pos;
        V->start(&pos);
        for (int ply = 0; ply < 200; ply++) {
            check_flip(&pos);
            check_against_walks(&pos);
            checked++;
            V->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            V->make(&pos, &list.moves[next_random(&rng) % (uint64_t)list.count]);
        }
    }
    printf("# %d game positions\n", checked);
}

/* Random piece sets: 0-20 men a side off its crowning row, 0-4 kings, either side to move;
 * the same checks. */
static void test_flip_random(void **state)
{
    (void)state;
    uint64_t rng = seed() ^ 0xD1B54A32D192ED03ULL;
    for (int i = 0; i < NRANDOM; i++) {
        Bitboard occupied = 0;
        uint64_t r = next_random(&rng);
        Position pos;
        const Bitboard board = INTL_BOARD_BB;
        pos.men[WHITE] = drop(&rng, &occupied, board & ~INTL_ROW_TOP_BB, (int)(r % 21));
        pos.men[BLACK] = drop(&rng, &occupied, board & ~INTL_ROW_BOTTOM_BB, (int)((r >> 8) % 21));
        pos.kings[WHITE] = drop(&rng, &occupied, board, (r >> 16) % 3 ? 0 : (int)((r >> 20) % 5));
        pos.kings[BLACK] = drop(&rng, &occupied, board, (r >> 24) % 3 ? 0 : (int)((r >> 28) % 5));
        pos.side = (int)(r >> 32) & 1;
        check_flip(&pos);
        check_against_walks(&pos);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_shape),
        cmocka_unit_test(test_material_only),
        cmocka_unit_test(test_weights_file),
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_material),
        cmocka_unit_test(test_advancement_and_tempo),
        cmocka_unit_test(test_centre_and_classic),
        cmocka_unit_test(test_outposts),
        cmocka_unit_test(test_wings_and_edges),
        cmocka_unit_test(test_back_guard),
        cmocka_unit_test(test_mobility_and_blocked),
        cmocka_unit_test(test_runaway),
        cmocka_unit_test(test_kings_and_en_prise),
        cmocka_unit_test(test_flip_vectors),
        cmocka_unit_test(test_flip_games),
        cmocka_unit_test(test_flip_random),
    };
    return cmocka_run_group_tests_name("international_eval", tests, NULL, NULL);
}
