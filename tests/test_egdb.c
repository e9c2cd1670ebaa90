/* Endgame databases (egdb/): the indexer against counts worked out by hand, the built
 * classes against their successors (the full check) and against a plain game-tree proof
 * search, positions whose value follows from the rules, and the files: checked, refused
 * when damaged, never left looking complete by an interrupted build, resumed, and the same
 * whatever the thread count. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include "test_util.h"
#include "test_tmpdir.h"
#include "random_pieces.h"

#include "bitboard.h"
#include "egdb_build.h"
#include "egdb_file.h"
#include "egdb_probe.h"
#include "egdb_unmove.h"
#include "position.h"
#include "variant.h"
#include "turkish.h"

static char tmpdir[64];
static Egdb *turkish_db, *intl_db;

/* The test's own C(n, k). */
static uint64_t choose(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    uint64_t r = 1;
    for (int i = 0; i < k; i++)
        r = r * (uint64_t)(n - i) / (uint64_t)(i + 1);
    return r;
}

/* Positions of a class counted from the board alone: own men on `own` squares, the other
 * side's on `other` squares, `shared` of them common to both; kings anywhere free.
 * Turkish: 64 squares, a man never stands on its crowning rank: 56 squares each, 48 shared.
 * International: 50 squares, crowning rows of 5: 45 each, 40 shared. */
static uint64_t class_count(int squares, int own, int other, int shared, EgdbClass c)
{
    uint64_t men = 0;
    for (int j = 0; j <= c.men[0]; j++) /* j of the own men on shared squares */
        men += choose(shared, j) * choose(own - shared, c.men[0] - j) * choose(other - j, c.men[1]);
    int free_squares = squares - c.men[0] - c.men[1];
    return men * choose(free_squares, c.kings[0]) * choose(free_squares - c.kings[0], c.kings[1]);
}

typedef struct CountCheck {
    const Variant *v;
    int squares, own, other, shared;
} CountCheck;

static void check_class_count(void *vctx, EgdbClass c)
{
    CountCheck *cc = vctx;
    EgdbIndexer ix;
    egdb_indexer_init(&ix, cc->v, c);
    uint64_t positions = 0;
    for (uint64_t i = 0; i < ix.size; i++) {
        Position p;
        if (!egdb_unindex(&ix, i, &p))
            continue;
        positions++;
        assert_int_equal(popcount(p.men[WHITE]), c.men[0]);
        assert_int_equal(popcount(p.kings[BLACK]), c.kings[1]);
        assert_int_equal(popcount(position_occupied(&p)), egdb_class_pieces(c));
        assert_true((position_occupied(&p) & ~cc->v->board) == 0);
        assert_true((p.men[WHITE] & cc->v->promotion_bb[WHITE]) == 0);
        assert_true((p.men[BLACK] & cc->v->promotion_bb[BLACK]) == 0);
        uint64_t back = egdb_index(&ix, &p);
        if (back != i)
            fail_msg("%s: index %llu gives a position indexed %llu", cc->v->name,
                     (unsigned long long)i, (unsigned long long)back);
    }
    uint64_t expected = class_count(cc->squares, cc->own, cc->other, cc->shared, c);
    if (positions != expected)
        fail_msg("%s class %u%u%u%u: %llu positions, by hand %llu", cc->v->name, c.men[0],
                 c.kings[0], c.men[1], c.kings[1], (unsigned long long)positions,
                 (unsigned long long)expected);
}

/* Every index of every class up to 3 pieces is one position and back; the counts match
 * the board's arithmetic (and two by hand: Turkish king v king 64 * 63, man v man
 * 56 * 56 - 48 on the common squares). */
static void test_index_counts(void **state)
{
    (void)state;
    CountCheck tr = { &turkish_variant, 64, 56, 56, 48 };
    CountCheck in = { &international_variant, 50, 45, 45, 40 };
    for (int n = 2; n <= 3; n++) {
        egdb_for_each_class(n, check_class_count, &tr);
        egdb_for_each_class(n, check_class_count, &in);
    }
    assert_int_equal(class_count(64, 56, 56, 48, (EgdbClass){ { 0, 0 }, { 1, 1 } }), 64 * 63);
    assert_int_equal(class_count(64, 56, 56, 48, (EgdbClass){ { 1, 1 }, { 0, 0 } }), 56 * 56 - 48);
    /* A 5-piece class, sampled: indices round-trip. */
    EgdbIndexer ix;
    egdb_indexer_init(&ix, &international_variant, (EgdbClass){ { 2, 1 }, { 1, 1 } });
    assert_int_equal(ix.size, choose(45, 2) * choose(45, 1) * choose(47, 1) * choose(46, 1));
    uint64_t rng = 12345;
    for (int k = 0; k < 20000; k++) {
        uint64_t i = next_random(&rng) % ix.size;
        Position p;
        if (egdb_unindex(&ix, i, &p))
            assert_int_equal(egdb_index(&ix, &p), i);
    }
}

typedef struct UnmoveSearch {
    const Position *wanted;
    bool found;
    int candidates;
} UnmoveSearch;

static void look_for(void *vctx, const Position *pred)
{
    UnmoveSearch *u = vctx;
    u->candidates++;
    if (position_equal(pred, u->wanted))
        u->found = true;
}

/* The solver's backward step: every quiet, non-promoting move of Black from a random
 * position P gives a position whose candidates (egdb_for_each_unmove) include P. */
static void check_unmoves(const Variant *v)
{
    Rules rules = rules_default(v);
    uint64_t rng = 0x1234567ULL;
    MoveList *list = malloc(sizeof *list);
    int checked = 0;
    for (int k = 0; k < 400; k++) {
        Position p = { .side = BLACK };
        Bitboard occ = 0;
        p.men[BLACK] = drop(&rng, &occ, v->board & ~v->promotion_bb[BLACK], 1 + (int)(next_random(&rng) % 3));
        p.kings[BLACK] = drop(&rng, &occ, v->board, (int)(next_random(&rng) % 3));
        p.men[WHITE] = drop(&rng, &occ, v->board & ~v->promotion_bb[WHITE], (int)(next_random(&rng) % 3));
        p.kings[WHITE] = drop(&rng, &occ, v->board, 1);
        v->generate(&p, &rules, list);
        for (int i = 0; i < list->count; i++) {
            const Move *m = &list->moves[i];
            if (m->captured || m->promotes)
                continue;
            Position c = p;
            v->make(&c, m);
            UnmoveSearch u = { &p, false, 0 };
            egdb_for_each_unmove(v, &c, look_for, &u);
            if (!u.found) {
                char fen[128];
                position_to_fen(&p, v, fen, sizeof fen);
                fail_msg("%s %s: move %d-%d not undone", v->name, fen, m->from, m->to);
            }
            checked++;
        }
    }
    free(list);
    assert_true(checked > 1000);
}

static void test_unmoves_cover_quiet_moves(void **state)
{
    (void)state;
    check_unmoves(&turkish_variant);
    check_unmoves(&international_variant);
}

static int value_of(Egdb *db, const char *fen)
{
    Position p;
    char err[256];
    if (!position_from_fen(&p, egdb_variant(db), fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    return egdb_probe(db, &p);
}

static void verify_all(Egdb *db, int pieces)
{
    for (int n = 2; n <= pieces; n++) {
        EgdbClass classes[64];
        int count = 0;
        for (int m0 = 0; m0 <= n; m0++)
            for (int k0 = 0; m0 + k0 <= n; k0++)
                for (int m1 = 0; m0 + k0 + m1 <= n; m1++) {
                    int k1 = n - m0 - k0 - m1;
                    if (m0 + k0 > 0 && m1 + k1 > 0)
                        classes[count++] = (EgdbClass){ { (uint8_t)m0, (uint8_t)m1 }, { (uint8_t)k0, (uint8_t)k1 } };
                }
        for (int i = 0; i < count; i++) {
            EgdbVerifyReport r;
            char err[512];
            if (!egdb_verify_class(db, classes[i], 0, &r, err, sizeof err))
                fail_msg("%s", err);
            assert_int_equal(r.inconsistent, 0);
            assert_true(r.positions > 0);
        }
    }
}

/* The full check: every position's value follows from its successors' values. */
static void test_verify_consistent(void **state)
{
    (void)state;
    verify_all(turkish_db, 3);
    verify_all(intl_db, 3);
}

/* The check finds what is wrong: values changed by hand in a loaded class (two kings to move
 * against one, 125 000 positions: enough for the team to split it) are each counted, the
 * first of them named, and the report is the same on one thread and on two.  A position's
 * successors lie in other classes (a quiet move hands the move over, a capture removes a
 * piece), so the changed values are the only positions that disagree. */
static void test_verify_finds_changed_values(void **state)
{
    (void)state;
    EgdbClass cls = { { 0, 0 }, { 2, 1 } };
    EgdbTable *t = (EgdbTable *)egdb_table(turkish_db, cls);
    assert_non_null(t);
    assert_true(t->ix.size > 3 * 16384);
    uint64_t changed[3];
    int n = 0;
    /* a win made a draw, a draw a win and a draw a loss, from three parts of the table */
    const uint64_t starts[3] = { t->ix.size / 5, t->ix.size / 2, t->ix.size - t->ix.size / 5 };
    const int wanted[3] = { EGDB_WIN, EGDB_DRAW, EGDB_DRAW }, made[3] = { EGDB_DRAW, EGDB_WIN, EGDB_LOSS };
    for (int k = 0; k < 3; k++)
        for (uint64_t i = starts[k]; i < t->ix.size; i++) {
            Position p;
            if (egdb_table_get(t, i) == wanted[k] && egdb_unindex(&t->ix, i, &p)) {
                changed[n++] = i;
                break;
            }
        }
    assert_int_equal(n, 3);
    for (int k = 0; k < 3; k++)
        egdb_table_set(t, changed[k], made[k]);
    EgdbVerifyReport one, two;
    char err[512];
    assert_true(egdb_verify_class(turkish_db, cls, 1, &one, err, sizeof err));
    assert_true(egdb_verify_class(turkish_db, cls, 2, &two, err, sizeof err));
    for (int k = 0; k < 3; k++) /* put back before any assertion can leave the class wrong */
        egdb_table_set(t, changed[k], wanted[k]);
    assert_int_equal(one.inconsistent, 3);
    uint64_t first = changed[0] < changed[1] ? changed[0] : changed[1];
    assert_int_equal(one.first_bad, first < changed[2] ? first : changed[2]);
    assert_memory_equal(&one, &two, sizeof one);
    EgdbVerifyReport fixed;
    assert_true(egdb_verify_class(turkish_db, cls, 2, &fixed, err, sizeof err));
    assert_int_equal(fixed.inconsistent, 0);
    assert_int_equal(fixed.positions, one.positions);
}

/* Depth-limited proof by plain game-tree search over generate, make and game_end: +1 the
 * side to move forces a win within depth plies, -1 a loss, 0 not proved. */
static int prove(const Variant *v, const Rules *rules, const Position *p, int depth)
{
    MoveList *list = malloc(sizeof *list);
    v->generate(p, rules, list);
    GameEnd end = game_end(v, p, rules, list->count > 0, (DrawCounts){ 0, 0, 0 });
    int result = 0;
    if (end.result != RESULT_NONE) {
        result = result_for_side(end.result, p->side);
    } else if (depth > 0) {
        bool all_lose = true;
        for (int i = 0; i < list->count && result == 0; i++) {
            Position child = *p;
            v->make(&child, &list->moves[i]);
            int r = popcount(position_pieces(&child, child.side)) == 0 ? -1
                                                                        : prove(v, rules, &child, depth - 1);
            if (r < 0)
                result = 1;
            if (r <= 0)
                all_lose = false;
        }
        if (result == 0 && all_lose)
            result = -1;
    }
    free(list);
    return result;
}

/* Random 2- and 3-piece positions: what the proof search proves, the database says; a
 * database draw is never a proved result.  Both kinds of result must occur. */
static void check_against_proofs(Egdb *db, int depth)
{
    const Variant *v = egdb_variant(db);
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    int proved[3] = { 0 };
    for (int k = 0; k < 300; k++) {
        Position p = { .side = (int)(next_random(&rng) & 1) };
        Bitboard occ = 0;
        int n = 2 + (int)(next_random(&rng) % 2);
        p.kings[WHITE] = drop(&rng, &occ, v->board, 1);
        p.men[BLACK] = drop(&rng, &occ, v->board & ~v->promotion_bb[BLACK], (int)(next_random(&rng) & 1));
        if (!p.men[BLACK])
            p.kings[BLACK] = drop(&rng, &occ, v->board, 1);
        if (n == 3)
            p.men[WHITE] = drop(&rng, &occ, v->board & ~v->promotion_bb[WHITE], 1);
        int value = egdb_probe(db, &p);
        assert_int_not_equal(value, EGDB_UNKNOWN);
        int r = prove(v, egdb_rules(db), &p, depth);
        char fen[128];
        position_to_fen(&p, v, fen, sizeof fen);
        if ((r > 0 && value != EGDB_WIN) || (r < 0 && value != EGDB_LOSS))
            fail_msg("%s %s: proof search %d, database %s", v->name, fen, r, egdb_value_name(value));
        proved[r + 1]++;
    }
    assert_true(proved[0] > 0);
    assert_true(proved[2] > 0);
}

static void test_agrees_with_proof_search(void **state)
{
    (void)state;
    check_against_proofs(turkish_db, 3);
    check_against_proofs(intl_db, 3);
}

/* Positions whose value follows from the rules by hand. */
static void test_known_positions(void **state)
{
    (void)state;
    /* Turkish: one piece each is a draw at once (docs/rules-turkish.md, kvm=draw), wherever
     * they stand and even where a capture would be possible. */
    assert_int_equal(value_of(turkish_db, "W:WKa1:BKh8"), EGDB_DRAW);
    assert_int_equal(value_of(turkish_db, "W:WKa1:BKa5"), EGDB_DRAW);
    assert_int_equal(value_of(turkish_db, "B:Wc4:Bc6"), EGDB_DRAW);
    /* Two kings v one: the capture of a5 along the a-file is compulsory and takes the last
     * piece. */
    assert_int_equal(value_of(turkish_db, "W:WKa1,Kh8:BKa5"), EGDB_WIN);
    assert_int_equal(value_of(turkish_db, "B:WKa5:BKa1,Kh8"), EGDB_WIN);
    /* The trap (C. Freeling, "Draughts dissected", mindsports.nl: two kings can trap a lone
     * one in Turkish): a1-a8 leaves the king on b8 only rank 8, covered by a8, and the
     * b-file, covered by b1 — every move is taken, and it cannot take a8 or b1 (no square
     * beyond).  The same trap against a lone king on b1: its moves along rank 1 are taken
     * by a1 (c1..g1) or lead to h1, where b8-h8 closes it again. */
    assert_int_equal(value_of(turkish_db, "W:WKa1,Kb1:BKb8"), EGDB_WIN);
    assert_int_equal(value_of(turkish_db, "B:WKa8,Kb1:BKb8"), EGDB_LOSS);
    assert_int_equal(value_of(turkish_db, "W:WKb1:BKa1,Kb8"), EGDB_LOSS);
    /* International: king 46 takes king 28 along the long diagonal (no piece left: a win).
     * A king on 46 has one line, the long diagonal 46-5, and a king on 5 attacks all of it:
     * wherever the king from 46 stops, it is taken (even on 41: the capture lands on 46),
     * so White to move loses, and Black to move from 28 wins by 28-5. */
    assert_int_equal(value_of(intl_db, "W:WK46:BK28"), EGDB_WIN);
    assert_int_equal(value_of(intl_db, "W:WK46:BK5"), EGDB_LOSS);
    assert_int_equal(value_of(intl_db, "B:WK46:BK28"), EGDB_WIN);
    /* Kings off each other's lines with room to move: one king each is a draw. */
    assert_int_equal(value_of(intl_db, "W:WK1:BK50"), EGDB_DRAW);
    assert_int_equal(value_of(intl_db, "W:WK33:BK18"), EGDB_DRAW);
    /* A black man on 45 with a white king on 50: its only step is to 50 and it cannot jump
     * off the board, so Black has no move and loses (article 3.11-style no-move loss). */
    assert_int_equal(value_of(intl_db, "B:WK50:B45"), EGDB_LOSS);
    /* Positions past the built piece count are not covered. */
    assert_int_equal(value_of(intl_db, "W:WK1,K2,K3:BK50"), EGDB_UNKNOWN);
}

static void copy_file(const char *from, const char *to)
{
    char *data = NULL;
    FILE *f = fopen(from, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc((size_t)n);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    FILE *g = fopen(to, "wb");
    assert_non_null(g);
    assert_int_equal(fwrite(data, 1, (size_t)n, g), (size_t)n);
    fclose(g);
    free(data);
}

/* Reads dir's class 0102 (Turkish) and expects refusal with a message naming path and
 * holding why. */
static void expect_refused(const char *dir, const char *why, const Rules *rules)
{
    const EgdbClass cls = { { 0, 0 }, { 1, 2 } };
    char path[256], err[512], rules_text[128];
    egdb_file_path(dir, &turkish_variant, cls, path, sizeof path);
    turkish_variant.rules_describe(rules, rules_text, sizeof rules_text);
    EgdbTable t;
    if (egdb_file_read(path, &turkish_variant, cls, rules_text, &t, err, sizeof err))
        fail_msg("%s was accepted (expected: %s)", path, why);
    assert_non_null(strstr(err, path));
    if (!strstr(err, why))
        fail_msg("'%s' lacks '%s'", err, why);
    /* And the probe leaves it unused. */
    Egdb *db = egdb_open(&turkish_variant, rules, dir);
    egdb_set_quiet(db, true);
    Position p;
    assert_true(position_from_fen(&p, &turkish_variant, "W:WKd4:BKa8,Kh1", err, sizeof err));
    assert_int_equal(egdb_probe(db, &p), EGDB_UNKNOWN);
    egdb_close(db);
}

static void damage(const char *path, long offset, int byte)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, offset, offset < 0 ? SEEK_END : SEEK_SET);
    fputc(byte, f);
    fclose(f);
}

/* Missing, truncated, corrupted and foreign files are refused by name. */
static void test_damaged_files(void **state)
{
    (void)state;
    char dir[128], good[256], path[256];
    snprintf(dir, sizeof dir, "%s/damaged", tmpdir);
    mkdir(dir, 0755);
    const EgdbClass cls = { { 0, 0 }, { 1, 2 } };
    egdb_file_path(tmpdir, &turkish_variant, cls, good, sizeof good);
    egdb_file_path(dir, &turkish_variant, cls, path, sizeof path);
    Rules rules = rules_default(&turkish_variant);

    expect_refused(dir, "missing", &rules);
    copy_file(good, path);
    damage(path, -10, 0x55); /* a byte of the payload */
    expect_refused(dir, "payload checksum", &rules);
    copy_file(good, path);
    damage(path, 100, 0x01); /* the position count, in the header */
    expect_refused(dir, "header checksum", &rules);
    copy_file(good, path);
    damage(path, 0, 'X');
    expect_refused(dir, "bad magic", &rules);
    copy_file(good, path);
    assert_int_equal(truncate(path, 200), 0);
    expect_refused(dir, "truncated", &rules);
    assert_int_equal(truncate(path, 20), 0);
    expect_refused(dir, "truncated header", &rules);
    copy_file(good, path);
    Rules other = rules;
    RULES_SET(turkish, other, kvm, KVM_WIN);
    expect_refused(dir, "other rules", &other);
    /* The intact copy is taken. */
    copy_file(good, path);
    EgdbTable t;
    char err[512], rules_text[128];
    turkish_variant.rules_describe(&rules, rules_text, sizeof rules_text);
    assert_true(egdb_file_read(path, &turkish_variant, cls, rules_text, &t, err, sizeof err));
    egdb_table_free(&t);
}

/* Files of dir whose names end with suffix, or with at_end false contain it. */
static int count_names(const char *dir, const char *text, bool at_end)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    size_t tl = strlen(text);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (at_end ? l >= tl && strcmp(e->d_name + l - tl, text) == 0 : strstr(e->d_name, text) != NULL)
            n++;
    }
    closedir(d);
    return n;
}

static int count_files(const char *dir, const char *suffix) { return count_names(dir, suffix, true); }
/* Temporary files of a build (NAME.egdb.tmp.PID). */
static int count_temporaries(const char *dir) { return count_names(dir, ".egdb.tmp.", false); }

/* A build stopped (Ctrl-C sets the flag) writes nothing for the class under way; the next
 * build resumes and skips what is on disk. */
static void test_interrupt_and_resume(void **state)
{
    (void)state;
    char dir[128];
    snprintf(dir, sizeof dir, "%s/resume", tmpdir);
    Rules rules = rules_default(&turkish_variant);
    Egdb *db = egdb_open(&turkish_variant, &rules, dir);
    atomic_bool stop = true;
    EgdbBuildOptions opt = { .pieces = 3, .stop = &stop, .progress = NULL };
    char err[512];
    assert_int_equal(egdb_build(db, &opt, err, sizeof err), EGDB_BUILD_INTERRUPTED);
    egdb_close(db);
    assert_int_equal(count_files(dir, ".egdb"), 0);

    /* Build 2 pieces, then 3: the second run finds the 2-piece classes on disk. */
    atomic_store(&stop, false);
    db = egdb_open(&turkish_variant, &rules, dir);
    opt.pieces = 2;
    assert_int_equal(egdb_build(db, &opt, err, sizeof err), EGDB_BUILD_OK);
    egdb_close(db);
    assert_int_equal(count_files(dir, ".egdb"), 4);
    char log[256];
    snprintf(log, sizeof log, "%s/resume.log", tmpdir);
    FILE *progress = fopen(log, "w");
    db = egdb_open(&turkish_variant, &rules, dir);
    opt.pieces = 3;
    opt.progress = progress;
    assert_int_equal(egdb_build(db, &opt, err, sizeof err), EGDB_BUILD_OK);
    egdb_close(db);
    fclose(progress);
    char *text = test_read_file(log);
    assert_non_null(strstr(text, "0101: on disk"));
    assert_non_null(strstr(text, "0102+0201: built"));
    assert_null(strstr(text, "0101: built"));
    free(text);
    assert_int_equal(count_files(dir, ".egdb"), 16);
}

/* The whole of file a, byte for byte, is file b. */
static void assert_same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    assert_non_null(fa);
    assert_non_null(fb);
    long offset = 0;
    int ca, cb;
    do {
        ca = getc(fa);
        cb = getc(fb);
        if (ca != cb)
            fail_msg("%s and %s differ at byte %ld", a, b, offset);
        offset++;
    } while (ca != EOF);
    fclose(fa);
    fclose(fb);
}

/* One thread builds the same files as the two of setup's build, byte for byte: the values
 * are the one fixed point of the rating, whatever order the threads decide them in. */
static void test_threads_same_files(void **state)
{
    (void)state;
    char dir[128];
    snprintf(dir, sizeof dir, "%s/serial", tmpdir);
    const Variant *games[] = { &turkish_variant, &international_variant };
    for (int g = 0; g < 2; g++) {
        Rules rules = rules_default(games[g]);
        Egdb *db = egdb_open(games[g], &rules, dir);
        EgdbBuildOptions opt = { .pieces = 3, .stop = NULL, .progress = NULL, .threads = 1 };
        char err[512];
        if (egdb_build(db, &opt, err, sizeof err) != EGDB_BUILD_OK)
            fail_msg("%s: build: %s", games[g]->name, err);
        egdb_close(db);
    }
    DIR *d = opendir(dir);
    assert_non_null(d);
    int compared = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char serial[512], parallel[512];
        snprintf(serial, sizeof serial, "%s/%s", dir, e->d_name);
        snprintf(parallel, sizeof parallel, "%s/%s", tmpdir, e->d_name);
        assert_same_file(serial, parallel);
        compared++;
    }
    closedir(d);
    assert_int_equal(compared, 2 * 16); /* 16 classes of 2 and 3 pieces each game */
}

/* kill -9 in the middle of `dama egdb build`: every file with a class's name is whole
 * (it verifies), and the same command then completes the set. */
static void test_kill_leaves_no_partial_file(void **state)
{
    (void)state;
    char dir[128], out[1 << 14];
    snprintf(dir, sizeof dir, "%s/killed", tmpdir);
    mkdir(dir, 0755);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        dup2(devnull, 2);
        execl(test_dama_bin(), test_dama_bin(), "egdb", "build", "--variant", "international",
              "--pieces", "3", "--dir", dir, (char *)NULL);
        _exit(127);
    }
    struct timespec pause = { 0, 300 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    kill(pid, SIGKILL);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    /* Every file there is whole.  A class can be whole and still not verifiable: the kill
     * may fall between two classes solved together (0110 and its colour-swapped 1001), and
     * verify rates a class from its successors' files.  So a failed class must fail for
     * that reason and no other (a cut or damaged file fails by its checksum). */
    int files = count_files(dir, ".egdb");
    if (files > 0 && test_dama_run(out, sizeof out, "egdb verify --variant international --dir %s", dir) != 0) {
        if (!strstr(out, " FAILED "))
            fail_msg("verify failed without naming a class:\n%s", out);
        for (const char *used = out; (used = strstr(used, "; not used")); used++)
            if (used - out < 7 || strncmp(used - 7, "missing", 7) != 0) /* only missing ones */
                fail_msg("a killed build left a damaged file:\n%s", out);
        for (const char *line = out; (line = strstr(line, " FAILED ")); line++) {
            const char *end = strchr(line, '\n');
            const char *why = strstr(line, "a successor's class is unavailable");
            if (!why || (end && why > end))
                fail_msg("a killed build left a file that is not whole:\n%s", out);
        }
    }
    assert_int_equal(test_dama_run(out, sizeof out, "egdb build --quiet --variant international --pieces 3 --dir %s", dir), 0);
    assert_int_equal(count_files(dir, ".egdb"), 16);
    assert_int_equal(count_temporaries(dir), 0);
}

/* A disk that fills up (here a file size limit: writes past it fail) stops the build with
 * the file named, and leaves neither a partial class file nor a temporary one. */
static void test_full_disk(void **state)
{
    (void)state;
    char out[1 << 14], cmd[512];
    snprintf(cmd, sizeof cmd, "sh -c 'ulimit -f 2; exec %s egdb build --quiet --pieces 3 --dir %s/limited' 2>&1",
             test_dama_bin(), tmpdir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    if (!strstr(out, "cannot write"))
        fail_msg("no write error named:\n%s", out);
    char limited[128];
    snprintf(limited, sizeof limited, "%s/limited", tmpdir);
    assert_int_equal(count_temporaries(limited), 0);
    assert_true(count_files(limited, ".egdb") > 0); /* the small classes fitted */
    assert_int_equal(test_dama_run(out, sizeof out, "egdb verify --variant turkish --dir %s", limited), 0);
}

/* The command line: probe prints the value, verify passes, bad input exits 2. */
static void test_cli(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "egdb probe --dir %s --fen W:WKa1,Kh8:BKa5", tmpdir);
    test_dama_expect(args, 0, "win");
    snprintf(args, sizeof args, "egdb probe --variant international --dir %s --fen B:WK50:B45", tmpdir);
    test_dama_expect(args, 0, "loss");
    snprintf(args, sizeof args, "egdb probe --dir %s --fen W:WKa1:BKh8 --moves a1-a2", tmpdir);
    test_dama_expect(args, 2, NULL); /* one piece each: the game is over, no move is legal */
    snprintf(args, sizeof args, "egdb probe --dir %s/nowhere --fen W:WKa1,Kh8:BKa5", tmpdir);
    test_dama_expect(args, 1, "unknown");
    snprintf(args, sizeof args, "egdb verify --variant turkish --pieces 2 --dir %s", tmpdir);
    test_dama_expect(args, 0, "verified classes 4 failed 0");
    snprintf(args, sizeof args, "egdb probe --dir %s --fen W:WZ9", tmpdir);
    test_dama_expect(args, 2, NULL);
    test_dama_expect("egdb build --pieces 9 --dir x", 2, "--pieces");
    test_dama_expect("egdb build --pieces 3", 2, "--dir");
    test_dama_expect("egdb frobnicate", 2, "unknown egdb subcommand");
}

/* Every other game of the registry (Brazilian, Russian, ...) gets the same checks from
 * databases of up to 3 pieces built here: unmoves, consistency with the successors, and
 * agreement with the proof search (Russian's man crowned mid-capture goes on as a king in
 * those positions: the proof search follows the generator's moves, the database its own
 * retrograde build). */
static void test_every_other_game(void **state)
{
    (void)state;
    int games = 0;
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        if (v == &turkish_variant || v == &international_variant)
            continue;
        check_unmoves(v);
        Rules rules = rules_default(v);
        Egdb *db = egdb_open(v, &rules, tmpdir);
        EgdbBuildOptions opt = { .pieces = 3, .stop = NULL, .progress = NULL };
        char err[512];
        if (egdb_build(db, &opt, err, sizeof err) != EGDB_BUILD_OK)
            fail_msg("%s: build: %s", v->name, err);
        verify_all(db, 3);
        check_against_proofs(db, 3);
        egdb_close(db);
        games++;
    }
    assert_true(games >= 2); /* Brazilian and Russian at least */
}

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(tmpdir, sizeof tmpdir, "egdb") != 0)
        return -1;
    Rules tr = rules_default(&turkish_variant), in = rules_default(&international_variant);
    turkish_db = egdb_open(&turkish_variant, &tr, tmpdir);
    intl_db = egdb_open(&international_variant, &in, tmpdir);
    /* Two threads even on one CPU: test_threads_same_files builds the same with one. */
    EgdbBuildOptions opt = { .pieces = 3, .stop = NULL, .progress = NULL, .threads = 2 };
    char err[512];
    if (egdb_build(turkish_db, &opt, err, sizeof err) != EGDB_BUILD_OK ||
        egdb_build(intl_db, &opt, err, sizeof err) != EGDB_BUILD_OK) {
        fprintf(stderr, "build: %s\n", err);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    egdb_close(turkish_db);
    egdb_close(intl_db);
    return test_tmpdir_remove(tmpdir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index_counts),
        cmocka_unit_test(test_unmoves_cover_quiet_moves),
        cmocka_unit_test(test_verify_consistent),
        cmocka_unit_test(test_verify_finds_changed_values),
        cmocka_unit_test(test_agrees_with_proof_search),
        cmocka_unit_test(test_known_positions),
        cmocka_unit_test(test_every_other_game),
        cmocka_unit_test(test_damaged_files),
        cmocka_unit_test(test_interrupt_and_resume),
        cmocka_unit_test(test_threads_same_files),
        cmocka_unit_test(test_kill_leaves_no_partial_file),
        cmocka_unit_test(test_full_disk),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests_name("egdb", tests, setup, teardown);
}
