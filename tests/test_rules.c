/* The Turkish rules against independent vectors (kish, pydraughts, a reference generator):
 * move lists and perft of every position under the three promotion options, start
 * position perft and divide, king perft (kish), the board's lines against square-by-square
 * walks, and round trips of position and move text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bitboard.h"
#include "game.h"
#include "movelist.h"
#include "notation.h"
#include "perft.h"
#include "position.h"
#include "random_pieces.h"
#include "test_util.h"
#include "turkish_board.h"
#include "variant.h"
#include "turkish.h"

static const Variant *V = &turkish_variant;

/* ---- the vector file: "key=value; key=value" per line ---- */

typedef struct Fields {
    char *line;
    char *key[40], *val[40];
    int n;
} Fields;

static void split_fields(char *line, Fields *f)
{
    f->n = 0;
    for (char *tok = strtok(line, ";"); tok && f->n < 40; tok = strtok(NULL, ";")) {
        while (*tok == ' ')
            tok++;
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        f->key[f->n] = tok;
        f->val[f->n++] = eq + 1;
    }
}

/* The next line of a vector file after *cursor that is neither empty nor a comment, cut
 * out in place (NULL at the end). */
static char *next_vector_line(char **cursor)
{
    while (*cursor && **cursor) {
        char *line = *cursor, *end = strchr(line, '\n');
        *cursor = end ? end + 1 : NULL;
        if (end)
            *end = '\0';
        if (line[0] != '#' && line[0] != '\0')
            return line;
    }
    return NULL;
}

static const char *field(const Fields *f, const char *key)
{
    for (int i = 0; i < f->n; i++)
        if (strcmp(f->key[i], key) == 0)
            return f->val[i];
    return NULL;
}

/* Squares "d4,e5" into a bitboard, with the variant's own square reader. */
static Bitboard squares_bb(const char *list)
{
    Bitboard b = 0;
    for (const char *p = list; *p;) {
        int used = 0;
        int sq = V->parse_square(p, &used);
        assert_true(sq >= 0);
        b |= square_bb(sq);
        p += used;
        if (*p == ',')
            p++;
    }
    return b;
}

/* Position text refuses men on the rank where they would have been crowned. */
static bool fen_legal(const Position *p)
{
    return !(p->men[WHITE] & RANK_8_BB) && !(p->men[BLACK] & RANK_1_BB);
}

static Position position_from_fields(const Fields *f)
{
    Position p = {
        .men = { squares_bb(field(f, "wm")), squares_bb(field(f, "bm")) },
        .kings = { squares_bb(field(f, "wk")), squares_bb(field(f, "bk")) },
        .side = strcmp(field(f, "stm"), "w") == 0 ? WHITE : BLACK,
    };
    return p;
}

/* ---- collecting move texts ---- */

typedef struct Texts {
    char items[512][128];
    int n;
} Texts;

static void add_text(void *ctx, const Move *m)
{
    Texts *t = ctx;
    assert_true(t->n < 512);
    move_to_text(V, m, t->items[t->n++], sizeof t->items[0]);
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

static void joined_paths(const Position *pos, const Rules *rules, char *out, size_t len)
{
    static Texts t;
    t.n = 0;
    V->for_each_path(pos, rules, add_text, &t);
    qsort(t.items, (size_t)t.n, sizeof t.items[0], cmp_text);
    out[0] = '\0';
    for (int i = 0; i < t.n; i++) {
        if (i)
            strncat(out, " ", len - strlen(out) - 1);
        strncat(out, t.items[i], len - strlen(out) - 1);
    }
}

/* perft's count by another road: the variant's generate and make (what the search plays
 * through) with its count at the last ply, not the variant's own perft. */
static uint64_t generator_perft(const Position *pos, const Rules *rules, int depth, bool paths)
{
    if (depth == 1)
        return V->count(pos, rules, paths);
    MoveList list;
    V->generate(pos, rules, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        Position child = *pos;
        V->make(&child, &list.moves[i]);
        nodes += generator_perft(&child, rules, depth - 1, paths) * (paths ? list.npaths[i] : 1);
    }
    return nodes;
}

/* expected: the counts at depth 1, 2, ... ; those above max_leaves are not run. */
static void check_perft_list_up_to(const Position *pos, const Rules *rules, const char *expected,
                                   bool paths, const char *id, uint64_t max_leaves)
{
    char buf[256];
    strncpy(buf, expected, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    int depth = 1;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","), depth++) {
        uint64_t want = strtoull(tok, NULL, 10);
        if (want > max_leaves)
            break;
        uint64_t by_generator = generator_perft(pos, rules, depth, paths);
        if (by_generator != want)
            fail_msg("%s: generate/make perft%s depth %d = %llu, expected %llu", id, paths ? " --paths" : "",
                     depth, (unsigned long long)by_generator, (unsigned long long)want);
        for (int bulk = 0; bulk < 2; bulk++) {
            PerftOptions opt = { .count_paths = paths, .bulk = bulk };
            uint64_t got = perft(V, pos, rules, depth, &opt);
            if (got != want)
                fail_msg("%s: perft%s depth %d = %llu, expected %llu", id, paths ? " --paths" : "",
                         depth, (unsigned long long)got, (unsigned long long)want);
        }
    }
}

static void check_perft_list(const Position *pos, const Rules *rules, const char *expected,
                             bool paths, const char *id)
{
    check_perft_list_up_to(pos, rules, expected, paths, id, UINT64_MAX);
}

static const struct { const char *suffix; int promotion; } option_sets[] = {
    { "", PROMOTE_MAN }, { "_stop", PROMOTE_STOP }, { "_king", PROMOTE_KING },
};

static void test_vector_positions(void **state)
{
    (void)state;
    char *text = test_read_file("tests/vectors/turkish/positions.txt");
    assert_non_null(text);
    int checked = 0;
    for (char *cursor = text, *line; (line = next_vector_line(&cursor));) {
        Fields f;
        split_fields(line, &f);
        const char *id = field(&f, "id");
        Position pos = position_from_fields(&f);

        /* The FEN given in the vector reads to the same position, unless it holds a man
         * on its crowning rank (a test-only position that position text must refuse). */
        Position fenpos;
        char err[256];
        bool readable = position_from_fen(&fenpos, V, field(&f, "fen"), err, sizeof err);
        assert_true(readable == fen_legal(&pos));
        if (readable)
            assert_true(position_equal(&pos, &fenpos));

        for (size_t o = 0; o < sizeof option_sets / sizeof option_sets[0]; o++) {
            Rules rules = rules_default(&turkish_variant);
            RULES_SET(turkish, rules, promotion, option_sets[o].promotion);
            char key[32];
            snprintf(key, sizeof key, "moves%s", option_sets[o].suffix);
            char got[8192];
            joined_paths(&pos, &rules, got, sizeof got);
            if (strcmp(got, field(&f, key)) != 0)
                fail_msg("%s (%s): moves '%s', expected '%s'", id, key, got, field(&f, key));
            snprintf(key, sizeof key, "n%s", option_sets[o].suffix);
            assert_int_equal(V->count(&pos, &rules, true), atoi(field(&f, key)));
            snprintf(key, sizeof key, "perft%s", option_sets[o].suffix);
            check_perft_list(&pos, &rules, field(&f, key), true, id);
        }
        Rules official = rules_default(&turkish_variant);
        check_perft_list(&pos, &official, field(&f, "perft_unique"), false, id);
        checked++;
    }
    assert_true(checked >= 25);
    free(text);
}

/* Several kings and long king captures (tests/vectors/turkish/king_perft.txt, counted by
 * kish): both counts, by perft and by generate/make, up to 3 M leaves (300 k sanitized). */
static void test_king_perft(void **state)
{
    (void)state;
    char *text = test_read_file("tests/vectors/turkish/king_perft.txt");
    assert_non_null(text);
    uint64_t max_leaves = test_sanitized() ? 300000 : 3000000;
    Rules rules = rules_default(&turkish_variant);
    int checked = 0;
    for (char *cursor = text, *line; (line = next_vector_line(&cursor));) {
        Fields f;
        split_fields(line, &f);
        Position pos;
        char err[256];
        if (!position_from_fen(&pos, V, field(&f, "fen"), err, sizeof err))
            fail_msg("%s: %s", field(&f, "id"), err);
        check_perft_list_up_to(&pos, &rules, field(&f, "perft"), true, field(&f, "id"), max_leaves);
        check_perft_list_up_to(&pos, &rules, field(&f, "perft_unique"), false, field(&f, "id"), max_leaves);
        checked++;
    }
    assert_int_equal(checked, 7);
    free(text);
}

/* The squares from sq in dir, one step at a time, up to the edge or the first square of
 * stop (included when include_stop). */
static Bitboard walk_line(int sq, int dir, Bitboard stop, bool include_stop)
{
    Bitboard b = 0;
    for (int t = step(sq, dir); t >= 0; t = step(t, dir)) {
        if (stop & square_bb(t)) {
            if (include_stop)
                b |= square_bb(t);
            break;
        }
        b |= square_bb(t);
    }
    return b;
}

/* The board's lines (rays, the nearest blocker, slides and fills, what the kings move and
 * jump by) against walks square by square, on random boards. */
static void test_board_lines(void **state)
{
    (void)state;
    uint64_t rng = 0x5eed;
    for (int n = 0; n < 400; n++) {
        Bitboard occ = next_random(&rng) & next_random(&rng); /* a quarter of the squares */
        Bitboard gen = next_random(&rng) & next_random(&rng) & ~occ;
        for (int dir = 0; dir < 4; dir++) {
            Bitboard slid = 0;
            for (Bitboard g = gen; g;) {
                int sq = pop_lsb(&g);
                slid |= walk_line(sq, dir, occ | gen, false);
            }
            assert_true(slide(gen, ~(occ | gen), dir) == slid);
            assert_true(fill(gen, ~(occ | gen), dir) == (slid | gen));
            for (int sq = 0; sq < 64; sq++) {
                Bitboard r = ray(sq, dir);
                assert_true(r == walk_line(sq, dir, 0, false));
                assert_true(ray_until(r, r & occ, dir) == walk_line(sq, dir, occ, false));
                Bitboard hit = walk_line(sq, dir, occ, true) & occ;
                if (hit)
                    assert_int_equal(nearest(r & occ, dir), lsb(hit));
                Bitboard rest = r; /* pop_nearest: the ray's squares outward, as walked */
                for (int t = step(sq, dir); t >= 0; t = step(t, dir))
                    assert_int_equal(pop_nearest(&rest, dir), t);
                assert_true(rest == 0);
            }
        }
    }
}

/* The quiet moves in the order the search has always seen them (its tree, and so the bench
 * signature, hang on it): men's steps forward, east, west, each by destination; then each
 * king by square, north, east, south, west, outward. */
static void test_quiet_move_order(void **state)
{
    (void)state;
    uint64_t rng = 0x0dde;
    Rules rules = rules_default(&turkish_variant);
    static const int delta[4] = { 8, 1, -8, -1 };
    int tested = 0;
    for (int n = 0; n < 2000; n++) {
        Position pos = { .side = (int)(next_random(&rng) & 1) };
        Bitboard occ = 0;
        pos.kings[pos.side] = drop(&rng, &occ, ~0ULL, 3);
        pos.men[pos.side] = drop(&rng, &occ, ~(RANK_1_BB | RANK_8_BB), 4);
        pos.kings[!pos.side] = drop(&rng, &occ, ~0ULL, 1);
        pos.men[!pos.side] = drop(&rng, &occ, ~(RANK_1_BB | RANK_8_BB), 2);
        MoveList list;
        V->generate(&pos, &rules, &list);
        if (V->capture_pending(&pos))
            continue;
        int i = 0, dirs[3] = { forward_dir(pos.side), EAST, WEST };
        for (int d = 0; d < 3; d++)
            for (Bitboard to = shift(pos.men[pos.side], dirs[d]) & ~occ; to; i++) {
                int t = pop_lsb(&to);
                assert_true(i < list.count);
                assert_int_equal(list.moves[i].from, t - delta[dirs[d]]);
                assert_int_equal(list.moves[i].to, t);
            }
        for (Bitboard kings = pos.kings[pos.side]; kings;) {
            int from = pop_lsb(&kings);
            for (int dir = 0; dir < 4; dir++)
                for (int t = step(from, dir); t >= 0 && !(occ & square_bb(t)); t = step(t, dir), i++) {
                    assert_true(i < list.count);
                    assert_int_equal(list.moves[i].from, from);
                    assert_int_equal(list.moves[i].to, t);
                }
        }
        assert_int_equal(i, list.count);
        tested++;
    }
    assert_true(tested >= 100);
}

/* Start position: perft and perft --paths from the table, to depth 7 (5 when sanitized). */
static void test_start_perft(void **state)
{
    (void)state;
    char *text = test_read_file("tests/vectors/turkish/perft_start.txt");
    assert_non_null(text);
    int max_depth = test_sanitized() ? 6 : 7, checked = 0;
    Position start;
    V->start(&start);
    Rules rules = rules_default(&turkish_variant);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int depth;
        unsigned long long paths, unique;
        if (line[0] == '#' || sscanf(line, "%d %llu %llu", &depth, &paths, &unique) != 3)
            continue;
        if (depth > max_depth)
            continue;
        PerftOptions opt = { .count_paths = false, .bulk = true };
        assert_int_equal(perft(V, &start, &rules, depth, &opt), unique);
        opt.count_paths = true;
        assert_int_equal(perft(V, &start, &rules, depth, &opt), paths);
        checked++;
    }
    assert_int_equal(checked, max_depth);
    free(text);
}

/* Divide at depth 4 and 6: each root move's subtree, both counts. */
static void test_start_divide(void **state)
{
    (void)state;
    char *text = test_read_file("tests/vectors/turkish/divide_start.txt");
    assert_non_null(text);
    Position start;
    V->start(&start);
    Rules rules = rules_default(&turkish_variant);
    int depth = 0, checked = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        if (sscanf(line, "depth=%d", &depth) == 1)
            continue;
        if (depth > 6)
            break;
        char mtext[64];
        unsigned long long paths, unique;
        assert_int_equal(sscanf(line, "%63s %llu %llu", mtext, &paths, &unique), 3);
        Move m;
        char err[256];
        assert_true(move_from_text(V, &start, &rules, mtext, &m, err, sizeof err));
        Position child = start;
        V->make(&child, &m);
        PerftOptions opt = { .count_paths = false, .bulk = true };
        assert_int_equal(perft(V, &child, &rules, depth - 1, &opt), unique);
        opt.count_paths = true;
        assert_int_equal(perft(V, &child, &rules, depth - 1, &opt), paths);
        checked++;
    }
    assert_int_equal(checked, 16);
    free(text);
}

/* ---- round trips over every position reached in a small tree ---- */

typedef struct RoundTrip {
    const Position *pos;
    const Rules *rules;
    int moves;
} RoundTrip;

static void check_move_round_trip(void *ctx, const Move *m)
{
    RoundTrip *rt = ctx;
    char text[128], err[256];
    move_to_text(V, m, text, sizeof text);
    Move back;
    if (!move_from_text(V, rt->pos, rt->rules, text, &back, err, sizeof err))
        fail_msg("'%s' does not read back: %s", text, err);
    assert_true(move_same(m, &back));
    assert_memory_equal(m->path, back.path, m->njumps);
    rt->moves++;
}

static void check_position_round_trip(const Position *pos, const Rules *rules, RoundTrip *rt)
{
    char fen[256], fen2[256], err[256];
    rt->pos = pos;
    rt->rules = rules;
    V->for_each_path(pos, rules, check_move_round_trip, rt);
    if (!fen_legal(pos))
        return;
    position_to_fen(pos, V, fen, sizeof fen);
    Position back;
    if (!position_from_fen(&back, V, fen, err, sizeof err))
        fail_msg("'%s' does not read back: %s", fen, err);
    assert_true(position_equal(pos, &back));
    position_to_fen(&back, V, fen2, sizeof fen2);
    assert_string_equal(fen, fen2);
}

static void walk(const Position *pos, const Rules *rules, int depth, RoundTrip *rt)
{
    check_position_round_trip(pos, rules, rt);
    if (depth == 0)
        return;
    MoveList list;
    V->generate(pos, rules, &list);
    for (int i = 0; i < list.count; i++) {
        Position child = *pos;
        V->make(&child, &list.moves[i]);
        walk(&child, rules, depth - 1, rt);
    }
}

static void test_round_trips(void **state)
{
    (void)state;
    char *text = test_read_file("tests/vectors/turkish/positions.txt");
    assert_non_null(text);
    RoundTrip rt = { 0 };
    for (char *cursor = text, *line; (line = next_vector_line(&cursor));) {
        Fields f;
        split_fields(line, &f);
        Position pos = position_from_fields(&f);
        for (size_t o = 0; o < 3; o++) {
            Rules rules = rules_default(&turkish_variant);
            RULES_SET(turkish, rules, promotion, option_sets[o].promotion);
            walk(&pos, &rules, 2, &rt);
        }
    }
    Position start;
    V->start(&start);
    Rules rules = rules_default(&turkish_variant);
    walk(&start, &rules, 3, &rt);
    assert_true(rt.moves > 1000);
    free(text);
}

/* Short forms: unambiguous ones read, ambiguous ones list the candidates. */
static void test_short_and_ambiguous_text(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    Position pos;
    char err[256];
    Move m;
    /* zigzag: from and to only, and with =K */
    assert_true(position_from_fen(&pos, V, "W:Wb3:Bc3,d4,e5,f6,e7,a6", err, sizeof err));
    assert_true(move_from_text(V, &pos, &rules, "b3xd7", &m, err, sizeof err));
    assert_int_equal(m.njumps, 5);
    /* two paths, one move: a1xa8 names it, and so does either long form */
    assert_true(position_from_fen(&pos, V, "W:WKa1:Ba4,a7,h5", err, sizeof err));
    assert_true(move_from_text(V, &pos, &rules, "a1xa8", &m, err, sizeof err));
    Move m2;
    assert_true(move_from_text(V, &pos, &rules, "a1xa6xa8", &m2, err, sizeof err));
    assert_true(move_same(&m, &m2));
    /* promotion suffix */
    assert_true(position_from_fen(&pos, V, "W:Wc7,f2:Bh6", err, sizeof err));
    assert_true(move_from_text(V, &pos, &rules, "c7-c8=K", &m, err, sizeof err));
    assert_true(m.promotes);
    assert_true(move_from_text(V, &pos, &rules, "c7-c8K", &m, err, sizeof err));
    /* ambiguity: two 4-captures a5 -> g7 over different pieces */
    assert_true(position_from_fen(&pos, V, "W:Wa5:Bb5,e5,a6,c6,b7,d7,f7", err, sizeof err));
    assert_false(move_from_text(V, &pos, &rules, "a5xg7", &m, err, sizeof err));
    assert_non_null(strstr(err, "ambiguous"));
    assert_non_null(strstr(err, "a5xa7xc7xe7xg7"));
    assert_non_null(strstr(err, "a5xc5xc7xe7xg7"));
    assert_true(move_from_text(V, &pos, &rules, "a5xc5xg7", &m, err, sizeof err));
    assert_int_equal(m.path[0], 34); /* c5 */
    /* errors name the problem */
    assert_false(move_from_text(V, &pos, &rules, "a5-a9", &m, err, sizeof err));
    assert_non_null(strstr(err, "a5-a9"));
    assert_false(move_from_text(V, &pos, &rules, "a5-a6", &m, err, sizeof err));
    assert_non_null(strstr(err, "illegal"));
}

static void test_bad_fen(void **state)
{
    (void)state;
    static const struct { const char *fen, *expect; } cases[] = {
        { "W:Wz9:Ba6", "'Wz9': no such square" },
        { "W:Wa2,a2:Ba6", "'a2': square given twice" },
        { "W:Wa2:Ba2", "'Ba2': square given twice" },
        { "W:Wa8:Ba6", "crowned" },
        { "B:Wa2:Ba1", "crowned" },
        { ":Wa2:Ba6", "missing side to move" },
        { "Wa2:Ba6", "missing side to move" },
        { "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3,a4:Ba6", "17 white pieces" },
        { "W:Xa2", "must start with W or B" },
        { "W:Wa2:Wb2", "colour given twice" },
        { "W:Wa2,", "comma" },
        { "W:Wa10", "no such square" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position p;
        char err[256] = "";
        if (position_from_fen(&p, V, cases[i].fen, err, sizeof err))
            fail_msg("'%s' was accepted", cases[i].fen);
        if (!strstr(err, cases[i].expect))
            fail_msg("'%s': error '%s' lacks '%s'", cases[i].fen, err, cases[i].expect);
    }
    /* accepted forms: sections in any order, trailing dot, a side with no pieces, kings */
    Position a, b;
    char err[256];
    assert_true(position_from_fen(&a, V, "B:Bd5,Ke8:WKd1,a2.", err, sizeof err));
    assert_true(position_from_fen(&b, V, " B:Wa2,Kd1:BKe8,d5 ", err, sizeof err));
    assert_true(position_equal(&a, &b));
    char fen[128];
    position_to_fen(&a, V, fen, sizeof fen);
    assert_string_equal(fen, "B:WKd1,a2:Bd5,Ke8");
    assert_true(position_from_fen(&a, V, "W:W:Bd5", err, sizeof err));
}

/* Writing into a short buffer gives the start of the text, terminated, and writes nothing
 * beyond the buffer (position_to_fen formed a pointer past it: undefined behaviour). */
static void test_fen_into_short_buffers(void **state)
{
    (void)state;
    Position pos;
    char err[256], full[256];
    assert_true(position_from_fen(&pos, V, "W:WKa1,b2,c3:Bf6,g7,Kh8", err, sizeof err));
    position_to_fen(&pos, V, full, sizeof full);
    assert_string_equal(full, "W:WKa1,b2,c3:Bf6,g7,Kh8");
    size_t n = strlen(full);
    for (size_t len = 1; len <= n + 1; len++) {
        struct { char buf[32]; char guard[8]; } box;
        memset(&box, '#', sizeof box);
        position_to_fen(&pos, V, box.buf, len);
        size_t want = len - 1 < n ? len - 1 : n;
        assert_int_equal(strlen(box.buf), want);
        assert_memory_equal(box.buf, full, want);
        for (size_t i = len; i < sizeof box.buf; i++)
            assert_int_equal(box.buf[i], '#');
    }
}

/* An error message is one line whatever the input holds: control bytes are shown as \xNN
 * (a newline in a FEN or move text made the message two lines), long input is cut. */
static void test_errors_quote_one_line(void **state)
{
    (void)state;
    Position pos;
    char err[512];
    assert_false(position_from_fen(&pos, V, "W:W\nb9:Ba6", err, sizeof err));
    assert_string_equal(err, "bad FEN at 'W\\x0Ab9': no such square");
    assert_false(position_from_fen(&pos, V, "B:W\xFF\xFF;\n\nx:Ba6", err, sizeof err));
    assert_null(strchr(err, '\n'));
    assert_non_null(strstr(err, "'W\\xFF\\xFF;\\x0A\\x0Ax'"));

    Rules rules = rules_default(&turkish_variant);
    V->start(&pos);
    Move m;
    assert_false(move_from_text(V, &pos, &rules, "c3-c4\x1B[31m", &m, err, sizeof err));
    assert_string_equal(err, "bad move 'c3-c4\\x1B[31m': expected squares joined by '-' or 'x'");

    /* 100 000 bytes of junk are quoted as 40 and "..." */
    static char huge[100001];
    memset(huge, 'z', sizeof huge - 1);
    huge[0] = 'W';
    huge[1] = ':';
    huge[2] = 'W';
    assert_false(position_from_fen(&pos, V, huge, err, sizeof err));
    assert_int_equal(strlen(err), strlen("bad FEN at '") + 40 + 3 + strlen("': no such square"));
    assert_non_null(strstr(err, "zzz...': no such square"));
}

/* ---- game results ---- */

static void play(Game *g, const char *text)
{
    Move m;
    char err[256];
    if (!move_from_text(V, &g->pos, &g->rules, text, &m, err, sizeof err))
        fail_msg("%s", err);
    assert_true(game_play(g, &m));
}

static void test_game_results(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    Position pos;
    Game g;
    char err[256];
    int reason;

    assert_true(position_from_fen(&pos, V, "W:Wa7:Bb7,c7,Ka8", err, sizeof err));
    game_init(&g, V, &rules, &pos);
    assert_int_equal(game_result(&g, &reason), RESULT_BLACK_WINS);
    assert_int_equal(reason, REASON_NO_MOVES);

    /* kings shuffling: third occurrence is a draw */
    assert_true(position_from_fen(&pos, V, "W:WKa1,b2:BKh8,g7", err, sizeof err));
    game_init(&g, V, &rules, &pos);
    const char *cycle[] = { "a1-a2", "h8-h7", "a2-a1", "h7-h8" };
    for (int rep = 0; rep < 2; rep++)
        for (int i = 0; i < 4; i++) {
            assert_int_equal(game_result(&g, &reason), RESULT_NONE);
            play(&g, cycle[i]);
        }
    assert_int_equal(game_result(&g, &reason), RESULT_DRAW);
    assert_int_equal(reason, REASON_REPETITION);

    /* no progress */
    RULES_SET(turkish, rules, noprogress_plies, 6);
    game_init(&g, V, &rules, &pos);
    const char *walkabout[] = { "a1-a3", "h8-h6", "a3-a4", "h6-h5", "a4-a5", "h5-h4" };
    for (int i = 0; i < 6; i++) {
        assert_int_equal(game_result(&g, &reason), RESULT_NONE);
        play(&g, walkabout[i]);
    }
    assert_int_equal(game_result(&g, &reason), RESULT_DRAW);
    assert_int_equal(reason, game_reason(&turkish_variant, TURKISH_REASON_NOPROGRESS));

    /* one piece each: draw by default, a king beats a man with kvm=win */
    rules = rules_default(&turkish_variant);
    assert_true(position_from_fen(&pos, V, "B:WKa1:Bh5", err, sizeof err));
    game_init(&g, V, &rules, &pos);
    assert_int_equal(game_result(&g, &reason), RESULT_DRAW);
    assert_int_equal(reason, game_reason(&turkish_variant, TURKISH_REASON_ONE_EACH));
    RULES_SET(turkish, rules, kvm, KVM_WIN);
    game_init(&g, V, &rules, &pos);
    assert_int_equal(game_result(&g, &reason), RESULT_WHITE_WINS);
    assert_string_equal(reason_name(game_reason(&turkish_variant, TURKISH_REASON_ONE_EACH)), "one-each");
}

/* count_repetitions, the one count that play (game_result) and the search read, worked by
 * hand on two kings each shuffling, in both games: after the 4-ply cycle 3 times, keys 0,
 * 4, 8 and 12 are the start (White to move), keys 1, 5, 9 the next position, and so on. */
static void test_count_repetitions(void **state)
{
    (void)state;
    static const struct {
        const Variant *v;
        const char *fen;
        const char *cycle[4];
    } games[] = {
        { &turkish_variant, "W:WKa1,b2:BKh8,g7", { "a1-a2", "h8-h7", "a2-a1", "h7-h8" } },
        { &international_variant, "W:WK47,K48:BK3,K4", { "47-42", "3-9", "42-47", "9-3" } },
    };
    for (size_t gi = 0; gi < sizeof games / sizeof games[0]; gi++) {
        const Variant *v = games[gi].v;
        Rules rules = rules_default(v);
        Position pos;
        char err[256];
        assert_true(position_from_fen(&pos, v, games[gi].fen, err, sizeof err));
        static Game g;
        game_init(&g, v, &rules, &pos);
        for (int ply = 0; ply < 12; ply++) {
            Move m;
            if (!move_from_text(v, &g.pos, &g.rules, games[gi].cycle[ply % 4], &m, err, sizeof err))
                fail_msg("%s", err);
            assert_true(game_play(&g, &m));
        }
        const uint64_t *k = g.keys;
        for (int i = 0; i < 4; i++) /* the hand-worked cycle: 4 distinct positions */
            for (int j = 0; j <= 12; j++)
                assert_true((k[i] == k[j]) == (j % 4 == i));
        /* Play: twice_from past now, each earlier occurrence once. */
        assert_int_equal(count_repetitions(k, 4, 4, 5), 1);
        assert_int_equal(count_repetitions(k, 7, 7, 8), 1);  /* key 3 */
        assert_int_equal(count_repetitions(k, 8, 8, 9), 2);  /* keys 4 and 0: the third time */
        assert_int_equal(count_repetitions(k, 3, 3, 4), 0);
        /* Counted up to REPETITIONS_FOR_DRAW: at ply 12 three came before, 2 is reported. */
        assert_int_equal(count_repetitions(k, 12, 12, 13), REPETITIONS_FOR_DRAW);
        /* The window: nothing before the last irreversible move is looked at. */
        assert_int_equal(count_repetitions(k, 8, 4, 9), 1);
        assert_int_equal(count_repetitions(k, 8, 3, 9), 0);
        /* The search from a root at ply 4: key 4 is in its tree and counts twice; from a
         * root at ply 5 it is game history and counts once. */
        assert_int_equal(count_repetitions(k, 8, 4, 4), 2);
        assert_int_equal(count_repetitions(k, 8, 4, 5), 1);
        assert_int_equal(count_repetitions(k, 8, 8, 5), 2);  /* keys 4 and 0, once each */
        /* game_result reads the same count. */
        int reason;
        assert_int_equal(game_result(&g, &reason), RESULT_DRAW);
        assert_int_equal(reason, REASON_REPETITION);
    }
}

/* A move list past MAX_MOVES is an invariant broken inside the engine: the library says
 * which position and aborts (it never exit()s, which would look like an ordinary failure
 * to the program around it).  Filled by hand: no position is known to get there. */
static void test_move_list_overflow_aborts(void **state)
{
    (void)state;
    int err_pipe[2];
    assert_int_equal(pipe(err_pipe), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(err_pipe[1], STDERR_FILENO);
        static MoveList list;
        for (int i = 0; i < MAX_MOVES; i++) {
            list.moves[i] = (Move){ .from = 0, .to = 2, .captured = (Bitboard)i + 1, .njumps = 1 };
            list.npaths[i] = 1;
        }
        list.count = MAX_MOVES;
        Position pos;
        V->start(&pos);
        Move m = { .from = 0, .to = 2, .captured = (Bitboard)MAX_MOVES + 1, .njumps = 1 };
        movelist_add_capture(&list, &m, &pos, V);
        _exit(0); /* not reached when the list refuses the move */
    }
    close(err_pipe[1]);
    char msg[1024] = "";
    size_t got = 0;
    ssize_t n;
    while (got < sizeof msg - 1 && (n = read(err_pipe[0], msg + got, sizeof msg - 1 - got)) > 0)
        got += (size_t)n;
    msg[got] = '\0';
    close(err_pipe[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_non_null(strstr(msg, "more than 1024 legal moves"));
    assert_non_null(strstr(msg, "W:W")); /* the position, as FEN */
}

/* The order in which the rules end a game (docs/rules-turkish.md, "End of the game"): no legal move,
 * then one piece each, then repetition, then no progress. */
static void test_game_end_precedence(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant); /* noprogress 100, kvm=draw */
    Position blocked, lone, kings;
    char err[256];
    assert_true(position_from_fen(&blocked, V, "B:Wa2,a3,b1,c1:BKa1", err, sizeof err));
    assert_true(position_from_fen(&lone, V, "B:WKa1:Bh5", err, sizeof err));
    assert_true(position_from_fen(&kings, V, "W:WKa1,b2:BKh8,g7", err, sizeof err));
    assert_int_equal(V->count(&blocked, &rules, false), 0);
    const struct {
        const Position *pos;
        int kvm, since, reps;
        int result, reason;
    } cases[] = {
        /* blocked on the ply that also reaches no progress and a third repetition */
        { &blocked, KVM_DRAW, 100, 2, RESULT_WHITE_WINS, REASON_NO_MOVES },
        { &lone, KVM_DRAW, 100, 2, RESULT_DRAW, game_reason(&turkish_variant, TURKISH_REASON_ONE_EACH) },
        { &lone, KVM_WIN, 100, 2, RESULT_WHITE_WINS, game_reason(&turkish_variant, TURKISH_REASON_ONE_EACH) },
        { &kings, KVM_DRAW, 100, 2, RESULT_DRAW, REASON_REPETITION },
        { &kings, KVM_DRAW, 100, 1, RESULT_DRAW, game_reason(&turkish_variant, TURKISH_REASON_NOPROGRESS) },
        { &kings, KVM_DRAW, 99, 1, RESULT_NONE, REASON_NONE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        RULES_SET(turkish, rules, kvm, cases[i].kvm);
        bool can_move = V->count(cases[i].pos, &rules, false) > 0;
        GameEnd end = game_end(V, cases[i].pos, &rules, can_move,
                               (DrawCounts){ cases[i].since, cases[i].reps, 0 });
        assert_int_equal(end.result, cases[i].result);
        assert_int_equal(end.reason, cases[i].reason);
    }
    rules = rules_default(&turkish_variant);
    RULES_SET(turkish, rules, noprogress_plies, 0); /* never */
    assert_int_equal(game_end(V, &kings, &rules, true, (DrawCounts){ 100000, 0, 0 }).result, RESULT_NONE);
    assert_int_equal(result_for_side(RESULT_WHITE_WINS, BLACK), -1);
    assert_int_equal(result_for_side(RESULT_BLACK_WINS, BLACK), 1);
    assert_int_equal(result_for_side(RESULT_DRAW, WHITE), 0);
}

/* Incremental keys agree with keys computed from scratch along random games; the piece
 * keys' table is the mixing function's. */
static void test_zobrist_incremental(void **state)
{
    (void)state;
    assert_true(zobrist_table_matches());
    Rules rules = rules_default(&turkish_variant);
    uint64_t seed = 12345;
    for (int game = 0; game < 50; game++) {
        Position pos;
        V->start(&pos);
        uint64_t key = position_key(&pos);
        for (int ply = 0; ply < 200; ply++) {
            MoveList list;
            V->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            const Move *m = &list.moves[(seed >> 33) % (uint64_t)list.count];
            key = key_after_move(&pos, key, m);
            V->make(&pos, m);
            assert_int_equal(key, position_key(&pos));
        }
    }
}

static void test_rules_option_text(void **state)
{
    (void)state;
    Rules r = rules_default(&turkish_variant);
    char err[256];
    assert_true(rules_parse(V, &r, "promotion=king,kvm=win,noprogress=60", err, sizeof err));
    assert_int_equal(turkish_rules(&r).promotion, PROMOTE_KING);
    assert_int_equal(turkish_rules(&r).kvm, KVM_WIN);
    assert_int_equal(turkish_rules(&r).noprogress_plies, 60);
    assert_false(rules_parse(V, &r, "promotion=queen", err, sizeof err));
    assert_non_null(strstr(err, "queen"));
    assert_false(rules_parse(V, &r, "speed=fast", err, sizeof err));
    assert_non_null(strstr(err, "speed"));
    assert_false(rules_parse(V, &r, "noprogress=x", err, sizeof err));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_positions),
        cmocka_unit_test(test_start_perft),
        cmocka_unit_test(test_king_perft),
        cmocka_unit_test(test_board_lines),
        cmocka_unit_test(test_quiet_move_order),
        cmocka_unit_test(test_start_divide),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_short_and_ambiguous_text),
        cmocka_unit_test(test_bad_fen),
        cmocka_unit_test(test_fen_into_short_buffers),
        cmocka_unit_test(test_errors_quote_one_line),
        cmocka_unit_test(test_game_results),
        cmocka_unit_test(test_game_end_precedence),
        cmocka_unit_test(test_count_repetitions),
        cmocka_unit_test(test_move_list_overflow_aborts),
        cmocka_unit_test(test_zobrist_incremental),
        cmocka_unit_test(test_rules_option_text),
    };
    return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
