/* Evaluation and weights: colour symmetry, extractor == engine eval, the weights file format
 * and its errors, and the meaning of single features on hand-made positions.
 * Run from the project root (reads data/weights/turkish.txt). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "evaluate.h"
#include "random_pieces.h"
#include "position.h"
#include "turkish_eval.h"
#include "turkish_eval_features.h"
#include "variant.h"
#include "weights.h"

#define WEIGHTS_FILE "data/weights/turkish.txt"
#define NRANDOM 2000

#define START_WHITE_MEN 0x0000000000FFFF00ULL /* a2-h3 */
#define START_BLACK_MEN 0x00FFFF0000000000ULL /* a6-h7 */

/* Legal-looking: men never on ranks 1 and 8, 0-16 men and 0-3 kings a side, either side to
 * move.  Every shape occurs: no men, no kings, one side empty. */
static void random_position(uint64_t *rng, Position *pos)
{
    Bitboard occupied = 0;
    uint64_t r = next_random(rng);
    pos->men[WHITE] = drop(rng, &occupied, ~(RANK_1_BB | RANK_8_BB), (int)(r % 17));
    pos->men[BLACK] = drop(rng, &occupied, ~(RANK_1_BB | RANK_8_BB), (int)((r >> 8) % 17));
    pos->kings[WHITE] = drop(rng, &occupied, ~0ULL, (r >> 16) % 3 ? 0 : (int)((r >> 20) % 4));
    pos->kings[BLACK] = drop(rng, &occupied, ~0ULL, (r >> 24) % 3 ? 0 : (int)((r >> 28) % 4));
    pos->side = (int)(r >> 32) & 1;
}

/* Uniform in [-range, range]. */
static void random_weights(uint64_t *rng, Weights *w, int32_t range)
{
    uint64_t span = 2 * (uint64_t)range + 1;
    if (!w->w)
        assert_true(weights_init(w, &turkish_eval_spec));
    for (int i = 0; i < EVAL_NUM_WEIGHTS; i++)
        w->w[i] = (int32_t)((int64_t)(next_random(rng) % span) - range);
}

static int white_view(const Position *pos, const Weights *w)
{
    int score = evaluate(pos, w);
    return pos->side == WHITE ? score : -score;
}

static int dot_of_extract(const Position *pos, const Weights *w)
{
    EvalTerm terms[EVAL_MAX_TERMS];
    int n = eval_extract(&turkish_eval_spec, pos, terms);
    return eval_dot(terms, n, w);
}

/* Value of feature f in pos, from the side to move, read back from its tapered terms. */
static int feature_value(const Position *pos, int f)
{
    EvalTerm terms[EVAL_MAX_TERMS];
    int n = eval_extract(&turkish_eval_spec, pos, terms);
    int men = popcount(pos->men[WHITE] | pos->men[BLACK]);
    int mg = men < TURKISH_PHASE_MAX ? men : TURKISH_PHASE_MAX;
    for (int i = 0; i < n; i++) {
        if (terms[i].index == 2 * f && mg)
            return terms[i].coef / mg;
        if (terms[i].index == 2 * f + 1)
            return terms[i].coef / (TURKISH_PHASE_MAX - mg);
    }
    return 0;
}

/* Canonical text of w (caller frees).  Through a real FILE, as weights_write is used. */
static char *write_to_string(const Weights *w)
{
    FILE *out = tmpfile();
    assert_non_null(out);
    assert_true(weights_write(w, out));
    long len = ftell(out);
    assert_true(len > 0);
    rewind(out);
    char *text = malloc((size_t)len + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)len, out), (size_t)len);
    text[len] = '\0';
    fclose(out);
    return text;
}

static int square(const char *name) { return make_square(name[0] - 'a', name[1] - '1'); }

/* Position from a list of squares per kind, e.g. white men "c5 d2", black kings "h8". */
static Bitboard squares(const char *list)
{
    Bitboard b = 0;
    for (const char *p = list; *p; p++)
        if (*p >= 'a' && *p <= 'h') {
            b |= square_bb(square(p));
            p++;
        }
    return b;
}

static Position make_position(const char *wm, const char *wk, const char *bm, const char *bk, int side)
{
    Position pos = { { squares(wm), squares(bm) }, { squares(wk), squares(bk) }, side };
    return pos;
}

/* (a) Exchanging colours (position_flip, which also passes the move) keeps the score from the
 * side to move, term by term, so White's view changes sign. */
static void test_flip_symmetry(void **state)
{
    (void)state;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    WEIGHTS_SCOPED def = { 0 }, rnd = { 0 };
    weights_default(&def, &turkish_eval_spec);
    for (int i = 0; i < NRANDOM; i++) {
        Position pos, flipped;
        random_position(&rng, &pos);
        position_flip(&turkish_variant, &pos, &flipped);
        random_weights(&rng, &rnd, 500);

        assert_int_equal(white_view(&pos, &def), -white_view(&flipped, &def));
        assert_int_equal(white_view(&pos, &rnd), -white_view(&flipped, &rnd));
        assert_int_equal(evaluate(&pos, &def), evaluate(&flipped, &def));

        EvalTerm a[EVAL_MAX_TERMS], b[EVAL_MAX_TERMS];
        int na = eval_extract(&turkish_eval_spec, &pos, a), nb = eval_extract(&turkish_eval_spec, &flipped, b);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, (size_t)na * sizeof a[0]);
    }
}

/* Left-right mirroring changes nothing either: every feature is symmetric in the files. */
static void test_file_mirror_symmetry(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    WEIGHTS_SCOPED def = { 0 };
    weights_default(&def, &turkish_eval_spec);
    for (int i = 0; i < NRANDOM; i++) {
        Position pos, mirrored;
        random_position(&rng, &pos);
        mirrored = pos;
        for (int c = 0; c < 2; c++) {
            mirrored.men[c] = 0;
            mirrored.kings[c] = 0;
            for (int sq = 0; sq < 64; sq++) {
                Bitboard to = square_bb(sq ^ 7);
                mirrored.men[c] |= (pos.men[c] >> sq & 1) ? to : 0;
                mirrored.kings[c] |= (pos.kings[c] >> sq & 1) ? to : 0;
            }
        }
        assert_int_equal(evaluate(&pos, &def), evaluate(&mirrored, &def));
    }
}

/* (b) The engine's eval is the dot product of the extracted terms, for any weights. */
static void test_evaluate_is_dot_of_extract(void **state)
{
    (void)state;
    uint64_t rng = 0xD1B54A32D192ED03ULL;
    WEIGHTS_SCOPED def = { 0 }, mat = { 0 }, rnd = { 0 }, huge = { 0 };
    weights_default(&def, &turkish_eval_spec);
    weights_material_only(&mat, &turkish_eval_spec);
    for (int i = 0; i < NRANDOM; i++) {
        Position pos;
        random_position(&rng, &pos);
        random_weights(&rng, &rnd, 1000);
        random_weights(&rng, &huge, INT32_MAX);
        assert_int_equal(evaluate(&pos, &def), dot_of_extract(&pos, &def));
        assert_int_equal(evaluate(&pos, &mat), dot_of_extract(&pos, &mat));
        assert_int_equal(evaluate(&pos, &rnd), dot_of_extract(&pos, &rnd));
        assert_int_equal(evaluate(&pos, &huge), dot_of_extract(&pos, &huge));
        assert_in_range(evaluate(&pos, &huge) + EVAL_LIMIT, 0, 2 * EVAL_LIMIT);
    }
}

/* Terms are sparse, in range, ascending, within EVAL_MAX_TERMS. */
static void test_extract_shape(void **state)
{
    (void)state;
    uint64_t rng = 77;
    for (int i = 0; i < NRANDOM; i++) {
        Position pos;
        random_position(&rng, &pos);
        EvalTerm terms[EVAL_MAX_TERMS];
        int n = eval_extract(&turkish_eval_spec, &pos, terms);
        assert_in_range(n, 1, EVAL_MAX_TERMS); /* SIDE_TO_MOVE is always there */
        for (int t = 0; t < n; t++) {
            assert_in_range(terms[t].index, 0, EVAL_NUM_WEIGHTS - 1);
            assert_int_not_equal(terms[t].coef, 0);
            if (t)
                assert_true(terms[t - 1].index < terms[t].index);
        }
    }
}

/* eval_dot rounds half away from zero, so a sum and its negation give opposite scores. */
static void test_dot_rounding(void **state)
{
    (void)state;
    WEIGHTS_SCOPED w = { 0 };
    assert_true(weights_init(&w, &turkish_eval_spec));
    w.w[0] = 1;
    const struct { int32_t coef; int score; } cases[] = {
        { 0, 0 }, { 15, 0 }, { 16, 1 }, { 17, 1 }, { 47, 1 }, { 48, 2 },
        { -15, 0 }, { -16, -1 }, { -17, -1 }, { -48, -2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EvalTerm t = { 0, cases[i].coef };
        assert_int_equal(eval_dot(&t, 1, &w), cases[i].score);
    }
    EvalTerm big = { 0, 2048 };
    w.w[0] = INT32_MAX;
    assert_int_equal(eval_dot(&big, 1, &w), EVAL_LIMIT);
    w.w[0] = INT32_MIN;
    assert_int_equal(eval_dot(&big, 1, &w), -EVAL_LIMIT);
    assert_int_equal(eval_dot(&big, 0, &w), 0);
}

/* (c) The shipped file is the defaults, and the canonical text survives a round trip. */
static void test_weights_file_round_trip(void **state)
{
    (void)state;
    char err[256] = "";
    WEIGHTS_SCOPED loaded = { 0 }, def = { 0 }, parsed = { 0 }, again = { 0 };
    bool ok = weights_load(&loaded, &turkish_eval_spec, WEIGHTS_FILE, err, sizeof err);
    if (!ok)
        fail_msg("%s", err);
    weights_default(&def, &turkish_eval_spec);
    assert_true(weights_equal(&loaded, &def));

    char *text = write_to_string(&loaded);
    assert_true(weights_parse(&parsed, &turkish_eval_spec, text, "written", err, sizeof err));
    assert_true(weights_equal(&parsed, &loaded));
    char *text2 = write_to_string(&parsed);
    assert_string_equal(text, text2);

    /* every weight once, in table order */
    const char *p = text;
    for (int i = 0; i < EVAL_NUM_WEIGHTS; i++) {
        char line[64];
        snprintf(line, sizeof line, "\n%s ", weight_name(&turkish_eval_spec, i));
        const char *at = strstr(p, line);
        assert_non_null(at);
        p = at + 1;
    }

    /* extreme values round-trip too */
    uint64_t rng = 5;
    random_weights(&rng, &again, INT32_MAX);
    again.w[0] = INT32_MIN;
    again.w[1] = INT32_MAX;
    free(text);
    text = write_to_string(&again);
    weights_free(&parsed);
    assert_true(weights_parse(&parsed, &turkish_eval_spec, text, "written", err, sizeof err));
    assert_true(weights_equal(&parsed, &again));
    free(text);
    free(text2);
}

static void test_names(void **state)
{
    (void)state;
    for (int i = 0; i < EVAL_NUM_WEIGHTS; i++) {
        assert_non_null(weight_name(&turkish_eval_spec, i));
        assert_int_equal(weight_index(&turkish_eval_spec, weight_name(&turkish_eval_spec, i)), i);
    }
    assert_string_equal(weight_name(&turkish_eval_spec, W_MAN_MG), "MAN_MG");
    assert_string_equal(weight_name(&turkish_eval_spec, W_KING_FIRST_EG), "KING_FIRST_EG");
    assert_null(weight_name(&turkish_eval_spec, -1));
    assert_null(weight_name(&turkish_eval_spec, EVAL_NUM_WEIGHTS));
    assert_int_equal(weight_index(&turkish_eval_spec, "MAN"), -1);
    assert_int_equal(weight_index(&turkish_eval_spec, "man_mg"), -1);
    assert_int_equal(weight_index(&turkish_eval_spec, ""), -1);
}

/* Canonical text of the defaults with the line naming `name` replaced by `replacement`
 * (NULL: removed), and the 1-based number of that line. */
static char *edit_line(const char *name, const char *replacement, int *line_no)
{
    WEIGHTS_SCOPED def = { 0 };
    weights_default(&def, &turkish_eval_spec);
    char *text = write_to_string(&def);
    char key[64];
    snprintf(key, sizeof key, "\n%s ", name);
    char *start = strstr(text, key);
    assert_non_null(start);
    start++;
    char *end = strchr(start, '\n') + 1;
    *line_no = 1;
    for (const char *p = text; p < start; p++)
        *line_no += *p == '\n';
    size_t rlen = replacement ? strlen(replacement) : 0;
    char *out = malloc(strlen(text) + rlen + 2);
    assert_non_null(out);
    sprintf(out, "%.*s%s%s%s", (int)(start - text), text, replacement ? replacement : "",
            replacement ? "\n" : "", end);
    free(text);
    return out;
}

/* Parsing text fails, leaves w alone, and the message holds every expected piece. */
static void expect_error(const char *text, const char *piece1, const char *piece2)
{
    /* A sentinel, never freed: a failed parse must not write it. */
    Weights w = { .spec = NULL, .count = 12345, .w = NULL };
    char err[256] = "";
    assert_false(weights_parse(&w, &turkish_eval_spec, text, "test.txt", err, sizeof err));
    assert_int_equal(w.count, 12345);
    assert_null(w.spec);
    if (!strstr(err, piece1) || (piece2 && !strstr(err, piece2)))
        fail_msg("message '%s' lacks '%s' / '%s'", err, piece1, piece2 ? piece2 : "");
}

/* (d) Every error names the source and the line. */
static void test_weights_errors(void **state)
{
    (void)state;
    int line;
    char expected[64];
    char *text;

    /* The variant line: weights for another game are refused by its name. */
    text = edit_line("variant", "variant international", &line);
    snprintf(expected, sizeof expected, "test.txt:%d: ", line);
    expect_error(text, expected, "weights for variant 'international', not turkish");
    free(text);
    text = edit_line("KING_EDGE_MG", "KING_EDGE_MG 4\nvariant turkish", &line);
    snprintf(expected, sizeof expected, "test.txt:%d: ", line + 1);
    expect_error(text, expected, "second 'variant' line (first on line");
    free(text);
    text = edit_line("variant", "variant", &line);
    snprintf(expected, sizeof expected, "test.txt:%d: ", line);
    expect_error(text, expected, "'variant' needs one name");
    free(text);
    text = edit_line("variant", "variant turkish x", &line);
    expect_error(text, "'variant' needs one name", NULL);
    free(text);

    text = edit_line("KING_EDGE_MG", "KING_EDGE_MG 4\nFOO 12", &line);
    snprintf(expected, sizeof expected, "test.txt:%d: unknown weight 'FOO'", line + 1);
    expect_error(text, expected, NULL);
    free(text);

    text = edit_line("TEMPO_EG", "TEMPO_EG 2\nMAN_MG 90", &line);
    snprintf(expected, sizeof expected, "test.txt:%d: duplicate weight 'MAN_MG'", line + 1);
    expect_error(text, expected, "first on line");
    free(text);

    text = edit_line("KING_EDGE_EG", NULL, &line);
    int last = 0;
    for (const char *p = text; *p; p++)
        last += *p == '\n';
    snprintf(expected, sizeof expected, "test.txt:%d: weight missing: KING_EDGE_EG", last);
    expect_error(text, expected, NULL);
    free(text);

    snprintf(expected, sizeof expected, "%d weights missing: MAN_EG, KING_FIRST_MG", EVAL_NUM_WEIGHTS - 1);
    expect_error("MAN_MG 100\n", "test.txt:1:", expected);
    expect_error("", "test.txt:1:", "weights missing");

    const struct { const char *line, *what; } bad_values[] = {
        { "RUNAWAY_MG abc", "'abc' of 'RUNAWAY_MG' is not an integer" },
        { "RUNAWAY_MG 1.5", "not an integer" },
        { "RUNAWAY_MG 12x", "not an integer" },
        { "RUNAWAY_MG -", "not an integer" },
        { "RUNAWAY_MG 0x10", "not an integer" },
        { "RUNAWAY_MG 2147483648", "out of range" },
        { "RUNAWAY_MG -2147483649", "out of range" },
        { "RUNAWAY_MG 99999999999999999999999", "out of range" },
        { "RUNAWAY_MG 60 70", "unexpected text '70'" },
        { "RUNAWAY_MG", "'RUNAWAY_MG' has no value" },
        { "RUNAWAY_MG # 60", "has no value" },
    };
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        text = edit_line("RUNAWAY_MG", bad_values[i].line, &line);
        snprintf(expected, sizeof expected, "test.txt:%d: ", line);
        expect_error(text, expected, bad_values[i].what);
        free(text);
    }

    char err[256] = "";
    WEIGHTS_SCOPED w = { 0 };
    assert_false(weights_load(&w, &turkish_eval_spec, "data/weights/no-such-file.txt", err, sizeof err));
    assert_non_null(strstr(err, "data/weights/no-such-file.txt: cannot read"));
    assert_false(weights_parse(&w, &turkish_eval_spec, "FOO 1", "x", NULL, 0)); /* no room for a message: fine */
}

/* Comments, blanks, tabs, CRLF, signs and the int32 limits are all accepted. */
static void test_weights_lenient_layout(void **state)
{
    (void)state;
    int line;
    char *text = edit_line("SIDE_TO_MOVE_EG", "  \tSIDE_TO_MOVE_EG\t-2147483648  # the minimum", &line);
    char *text2 = edit_line("SIDE_TO_MOVE_MG", "SIDE_TO_MOVE_MG +2147483647\r\n\n# gap\n   ", &line);
    WEIGHTS_SCOPED w = { 0 }, expect = { 0 };
    char err[256] = "";
    assert_true(weights_parse(&w, &turkish_eval_spec, text, "t", err, sizeof err));
    weights_default(&expect, &turkish_eval_spec);
    expect.w[W_SIDE_TO_MOVE_EG] = INT32_MIN;
    assert_true(weights_equal(&w, &expect));
    weights_free(&w);
    assert_true(weights_parse(&w, &turkish_eval_spec, text2, "t", err, sizeof err));
    expect.w[W_SIDE_TO_MOVE_EG] = turkish_eval_spec.defaults[W_SIDE_TO_MOVE_EG];
    expect.w[W_SIDE_TO_MOVE_MG] = INT32_MAX;
    assert_true(weights_equal(&w, &expect));
    free(text);
    free(text2);
}

/* (e) Material: an extra man is better; material-only weights count material exactly. */
static void test_material_sanity(void **state)
{
    (void)state;
    WEIGHTS_SCOPED def = { 0 }, mat = { 0 };
    weights_default(&def, &turkish_eval_spec);
    weights_material_only(&mat, &turkish_eval_spec);

    Position start = { { START_WHITE_MEN, START_BLACK_MEN }, { 0, 0 }, WHITE };
    assert_int_equal(evaluate(&start, &mat), 0);
    /* the start is symmetric: only the side to move counts */
    assert_int_equal(evaluate(&start, &def), (def.w[W_SIDE_TO_MOVE_MG] * 32 + 16) / 32);

    Position up = start;
    up.men[BLACK] &= ~square_bb(square("d6"));
    assert_true(white_view(&up, &def) > white_view(&start, &def));
    assert_true(white_view(&up, &def) > 50);
    up.side = BLACK;
    assert_true(evaluate(&up, &def) < -50);
    assert_int_equal(evaluate(&up, &mat), -100);

    uint64_t rng = 31337;
    for (int i = 0; i < NRANDOM; i++) {
        Position pos;
        random_position(&rng, &pos);
        int dm = popcount(pos.men[WHITE]) - popcount(pos.men[BLACK]);
        int kw = popcount(pos.kings[WHITE]), kb = popcount(pos.kings[BLACK]);
        int first = (kw > 0) - (kb > 0);
        int extra = (kw > 1 ? kw - 1 : 0) - (kb > 1 ? kb - 1 : 0);
        int expect = 100 * dm + 300 * first + 200 * extra;
        assert_int_equal(white_view(&pos, &mat), expect);

        /* one more white man is worth exactly 100, whatever the phase */
        Bitboard free_home = RANK_1_BB << 8 & ~position_occupied(&pos);
        if (free_home && popcount(pos.men[WHITE]) < 16) {
            Position more = pos;
            more.men[WHITE] |= square_bb(lsb(free_home));
            assert_int_equal(white_view(&more, &mat), expect + 100);
        }
    }
}

/* Single features on hand-made positions (values from White's side, White to move). */
static void test_feature_values(void **state)
{
    (void)state;
    Position p;

    /* king d4 alone on its lines: 14 squares; a black man on d5 cuts the north ray and
     * threatens to jump d4 (landing d3); a black man under the king cannot jump back. */
    p = make_position("a2", "d4", "h7", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_KING_MOBILITY), 14);
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 0);
    assert_int_equal(feature_value(&p, FEAT_KING_FIRST), 1);
    assert_int_equal(feature_value(&p, FEAT_KING_EXTRA), 0);
    p = make_position("a2", "d4", "d5", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_KING_MOBILITY), 10);
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 1);
    p = make_position("a2", "d4", "d3", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 0);
    p = make_position("a2", "d4", "e4", "", WHITE); /* sideways jump to c4 */
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 1);
    p = make_position("a2 c4", "d4", "e4", "", WHITE); /* c4 taken: no landing */
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 0);
    p = make_position("a2", "d4", "b7", "d8", WHITE); /* flying king from d8, lands d3 */
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 1);
    p = make_position("a2 d6", "d4", "b7", "d8", WHITE); /* two pieces on the line */
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 0);
    p = make_position("a2", "a4", "b7", "h4", WHITE); /* edge: no landing beyond a4 */
    assert_int_equal(feature_value(&p, FEAT_KING_EXPOSED), 0);
    assert_int_equal(feature_value(&p, FEAT_KING_EDGE), 0); /* both kings on the edge */
    p = make_position("a2", "a4 c4 d5", "b7", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_KING_EDGE), 1);
    assert_int_equal(feature_value(&p, FEAT_KING_FIRST), 1);
    assert_int_equal(feature_value(&p, FEAT_KING_EXTRA), 2);

    /* runaway: c5 with c6-c8 empty and no black man on files b-d at ranks 5-8.  f2 and f7
     * block each other's file so that only the men under test can run. */
    p = make_position("c5 f2", "", "f7", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_RUNAWAY), 1);
    p = make_position("c5 f2", "", "f7 d7", "", WHITE); /* d7 can step in front and jump */
    assert_int_equal(feature_value(&p, FEAT_RUNAWAY), 0);
    p = make_position("c5 f2", "", "f7 b5", "", WHITE); /* b5 and c5 can jump each other */
    assert_int_equal(feature_value(&p, FEAT_RUNAWAY), 0);
    p = make_position("c5 f2", "", "f7 d4", "", WHITE); /* passed each other: both run */
    assert_int_equal(feature_value(&p, FEAT_RUNAWAY), 1 - 1);
    p = make_position("c5 f2", "", "f7", "a1", WHITE); /* an enemy king catches anything */
    assert_int_equal(feature_value(&p, FEAT_RUNAWAY), 0);
    p = make_position("c5 c7 f2", "", "f7", "", WHITE); /* c7 runs, c5 is behind it */
    assert_int_equal(feature_value(&p, FEAT_RUNAWAY), 1);

    /* mobility and blocked men */
    p = make_position("a2", "", "h7", "", WHITE); /* a2: north, east */
    assert_int_equal(feature_value(&p, FEAT_MAN_MOBILITY), 0); /* h7 mirrors it */
    p = make_position("a2 b2 a3", "", "h7", "", WHITE);
    /* a2 blocked; b2: c2, b3; a3: a4, b3 = 4 moves vs h7's 2 */
    assert_int_equal(feature_value(&p, FEAT_MAN_MOBILITY), 2);
    assert_int_equal(feature_value(&p, FEAT_BLOCKED), 1);
    Position start = { { START_WHITE_MEN, START_BLACK_MEN }, { 0, 0 }, WHITE };
    assert_int_equal(feature_value(&start, FEAT_BLOCKED), 0); /* 8 each */
    start.men[BLACK] &= ~squares("a6 b6 c6 d6 e6 f6 g6 h6");
    assert_int_equal(feature_value(&start, FEAT_BLOCKED), 8 - 0);

    /* man table, guard, tempo and wings */
    p = make_position("a2 d2 e5", "", "d7 e7 h7", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_MAN_R2_AH), 1 - 1); /* h7 is Black's a/h home */
    assert_int_equal(feature_value(&p, FEAT_MAN_R5_DE), 1);
    assert_int_equal(feature_value(&p, FEAT_BACK_GUARD), 2 - 3);
    assert_int_equal(feature_value(&p, FEAT_TEMPO), 4 * 3 / 3 - 0);
    assert_int_equal(feature_value(&p, FEAT_WING_IMBALANCE), 1 - 1);
    p = make_position("a3 b3 c3 d3", "", "a6 h6", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_WING_IMBALANCE), 4);
    p = make_position("a2 b2 c2 d2 e2 f2", "", "a7", "", WHITE);
    assert_int_equal(feature_value(&p, FEAT_BACK_GUARD), 4 - 1); /* capped at 4 */

    /* the side to move always gets its term; Black's view is the negation */
    p = make_position("a2 d2 e5", "", "d7 e7 h7", "", BLACK);
    assert_int_equal(feature_value(&p, FEAT_SIDE_TO_MOVE), 1);
    assert_int_equal(feature_value(&p, FEAT_MAN_R5_DE), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flip_symmetry),
        cmocka_unit_test(test_file_mirror_symmetry),
        cmocka_unit_test(test_evaluate_is_dot_of_extract),
        cmocka_unit_test(test_extract_shape),
        cmocka_unit_test(test_dot_rounding),
        cmocka_unit_test(test_weights_file_round_trip),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_weights_errors),
        cmocka_unit_test(test_weights_lenient_layout),
        cmocka_unit_test(test_material_sanity),
        cmocka_unit_test(test_feature_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
