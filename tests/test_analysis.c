/* `dama analyze` in batch: input order, bad lines with their line numbers, exit codes,
 * --strict, the same results on 1 and 2 threads, results stored in the database, positions
 * from the database and from PDN.  The CSV output is read back with libcsv. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "position.h"
#include "search.h"
#include "store.h"
#include "test_util.h"
#include "test_csv.h"
#include "test_tmpdir.h"
#include "variant.h"

/* ---- fixture ---- */
static char dir[64];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Runs a command line with stdout and stderr into DIR/out.txt and DIR/err.txt. */
static int sh(const char *fmt, ...)
{
    char cmd[2048], line[2400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s >%s/out.txt 2>%s/err.txt", cmd, dir, dir);
    int status = system(line);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *slurp(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *t = test_read_file(path);
    assert_non_null(t);
    return t;
}

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Writes len bytes (NUL bytes included). */
static void write_bytes(const char *name, const char *data, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Asserts the last command's stderr holds want. */
static void err_has(const char *want)
{
    char *err = slurp("err.txt");
    if (!strstr(err, want))
        fail_msg("stderr lacks '%s':\n%s", want, err);
    free(err);
}

/* The CSV file DIR/name, read back (csv_release it). */
static Csv *load_csv(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return csv_load(path);
}

static bool exists(const char *name)
{
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static int setup(void **state)
{
    (void)state;
    return test_tmpdir_make(dir, sizeof dir, "analysis");
}

static int teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(dir);
}

/* Lines 1-11: good lines 2, 3, 7, 10, 11; bad lines 4 (unknown square), 5 (bad side),
 * 6 (junk), 9 (nothing before ';'). */
static const char *const batch_text =
    "# a batch with good and bad lines\n"
    "start ; opening\n"
    "W:Wa2,b3:Ba6,b7\n"
    "W:Wz9:Ba6 ; unknown square\n"
    "X:Wa2:Ba6 ; bad side\n"
    "this is junk\n"
    "W:WKd4:Ba6,h7 ; kings, \"quoted\"\n"
    "\n"
    " ; no position\n"
    "B:Wa2:Ba6\n"
    "B:Wa5,b4:Bb5,Kh8 ; side to move has a capture\n";

static void test_good_and_bad_lines(void **state)
{
    (void)state;
    write_file("batch.txt", batch_text);
    int code = sh("%s analyze --in %s/batch.txt --nodes 2000 --threads 2 --out %s/res.csv",
                  test_dama_bin(), dir, dir);
    char *err = slurp("err.txt");
    if (code != 2)
        fail_msg("exit %d, expected 2; stderr:\n%s", code, err);
    char want[160];
    static const int bad[] = { 4, 5, 6, 9 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(want, sizeof want, "%s/batch.txt:%d: ", dir, bad[i]);
        if (!strstr(err, want))
            fail_msg("stderr lacks '%s':\n%s", want, err);
    }
    assert_non_null(strstr(err, "batch.txt:4: bad FEN at 'Wz9': no such square"));
    assert_non_null(strstr(err, "analyzed 5 positions, 4 bad lines"));
    /* good lines name no error */
    static const int good[] = { 2, 3, 7, 10, 11 };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(want, sizeof want, "batch.txt:%d:", good[i]);
        assert_null(strstr(err, want));
    }
    free(err);

    char path[128];
    snprintf(path, sizeof path, "%s/res.csv", dir);
    Csv *c = csv_load(path);
    static const char *const header[] = { "item_id", "fen", "best_move", "score", "score_text", "depth",
                                          "nodes", "time_ms", "pv" };
    assert_int_equal(c->ncols[0], 9);
    for (int i = 0; i < 9; i++)
        assert_string_equal(c->rows[0][i], header[i]);
    assert_int_equal(c->nrows, 6);
    static const char *const ids[] = { "opening", "3", "kings, \"quoted\"", "10", "side to move has a capture" };
    static const char *const fens[] = {
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
        "W:Wa2,b3:Ba6,b7", "W:WKd4:Ba6,h7", "B:Wa2:Ba6", "B:Wb4,a5:Bb5,Kh8" };
    for (int r = 1; r < c->nrows; r++) {
        assert_string_equal(csv_cell(c, r, "item_id"), ids[r - 1]);
        char canon[256], why[128];
        Position pos;
        assert_true(position_from_fen(&pos, &turkish_variant, fens[r - 1], why, sizeof why));
        position_to_fen(&pos, &turkish_variant, canon, sizeof canon);
        assert_string_equal(csv_cell(c, r, "fen"), canon);
        assert_true(strlen(csv_cell(c, r, "best_move")) >= 5);
        assert_true(strncmp(csv_cell(c, r, "pv"), csv_cell(c, r, "best_move"), strlen(csv_cell(c, r, "best_move"))) == 0);
        assert_true(atoi(csv_cell(c, r, "depth")) >= 1);
        assert_true(strtoull(csv_cell(c, r, "nodes"), NULL, 10) > 0);
        char text[32];
        assert_string_equal(csv_cell(c, r, "score_text"), score_to_text(atoi(csv_cell(c, r, "score")), text, sizeof text));
    }
    /* the capture is found: b5xb3 is forced */
    assert_string_equal(csv_cell(c, 5, "best_move"), "b5xb3");
    csv_release(c);
}

static void test_strict(void **state)
{
    (void)state;
    write_file("batch.txt", batch_text);
    char dbname[128];
    snprintf(dbname, sizeof dbname, "%s/strict.db", dir);
    int code = sh("%s analyze --in %s/batch.txt --nodes 500 --strict --db %s --out %s/strict.csv",
                  test_dama_bin(), dir, dbname, dir);
    assert_int_equal(code, 2);
    char *err = slurp("err.txt");
    assert_non_null(strstr(err, "batch.txt:4: "));
    assert_null(strstr(err, "batch.txt:5: "));
    assert_non_null(strstr(err, "--strict"));
    free(err);
    assert_false(exists("strict.csv"));
    /* nothing written: not even the database file */
    struct stat st;
    assert_int_not_equal(stat(dbname, &st), 0);
    /* a clean file under --strict is fine */
    write_file("clean.txt", "start\nW:Wa2,b3:Ba6,b7 ; x\n");
    assert_int_equal(sh("%s analyze --in %s/clean.txt --nodes 300 --strict --out %s/clean.csv",
                        test_dama_bin(), dir, dir), 0);
    err = slurp("err.txt");
    assert_non_null(strstr(err, "analyzed 2 positions, 0 bad lines"));
    free(err);
}

static const char *const many_positions =
    "start\n"
    "W:Wa2,b3:Ba6,b7\n"
    "W:WKd4:Ba6,h7\n"
    "B:Wa2:Ba6\n"
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,c3,d3,e3,f3,g3,h3,a4:Bb4,g5,h5,a6,c6,d6,e6,f6,a7,b7,c7,d7,e7,f7,g7,h7\n"
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7\n"
    "W:Wb2,d2,f2,d3,f3,g3,e4,f4,d5,Kb8:BKc1,a3,h5,a6,c6,e6,f6,g6,a7,d7,e7,g7,h7\n"
    "W:Wa2,d2,f2,a3,c3,h3,e4,h5,Ka8:Bb5,f5,d6,e6,f7,h7\n"
    "B:Wd2,f3,d4,e4,h4,a5,h5,Kg8:Bb2,f5,d6,f6\n"
    "B:Wa2,f2,h2,b3,e3,g3,c4,e5,d6:Ba4,b5,g5,f6,b7,e7,h7\n"
    "W:Wa2,f2,h2,c3,e3,g3,a5,Ke8:Bd3,a4,g5,b6,g7\n"
    "W:Wa2,b2,d2,e2,h2,b3,c3,d3,e3,f3,g3,h3,b4,f5:Ba5,c5,d5,e5,g5,h5,c6,e6,f6,a7,c7,d7,f7,h7\n";

static void test_threads_agree(void **state)
{
    (void)state;
    write_file("many.txt", many_positions);
    const char *nodes = test_sanitized() ? "1500" : "6000";
    assert_int_equal(sh("%s analyze --in %s/many.txt --nodes %s --threads 1 --out %s/t1.csv",
                        test_dama_bin(), dir, nodes, dir), 0);
    assert_int_equal(sh("%s analyze --in %s/many.txt --nodes %s --threads 2 --out %s/t2.csv",
                        test_dama_bin(), dir, nodes, dir), 0);
    /* and to stdout: the same CSV */
    assert_int_equal(sh("%s analyze --in %s/many.txt --nodes %s --threads 2", test_dama_bin(), dir, nodes), 0);
    char p1[128], p2[128], p3[128];
    snprintf(p1, sizeof p1, "%s/t1.csv", dir);
    snprintf(p2, sizeof p2, "%s/t2.csv", dir);
    snprintf(p3, sizeof p3, "%s/out.txt", dir);
    Csv *a = csv_load(p1), *b = csv_load(p2), *s = csv_load(p3);
    assert_int_equal(a->nrows, 13);
    assert_int_equal(b->nrows, a->nrows);
    assert_int_equal(s->nrows, a->nrows);
    int time_col = csv_col(a, "time_ms");
    for (int r = 0; r < a->nrows; r++)
        for (int i = 0; i < a->ncols[0]; i++) {
            if (r > 0 && i == time_col)
                continue;
            assert_string_equal(a->rows[r][i], b->rows[r][i]);
            assert_string_equal(a->rows[r][i], s->rows[r][i]);
        }
    for (int r = 1; r < a->nrows; r++) {
        char id[16];
        snprintf(id, sizeof id, "%d", r);
        assert_string_equal(csv_cell(a, r, "item_id"), id);
    }
    csv_release(a);
    csv_release(b);
    csv_release(s);
}

typedef struct Rows {
    int n;
    char ids[16][64];
    char best[16][64];
    int64_t run;
} Rows;

static int collect(void *ctx, int ncols, const StoreCell *c)
{
    Rows *r = ctx;
    assert_true(ncols >= 5);
    if (r->n < 16) {
        snprintf(r->ids[r->n], sizeof r->ids[0], "%.*s", c[2].len, c[2].type == STORE_CELL_TEXT ? c[2].text : "");
        snprintf(r->best[r->n], sizeof r->best[0], "%.*s", c[4].len, c[4].type == STORE_CELL_TEXT ? c[4].text : "");
        r->run = c[1].i;
    }
    r->n++;
    return 0;
}

static int run_kind(void *ctx, int ncols, const StoreCell *c)
{
    (void)ncols;
    char *kind = ctx;
    snprintf(kind, 32, "%.*s", c[1].len, c[1].text);
    return 0;
}

static void test_db_stores_rows(void **state)
{
    (void)state;
    write_file("batch.txt", batch_text);
    char dbname[128];
    snprintf(dbname, sizeof dbname, "%s/an.db", dir);
    assert_int_equal(sh("%s analyze --in %s/batch.txt --nodes 800 --db %s --out %s/an.csv",
                        test_dama_bin(), dir, dbname, dir), 2);
    char path[128];
    snprintf(path, sizeof path, "%s/an.csv", dir);
    Csv *c = csv_load(path);
    char e[256];
    Store *s = store_open(dbname, e, sizeof e);
    assert_non_null(s);
    Rows rows = { 0 };
    assert_true(store_export_rows(s, "analyses", "turkish", 0, NULL, collect, &rows));
    assert_int_equal(rows.n, c->nrows - 1);
    for (int i = 0; i < rows.n; i++) {
        assert_string_equal(rows.ids[i], csv_cell(c, i + 1, "item_id"));
        assert_string_equal(rows.best[i], csv_cell(c, i + 1, "best_move"));
    }
    char kind[32] = "";
    assert_true(store_export_rows(s, "runs", "turkish", rows.run, NULL, run_kind, kind));
    assert_string_equal(kind, "analysis");
    store_close(s);
    csv_release(c);
}

static void test_db_and_pdn_sources(void **state)
{
    (void)state;
    char dbname[128];
    snprintf(dbname, sizeof dbname, "%s/sp.db", dir);
    assert_int_equal(sh("%s selfplay --db %s --games 2 --nodes 200 --threads 1", test_dama_bin(), dbname), 0);
    /* every position of game 1, or some plies */
    assert_int_equal(sh("%s analyze --db %s --game 1 --plies 0,3,5 --nodes 300 --out %s/g.csv",
                        test_dama_bin(), dbname, dir), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/g.csv", dir);
    Csv *c = csv_load(path);
    assert_int_equal(c->nrows, 4);
    assert_string_equal(csv_cell(c, 1, "item_id"), "game1:ply0");
    assert_string_equal(csv_cell(c, 3, "item_id"), "game1:ply5");
    csv_release(c);
    /* a sample is the same every time, in game and ply order */
    assert_int_equal(sh("%s analyze --db %s --run 1 --sample 4 --nodes 300 --out %s/s1.csv", test_dama_bin(), dbname, dir), 0);
    assert_int_equal(sh("%s analyze --db %s --run 1 --sample 4 --nodes 300 --threads 1 --out %s/s2.csv", test_dama_bin(), dbname, dir), 0);
    char p2[128];
    snprintf(path, sizeof path, "%s/s1.csv", dir);
    snprintf(p2, sizeof p2, "%s/s2.csv", dir);
    Csv *a = csv_load(path), *b = csv_load(p2);
    assert_int_equal(a->nrows, 5);
    for (int r = 1; r < a->nrows; r++)
        assert_string_equal(csv_cell(a, r, "item_id"), csv_cell(b, r, "item_id"));
    csv_release(a);
    csv_release(b);
    assert_int_equal(sh("%s analyze --db %s --game 99 --nodes 300", test_dama_bin(), dbname), 2);
    assert_int_equal(sh("%s analyze --db %s --run 99 --nodes 300", test_dama_bin(), dbname), 2);

    /* PDN: tags, comments, variations, move numbers; a bad move is a bad line */
    write_file("g.pdn",
               "[Event \"one\"]\n"
               "1. d3-d4 e6-e5 {a comment\nover two lines} 2. f3-f4 (2. c3-c4 b6-b5) d6-d5 1-0\n"
               "\n[Event \"two\"]\n[FEN \"W:Wa2,b3:Ba6,b7\"]\n"
               "1. a2-a3 a6-a5 2. b3-b4! *\n"
               "\n[Event \"bad\"]\n1. d3-d4 e6-e5 2. z9-z8 0-1\n");
    assert_int_equal(sh("%s analyze --in %s/g.pdn --plies 0,3 --nodes 300 --out %s/p.csv", test_dama_bin(), dir, dir), 2);
    char *err = slurp("err.txt");
    assert_non_null(strstr(err, "g.pdn:10: game 3: move 'z9-z8'"));
    assert_non_null(strstr(err, "analyzed 5 positions, 1 bad line"));
    free(err);
    snprintf(path, sizeof path, "%s/p.csv", dir);
    c = csv_load(path);
    static const char *const ids[] = { "game1:ply0", "game1:ply3", "game2:ply0", "game2:ply3", "game3:ply0" };
    assert_int_equal(c->nrows, 6);
    for (int r = 1; r < c->nrows; r++)
        assert_string_equal(csv_cell(c, r, "item_id"), ids[r - 1]);
    assert_string_equal(csv_cell(c, 2, "fen"),
                        "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,g3,h3,d4,f4:Be5,a6,b6,c6,d6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7");
    assert_string_equal(csv_cell(c, 4, "fen"), "B:Wa3,b4:Ba5,b7");
    csv_release(c);
}

static void test_usage_errors(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    assert_int_equal(sh("%s analyze --out x.csv", bin), 2);
    write_file("one.txt", "start\n");
    assert_int_equal(sh("%s analyze --in %s/one.txt --fen start", bin, dir), 2);
    assert_int_equal(sh("%s analyze --in %s/missing.txt", bin, dir), 2);
    char *err = slurp("err.txt");
    assert_non_null(strstr(err, "missing.txt: cannot read"));
    free(err);
    assert_int_equal(sh("%s analyze --in %s/one.txt --format xml", bin, dir), 2);
    /* a missing database is not created for --game */
    assert_int_equal(sh("%s analyze --db %s/none.db --game 1", bin, dir), 1);
    assert_false(exists("none.db"));
    /* the single-position form is unchanged */
    assert_int_equal(sh("%s analyze --fen start --nodes 2000", bin), 0);
    char *out = slurp("out.txt");
    assert_non_null(strstr(out, "info depth 1 score "));
    assert_non_null(strstr(out, "\nbestmove "));
    free(out);
}

/* A NUL byte in any input file is bad input named by file and line; it never hangs (the
 * PDN reader looped for ever), never cuts a line (a FEN list analysed "W:Wa2\0:Ba6" as
 * W:Wa2:B) and nothing is written.  `timeout` turns a hang into a failure. */
static void test_nul_bytes(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    static const char pdn[] = "1. c3-c4\0 d6-d5 *\n";
    write_bytes("n.pdn", pdn, sizeof pdn - 1);
    assert_int_equal(sh("timeout 60 %s analyze --in %s/n.pdn --format pdn --nodes 100 --out %s/n.csv",
                        bin, dir, dir), 2);
    err_has("n.pdn:1: NUL byte");
    assert_int_equal(sh("timeout 60 %s analyze --in %s/n.pdn --nodes 100 --out %s/n.csv", bin, dir, dir), 2);
    err_has("n.pdn:1: NUL byte");
    assert_false(exists("n.csv"));

    static const char fens[] = "start\nW:Wa2\0:Ba6\n";
    write_bytes("n.txt", fens, sizeof fens - 1);
    assert_int_equal(sh("timeout 60 %s analyze --in %s/n.txt --nodes 100 --out %s/n.csv", bin, dir, dir), 2);
    err_has("n.txt:2: NUL byte");
    assert_false(exists("n.csv"));

    /* a weights file: the line is named too */
    char *weights = test_read_file("data/weights/turkish.txt");
    assert_non_null(weights);
    char *third = strchr(strchr(strchr(weights, '\n') + 1, '\n') + 1, '\n'); /* end of line 3 */
    *third = '\0';
    size_t head = strlen(weights);
    *third = '\n';
    char *with_nul = malloc(strlen(weights) + 2);
    assert_non_null(with_nul);
    memcpy(with_nul, weights, head);
    with_nul[head] = '\0';
    strcpy(with_nul + head + 1, weights + head);
    write_bytes("nul-weights.txt", with_nul, strlen(weights) + 1);
    free(with_nul);
    free(weights);
    assert_int_equal(sh("%s analyze --fen start --nodes 100 --weights %s/nul-weights.txt", bin, dir), 2);
    err_has("nul-weights.txt:3: NUL byte");
}

/* A UTF-8 byte-order mark at the start of a weights, FEN or PDN file is skipped, and CRLF
 * line ends are read as LF. */
static void test_bom_and_crlf(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    write_file("bom.txt", "\xEF\xBB\xBFstart ; first\r\nB:Wa2:Ba6\r\n");
    assert_int_equal(sh("%s analyze --in %s/bom.txt --nodes 200 --out %s/bom.csv", bin, dir, dir), 0);
    Csv *c = load_csv("bom.csv");
    assert_int_equal(c->nrows, 3);
    assert_string_equal(csv_cell(c, 1, "item_id"), "first");
    assert_string_equal(csv_cell(c, 2, "item_id"), "2");
    assert_string_equal(csv_cell(c, 2, "fen"), "B:Wa2:Ba6");
    csv_release(c);

    write_file("bom.pdn", "\xEF\xBB\xBF[Event \"x\"]\r\n1. c3-c4 d6-d5 *\r\n");
    assert_int_equal(sh("%s analyze --in %s/bom.pdn --nodes 200 --out %s/bom.csv", bin, dir, dir), 0);
    c = load_csv("bom.csv");
    assert_int_equal(c->nrows, 4);
    assert_string_equal(csv_cell(c, 3, "item_id"), "game1:ply2");
    csv_release(c);

    /* the shipped weights with a BOM and CRLF play exactly as the built-in ones */
    char *weights = test_read_file("data/weights/turkish.txt");
    assert_non_null(weights);
    char wpath[128];
    snprintf(wpath, sizeof wpath, "%s/bom-weights.txt", dir);
    FILE *f = fopen(wpath, "wb");
    assert_non_null(f);
    fputs("\xEF\xBB\xBF", f);
    for (const char *p = weights; *p; p++)
        fputs(*p == '\n' ? "\r\n" : (char[]){ *p, 0 }, f);
    assert_int_equal(fclose(f), 0);
    free(weights);
    assert_int_equal(sh("%s analyze --fen start --nodes 3000 --weights %s", bin, wpath), 0);
    char *with_file = slurp("out.txt");
    assert_int_equal(sh("%s analyze --fen start --nodes 3000 --weights default", bin), 0);
    char *built_in = slurp("out.txt");
    /* the same lines but the nps figures: compare the bestmove line and the node counts */
    assert_string_equal(strstr(with_file, "bestmove"), strstr(built_in, "bestmove"));
    free(with_file);
    free(built_in);
}

/* Text that is not UTF-8 is refused with the line and column, not copied into the CSV. */
static void test_invalid_utf8(void **state)
{
    (void)state;
    write_file("latin1.txt", "start ; ok\nstart ; caf\xE9\n");
    assert_int_equal(sh("%s analyze --in %s/latin1.txt --nodes 100 --out %s/l.csv", test_dama_bin(), dir, dir), 2);
    err_has("latin1.txt:2: invalid UTF-8 (byte 0xE9 at column 12)");
    assert_false(exists("l.csv"));
    /* well-formed UTF-8 ids are fine */
    write_file("utf8.txt", "start ; \xC5\x9F" "eker bayram\xC4\xB1\n");
    assert_int_equal(sh("%s analyze --in %s/utf8.txt --nodes 100 --out %s/u.csv", test_dama_bin(), dir, dir), 0);
    Csv *c = load_csv("u.csv");
    assert_string_equal(csv_cell(c, 1, "item_id"), "\xC5\x9F" "eker bayram\xC4\xB1");
    csv_release(c);
}

/* The PDN reader cut a token at 127 bytes, a FEN tag at 511, and swallowed the rest of the
 * file after a '{' or '[' never closed, all silently: each is now a bad line. */
static void test_pdn_never_cuts(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    /* "1." + 120 more dots + "c3-c4" is 127 bytes: cut there it was the legal c3-c4 */
    char pdn[512];
    size_t n = 0;
    pdn[n++] = '1';
    for (int i = 0; i < 121; i++)
        pdn[n++] = '.';
    n += (size_t)snprintf(pdn + n, sizeof pdn - n, "c3-c4zz *\n");
    write_file("long.pdn", pdn);
    assert_int_equal(sh("%s analyze --in %s/long.pdn --nodes 100 --out %s/p.csv", bin, dir, dir), 2);
    err_has("long.pdn:1: game 1: move '1" "..................." "...'"); /* 20 bytes, then "..." */
    err_has("': longer than 127 characters");

    /* a FEN tag of 517 bytes: cut at 511 it was W:Wa2:Ba6 without b7 */
    char tag[700];
    n = (size_t)snprintf(tag, sizeof tag, "[FEN \"W:Wa2:Ba6");
    for (int i = 0; i < 505; i++)
        tag[n++] = ' ';
    snprintf(tag + n, sizeof tag - n, ",b7\"]\n1. a2-a3 *\n");
    write_file("tag.pdn", tag);
    assert_int_equal(sh("%s analyze --in %s/tag.pdn --nodes 100 --out %s/p.csv", bin, dir, dir), 2);
    err_has("tag.pdn:1: game 1: FEN tag: longer than 511 characters");

    write_file("open.pdn", "1. c3-c4 {never closed\n2. d3-d4 *\n");
    assert_int_equal(sh("%s analyze --in %s/open.pdn --nodes 100 --out %s/p.csv", bin, dir, dir), 2);
    err_has("open.pdn:1: game 1: comment: '{' not closed by '}'");
    Csv *c = load_csv("p.csv"); /* the positions before it are kept */
    assert_int_equal(c->nrows, 3);
    assert_string_equal(csv_cell(c, 2, "item_id"), "game1:ply1");
    csv_release(c);

    write_file("opentag.pdn", "[Event \"x\n1. c3-c4 *\n");
    assert_int_equal(sh("%s analyze --in %s/opentag.pdn --nodes 100 --out %s/p.csv", bin, dir, dir), 2);
    err_has("opentag.pdn:1: game 1: tag: '[' not closed by ']'");
}

/* The GameType tag names the game (PDN 3.0: 20 International, 30 Turkish): a game of
 * another variant is a bad game, not moves read on the wrong board. */
static void test_pdn_gametype(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    write_file("types.pdn", "[GameType \"20\"]\n1. 32-28 *\n\n"
                            "[GameType \"30,W,8,8,A0,0\"]\n1. c3-c4 *\n\n"
                            "[GameType \"x\"]\n*\n[GameType \"21\"]\n*\n");
    assert_int_equal(sh("%s analyze --in %s/types.pdn --nodes 100 --out %s/t.csv", bin, dir, dir), 2);
    err_has("types.pdn:1: game 1: GameType: 20 is international draughts, not turkish (give --variant international)");
    err_has("types.pdn:7: game 3: GameType: not a game type number (turkish is 30)");
    err_has("types.pdn:9: game 4: GameType: 21 is no game dama plays (turkish is 30)");
    Csv *c = load_csv("t.csv"); /* game 2, Turkish in full form: its two positions */
    assert_int_equal(c->nrows, 3);
    assert_string_equal(csv_cell(c, 2, "item_id"), "game2:ply1");
    csv_release(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_and_bad_lines),
        cmocka_unit_test(test_strict),
        cmocka_unit_test(test_threads_agree),
        cmocka_unit_test(test_db_stores_rows),
        cmocka_unit_test(test_db_and_pdn_sources),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_nul_bytes),
        cmocka_unit_test(test_bom_and_crlf),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_pdn_never_cuts),
        cmocka_unit_test(test_pdn_gametype),
    };
    return cmocka_run_group_tests_name("analysis", tests, setup, teardown);
}
