/* Outside engines as opponents, end to end through the dama command: `dama hub` behind the
 * Hub client plays exactly the games dama plays against itself (both variants, both
 * colours), broken engines lose with their own reasons while the match goes on, the client
 * speaks the protocol it should, and train --gauntlet stores its matches. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <stdbool.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"
#include "test_csv.h"
#include "test_tmpdir.h"

static char tmp[128];
static char dama[160];       /* absolute: the engines run it from their shell */
static char db[256];

static int group_setup(void **state)
{
    (void)state;
    char real[PATH_MAX];
    size_t n;
    if (!realpath(test_dama_bin(), real) || (n = strlen(real)) >= sizeof dama)
        return -1;
    memcpy(dama, real, n + 1);
    return test_tmpdir_make(tmp, sizeof tmp, "engines");
}

static int group_teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(tmp);
}

static void fresh_db(const char *tag)
{
    snprintf(db, sizeof db, "%s/%s.db", tmp, tag);
    unlink(db);
}

/* The first column of the first row of sql on db as text ("" when none). */
static void query(const char *sql, char *out, size_t len)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    out[0] = '\0';
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(h));
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
}

static long query_long(const char *sql)
{
    char buf[64];
    query(sql, buf, sizeof buf);
    return strtol(buf, NULL, 10);
}

/* A wrapper engine in tmp: passes the GUI's lines to `dama hub` and back, except that from
 * its third `go` of a game on it does what mode says: crash (exits: the engine dies mid-game), illegal
 * (answers `done move=BAD` itself), silent (swallows the go: no answer ever), log (passes all
 * and appends every line it gets to tmp/log.txt).  Returns the command. */
static const char *wrapper(const char *mode, const char *bad_move)
{
    static char cmd[256];
    char path[256];
    snprintf(path, sizeof path, "%s/wrap-%s.sh", tmp, mode);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "#!/bin/sh\n"
            "exec 3>&1\n" /* the loop's own answers go to the GUI, not into the pipe */
            "n=0\n"
            "while IFS= read -r line; do\n"
            "  [ %s = log ] && printf '%%s\\n' \"$line\" >>'%s/log.txt'\n"
            "  case \"$line\" in go*) n=$((n+1));; new-game) n=0;; esac\n"
            "  if [ \"$n\" -ge 3 ] && [ \"${line%%%% *}\" = go ]; then\n"
            "    case %s in\n"
            "      crash) exit 0;;\n"
            "      illegal) printf 'info depth=1 score=0.00\\ndone move=%s\\n' >&3; continue;;\n"
            "      silent) continue;;\n"
            "    esac\n"
            "  fi\n"
            "  printf '%%s\\n' \"$line\"\n"
            "done | '%s' hub\n",
            mode, tmp, mode, bad_move ? bad_move : "", dama);
    fclose(f);
    assert_int_equal(chmod(path, 0755), 0);
    snprintf(cmd, sizeof cmd, "%s", path);
    return cmd;
}

static void expect_run(const char *args, int code, const char *needle)
{
    char full[2048];
    snprintf(full, sizeof full, "match --db %s %s", db, args);
    test_dama_expect(full, code, needle);
}

/* dama hub with dama's table size and weights, behind the client, searches what dama searches: every
 * game is move for move the one of the same match between two searchers (rules: --rules
 * options of both matches). */
static void same_games_as_dama(const char *variant, const char *engine_side, const char *rules)
{
    char args[1024], sql[512], got[64];
    fresh_db(variant);
    snprintf(args, sizeof args, "-v %s --a default --b default --games 4 --nodes 1500 --hash 2 %s", variant, rules);
    expect_run(args, 0, "match games 4");
    snprintf(args, sizeof args, "-v %s --%s default --engine-%s '%s hub' --engine-param hash=2 --engine-param weights=default --games 4 "
             "--nodes 1500 --hash 2 %s", variant, engine_side[0] == 'a' ? "b" : "a", engine_side, dama, rules);
    expect_run(args, 0, "match games 4");
    assert_int_equal(query_long("SELECT count(*) FROM games WHERE run_id = 2"), 4);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games g JOIN games h ON h.game_index = g.game_index "
             "AND h.run_id = 1 WHERE g.run_id = 2 AND g.moves = h.moves AND g.result = h.result "
             "AND g.variant = '%s' AND g.plies >= 20", variant);
    assert_int_equal(query_long(sql), 4);
    /* Each move's score is the one the engine's last info line gave, which is the
     * searcher's: every position with a move has the score of the same position of run 1. */
    const char *scores = "SELECT count(*) FROM positions p JOIN games g ON g.id = p.game_id AND g.run_id = 2 "
                         "JOIN games h ON h.run_id = 1 AND h.game_index = g.game_index "
                         "JOIN positions q ON q.game_id = h.id AND q.ply = p.ply WHERE %s";
    snprintf(sql, sizeof sql, scores, "p.score IS q.score");
    long same = query_long(sql);
    snprintf(sql, sizeof sql, scores, "1");
    assert_int_equal(same, query_long(sql));
    snprintf(sql, sizeof sql, scores, "q.score IS NOT NULL");
    assert_int_equal(query_long(sql), query_long("SELECT sum(plies) FROM games WHERE run_id = 1"));
    /* The engine's side has no weights; the params name the engine and its command. */
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE run_id = 2 AND %s_weights_id IS NULL",
             engine_side[0] == 'a' ? "white" : "black");
    assert_int_equal(query_long(sql), 2); /* A has White in the first game of each pair */
    char params[1024], needle[256];
    query("SELECT params FROM runs WHERE id = 2", params, sizeof params);
    snprintf(needle, sizeof needle, " %s=engine:dama ", engine_side);
    assert_non_null(strstr(params, needle));
    snprintf(needle, sizeof needle, "(%s hub)", dama);
    assert_non_null(strstr(params, needle));
    query("SELECT verdict FROM matches WHERE run_id = 2", got, sizeof got);
    assert_string_equal(got, "none");
}

static void test_turkish_against_dama_hub(void **state)
{
    (void)state;
    /* The --rules reach the engine (its rules parameter): with the official rules, game 0
     * goes another way. */
    same_games_as_dama("turkish", "b", "--rules noprogress=20 --rules kvm=win");
}

static void test_international_against_dama_hub(void **state)
{
    (void)state;
    same_games_as_dama("international", "a", "");
}

/* Engine B fails from its third move on in every game: dama wins all four games mid-game,
 * each with the engine's reason, and the match is complete. */
static void broken(const char *mode, const char *bad_move, const char *reason, const char *extra)
{
    char args[1024], sql[512];
    fresh_db(mode);
    snprintf(args, sizeof args, "--a default --engine-b %s --games 4 --nodes 500 --threads 1 %s",
             wrapper(mode, bad_move), extra);
    expect_run(args, 0, "match games 4 wins 4 draws 0 losses 0 penta [0,0,0,0,2]");
    snprintf(sql, sizeof sql, "SELECT count(*) FROM games WHERE run_id = 1 AND reason = '%s' AND plies >= 4 "
             "AND result = CASE game_index %% 2 WHEN 0 THEN 'white' ELSE 'black' END", reason);
    assert_int_equal(query_long(sql), 4);
}

static void test_illegal_move(void **state)
{
    (void)state;
    broken("illegal", "a1-h8", "illegal-move", "");
}

static void test_crash_mid_game(void **state)
{
    (void)state;
    broken("crash", NULL, "engine-crash", ""); /* restarted for each next game */
}

/* The timeout also bounds the engine's start-up, which took 0.13 to 0.32 s under the
 * sanitizers (the shadow memory mapped at start) and 0.22 to 0.29 s natively at load 17:
 * a 200 ms timeout forfeited a healthy engine there.  1.5 s leaves room for both and costs
 * the four silent games 6 s. */
static void test_no_answer(void **state)
{
    (void)state;
    broken("silent", NULL, "time-forfeit", "--engine-timeout 1500 --engine-margin 100");
}

/* Adjudication reads an outside engine's scores as it does dama's: with a draw after two
 * plies of any score, every game of dama against `dama hub` ends at ply 2, both positions
 * scored (before the engine's info scores were read, its positions had none and the games
 * went on to the move cap). */
static void test_adjudication_with_engine(void **state)
{
    (void)state;
    char args[1024];
    fresh_db("adjudicate");
    snprintf(args, sizeof args, "--a default --engine-b '%s hub' --engine-param weights=default --games 2 "
             "--nodes 300 --threads 1 --draw-adjudication 9999:2:0 --move-cap 40", dama);
    expect_run(args, 0, "match games 2 wins 0 draws 2 losses 0");
    assert_int_equal(query_long("SELECT count(*) FROM games WHERE reason = 'adjudication' AND plies = 2"), 2);
    assert_int_equal(query_long("SELECT count(*) FROM positions WHERE ply < 2 AND score IS NOT NULL"), 4);
}

/* Runs a match (args after --db, "%s" standing for the logging engine) of 2 games and
 * returns what the engine was told (free it). */
static char *logged_match(const char *tag, const char *args_fmt)
{
    char log[256], args[1024];
    snprintf(log, sizeof log, "%s/log.txt", tmp);
    unlink(log);
    fresh_db(tag);
    snprintf(args, sizeof args, args_fmt, wrapper("log", NULL));
    expect_run(args, 0, "match games 2");
    char *text = test_read_file(log);
    assert_non_null(text);
    return text;
}

/* What the client says: the variant and the parameters, init, and for each move the start
 * position, the moves so far in Hub text, the level and go think. */
static void test_protocol_lines(void **state)
{
    (void)state;
    char path[256], fmt[512];
    snprintf(path, sizeof path, "%s/open.fen", tmp);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("W:W31-50:B1-20\n", f);
    fclose(f);
    snprintf(fmt, sizeof fmt, "-v intl --openings %s --a default --engine-b %%s --engine-param hash=3 "
             "--games 2 --nodes 700 --threads 1 --move-cap 4", path);
    char *text = logged_match("log", fmt);
    const char *start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    char want[512];
    const char *lines[] = { "hub\nset-param name=variant value=international\nset-param name=hash value=3\ninit\n",
                            "level nodes=700\ngo think\n", "new-game\n" };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (!strstr(text, lines[i]))
            fail_msg("the engine's input lacks:\n%s\nit was:\n%s", lines[i], text);
    /* Game 1: the engine has White; game 0: Black, after dama's first move. */
    snprintf(want, sizeof want, "pos pos=%s\nlevel nodes=700\n", start);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "pos pos=%s moves=", start);
    const char *p = strstr(text, want);
    assert_non_null(p);
    /* a quiet first move in Hub text, unquoted: two square numbers and a dash */
    int from, to;
    char close;
    if (sscanf(p + strlen(want), "%d-%d%c", &from, &to, &close) != 3
        || !(from >= 31 && from <= 35 && to >= 26 && to <= 30 && close == '\n'))
        fail_msg("not dama's first move as the engine's history: %.80s", p);
    free(text);
}

/* --engine-param a:/b: goes to that side's engine only, the plain one to both. */
static void test_per_side_params(void **state)
{
    (void)state;
    char fmt[512];
    snprintf(fmt, sizeof fmt, "--engine-a '%s hub' --engine-b %%s --engine-param a:hash=5 --engine-param b:hash=3 "
             "--engine-param weights=default --games 2 --nodes 300 --threads 1 --move-cap 4", dama);
    char *text = logged_match("sides", fmt); /* what B's engine was told */
    if (!strstr(text, "set-param name=hash value=3\nset-param name=weights value=default\ninit\n") ||
        strstr(text, "value=5"))
        fail_msg("engine B's input:\n%s", text);
    free(text);
    char params[1024];
    query("SELECT params FROM runs WHERE id = 1", params, sizeof params);
    assert_non_null(strstr(params, " engine_param=a:hash=5 engine_param=b:hash=3 engine_param=weights=default"));
}

/* With a clock, the engine gets the time left and the increment in seconds. */
static void test_clock_level(void **state)
{
    (void)state;
    char *text = logged_match("clock", "--a default --engine-b %s --games 2 --clock 2+0.05 --threads 1 --move-cap 6");
    if (!strstr(text, "level time=2.000 inc=0.050\ngo think\n"))
        fail_msg("no clock level in:\n%s", text);
    free(text);
    char params[1024];
    query("SELECT params FROM runs WHERE id = 1", params, sizeof params);
    assert_non_null(strstr(params, " clock=2000+50ms "));
}

static void test_bad_engine_options(void **state)
{
    (void)state;
    fresh_db("bad");
    expect_run("--a default --engine-a x --b default", 2, "--a and --engine-a cannot be combined");
    expect_run("--a default --engine-b ''", 2, "--engine-b: empty command");
    expect_run("--a default --engine-b /nonexistent/engine", 1, "engine '/nonexistent/engine': no 'wait'");
    expect_run("--a default --engine-b true --clock 10+", 2, "bad value '10+' for --clock");
    expect_run("--a default --engine-b true --nodes 5 --clock 10", 2, "--nodes and --clock cannot be combined");
    expect_run("--a default --engine-b true --engine-param =1", 2, "bad value '=1' for --engine-param");
    expect_run("--a default --engine-b true --engine-param b:=1", 2, "bad value 'b:=1' for --engine-param");
    expect_run("--a default --engine-b true --engine-param a:hash=3", 2,
               "--engine-param a:hash=3: side a is not an outside engine");
    char train[512];
    snprintf(train, sizeof train, "train --db %s --gauntlet true --engine-param a:hash=3", db);
    test_dama_expect(train, 2, "--engine-param a:hash=3: side a is not an outside engine"); /* the gauntlet is b */
    expect_run("--a default --engine-b true", 1, "engine 'true': no 'wait' after 'hub'");
    /* nothing was played or stored */
    assert_int_equal(access(db, F_OK) == 0 ? query_long("SELECT count(*) FROM runs") : 0, 0);
}

/* A tiny training run with a gauntlet: the start weights meet the engine before generation 1
 * (a match run tagged generation=0 gauntlet=1 in the train run); a resumed, extended run does
 * not play that baseline again. */
static void test_train_gauntlet(void **state)
{
    (void)state;
    fresh_db("train");
    char args[2048], out_path[256], sql[256];
    snprintf(out_path, sizeof out_path, "%s/best.txt", tmp);
    const char *common = "--games 10 --match-games 10 --final-games 0 --gauntlet-games 4 --epochs 10 "
                         "--nodes 300 --move-cap 80 --hash 1 --random-plies 4 --threads 2";
    snprintf(args, sizeof args, "train --db %s --generations 1 %s --out %s --gauntlet '%s hub'", db, common,
             out_path, dama);
    test_dama_expect(args, 0, "generation 0: gauntlet: weights 1 against dama");
    snprintf(sql, sizeof sql, "SELECT count(*) FROM runs WHERE kind = 'match' AND params LIKE "
             "'%% b=engine:dama %%train_run=1 generation=0 gauntlet=1'");
    assert_int_equal(query_long(sql), 1);
    assert_int_equal(query_long("SELECT count(*) FROM games g JOIN runs r ON r.id = g.run_id "
                                "WHERE r.params LIKE '%gauntlet=1' AND g.black_weights_id IS NULL"), 2);
    assert_int_equal(query_long("SELECT count(*) FROM matches m JOIN runs r ON r.id = m.run_id "
                                "WHERE r.params LIKE '%generation=0 gauntlet=1' AND m.games = 4"), 1);
    snprintf(args, sizeof args, "train --db %s --generations 2 %s --out %s --gauntlet '%s hub' --resume", db,
             common, out_path, dama);
    test_dama_expect(args, 0, "resuming training run 1 at generation 2");
    assert_int_equal(query_long("SELECT count(*) FROM runs WHERE params LIKE '%generation=0 gauntlet=1'"), 1);
    /* every gauntlet (a promoted generation adds one) is a whole match of 4 games */
    assert_int_equal(query_long("SELECT count(*) FROM runs r WHERE r.params LIKE '%gauntlet=1' AND "
                                "(SELECT count(*) FROM games g WHERE g.run_id = r.id) != 4"), 0);
}

/* Two engines of one program: each side gets a name (the engine's own, `id name=dama`
 * version dev, made unique with " (A)" and " (B)"), in the run's params, in every game's
 * White and Black of the PDN export, and in games.csv; A has White in a pair's first game.
 * --name-a and --name-b replace them; a name that is empty or holds a control character is
 * refused (exit 2). */
static void test_engine_side_names(void **state)
{
    (void)state;
    fresh_db("names");
    char args[1024], path[300], out[1 << 15];
    snprintf(args, sizeof args, "--engine-a '%s hub' --engine-b '%s hub' --games 2 --depth 1", dama, dama);
    expect_run(args, 0, "match games 2");
    char params[1024];
    query("SELECT params FROM runs", params, sizeof params);
    if (!strstr(params, " name_a=dama%20dev%20(A) name_b=dama%20dev%20(B)"))
        fail_msg("params: %s", params);

    snprintf(path, sizeof path, "%s/names.pdn", tmp);
    snprintf(args, sizeof args, "pdn export --db %s --out %s", db, path);
    test_dama_expect(args, 0, NULL);
    char *pdn = test_read_file(path);
    assert_non_null(pdn);
    const char *first = strstr(pdn, "[Round \"1\"]"), *second = strstr(pdn, "[Round \"2\"]");
    assert_non_null(first);
    assert_non_null(second);
    const char *w1 = strstr(first, "[White \"dama dev (A)\"]\n[Black \"dama dev (B)\"]");
    const char *w2 = strstr(second, "[White \"dama dev (B)\"]\n[Black \"dama dev (A)\"]");
    if (!w1 || w1 > second || !w2)
        fail_msg("PDN:\n%s", pdn);
    free(pdn);

    snprintf(path, sizeof path, "%s/names.csv", tmp);
    snprintf(args, sizeof args, "export --db %s games --out %s", db, path);
    test_dama_expect(args, 0, NULL);
    Csv *c = csv_load(path);
    assert_int_equal(c->nrows, 3);
    for (int r = 1; r < 3; r++) {
        bool a_white = strcmp(csv_cell(c, r, "game_index"), "0") == 0;
        assert_string_equal(csv_cell(c, r, "white_name"), a_white ? "dama dev (A)" : "dama dev (B)");
        assert_string_equal(csv_cell(c, r, "black_name"), a_white ? "dama dev (B)" : "dama dev (A)");
    }
    csv_release(c);

    fresh_db("names-given");
    snprintf(args, sizeof args, "--engine-a '%s hub' --b default --name-a 'Scan \"3\" = x' --games 2 --depth 1", dama);
    expect_run(args, 0, "match games 2");
    query("SELECT value FROM pdn_tags t JOIN games g ON g.id = t.game_id WHERE g.game_index = 1 AND t.name = 'Black'",
          out, sizeof out);
    assert_string_equal(out, "Scan \"3\" = x");
    query("SELECT value FROM pdn_tags t JOIN games g ON g.id = t.game_id WHERE g.game_index = 1 AND t.name = 'White'",
          out, sizeof out);
    assert_string_equal(out, "default");
    query("SELECT params FROM runs", params, sizeof params);
    if (!strstr(params, " name_a=Scan%20%223%22%20%3D%20x name_b=default"))
        fail_msg("params: %s", params);
    expect_run("--a default --b default --name-a '' --games 2", 2, "--name-a: empty name");
    expect_run("--a default --b default --name-b \"$(printf 'a\\tb')\" --games 2", 2,
               "--name-b: a control character in the name");
}

/* On a terminal a match prints a line a finished game (number, White - Black by name,
 * result and reason, A's running W-D-L, the Elo so far); without one it prints none. */
static void test_game_lines_on_terminal(void **state)
{
    (void)state;
    fresh_db("lines");
    static char out[1 << 15];
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "script -qec '%s match --db %s --a default --b material --name-a alpha "
             "--name-b beta --games 4 --nodes 200 --threads 1' /dev/null", dama, db);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    assert_int_equal(pclose(p), 0);
    int w = -1, d = -1, l = -1, lw = 0, ld = 0, ll = 0;
    const char *result = strstr(out, "match games 4 wins ");
    if (!result || sscanf(result, "match games 4 wins %d draws %d losses %d", &w, &d, &l) != 3)
        fail_msg("no result line:\n%s", out);
    bool seen[4] = { false };
    for (const char *s = out; (s = strstr(s, "game ")); s++) {
        int k, of, gw = 0, gd = 0, gl = 0; /* set before use: fail_msg does not return */
        char white[16], black[16], score[8];
        if (sscanf(s, "game %d/%d: %15s - %15s %7s", &k, &of, white, black, score) != 5)
            continue;
        const char *wdl = strstr(s, "  A ");
        if (of != 4 || k < 1 || k > 4 || !wdl || sscanf(wdl, "  A %d-%d-%d (W-D-L)", &gw, &gd, &gl) != 3)
            fail_msg("game line: %.200s", s);
        assert_string_equal(white, k % 2 ? "alpha" : "beta"); /* A has White in odd games */
        assert_string_equal(black, k % 2 ? "beta" : "alpha");
        assert_true(strcmp(score, "2-0") == 0 || strcmp(score, "0-2") == 0 || strcmp(score, "1-1") == 0);
        assert_int_equal(gw + gd + gl, k); /* games finish in order with one thread */
        seen[k - 1] = true;
        lw = gw, ld = gd, ll = gl;
    }
    for (int k = 0; k < 4; k++)
        if (!seen[k])
            fail_msg("no line for game %d/4:\n%s", k + 1, out);
    assert_int_equal(lw, w);
    assert_int_equal(ld, d);
    assert_int_equal(ll, l);

    fresh_db("lines-pipe");
    char args[512];
    snprintf(args, sizeof args, "match --db %s --a default --b material --games 4 --nodes 200", db);
    assert_int_equal(test_dama_run(out, sizeof out, "%s", args), 0);
    if (strstr(out, "game 1/4:"))
        fail_msg("a game line without a terminal:\n%s", out);
}

/* The International names of the field: an engine offering Scan's variants (normal ...)
 * or lidraughts' (standard ...) is told its own name for International.  The engine here
 * logs what it is told and answers every go with an illegal move (it loses at once). */
static void test_variant_names_sent(void **state)
{
    (void)state;
    static const char *const offered[][2] = {
        { "normal killer bt frisian losing", "normal" },
        { "standard frisian antidraughts", "standard" },
    };
    for (size_t i = 0; i < sizeof offered / sizeof offered[0]; i++) {
        char path[256], log[256], args[1024];
        snprintf(path, sizeof path, "%s/variants.sh", tmp);
        snprintf(log, sizeof log, "%s/variants.txt", tmp);
        unlink(log);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "while read -r l; do printf '%%s\\n' \"$l\" >>'%s'; case $l in\n"
                   "hub*) echo 'id name=other'; echo 'param name=variant value=%s type=enum values=\"%s\"';"
                   " echo wait;;\n"
                   "init*) echo ready;; go*) echo 'done move=1-1';; quit*) exit 0;; esac; done\n",
                log, offered[i][1], offered[i][0]);
        fclose(f);
        fresh_db("variants");
        snprintf(args, sizeof args, "-v international --a default --engine-b 'sh %s' --games 2 --nodes 200", path);
        expect_run(args, 0, "match games 2 wins 2");
        char *said = test_read_file(log);
        assert_non_null(said);
        char want[128];
        snprintf(want, sizeof want, "set-param name=variant value=%s\n", offered[i][1]);
        if (!strstr(said, want))
            fail_msg("offered \"%s\", the engine was told:\n%s", offered[i][0], said);
        free(said);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turkish_against_dama_hub),
        cmocka_unit_test(test_international_against_dama_hub),
        cmocka_unit_test(test_illegal_move),
        cmocka_unit_test(test_crash_mid_game),
        cmocka_unit_test(test_no_answer),
        cmocka_unit_test(test_adjudication_with_engine),
        cmocka_unit_test(test_protocol_lines),
        cmocka_unit_test(test_per_side_params),
        cmocka_unit_test(test_clock_level),
        cmocka_unit_test(test_bad_engine_options),
        cmocka_unit_test(test_train_gauntlet),
        cmocka_unit_test(test_engine_side_names),
        cmocka_unit_test(test_game_lines_on_terminal),
        cmocka_unit_test(test_variant_names_sent),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
