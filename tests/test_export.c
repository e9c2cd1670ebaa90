/* `dama export` end to end: a small self-play database, every WHAT exported and parsed back
 * with libcsv, values checked against the store; quoting; errors; one snapshot for every
 * file while another Store writes; unfinished runs; bit 63; Ctrl-C; an older schema. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "csv_writer.h"
#include "export.h"
#include "game.h"
#include "position.h"
#include "search.h"
#include "store.h"
#include "test_util.h"
#include "test_csv.h"
#include "turkish_eval.h"
#include "variant.h"
#include "weights.h"
#include "pattern_spec_fixture.h"
#include "weights_store.h"

/* A numeric cell. */
static long long cell_ll(const Csv *c, int row, const char *name) { return strtoll(csv_cell(c, row, name), NULL, 10); }

/* A bitboard cell: a signed 64-bit integer (the whole cell, in range) with the board's bits. */
static uint64_t cell_bits(const Csv *c, int row, const char *name)
{
    const char *text = csv_cell(c, row, name);
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end)
        fail_msg("row %d: %s '%s' is not a signed 64-bit integer", row, name, text);
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    return u;
}

/* ---- fixture: one database for the whole group ---- */

typedef struct Fixture {
    char dir[64];
    char db[96];
} Fixture;

static Fixture fx;

/* Where sh() sends stdout and stderr: set by the group setup. */
static char redirect[256];
#define sh(...) test_shell(redirect, __VA_ARGS__)

static char *read_fixture_file(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", fx.dir, name);
    char *t = test_read_file(path);
    assert_non_null(t);
    return t;
}

static void expect_export(const char *what, const char *extra)
{
    int code = sh("%s export --db %s %s %s --out %s/%s.csv", test_dama_bin(), fx.db, extra, what,
                  fx.dir, what);
    if (code != 0) {
        char *err = read_fixture_file("err.txt");
        fail_msg("export %s: exit %d: %s", what, code, err);
    }
}

static Csv *export_load(const char *what, const char *extra)
{
    expect_export(what, extra);
    char path[128];
    snprintf(path, sizeof path, "%s/%s.csv", fx.dir, what);
    return csv_load(path);
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(fx.dir, sizeof fx.dir, "/tmp/dama-test-export-XXXXXX");
    if (!mkdtemp(fx.dir))
        return -1;
    snprintf(redirect, sizeof redirect, ">%s/out.txt 2>%s/err.txt", fx.dir, fx.dir);
    snprintf(fx.db, sizeof fx.db, "%s/t.db", fx.dir);
    if (sh("%s selfplay --db %s --games 6 --nodes 300 --threads 2", test_dama_bin(), fx.db) != 0)
        return -1;
    /* a tuning run and a match, written through the store, for their exports */
    char err[256];
    Store *s = store_open(fx.db, err, sizeof err);
    if (!s)
        return -1;
    const double train[3] = { 0.25, 0.125, 0.0625 }, valid[3] = { 0.5, 0.25, 0.2 };
    TuneRunRecord tr = { .parent_weights_id = 1, .result_weights_id = 1, .k = 0.004, .train_loss = 0.0625,
                         .validation_loss = 0.2, .positions = 481, .epochs = 2, .epoch_train = train,
                         .epoch_valid = valid, .nepochs = 3 };
    MatchRecord mr = { .weights_a = 1, .weights_b = 1, .games = 10, .wins = 4, .draws = 3, .losses = 3,
                       .penta = "0,1,2,1,1", .elo = 34.5, .elo_low = -80.25, .elo_high = 150.5,
                       .llr = 0.5, .llr_low = -2.94, .llr_high = 2.94, .verdict = "continue" };
    bool ok = store_tune_run_put(s, &tr) > 0 && store_match_put(s, &mr) > 0;
    store_close(s);
    return ok ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx.dir);
    return system(cmd) == 0 ? 0 : -1;
}

static Store *open_db(void)
{
    char err[256];
    Store *s = store_open(fx.db, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

static int64_t count(Store *s, const char *table)
{
    int64_t n = -1;
    assert_true(store_count(s, table, &n));
    return n;
}

/* ---- tests ---- */

static void test_games(void **state)
{
    (void)state;
    Store *s = open_db();
    Csv *c = export_load("games", "");
    assert_int_equal(c->nrows - 1, count(s, "games"));
    assert_int_equal(c->nrows - 1, 6);
    assert_string_equal(c->rows[0][0], "game_id");
    for (int r = 1; r < c->nrows; r++) {
        StoredGame g;
        assert_true(store_game_read(s, cell_ll(c, r, "game_id"), &g));
        assert_string_equal(csv_cell(c, r, "moves"), g.rec.moves);
        assert_string_equal(csv_cell(c, r, "result"), result_name(g.rec.result));
        assert_string_equal(csv_cell(c, r, "reason"), g.rec.reason ? g.rec.reason : "");
        assert_int_equal(cell_ll(c, r, "plies"), g.rec.plies);
        assert_int_equal(cell_ll(c, r, "npositions"), g.rec.npositions);
        assert_int_equal(cell_ll(c, r, "run_id"), g.rec.run_id);
        assert_int_equal(cell_ll(c, r, "mars"), g.rec.mars);
        /* the opening's FEN is the game's first position */
        char fen[256];
        position_to_fen(&g.positions[0].pos, &turkish_variant, fen, sizeof fen);
        assert_string_equal(csv_cell(c, r, "opening_fen"), fen);
        store_game_free(&g);
    }
    csv_release(c);
    store_close(s);
}

static void test_positions(void **state)
{
    (void)state;
    Store *s = open_db();
    Csv *c = export_load("positions", "");
    static const char *const header[] = { "game_id", "ply", "fen", "white_men", "white_kings", "black_men",
                                          "black_kings", "side", "score", "capture_pending", "result",
                                          "stm_result", "stm_points", "variant" };
    assert_int_equal(c->ncols[0], 14);
    for (int i = 0; i < 14; i++)
        assert_string_equal(c->rows[0][i], header[i]);
    assert_int_equal(c->nrows - 1, count(s, "positions"));
    StoredGame g = { 0 };
    for (int r = 1; r < c->nrows; r++) {
        int64_t id = cell_ll(c, r, "game_id");
        int ply = (int)cell_ll(c, r, "ply");
        if (g.id != id) {
            store_game_free(&g);
            assert_true(store_game_read(s, id, &g));
        }
        assert_true(ply < g.rec.npositions);
        const StoredPosition *sp = &g.positions[ply];
        /* the bitboards (signed 64-bit) round-trip to the FEN column and the stored position */
        Position pos = { .men = { cell_bits(c, r, "white_men"), cell_bits(c, r, "black_men") },
                         .kings = { cell_bits(c, r, "white_kings"), cell_bits(c, r, "black_kings") },
                         .side = strcmp(csv_cell(c, r, "side"), "white") == 0 ? WHITE : BLACK };
        char fen[256];
        position_to_fen(&pos, &turkish_variant, fen, sizeof fen);
        assert_string_equal(csv_cell(c, r, "fen"), fen);
        assert_true(position_equal(&pos, &sp->pos));
        Position parsed;
        char err[128];
        assert_true(position_from_fen(&parsed, &turkish_variant, csv_cell(c, r, "fen"), err, sizeof err));
        assert_true(position_equal(&parsed, &pos));
        if (sp->has_score)
            assert_int_equal(cell_ll(c, r, "score"), sp->score);
        else
            assert_string_equal(csv_cell(c, r, "score"), "");
        assert_int_equal(cell_ll(c, r, "capture_pending"), sp->capture_pending);
        /* result as games.csv says it (White's view); stm_ the same from the side to move */
        assert_string_equal(csv_cell(c, r, "result"), result_name(g.rec.result));
        bool stm_won = (g.rec.result == RESULT_WHITE_WINS) == (pos.side == WHITE);
        const char *want = g.rec.result == RESULT_DRAW ? "draw" : stm_won ? "win" : "loss";
        assert_string_equal(csv_cell(c, r, "stm_result"), want);
        assert_string_equal(csv_cell(c, r, "stm_points"), g.rec.result == RESULT_DRAW ? "0.5" : stm_won ? "1" : "0");
    }
    store_game_free(&g);
    csv_release(c);
    store_close(s);
}

static void test_summary_and_openings(void **state)
{
    (void)state;
    Csv *games = export_load("games", "");
    double sum = 0, sumsq = 0;
    int white = 0, black = 0, draws = 0;
    for (int r = 1; r < games->nrows; r++) {
        double p = (double)cell_ll(games, r, "plies");
        sum += p;
        sumsq += p * p;
        const char *res = csv_cell(games, r, "result");
        white += strcmp(res, "white") == 0;
        black += strcmp(res, "black") == 0;
        draws += strcmp(res, "draw") == 0;
    }
    int n = games->nrows - 1;
    Csv *c = export_load("summary", "");
    assert_int_equal(c->nrows, 2); /* one run */
    assert_int_equal(cell_ll(c, 1, "games"), n);
    assert_int_equal(cell_ll(c, 1, "white_wins"), white);
    assert_int_equal(cell_ll(c, 1, "black_wins"), black);
    assert_int_equal(cell_ll(c, 1, "draws"), draws);
    assert_string_equal(csv_cell(c, 1, "run_kind"), "selfplay");
    assert_string_equal(csv_cell(c, 1, "run_status"), "done");
    double mean = sum / n, sd = sqrt((sumsq - sum * sum / n) / (n - 1));
    assert_true(fabs(strtod(csv_cell(c, 1, "mean_plies"), NULL) - mean) < 1e-6);
    assert_true(fabs(strtod(csv_cell(c, 1, "stddev_plies"), NULL) - sd) < 1e-6);
    assert_true(fabs(strtod(csv_cell(c, 1, "white_score"), NULL) - (white + 0.5 * draws) / n) < 1e-9);
    csv_release(c);

    c = export_load("openings", "");
    int total = 0;
    for (int r = 1; r < c->nrows; r++)
        total += (int)cell_ll(c, r, "games");
    assert_int_equal(total, n);
    assert_int_equal(c->nrows - 1, 3); /* 6 games = 3 pairs, one opening each */
    csv_release(c);
    csv_release(games);
}

typedef struct Tally {
    int64_t scored;
} Tally;

static int tally(void *ctx, int64_t game_id, int ply, const Position *pos, int score, bool has_score, int result)
{
    (void)game_id, (void)ply, (void)pos, (void)result;
    Tally *t = ctx;
    if (has_score && score <= SCORE_WIN_BOUND && score >= -SCORE_WIN_BOUND)
        t->scored++;
    return 0;
}

static void test_calibration(void **state)
{
    (void)state;
    Store *s = open_db();
    Tally t = { 0 };
    assert_true(store_positions_foreach(s, "turkish", NULL, 0, false, tally, &t));
    store_close(s);
    Csv *c = export_load("calibration", "--bucket 100");
    int64_t total = 0;
    for (int r = 1; r < c->nrows; r++) {
        total += cell_ll(c, r, "positions");
        long long low = cell_ll(c, r, "bucket_low"), high = cell_ll(c, r, "bucket_high");
        double mean = strtod(csv_cell(c, r, "mean_score"), NULL);
        assert_int_equal(high - low, 100);
        assert_true(mean >= (double)low && mean < (double)high);
        double expected = strtod(csv_cell(c, r, "expected"), NULL), observed = strtod(csv_cell(c, r, "observed"), NULL);
        assert_true(expected > 0 && expected < 1 && observed >= 0 && observed <= 1);
        assert_int_equal(cell_ll(c, r, "stm_wins") + cell_ll(c, r, "draws") + cell_ll(c, r, "stm_losses"),
                         cell_ll(c, r, "positions"));
    }
    assert_true(t.scored > 0);
    assert_int_equal(total, t.scored);
    csv_release(c);
}

/* A pattern set exports its eval, hash and linear values; its table is no column. */
static void test_pattern_weights_export(void **state)
{
    (void)state;
    char db[128], csv[128], err[256];
    snprintf(db, sizeof db, "%s/pattern.db", fx.dir);
    snprintf(csv, sizeof csv, "%s/pattern.csv", fx.dir);
    Store *s = store_open(db, err, sizeof err);
    assert_non_null(s);
    WEIGHTS_SCOPED w = { 0 };
    assert_true(weights_init(&w, pattern_fixture_spec()));
    for (int i = 0; i < w.count; i++)
        w.w[i] = (int32_t)(i * 7919 % 2001) - 1000; /* a table that does not compress to nothing */
    assert_true(weights_store_save(s, &w, 3, 0, "pattern") > 0);
    store_close(s);
    assert_int_equal(sh("%s export --db %s weights --out %s", test_dama_bin(), db, csv), 0);
    Csv *c = csv_load(csv);
    assert_int_equal(c->nrows - 1, 1);
    assert_string_equal(csv_cell(c, 1, "eval"), "pattern");
    char hash[17];
    snprintf(hash, sizeof hash, "%016" PRIx64, weights_hash(&w));
    assert_string_equal(csv_cell(c, 1, "hash"), hash);
    assert_int_equal(c->ncols[0], 8 + weights_count(&turkish_eval_spec)); /* the linear weights only */
    for (int i = 0; i < weights_count(&turkish_eval_spec); i++)
        assert_int_equal(cell_ll(c, 1, weight_name(&turkish_eval_spec, i)), w.w[i]);
    csv_release(c);
    char *text = test_read_file(csv);
    assert_true(strlen(text) < 4096); /* 2000 pattern weights did not go into the file */
    free(text);
}

static void test_tuning_matches_weights_runs(void **state)
{
    (void)state;
    Csv *c = export_load("tuning", "");
    assert_int_equal(c->nrows - 1, 3);
    for (int r = 1; r < c->nrows; r++) {
        assert_int_equal(cell_ll(c, r, "epoch"), r - 1);
        assert_int_equal(cell_ll(c, r, "tune_run_id"), 1);
    }
    assert_true(strtod(csv_cell(c, 3, "train_loss"), NULL) == 0.0625);
    assert_true(strtod(csv_cell(c, 2, "validation_loss"), NULL) == 0.25);
    csv_release(c);

    c = export_load("tune_runs", "");
    assert_int_equal(c->nrows - 1, 1);
    assert_int_equal(cell_ll(c, 1, "positions"), 481);
    assert_true(strtod(csv_cell(c, 1, "k"), NULL) == 0.004);
    csv_release(c);

    c = export_load("matches", "");
    assert_int_equal(c->nrows - 1, 1);
    assert_true(strtod(csv_cell(c, 1, "elo"), NULL) == 34.5);
    assert_true(strtod(csv_cell(c, 1, "elo_low"), NULL) == -80.25);
    assert_true(strtod(csv_cell(c, 1, "elo_high"), NULL) == 150.5);
    assert_string_equal(csv_cell(c, 1, "verdict"), "continue");
    assert_string_equal(csv_cell(c, 1, "penta"), "0,1,2,1,1"); /* a quoted field with commas */
    assert_true(strtod(csv_cell(c, 1, "a_score"), NULL) == 0.55);
    assert_int_equal(cell_ll(c, 1, "a_wins"), 4); /* MatchRecord: wins 4, draws 3, losses 3 */
    assert_int_equal(cell_ll(c, 1, "b_wins"), 3);
    assert_int_equal(cell_ll(c, 1, "a_weights_id"), 1);
    assert_int_equal(cell_ll(c, 1, "b_weights_id"), 1);
    csv_release(c);

    c = export_load("weights", "");
    assert_int_equal(c->nrows - 1, 1);
    assert_int_equal(c->ncols[0], 8 + weights_count(&turkish_eval_spec));
    assert_string_equal(csv_cell(c, 1, "eval"), "linear");
    assert_int_equal(strlen(csv_cell(c, 1, "hash")), 16);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    for (int i = 0; i < weights_count(&turkish_eval_spec); i++)
        assert_int_equal(cell_ll(c, 1, weight_name(&turkish_eval_spec, i)), w.w[i]);
    csv_release(c);

    c = export_load("runs", "");
    Store *s = open_db();
    assert_int_equal(c->nrows - 1, count(s, "runs"));
    store_close(s);
    assert_string_equal(csv_cell(c, 1, "kind"), "selfplay");
    assert_non_null(strstr(csv_cell(c, 1, "params"), "games=6"));
    csv_release(c);
}

/* Batch analysis results with awkward ids, stored and exported: quoting survives. */
static void test_analyses_quoting(void **state)
{
    (void)state;
    char in[128];
    snprintf(in, sizeof in, "%s/batch.txt", fx.dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs("start ; plain\nW:Wa2,b3:Ba6,b7 ; with, comma\nB:Wa2:Ba6 ; say \"hi\", twice\n", f);
    fclose(f);
    char db[128];
    snprintf(db, sizeof db, "%s/an.db", fx.dir);
    assert_int_equal(sh("%s analyze --db %s --in %s --nodes 500 --threads 1", test_dama_bin(), db, in), 0);
    assert_int_equal(sh("%s export --db %s analyses --out %s/analyses.csv", test_dama_bin(), db, fx.dir), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/analyses.csv", fx.dir);
    Csv *c = csv_load(path);
    assert_int_equal(c->nrows - 1, 3);
    assert_string_equal(csv_cell(c, 1, "item_id"), "plain");
    assert_string_equal(csv_cell(c, 2, "item_id"), "with, comma");
    assert_string_equal(csv_cell(c, 3, "item_id"), "say \"hi\", twice");
    assert_string_equal(csv_cell(c, 2, "fen"), "W:Wa2,b3:Ba6,b7");
    char text[32];
    assert_string_equal(csv_cell(c, 1, "score_text"), score_to_text((int)cell_ll(c, 1, "score"), text, sizeof text));
    csv_release(c);
    /* and the raw bytes: RFC 4180 quoting, quotes doubled */
    char *raw = test_read_file(path);
    assert_non_null(strstr(raw, "\"with, comma\""));
    assert_non_null(strstr(raw, "\"say \"\"hi\"\", twice\""));
    free(raw);
}

/* The writer itself: awkward fields through libcsv and back. */
static void test_writer_quoting(void **state)
{
    (void)state;
    static const char *const fields[] = { "plain", "a,b", "say \"x\"", "two\nlines", "", "cr\rhere", " lead" };
    const int n = (int)(sizeof fields / sizeof fields[0]);
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/quote.csv", fx.dir);
    CsvWriter w;
    assert_true(csv_writer_open(&w, path, err, sizeof err));
    csv_header(&w, fields, n);
    csv_int(&w, -9223372036854775807LL - 1);
    csv_uint(&w, 18446744073709551615ULL);
    csv_real(&w, 0.5);
    csv_real(&w, NAN);
    csv_text(&w, NULL);
    csv_int(&w, 0);
    csv_uint(&w, 100);
    csv_end_row(&w);
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0); /* not there before the commit */
    assert_true(csv_writer_commit(&w, err, sizeof err));
    Csv *c = csv_load(path);
    assert_int_equal(c->nrows, 2);
    for (int i = 0; i < n; i++)
        assert_string_equal(c->rows[0][i], fields[i]);
    assert_string_equal(c->rows[1][0], "-9223372036854775808");
    assert_string_equal(c->rows[1][1], "18446744073709551615");
    assert_string_equal(c->rows[1][2], "0.5");
    assert_string_equal(c->rows[1][3], "");
    assert_string_equal(c->rows[1][4], "");
    assert_string_equal(c->rows[1][5], "0");
    assert_string_equal(c->rows[1][6], "100");
    csv_release(c);
    /* the fast FEN equals the engine's */
    Position pos;
    assert_true(position_from_fen(&pos, &turkish_variant, "B:WKa1,b2,h7:Bc5,Kh8,a6", err, sizeof err));
    char a[256], b[256];
    position_to_fen(&pos, &turkish_variant, a, sizeof a);
    assert_int_equal(export_fen(&pos, &turkish_variant, b), strlen(a));
    assert_string_equal(a, b);
}

static void test_run_filter_and_dir(void **state)
{
    (void)state;
    char out[128];
    snprintf(out, sizeof out, "%s/all/", fx.dir);
    assert_int_equal(sh("%s export --db %s --out %s", test_dama_bin(), fx.db, out), 0);
    for (int i = 0; export_names[i]; i++) {
        char path[192];
        snprintf(path, sizeof path, "%s%s.csv", out, export_names[i]);
        Csv *c = csv_load(path);
        assert_true(c->nrows >= 1); /* at least the header */
        csv_release(c);
    }
    Csv *c = export_load("games", "--run 1");
    assert_int_equal(c->nrows - 1, 6);
    csv_release(c);
    /* a run with no games: only the header */
    c = export_load("matches", "--run 1");
    assert_int_equal(c->nrows, 1);
    csv_release(c);
}

/* The own id of a table's export, by the scheme of docs/csv.md: <table>_id. */
static const char *own_id(const char *what)
{
    static const char *const ids[][2] = { { "runs", "run_id" }, { "games", "game_id" },
                                          { "openings", "opening_id" }, { "tune_runs", "tune_run_id" },
                                          { "matches", "match_id" }, { "weights", "weights_id" },
                                          { "analyses", "analysis_id" } };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (strcmp(ids[i][0], what) == 0)
            return ids[i][1];
    return NULL;
}

/* docs/csv.md's section "## WHAT.csv" (up to the next "## "), or NULL. */
static char *doc_section(const char *doc, const char *heading)
{
    const char *at = strstr(doc, heading);
    if (!at)
        return NULL;
    const char *end = strstr(at + strlen(heading), "\n## ");
    size_t len = end ? (size_t)(end - at) : strlen(at);
    char *sec = malloc(len + 1);
    memcpy(sec, at, len);
    sec[len] = '\0';
    return sec;
}

/* One scheme in every file: no bare "id", each table's own id first as <table>_id, every
 * result column white/black/draw; and docs/csv.md names every column of every file in
 * that file's section (analyze's own CSV too), so pandas users need not guess. */
static void test_columns_follow_the_documented_scheme(void **state)
{
    (void)state;
    char *doc = test_read_file("docs/csv.md");
    assert_non_null(doc);
    char out[128];
    snprintf(out, sizeof out, "%s/scheme/", fx.dir);
    assert_int_equal(sh("%s export --db %s --out %s", test_dama_bin(), fx.db, out), 0);
    char batch[160], in[160];
    snprintf(in, sizeof in, "%s/scheme/in.txt", fx.dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs("start ; first\n", f);
    fclose(f);
    snprintf(batch, sizeof batch, "%s/scheme/batch.csv", fx.dir);
    assert_int_equal(sh("%s analyze --in %s --nodes 300 --threads 1 --out %s", test_dama_bin(), in, batch), 0);
    int problems = 0;
    for (int i = 0;; i++) {
        const char *what = export_names[i]; /* after the last export: analyze's CSV */
        char path[192], heading[64];
        if (what) {
            snprintf(path, sizeof path, "%s%s.csv", out, what);
            snprintf(heading, sizeof heading, "## %s.csv\n", what);
        } else {
            snprintf(path, sizeof path, "%s", batch);
            snprintf(heading, sizeof heading, "## analyze --out FILE.csv\n");
        }
        Csv *c = csv_load(path);
        char *sec = doc_section(doc, heading);
        if (!sec) {
            print_error("docs/csv.md has no section '%.*s'\n", (int)strlen(heading) - 1, heading);
            problems++;
        }
        const char *id = what ? own_id(what) : NULL;
        if (id && strcmp(c->rows[0][0], id) != 0) {
            print_error("%s.csv: the first column is %s, not %s\n", what, c->rows[0][0], id);
            problems++;
        }
        for (int k = 0; k < c->ncols[0]; k++) {
            const char *col = c->rows[0][k];
            if (strcmp(col, "id") == 0) {
                print_error("%s: a bare id column\n", path);
                problems++;
            }
            if (what && strcmp(col, "result") == 0)
                for (int r = 1; r < c->nrows; r++) {
                    const char *v = c->rows[r][k];
                    if (strcmp(v, "white") != 0 && strcmp(v, "black") != 0 && strcmp(v, "draw") != 0) {
                        print_error("%s.csv row %d: result '%s'\n", what, r, v);
                        problems++;
                        break;
                    }
                }
            /* weights.csv: a column per weight name after eval, documented together */
            bool weight_name_col = what && strcmp(what, "weights") == 0 && k > csv_col(c, "eval");
            char quoted[96];
            snprintf(quoted, sizeof quoted, "`%s`", col);
            if (sec && !weight_name_col && !strstr(sec, quoted)) {
                print_error("docs/csv.md, %.*s: no %s\n", (int)strlen(heading) - 1, heading, quoted);
                problems++;
            }
        }
        free(sec);
        csv_release(c);
        if (!what)
            break;
    }
    free(doc);
    assert_int_equal(problems, 0);
    /* scripts/plot reads the columns by these names: every chart of the fixture is drawn */
    if (system("command -v gnuplot >/dev/null 2>&1") == 0) {
        assert_int_equal(sh("scripts/plot %s", out), 0);
        static const char *const charts[] = { "elo", "loss", "lengths", "calibration" };
        for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
            char png[192];
            snprintf(png, sizeof png, "%s%s.png", out, charts[i]);
            if (access(png, F_OK) != 0)
                fail_msg("scripts/plot drew no %s", png);
        }
    }
}

/* scripts/adjudication-check on hand-worked games (level = a known |score| <= CP):
 *   1 draw, ended by adjudication at 10: scores 0 at plies 0-9;
 *   2 White won at 10 by the rules: 0 at 0-9 but 100 at ply 3 and none at ply 6;
 *   3 Black won at 8 by the rules: 0 at plies 0-7;
 *   4 unfinished: not counted.
 * 3:4:2 ends game 1 at ply 4 (6 plies saved) and game 3 at 4 (4 saved, a decided game);
 * game 2 never has 4 level plies running.  3:4:9 ends game 1 at 9 (1 saved); game 3 would
 * need ply 9 and ended at 8.  50:3:10 ends game 1 at 10, where its adjudication did (0
 * saved), and not game 2, which the rules ended at 10 first. */
static void test_adjudication_check(void **state)
{
    (void)state;
    char db[128], out[160];
    snprintf(db, sizeof db, "%s/adjudication.db", fx.dir);
    snprintf(out, sizeof out, "%s/adjudication.txt", fx.dir);
    assert_int_equal(test_shell("", "sqlite3 %s < data/schema.sql && sqlite3 %s \""
        "INSERT INTO runs (id, kind) VALUES (1, 'match');"
        "INSERT INTO games (id, run_id, result, reason, plies, npositions) VALUES"
        " (1, 1, 'draw', 'adjudication', 10, 11), (2, 1, 'white', 'no-moves', 10, 11),"
        " (3, 1, 'black', 'no-moves', 8, 9), (4, 1, 'unfinished', NULL, 2, 3);"
        "WITH RECURSIVE p(g, ply) AS (SELECT id, 0 FROM games UNION ALL"
        " SELECT g, ply + 1 FROM p WHERE ply < (SELECT plies FROM games WHERE id = g))"
        " INSERT INTO positions SELECT g, ply, 0, 0, 0, 0, ply %% 2,"
        " CASE WHEN ply = (SELECT plies FROM games WHERE id = g) OR (g = 2 AND ply = 6) THEN NULL"
        " WHEN g = 2 AND ply = 3 THEN 100 ELSE 0 END, 0 FROM p;\"", db, db), 0);
    assert_int_equal(test_shell("", "scripts/adjudication-check %s 3:4:2 3:4:9 50:3:10 > %s", db, out), 0);
    char *text = test_read_file(out);
    assert_string_equal(text, "setting        games adjudicated   decided-games  plies-saved\n"
                              "3:4:2              3           2               1        35.7%\n"
                              "3:4:9              3           1               0         3.6%\n"
                              "50:3:10            3           1               0         0.0%\n");
    free(text);
    assert_int_equal(test_shell("", "scripts/adjudication-check %s 3:0:2 > %s 2>&1", db, out), 2);
    text = test_read_file(out);
    assert_non_null(strstr(text, "bad setting '3:0:2'"));
    free(text);
}

static void test_errors(void **state)
{
    (void)state;
    const char *bin = test_dama_bin();
    assert_int_equal(sh("%s export --db %s frobs --out %s/x.csv", bin, fx.db, fx.dir), 2);
    char *err = read_fixture_file("err.txt");
    assert_non_null(strstr(err, "unknown export 'frobs'"));
    free(err);
    assert_int_equal(sh("%s export --db %s games", bin, fx.db), 2);
    err = read_fixture_file("err.txt");
    assert_non_null(strstr(err, "--out"));
    free(err);
    assert_int_equal(sh("%s export --db %s --run 99 games --out %s/x.csv", bin, fx.db, fx.dir), 2);
    /* a missing database is an error and is not created */
    char missing[128];
    snprintf(missing, sizeof missing, "%s/missing.db", fx.dir);
    assert_int_equal(sh("%s export --db %s games --out %s/x.csv", bin, missing, fx.dir), 1);
    err = read_fixture_file("err.txt");
    assert_non_null(strstr(err, "no such database"));
    free(err);
    struct stat st;
    assert_int_not_equal(stat(missing, &st), 0);
    char x[128];
    snprintf(x, sizeof x, "%s/x.csv", fx.dir);
    assert_int_not_equal(stat(x, &st), 0);
}

/* A new database fx.dir/NAME opened to write; its path into path. */
static Store *new_db(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", fx.dir, name);
    char err[512];
    Store *s = store_open(path, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

/* Games of a run written through the store: n games of 3 plies, position 0 with the given
 * white kings (so a test can put one on h8, bit 63). */
static void write_games(Store *s, int64_t run, int n, uint64_t white_kings)
{
    StoredPosition pos[4];
    for (int i = 0; i < 4; i++)
        pos[i] = (StoredPosition){ .pos = { .men = { 0x0000000000ff0000ull, 0x0000ff0000000000ull },
                                            .kings = { i == 0 ? white_kings : 0, 0 }, .side = i % 2 },
                                   .score = 10 * i, .has_score = true };
    for (int g = 0; g < n; g++) {
        GameRecord rec = { .variant = "turkish", .run_id = run, .result = g % 2 ? RESULT_DRAW : RESULT_WHITE_WINS, .plies = 3,
                           .moves = "a3-a4 h6-h5 a4-a5", .seed = (uint64_t)g, .positions = pos, .npositions = 4 };
        if (!store_games_write(s, &rec, 1))
            fail_msg("%s", store_error(s));
    }
}

/* DIR/WHAT.csv read back. */
static Csv *load_in(const char *dir, const char *what)
{
    char path[192];
    snprintf(path, sizeof path, "%s/%s.csv", dir, what);
    return csv_load(path);
}

/* Data rows of DIR/WHAT.csv, or the sum of one column over them. */
static int64_t rows_of(const char *dir, const char *what)
{
    Csv *c = load_in(dir, what);
    int64_t n = c->nrows - 1;
    csv_release(c);
    return n;
}

static int64_t column_sum(const char *dir, const char *what, const char *name)
{
    Csv *c = load_in(dir, what);
    int64_t n = 0;
    for (int r = 1; r < c->nrows; r++)
        n += cell_ll(c, r, name);
    csv_release(c);
    return n;
}

/* Every file of one export comes from one snapshot: games written by another Store after
 * the snapshot began appear in none of them, though the export is still going on.  (Each
 * file used to take its own snapshot: games.csv and summary.csv disagreed while self-play
 * wrote.) */
static void test_one_snapshot_for_all_files(void **state)
{
    (void)state;
    char db[128], dir[128], err[512];
    Store *w = new_db("snap.db", db, sizeof db);
    snprintf(dir, sizeof dir, "%s/snap", fx.dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    int64_t run = store_run_begin(w, "selfplay", "turkish", NULL, NULL, NULL, 0);
    write_games(w, run, 5, 0);
    assert_true(store_run_end(w, run, "done"));

    Store *r = store_open_readonly(db, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    assert_true(store_snapshot_begin(r));
    ExportOptions eo = { .variant = &turkish_variant, .k = EXPORT_DEFAULT_K, .bucket = EXPORT_DEFAULT_BUCKET };
    static const char *const order[] = { "games", "summary", "positions", "openings", "calibration" };
    for (int i = 0; i < 5; i++) {
        write_games(w, run, 3, 0); /* between every two files, three more games */
        char path[192];
        snprintf(path, sizeof path, "%s/%s.csv", dir, order[i]);
        if (!export_write(r, order[i], &eo, path, NULL, err, sizeof err))
            fail_msg("export %s: %s", order[i], err);
    }
    store_snapshot_end(r);
    int64_t now = 0;
    assert_true(store_count(r, "games", &now));
    assert_int_equal(now, 5 + 15);
    store_close(r);
    store_close(w);
    assert_int_equal(rows_of(dir, "games"), 5);
    assert_int_equal(column_sum(dir, "summary", "games"), 5);
    assert_int_equal(rows_of(dir, "positions"), 5 * 4);
    assert_int_equal(rows_of(dir, "openings"), 1);
    assert_int_equal(column_sum(dir, "openings", "games"), 5);
    assert_int_equal(column_sum(dir, "calibration", "positions"), 5 * 4);
}

/* Statistics leave out runs that did not end 'done' unless asked; raw tables list them. */
static void test_unfinished_runs(void **state)
{
    (void)state;
    char db[128];
    Store *s = new_db("unfinished.db", db, sizeof db);
    static const char *const status[] = { "done", "interrupted", "failed", NULL };
    for (int i = 0; i < 4; i++) {
        int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
        write_games(s, run, i + 1, 0); /* run 1: 1 game, run 2: 2, ... */
        if (status[i])
            assert_true(store_run_end(s, run, status[i]));
    } /* run 4 stays 'running' */
    store_close(s);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/unf/", fx.dir);
    assert_int_equal(sh("%s export --db %s --out %s", test_dama_bin(), db, dir), 0);
    assert_int_equal(rows_of(dir, "games"), 10);
    assert_int_equal(rows_of(dir, "summary"), 1);
    assert_int_equal(column_sum(dir, "summary", "games"), 1);
    assert_int_equal(rows_of(dir, "positions"), 40);
    assert_int_equal(sh("%s export --db %s --include-unfinished --out %s", test_dama_bin(), db, dir), 0);
    assert_int_equal(rows_of(dir, "summary"), 4);
    assert_int_equal(column_sum(dir, "summary", "games"), 10);
    /* a run named with --run counts whatever its status */
    assert_int_equal(sh("%s export --db %s --run 3 summary --out %ssummary.csv", test_dama_bin(), db, dir), 0);
    assert_int_equal(column_sum(dir, "summary", "games"), 3);
    assert_int_equal(sh("%s export --db %s --include-unfinished --out %s", test_dama_bin(), db, dir), 0);
    Csv *c = load_in(dir, "summary");
    assert_string_equal(csv_cell(c, 2, "run_status"), "interrupted");
    assert_string_equal(csv_cell(c, 4, "run_status"), "running");
    csv_release(c);
    assert_int_equal(column_sum(dir, "openings", "games"), 10);
}

/* A piece on h8 (bit 63): the bitboard is a negative int64, the same bits as stored, and
 * the FEN next to it names the square. */
static void test_bitboard_bit_63(void **state)
{
    (void)state;
    char db[128];
    Store *s = new_db("h8.db", db, sizeof db);
    int64_t run = store_run_begin(s, "selfplay", "turkish", NULL, NULL, NULL, 0);
    write_games(s, run, 1, 1ull << 63);
    assert_true(store_run_end(s, run, "done"));
    store_close(s);
    assert_int_equal(sh("%s export --db %s positions --out %s/h8.csv", test_dama_bin(), db, fx.dir), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/h8.csv", fx.dir);
    Csv *c = csv_load(path);
    assert_int_equal(c->nrows - 1, 4);
    assert_string_equal(csv_cell(c, 1, "white_kings"), "-9223372036854775808");
    assert_true(cell_bits(c, 1, "white_kings") == 1ull << 63);
    assert_string_equal(csv_cell(c, 1, "white_men"), "16711680"); /* 0xff0000: row 3 */
    assert_non_null(strstr(csv_cell(c, 1, "fen"), "Kh8"));
    assert_string_equal(csv_cell(c, 2, "white_kings"), "0");
    csv_release(c);
}

/* Ctrl-C during an export: exit 130 and no file.  Deterministic: the signal is pending
 * before dama starts (blocked in the child, raised, then exec), and dama unblocks it once
 * its handler is in place, so the stop always lands before the first row. */
static void test_interrupted_export(void **state)
{
    (void)state;
    char dir[128];
    snprintf(dir, sizeof dir, "%s/intr/", fx.dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigprocmask(SIG_BLOCK, &set, NULL);
        raise(SIGINT);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execl(test_dama_bin(), test_dama_bin(), "export", "--db", fx.db, "--out", dir, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    /* the directory holds nothing: not the first file, not a temporary one */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s)\"", dir);
    assert_int_equal(system(cmd), 0);
}

/* A reader never migrates: an older database is refused with a clear message, unchanged. */
static void test_older_schema_refused(void **state)
{
    (void)state;
    char db[128];
    snprintf(db, sizeof db, "%s/v2.db", fx.dir);
    assert_int_equal(sh("sqlite3 %s < tests/data/schema-v2.sql", db), 0);
    assert_int_equal(sh("%s export --db %s games --out %s/v2.csv", test_dama_bin(), db, fx.dir), 1);
    char *err = read_fixture_file("err.txt");
    assert_non_null(strstr(err, "schema version 2 is older"));
    free(err);
    assert_int_equal(sh("test \"$(sqlite3 %s 'PRAGMA user_version')\" = 2", db), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_games),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_summary_and_openings),
        cmocka_unit_test(test_calibration),
        cmocka_unit_test(test_tuning_matches_weights_runs),
        cmocka_unit_test(test_pattern_weights_export),
        cmocka_unit_test(test_analyses_quoting),
        cmocka_unit_test(test_writer_quoting),
        cmocka_unit_test(test_run_filter_and_dir),
        cmocka_unit_test(test_columns_follow_the_documented_scheme),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_one_snapshot_for_all_files),
        cmocka_unit_test(test_unfinished_runs),
        cmocka_unit_test(test_bitboard_bit_63),
        cmocka_unit_test(test_interrupted_export),
        cmocka_unit_test(test_older_schema_refused),
        cmocka_unit_test(test_adjudication_check),
    };
    return cmocka_run_group_tests_name("export", tests, group_setup, group_teardown);
}
