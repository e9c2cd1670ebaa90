/* Tests of PDN export and import (analysis/pdn_*.c, store/pdn_store.c, cli/cmd_pdn.c):
 * round trips of self-play games of both variants, hand-written files with the exact
 * messages and the exact text written back, duplicates, variant mismatches, an old file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "http_client.h"
#include "pdn_read.h"
#include "store.h"
#include "test_util.h"
#include "test_tmpdir.h"

static char dir[64];

static int setup_dir(void **state)
{
    (void)state;
    return test_tmpdir_make(dir, sizeof dir, "pdn");
}

static int teardown_dir(void **state)
{
    (void)state;
    return test_tmpdir_remove(dir);
}

/* A new file in the scratch directory, open to write; its path into path. */
static FILE *create_file(const char *name, char path[128])
{
    snprintf(path, 128, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    return f;
}

static void write_file(const char *name, const char *text)
{
    char path[128];
    FILE *f = create_file(name, path);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static char *read_back(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *text = test_read_file(path);
    if (!text) fail_msg("%s: cannot read", path);
    return text;
}

/* text with every {d} replaced by the scratch directory, into out. */
static void expand(const char *text, char *out, size_t len)
{
    out[0] = '\0';
    for (const char *p = text; *p;) {
        bool dirname = strncmp(p, "{d}", 3) == 0;
        size_t n = strlen(out);
        snprintf(out + n, len - n, dirname ? "%s" : "%.1s", dirname ? dir : p);
        p += dirname ? 3 : 1;
    }
}

/* Runs dama (ARGS with {d} for the scratch directory) and checks its exit code and its
 * whole output (stdout and stderr, {d} again) when out is not NULL. */
static void dama_exact(const char *args, int code, const char *out)
{
    static char expanded[1024], got[1 << 14], want[1 << 14];
    expand(args, expanded, sizeof expanded);
    int rc = test_dama_run(got, sizeof got, "%s", expanded);
    if (rc != code) fail_msg("dama %s: exit %d, expected %d:\n%s", expanded, rc, code, got);
    if (!out) return;
    expand(out, want, sizeof want);
    if (strcmp(got, want) != 0) fail_msg("dama %s:\n--- got\n%s--- expected\n%s", expanded, got, want);
}

static int64_t count_rows(const char *db, const char *table)
{
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, db);
    Store *s = store_open_readonly(path, err, sizeof err);
    if (!s) fail_msg("%s", err);
    int64_t n = -1;
    assert_true(store_count(s, table, &n));
    assert_true(store_check(s));
    store_close(s);
    return n;
}

/* ---- round trips ---- */

static void round_trip(const char *variant)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "selfplay -v %s --db {d}/%s-a.db --games 6 --nodes 300", variant, variant);
    dama_exact(cmd, 0, NULL);
    snprintf(cmd, sizeof cmd, "pdn export -v %s --db {d}/%s-a.db --out {d}/%s-a.pdn", variant, variant, variant);
    dama_exact(cmd, 0, NULL);
    snprintf(cmd, sizeof cmd, "pdn import -v %s --db {d}/%s-b.db {d}/%s-a.pdn", variant, variant, variant);
    char out[512];
    snprintf(out, sizeof out, "pdn import {d}/%s-a.pdn games 6 imported 6 already 0 bad 0\n", variant);
    dama_exact(cmd, 0, out);
    snprintf(cmd, sizeof cmd, "pdn export -v %s --db {d}/%s-b.db --out {d}/%s-b.pdn", variant, variant, variant);
    dama_exact(cmd, 0, NULL);
    char name[64];
    snprintf(name, sizeof name, "%s-a.pdn", variant);
    char *a = read_back(name);
    snprintf(name, sizeof name, "%s-b.pdn", variant);
    char *b = read_back(name);
    assert_string_equal(a, b);
    /* six games of this variant, each with its tags, from the start of an opening */
    int games = 0;
    for (const char *p = a; (p = strstr(p, "[GameType \"")); p++, games++)
        assert_int_equal(strncmp(p + 11, strcmp(variant, "turkish") == 0 ? "30\"" : "20\"", 3), 0);
    assert_int_equal(games, 6);
    assert_non_null(strstr(a, "[DamaRun \"1\"]\n[DamaGameIndex \"5\"]\n[DamaSeed \""));
    assert_non_null(strstr(a, "[FEN \""));
    free(a);
    free(b);
    /* the imported games are a run of kind 'import' with every position */
    snprintf(name, sizeof name, "%s-b.db", variant);
    assert_int_equal(count_rows(name, "games"), 6);
    assert_int_equal(count_rows(name, "pdn_games"), 6);
    char path[128], err[256], kind[32], status[32], v[32];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    Store *s = store_open_readonly(path, err, sizeof err);
    assert_non_null(s);
    int64_t n = 0;
    assert_int_equal(store_run_info(s, 1, kind, sizeof kind, status, sizeof status, &n, v, sizeof v), 1);
    assert_string_equal(kind, "import");
    assert_string_equal(status, "done");
    assert_string_equal(v, strcmp(variant, "turkish") == 0 ? "turkish" : "international");
    assert_int_equal(n, 6);
    store_close(s);

    /* again: nothing new, into the copy or into the database the games came from */
    snprintf(cmd, sizeof cmd, "pdn import -v %s --db {d}/%s-b.db {d}/%s-a.pdn", variant, variant, variant);
    snprintf(out, sizeof out, "pdn import {d}/%s-a.pdn games 6 imported 0 already 6 bad 0\n", variant);
    dama_exact(cmd, 0, out);
    snprintf(cmd, sizeof cmd, "pdn import -v %s --db {d}/%s-a.db {d}/%s-a.pdn", variant, variant, variant);
    dama_exact(cmd, 0, out);
    snprintf(name, sizeof name, "%s-b.db", variant);
    assert_int_equal(count_rows(name, "games"), 6);
    assert_int_equal(count_rows(name, "runs"), 1);
    /* the tuner reads an import run like a self-play run */
    snprintf(cmd, sizeof cmd, "tune -v %s --db {d}/%s-b.db --runs 1 --epochs 1 --out {d}/%s-w.txt", variant, variant,
             variant);
    dama_exact(cmd, 0, NULL);
}

static void test_round_trip_turkish(void **state)
{
    (void)state;
    round_trip("turkish");
}

static void test_round_trip_international(void **state)
{
    (void)state;
    round_trip("international");
}

/* ---- hand-written files ---- */

/* Comments, variations, NAGs and marks come back where they were; a chess-style result is
 * written 2-0; move numbers as PDN writes them. */
static void test_notes_survive(void **state)
{
    (void)state;
    write_file("notes.pdn", "[Event \"Club \\\"A\\\"\"]\n[White \"Ali\"]\n[Black \"Veli\"]\n[Result \"1-0\"]\n"
                            "[Opening \"c4\"]\n"
                            "{A game\nwith notes} 1.c3-c4 {the usual} d6-d5 (1... f6-f5 2. c4-c5)\n"
                            "2. c4-c5 $1 d5xb5!? 3. b3-b4 1-0\n");
    dama_exact("pdn import --db {d}/notes.db {d}/notes.pdn", 0,
               "pdn import {d}/notes.pdn games 1 imported 1 already 0 bad 0\n");
    dama_exact("pdn export --db {d}/notes.db --out {d}/notes-out.pdn", 0,
               "pdn export games 1 file {d}/notes-out.pdn\n");
    char *text = read_back("notes-out.pdn");
    assert_string_equal(text, "[Event \"Club \\\"A\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                              "[White \"Ali\"]\n[Black \"Veli\"]\n[Result \"2-0\"]\n[GameType \"30\"]\n"
                              "[Opening \"c4\"]\n\n"
                              "{A game\nwith notes} 1. c3-c4 {the usual} 1... d6-d5 (1... f6-f5 2. c4-c5) 2. c4-c5 $1\n"
                              "d5xb5!? 3. b3-b4 2-0\n\n");
    free(text);
    /* and once more through a database: the same bytes */
    dama_exact("pdn import --db {d}/notes2.db {d}/notes-out.pdn", 0, NULL);
    dama_exact("pdn export --db {d}/notes2.db --out {d}/notes-out2.pdn", 0, NULL);
    char *a = read_back("notes-out.pdn"), *b = read_back("notes-out2.pdn");
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* International: a capture whose short form names two moves is written with its landing
 * squares (worked by hand in test_international.c), an unambiguous one short; the FEN tag
 * is written for a set-up start. */
static void test_international_long_form(void **state)
{
    (void)state;
    write_file("intl.pdn", "[GameType \"20,W,10,10,N2,0\"]\n[FEN \"W:WK2,K7:B11,13-14,23,29,37.\"]\n"
                           "1. 2x24x6 14-20 2. 7x15 1-0\n");
    dama_exact("pdn import -v intl --db {d}/intl.db {d}/intl.pdn", 0,
               "pdn import {d}/intl.pdn games 1 imported 1 already 0 bad 0\n");
    dama_exact("pdn export -v intl --db {d}/intl.db --out {d}/intl-out.pdn", 0, NULL);
    char *text = read_back("intl-out.pdn");
    assert_string_equal(text, "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                              "[White \"?\"]\n[Black \"?\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n"
                              "[FEN \"W:WK2,K7:B11,13,14,23,29,37\"]\n\n"
                              "1. 2x24x33x6 14-20 2. 7x15 2-0\n\n");
    free(text);
}

/* Each kind of bad game, with its exact message; the file's good games are imported. */
static void test_bad_games(void **state)
{
    (void)state;
    write_file("bad.pdn", "[Event \"good 1\"]\n1. c3-c4 d6-d5 1-1\n\n"
                          "[Event \"illegal\"]\n1. c3-c4 d6-d5\n2. c4-c6 1-1\n\n"
                          "[Event \"fen\"]\n[FEN \"W:Wz1:Ba6\"]\n1. a2-a3 1-1\n\n"
                          "[Event \"other game\"]\n[GameType \"20\"]\n1. 32-28 1-1\n\n"
                          "[Event \"mismatch\"]\n[FEN \"W:Wa2:Ba3\"]\n1. a2xa4 0-2\n\n"
                          "[Event \"good 2\"]\n1. b3-b4 1-1\n\n"
                          "[Event \"comment\"]\n1. c3-c4 {not closed\n1-1\n");
    dama_exact("pdn import --db {d}/bad.db {d}/bad.pdn", 2,
               "{d}/bad.pdn:6: game 2, move 2: illegal move 'c4-c6' in this position\n"
               "{d}/bad.pdn:9: game 3: FEN tag: bad FEN at 'Wz1': no such square\n"
               "{d}/bad.pdn:13: game 4: GameType: 20 is international draughts, not turkish (give --variant international)\n"
               "{d}/bad.pdn:18: game 5: result 0-2: the game ended white wins (no-moves)\n"
               "{d}/bad.pdn:24: game 7: comment: '{' not closed by '}'\n"
               "pdn import {d}/bad.pdn games 7 imported 2 already 0 bad 5\n");
    assert_int_equal(count_rows("bad.db", "games"), 2);
    /* a game that ended by the rules needs no result: '*' takes the rules' */
    write_file("star.pdn", "[FEN \"W:Wa2:Ba3\"]\n1. a2xa4 *\n");
    dama_exact("pdn import --db {d}/bad.db {d}/star.pdn", 0, NULL);
    dama_exact("pdn export --db {d}/bad.db --run 1", 0, NULL);
    char out[1 << 14];
    assert_int_equal(test_dama_run(out, sizeof out, "pdn export --db %s/bad.db", dir), 0);
    assert_non_null(strstr(out, "1. a2xa4 2-0\n"));
}

/* One bad game among good ones, in a file of the other variant's games, a missing file:
 * exit 2, and what could be imported is. */
static void test_variant_mismatches(void **state)
{
    (void)state;
    dama_exact("selfplay --db {d}/tr.db --games 2 --nodes 100", 0, NULL);
    dama_exact("pdn export -v intl --db {d}/tr.db --run 1", 2,
               "dama: {d}/tr.db: run 1 plays turkish, not international (give --variant turkish)\n");
    dama_exact("pdn export -v intl --db {d}/tr.db --game 2", 2,
               "dama: {d}/tr.db: game 2 is a turkish game, not international (give --variant turkish)\n");
    dama_exact("pdn export --db {d}/tr.db --game 9", 2, "dama: no game 9 in {d}/tr.db\n");
    dama_exact("pdn export --db {d}/tr.db --run 1 --game 2", 2, "dama: pdn export takes --run or --game, not both\n");
    dama_exact("pdn export --db {d}/tr.db --out {d}", 2, "dama: --out {d} is a directory: pdn export writes one file\n");
    /* an International database has no Turkish games to export: an empty file */
    dama_exact("pdn export -v intl --db {d}/tr.db --out {d}/none.pdn", 0, "pdn export games 0 file {d}/none.pdn\n");
    char *none = read_back("none.pdn");
    assert_string_equal(none, "");
    free(none);
    dama_exact("pdn export --db {d}/tr.db --out {d}/tr.pdn", 0, NULL);
    char *tr = read_back("tr.pdn");
    const char *line2 = strstr(tr, "[GameType");
    assert_non_null(line2);
    free(tr);
    dama_exact("pdn import -v intl --db {d}/tr-intl.db {d}/tr.pdn {d}/missing.pdn", 2, NULL);
    char out[1 << 14];
    assert_int_equal(test_dama_run(out, sizeof out, "pdn import -v intl --db %s/tr-intl.db %s/tr.pdn", dir, dir), 2);
    assert_non_null(strstr(out, "game 1: GameType: 30 is turkish draughts, not international (give --variant turkish)\n"));
    assert_non_null(strstr(out, "games 2 imported 0 already 0 bad 2\n"));
    assert_int_equal(test_dama_run(out, sizeof out, "pdn import --db %s/x.db %s/missing.pdn", dir, dir), 2);
    assert_non_null(strstr(out, "missing.pdn: cannot read"));
}

static void test_help(void **state)
{
    (void)state;
    test_dama_expect("pdn --help", 0, "usage: dama pdn export");
    test_dama_expect("help pdn", 0, "dama pdn import");
    test_dama_expect("help pdn", 0, "DamaRun DamaGameIndex DamaSeed");
    test_dama_expect("pdn", 2, "pdn needs export or import");
    test_dama_expect("pdn frobnicate", 2, "unknown pdn subcommand 'frobnicate'");
    test_dama_expect("pdn import", 2, "needs one or more PDN files");
}

/* A database of schema version 4 (before PDN games) is migrated by an import. */
static void test_import_into_v4_file(void **state)
{
    (void)state;
    char *schema = test_read_file("tests/data/schema-v4.sql");
    if (!schema) fail_msg("tests/data/schema-v4.sql: run the tests from the project root");
    char path[128];
    snprintf(path, sizeof path, "%s/v4.db", dir);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, schema, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "INSERT INTO runs (id, kind, status) VALUES (1, 'selfplay', 'done')",
                                  NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    free(schema);
    write_file("v4.pdn", "1. c3-c4 d6-d5 1-1\n");
    dama_exact("pdn import --db {d}/v4.db {d}/v4.pdn", 0, "pdn import {d}/v4.pdn games 1 imported 1 already 0 bad 0\n");
    assert_int_equal(count_rows("v4.db", "runs"), 2);
    assert_int_equal(count_rows("v4.db", "pdn_games"), 1);
    dama_exact("pdn export --db {d}/v4.db --run 2", 0,
               "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
               "[Result \"1-1\"]\n[GameType \"30\"]\n\n1. c3-c4 d6-d5 1-1\n\n");
}

/* ---- the PDN standard's constructs (tests/data/pdn: files written for these tests, each
 * reproducing what the standard's example files hold) ---- */

static int64_t raw_count(const char *db, const char *sql)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, db);
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

/* Dutch files align one-digit squares with a blank ("4- 9", "15x 4"): the moves they mean. */
static void test_squares_aligned_with_blanks(void **state)
{
    (void)state;
    dama_exact("pdn import -v intl --db {d}/aligned.db tests/data/pdn/aligned.pdn", 0,
               "pdn import tests/data/pdn/aligned.pdn games 2 imported 2 already 0 bad 0\n");
    dama_exact("pdn export -v intl --db {d}/aligned.db --out {d}/aligned.pdn", 0, NULL);
    char *text = read_back("aligned.pdn");
    assert_non_null(strstr(text, "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 9-14 4. 41-37 4-9 5. 34-30 20-25\n"
                                 "6. 31-26 25x34 7. 39x30 1-1\n"));
    assert_non_null(strstr(text, "1. 15x4 20-24 2. 38-33 24-29 3. 33x24 2-0\n"));
    free(text);
}

/* '*' and no result at all are games like others: stored unfinished, with an ellipsis
 * standing for a move number's dots ("3. ... *", "1. ... 20-24"); analysable by id. */
static void test_unfinished_games_stored(void **state)
{
    (void)state;
    dama_exact("pdn import -v intl --db {d}/unf.db tests/data/pdn/unfinished.pdn", 0,
               "pdn import tests/data/pdn/unfinished.pdn games 4 imported 4 already 0 bad 0\n");
    assert_int_equal(raw_count("unf.db", "SELECT count(*) FROM games WHERE result = 'unfinished'"), 4);
    assert_int_equal(raw_count("unf.db", "SELECT sum(plies) FROM games"), 4 + 2 + 2);
    dama_exact("pdn export -v intl --db {d}/unf.db --game 2", 0,
               "[Event \"An ellipsis for the dots of black's move\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
               "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[GameType \"20\"]\n"
               "[FEN \"B:W15,38:B10,20\"]\n\n1... 20-24 2. 15x4 *\n\n");
    dama_exact("pdn export -v intl --db {d}/unf.db --game 4", 0,
               "[Event \"A fragment, the file ends in it\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
               "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[GameType \"20\"]\n\n"
               "{ no result follows } 1. 32-28 19-23 *\n\n");
    /* analysed by id: every position of the game */
    char out[1 << 14];
    assert_int_equal(test_dama_run(out, sizeof out, "analyze -v intl --db %s/unf.db --game 1 --depth 1", dir), 0);
    assert_non_null(strstr(out, "game1:ply0,"));
    assert_non_null(strstr(out, "game1:ply4,"));
    assert_null(strstr(out, "game1:ply5,"));
    /* a position with no move yet: the one position */
    assert_int_equal(test_dama_run(out, sizeof out, "analyze -v intl --db %s/unf.db --game 3 --depth 1", dir), 0);
    assert_non_null(strstr(out, "game3:ply0,\"W:W28,K46:B19\","));
    assert_null(strstr(out, "game3:ply1,"));
    /* the statistics and the tuner read finished games only: none here; the positions
     * export lists them with no result */
    dama_exact("export -v intl --db {d}/unf.db summary --out {d}/unf-summary.csv", 0, NULL);
    char *summary = read_back("unf-summary.csv");
    assert_int_equal(strchr(summary, '\n')[1], '\0'); /* the header alone */
    free(summary);
    assert_int_equal(test_dama_run(out, sizeof out, "tune -v intl --db %s/unf.db --epochs 1 --out %s/w.txt", dir,
                                   dir), 1);
    assert_non_null(strstr(out, "only 0 quiet positions"));
    dama_exact("export -v intl --db {d}/unf.db positions --out {d}/unf-positions.csv", 0, NULL);
    char *positions = read_back("unf-positions.csv");
    assert_non_null(strstr(positions, ",unfinished,,,international\n"));
    free(positions);
}

/* The replay page reads an unfinished game through the stored-game API: `dama serve` on
 * the database, GET /api/db/games/1 and the list filtered by result. */
static void test_unfinished_game_served(void **state)
{
    (void)state;
    dama_exact("pdn import -v intl --db {d}/served.db tests/data/pdn/unfinished.pdn", 0, NULL);
    char db[128];
    snprintf(db, sizeof db, "%s/served.db", dir);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDERR_FILENO) < 0 || dup2(fds[1], STDOUT_FILENO) < 0)
            _exit(99);
        close(fds[0]);
        execl(test_dama_bin(), test_dama_bin(), "serve", "--port", "0", "--db", db, "-v", "intl", (char *)NULL);
        _exit(98);
    }
    close(fds[1]);
    char line[256] = "";
    FILE *out = fdopen(fds[0], "r");
    assert_non_null(out);
    int port = 0;
    if (!fgets(line, sizeof line, out) || sscanf(line, "serving http://127.0.0.1:%d/", &port) != 1) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        fail_msg("dama serve did not print its URL: '%s'", line);
    }
    HttpResponse game = http_request(port, "GET", "/api/db/games/1", NULL);
    HttpResponse list = http_request(port, "GET", "/api/db/games?variant=international&result=unfinished", NULL);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    fclose(out);
    assert_int_equal(game.status, 200);
    assert_non_null(strstr(game.body, "\"result\":\"unfinished\""));
    assert_non_null(strstr(game.body, "\"moves\":[\"32-28\",\"19-23\",\"28x19\",\"14x23\"]"));
    assert_int_equal(list.status, 200);
    assert_non_null(strstr(list.body, "\"total\":4"));
    http_response_free(&game);
    http_response_free(&list);
}

/* The rest of the reading grammar: an escape line, move strengths glued and in parentheses,
 * ':' for a capture, a leading zero, a NAG, a variation nested with a comment holding ')',
 * a chess result, a setup in the move text; then export -> import -> export is the
 * identity for every kind of game, unfinished ones too. */
static void test_reading_grammar_and_round_trip(void **state)
{
    (void)state;
    dama_exact("pdn import -v intl --db {d}/gr.db tests/data/pdn/grammar.pdn tests/data/pdn/unfinished.pdn"
               " tests/data/pdn/aligned.pdn", 0,
               "pdn import tests/data/pdn/grammar.pdn games 2 imported 2 already 0 bad 0\n"
               "pdn import tests/data/pdn/unfinished.pdn games 4 imported 4 already 0 bad 0\n"
               "pdn import tests/data/pdn/aligned.pdn games 2 imported 2 already 0 bad 0\n");
    dama_exact("pdn export -v intl --db {d}/gr.db --game 1", 0,
               "[Event \"The reading grammar\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
               "[White \"?\"]\n[Black \"?\"]\n[Result \"1-1\"]\n[GameType \"20\"]\n\n"
               "1. 32-28!? 19-23 (?!) 2. 28x19 14x23 $1 3. 37-32\n"
               "(3. 31-27 {a ) in a comment} (3. 33-29? 23x34)) 3... 9-14 1-1\n\n");
    dama_exact("pdn export -v intl --db {d}/gr.db --game 2", 0,
               "[Event \"A setup in the move text\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
               "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[GameType \"20\"]\n[FEN \"W:W15,38:B10,20\"]\n\n"
               "1. 15x4 20-24 *\n\n");
    dama_exact("pdn export -v intl --db {d}/gr.db --out {d}/gr-a.pdn", 0, "pdn export games 8 file {d}/gr-a.pdn\n");
    dama_exact("pdn import -v intl --db {d}/gr2.db {d}/gr-a.pdn", 0,
               "pdn import {d}/gr-a.pdn games 8 imported 8 already 0 bad 0\n");
    dama_exact("pdn export -v intl --db {d}/gr2.db --out {d}/gr-b.pdn", 0, NULL);
    char *a = read_back("gr-a.pdn"), *b = read_back("gr-b.pdn");
    assert_string_equal(a, b);
    free(a);
    free(b);
    assert_int_equal(raw_count("gr2.db", "SELECT count(*) FROM games WHERE result = 'unfinished'"), 5);
    /* a second import of the same games adds nothing */
    dama_exact("pdn import -v intl --db {d}/gr2.db {d}/gr-a.pdn", 0,
               "pdn import {d}/gr-a.pdn games 8 imported 0 already 8 bad 0\n");
    /* '?' for the side to move (the standard's FEN allows it): the first move tells it, or
     * the game is refused */
    write_file("unknown-side.pdn", "[GameType \"20\"]\n[FEN \"?:W15,38:B10,20\"]\n1... 20-24 2. 15x4 *\n\n"
                                   "[GameType \"20\"]\n[FEN \"?:W15,38:B10,20\"]\n*\n");
    dama_exact("pdn import -v intl --db {d}/side.db {d}/unknown-side.pdn", 2,
               "{d}/unknown-side.pdn:6: game 2: FEN tag: the side to move is unknown ('?') and no first move"
               " tells it\npdn import {d}/unknown-side.pdn games 2 imported 1 already 0 bad 1\n");
    char side[1 << 12];
    assert_int_equal(test_dama_run(side, sizeof side, "pdn export -v intl --db %s/side.db", dir), 0);
    assert_non_null(strstr(side, "[FEN \"B:W15,38:B10,20\"]\n\n1... 20-24 2. 15x4 *\n"));
    /* a setup after moves would make two games of one */
    write_file("setup-late.pdn", "[GameType \"20\"]\n1. 32-28 /FEN \"W:W15:B10\"/ 19-23 *\n");
    dama_exact("pdn import -v intl --db {d}/gr2.db {d}/setup-late.pdn", 2,
               "{d}/setup-late.pdn:2: game 1: setup: a position set up after moves (dama keeps games that follow"
               " from one start)\npdn import {d}/setup-late.pdn games 1 imported 0 already 0 bad 1\n");
}

/* A short form that names two capture paths (the standard asks for the long form; Dutch
 * files write "36x16" all the same): the path after which the game goes on is the move;
 * with nothing after it to tell, the game is refused with the candidates. */
static void test_ambiguous_short_form_told_by_the_game(void **state)
{
    (void)state;
    write_file("amb.pdn", "[GameType \"20\"]\n[FEN \"W:WK2,K7:B11,13-14,23,29,37.\"]\n1. 2x6 14-20 2. 7x15 1-0\n\n"
                          "[GameType \"20\"]\n[FEN \"W:WK2,K7:B11,13-14,23,29,37.\"]\n1. 2x6 1-0\n");
    dama_exact("pdn import -v intl --db {d}/amb.db {d}/amb.pdn", 2,
               "{d}/amb.pdn:7: game 2, move 1: ambiguous move '2x6': candidates 2x19x28x6 2x24x33x6\n"
               "pdn import {d}/amb.pdn games 2 imported 1 already 0 bad 1\n");
    char out[1 << 12];
    assert_int_equal(test_dama_run(out, sizeof out, "pdn export -v intl --db %s/amb.db", dir), 0);
    assert_non_null(strstr(out, "\n1. 2x24x33x6 14-20 2. 7x15 2-0\n"));
}

/* ---- bounds: what is no PDN cannot take the memory or the time ---- */

/* /dev/zero and a 1 GB sparse file: NUL bytes at line 1, refused at the first piece read. */
static void test_no_text_refused_at_once(void **state)
{
    (void)state;
    dama_exact("pdn import --db {d}/zero.db /dev/zero", 2, "/dev/zero:1: NUL byte\n");
    char path[128];
    FILE *f = create_file("sparse.pdn", path);
    assert_int_equal(fseeko(f, (off_t)1 << 30, SEEK_SET), 0);
    fputc('\n', f);
    assert_int_equal(fclose(f), 0);
    dama_exact("pdn import --db {d}/zero.db {d}/sparse.pdn", 2, "{d}/sparse.pdn:1: NUL byte\n");
    unlink(path);
}

/* A game longer than the bound (a comment never closed in a long file) ends the reading
 * with the file and line; nothing of the file is stored. */
static void test_game_longer_than_bound(void **state)
{
    (void)state;
    char path[128];
    FILE *f = create_file("long.pdn", path);
    fputs("[Event \"short\"]\n1. c3-c4 d6-d5 1-1\n\n[Event \"long\"]\n1. c3-c4 {", f);
    for (size_t i = 0; i < PDN_GAME_MAX_BYTES / 64 + 1000; i++)
        fputs("a comment that goes on and on and on and on and on and on and o\n", f);
    assert_int_equal(fclose(f), 0);
    char want[512];
    snprintf(want, sizeof want, "{d}/long.pdn:4: game 2: longer than %zu bytes, the bound of a PDN game (no"
             " result, tag or end of file before)\n", PDN_GAME_MAX_BYTES);
    dama_exact("pdn import --db {d}/long.db {d}/long.pdn", 2, want);
    assert_int_equal(count_rows("long.db", "games"), 0);
}

/* More games than a batch: stored whole through several batches of one transaction. */
static void test_many_games_in_batches(void **state)
{
    (void)state;
    char path[128];
    FILE *f = create_file("many.pdn", path);
    for (int i = 0; i < 700; i++)
        fprintf(f, "[Event \"game %d\"]\n1. c3-c4 d6-d5 %s\n\n", i, i % 2 ? "1-1" : "*");
    assert_int_equal(fclose(f), 0);
    dama_exact("pdn import --db {d}/many.db {d}/many.pdn", 0,
               "pdn import {d}/many.pdn games 700 imported 700 already 0 bad 0\n");
    assert_int_equal(raw_count("many.db", "SELECT count(*) FROM games WHERE result = 'unfinished'"), 350);
    assert_int_equal(raw_count("many.db", "SELECT count(DISTINCT game_index) FROM games"), 700);
}

/* ---- the parser ---- */

typedef struct Seen {
    int games;
    char log[1024];
} Seen;

static int log_game(void *ctx, const PdnGame *g)
{
    Seen *s = ctx;
    s->games++;
    size_t n = strlen(s->log);
    n += (size_t)snprintf(s->log + n, sizeof s->log - n, "game %ld line %ld:", g->number, g->line);
    for (int i = 0; i < g->ntags; i++)
        n += (size_t)snprintf(s->log + n, sizeof s->log - n, " [%s=%s@%ld]", g->tags[i].name, g->tags[i].value,
                              g->tags[i].line);
    static const char kinds[] = "mcvn!s";
    for (int i = 0; i < g->nitems; i++)
        n += (size_t)snprintf(s->log + n, sizeof s->log - n, " %c:%.*s@%ld", kinds[g->items[i].kind],
                              (int)g->items[i].len, g->items[i].text, g->items[i].line);
    if (g->syntax)
        n += (size_t)snprintf(s->log + n, sizeof s->log - n, " syntax %s@%ld", g->syntax_what, g->syntax_line);
    snprintf(s->log + n, sizeof s->log - n, " result=%s\n", g->result);
    return 0;
}

static void test_parser_items_and_lines(void **state)
{
    (void)state;
    const char text[] = "[Event \"a\\\\b\"]\n1.c3-c4?! $2 {x\ny} 1... d6-d5 (2. a) 2-0\n"
                        "% escape line\n; comment line\n12... b3-b4 [Round \"2\"] 1-1";
    Seen s = { 0 };
    char err[64];
    assert_int_equal(pdn_read_text(text, strlen(text), log_game, &s, err, sizeof err), 0);
    assert_int_equal(s.games, 3);
    assert_string_equal(s.log, "game 1 line 1: [Event=a\\b@1] m:c3-c4@2 !:?!@2 n:$2@2 c:{x\ny}@2 m:d6-d5@3"
                               " v:(2. a)@3 result=2-0\n"
                               "game 2 line 6: m:b3-b4@6 result=\n"
                               "game 3 line 6: [Round=2@6] result=1-1\n");
    /* a variation not closed ends the reading */
    Seen t = { 0 };
    const char open[] = "1. c3-c4 (d6-d5\n\n[Event \"next\"]";
    assert_int_equal(pdn_read_text(open, strlen(open), log_game, &t, err, sizeof err), 0);
    assert_string_equal(t.log, "game 1 line 1: m:c3-c4@1 syntax variation@1 result=\n");
    assert_int_equal(pdn_result_from_text("1/2-1/2"), pdn_result_from_text("1-1"));
    assert_string_equal(pdn_result_text(pdn_result_from_text("0-1")), "0-2");
    assert_string_equal(pdn_result_text(pdn_result_from_text("*")), "*");
}

/* ---- a file read piece by piece gives what the whole text gives ---- */

typedef struct Digest {
    long games;
    uint64_t hash;
} Digest;

static void digest_add(Digest *d, const void *p, size_t n)
{
    for (const unsigned char *c = p; n--; c++)
        d->hash = (d->hash ^ *c) * 0x100000001b3u;
}

/* Everything the reader hands over of a game, into the digest. */
static int digest_game(void *ctx, const PdnGame *g)
{
    Digest *d = ctx;
    d->games++;
    long head[6] = { g->number, g->line, g->ntags, g->nitems, g->result_line, g->syntax ? g->syntax_line : -1 };
    digest_add(d, head, sizeof head);
    for (int i = 0; i < g->ntags; i++) {
        digest_add(d, g->tags[i].name, strlen(g->tags[i].name) + 1);
        digest_add(d, g->tags[i].value, g->tags[i].value_len + 1);
        digest_add(d, &g->tags[i].line, sizeof g->tags[i].line);
    }
    for (int i = 0; i < g->nitems; i++) {
        const PdnItem *it = &g->items[i];
        long item[2] = { it->kind, it->line };
        digest_add(d, item, sizeof item);
        digest_add(d, it->text, it->len);
        digest_add(d, it->raw, it->raw_len);
    }
    digest_add(d, g->result, strlen(g->result) + 1);
    return 0;
}

/* 8 MB of games of every construct, lengths varied so that the pieces (64 KiB) end at
 * every kind of place: in tags, comments, variations, UTF-8 characters, "4- 9", CRLF. */
static void test_pieces_read_as_the_whole(void **state)
{
    (void)state;
    char path[128];
    FILE *f = create_file("pieces.pdn", path);
    fputs("\xEF\xBB\xBF", f);
    uint64_t x = 12345;
    static const char *const pieces[] = {
        "1. 32-28 19-23 2. 28x19 14x23 3. 37-32  9-14 4. 41-37  4- 9", "{ Сергей Фадеев, 高文龙 }",
        "(3. 31-27 {a ) in a comment} (3. 33-29? 23x34))", "$1", "19-23(?!)", "35x 4", "\r\n% escape\r\n",
        "/FEN \"W:W15,38:B10,20\"/", "3. ... 7-12", "1-0", "*", "1/2-1/2", "\n", "2.28:19", "09-14",
    };
    long written = 0;
    while (written < 8L << 20) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        int games_tags = (int)(x >> 60) % 3;
        for (int t = 0; t < games_tags; t++)
            written += fprintf(f, "[Event \"Ölçü %d\\\"q\"]\n", (int)(x >> 40) % 1000);
        int n = 1 + (int)((x >> 33) % 12);
        for (int k = 0; k < n; k++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            written += fprintf(f, "%s%s", pieces[(x >> 35) % (sizeof pieces / sizeof *pieces)], (x >> 20) % 3 ? " " : "\n");
        }
    }
    assert_int_equal(fclose(f), 0);
    char *text = test_read_file(path);
    assert_non_null(text);
    size_t len = strlen(text);
    char err[256];
    Digest whole = { 0, 0xcbf29ce484222325u }, pieces_read = { 0, 0xcbf29ce484222325u };
    assert_int_equal(pdn_read_text(text + 3, len - 3, digest_game, &whole, err, sizeof err), 0);
    assert_int_equal(pdn_read_file(path, digest_game, &pieces_read, NULL, err, sizeof err), 0);
    assert_true(whole.games > 10000);
    assert_int_equal(pieces_read.games, whole.games);
    assert_true(pieces_read.hash == whole.hash);
    /* the first 40 KB in pieces of 1 to 9 bytes, and 61: every place a piece can end */
    f = fopen(path, "wb");
    assert_non_null(f);
    size_t head = 40000;
    while (head < len && (text[head] != '\n' || strncmp(text + head + 1, "[Event", 6) != 0))
        head++;
    fwrite(text, 1, head + 1, f);
    assert_int_equal(fclose(f), 0);
    Digest head_whole = { 0, 0xcbf29ce484222325u };
    assert_int_equal(pdn_read_text(text + 3, head + 1 - 3, digest_game, &head_whole, err, sizeof err), 0);
    for (size_t piece = 1; piece <= 61; piece = piece < 9 ? piece + 1 : piece + 52) {
        Digest small = { 0, 0xcbf29ce484222325u };
        assert_int_equal(pdn_read_file_pieces(path, piece, digest_game, &small, NULL, err, sizeof err), 0);
        if (small.games != head_whole.games || small.hash != head_whole.hash)
            fail_msg("pieces of %zu bytes: %ld games, the whole text %ld (or another digest)", piece, small.games,
                     head_whole.games);
    }
    free(text);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parser_items_and_lines),
        cmocka_unit_test(test_pieces_read_as_the_whole),
        cmocka_unit_test(test_round_trip_turkish),
        cmocka_unit_test(test_round_trip_international),
        cmocka_unit_test(test_notes_survive),
        cmocka_unit_test(test_international_long_form),
        cmocka_unit_test(test_bad_games),
        cmocka_unit_test(test_variant_mismatches),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_import_into_v4_file),
        cmocka_unit_test(test_squares_aligned_with_blanks),
        cmocka_unit_test(test_unfinished_games_stored),
        cmocka_unit_test(test_unfinished_game_served),
        cmocka_unit_test(test_reading_grammar_and_round_trip),
        cmocka_unit_test(test_ambiguous_short_form_told_by_the_game),
        cmocka_unit_test(test_no_text_refused_at_once),
        cmocka_unit_test(test_game_longer_than_bound),
        cmocka_unit_test(test_many_games_in_batches),
    };
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
