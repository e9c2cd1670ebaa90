/* The `dama` command end to end: output formats, exit codes and error messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "hub_engine.h"
#include "game.h"
#include "search.h"
#include "store.h"
#include "test_util.h"


static void test_perft_output(void **state)
{
    (void)state;
    test_dama_expect("perft 5", 0, "nodes 85090 time ");
    test_dama_expect("perft --paths 7", 0, "nodes 10782382 ");
    test_dama_expect("perft 7", 0, "nodes 10782308 ");
    test_dama_expect("perft --no-bulk 4", 0, "nodes 7538 ");
    test_dama_expect("perft --divide 2", 0, "a3-a4 8\n");
    test_dama_expect("perft --fen W:WKa1:Ba4,a7,h5 --paths 1", 0, "nodes 2 ");
    test_dama_expect("perft --fen W:WKa1:Ba4,a7,h5 1", 0, "nodes 1 ");
    test_dama_expect("perft --rules promotion=king --fen W:Wd6:Bd7,a2,Ke8 1", 0, "nodes 3 ");
    test_dama_expect("perft --rules promotion=stop --fen W:Wd6:Bd7,a2,Ke8 2", 0, "nodes 3 ");
}

static void test_moves_output(void **state)
{
    (void)state;
    test_dama_expect("moves", 0, "a3-a4\nb3-b4\nc3-c4\n");
    test_dama_expect("moves --fen W:Wb3:Bc3,d4,e5,f6,e7,a6", 0, "b3xd3xd5xf5xf7xd7\n");
    test_dama_expect("moves --fen W:WKa1:Ba4,a7,h5 --paths", 0, "a1xa5xa8\na1xa6xa8\n");
    test_dama_expect("moves --fen W:Wa7:Bb7,c7,Ka8", 0, NULL);
}

static void test_errors(void **state)
{
    (void)state;
    test_dama_expect("perft --fen W:Wz9:Ba6 1", 2, "dama: bad FEN at 'Wz9': no such square");
    test_dama_expect("moves --fen W:Wa2,a2:Ba6", 2, "square given twice");
    test_dama_expect("moves --fen W:Wa8:Ba6", 2, "crowned");
    test_dama_expect("moves --fen Wa2:Ba6", 2, "missing side to move");
    test_dama_expect("moves --fen W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3,a4:Ba6", 2, "17 white pieces");
    test_dama_expect("perft --frobnicate 3", 2, "dama perft: unknown option --frobnicate (see 'dama perft --help')\n");
    test_dama_expect("perft", 2, "DEPTH");
    test_dama_expect("perft x", 2, "bad value 'x'");
    test_dama_expect("perft --rules promotion=queen 1", 2, "queen");
    test_dama_expect("perft --variant chess 1", 2, "unknown variant 'chess'");
    test_dama_expect("frobnicate", 2, "unknown command 'frobnicate'");
    test_dama_expect("perft --fen", 2, "needs a value");
}

/* Options go by their whole names: getopt_long would take --game for selfplay's --games,
 * while --game ID names one game in pdn export and analyze. */
static void test_whole_option_names(void **state)
{
    (void)state;
    test_dama_expect("selfplay --game 5", 2, "dama selfplay: unknown option --game (did you mean --games?)\n");
    test_dama_expect("perft --div 1", 2, "dama perft: unknown option --div (did you mean --divide?)\n");
    test_dama_expect("pdn export --gam=1", 2, "dama pdn export: unknown option --gam (did you mean --game?)\n");
    test_dama_expect("tune --epoch 2", 2, "unknown option --epoch (did you mean --epochs?)\n");
    /* a word two options begin names both */
    test_dama_expect("match --engine x", 2, "dama match: unknown option --engine (did you mean --engine-a, "
                     "--engine-b, --engine-margin, --engine-timeout or --engine-param?)\n");
    test_dama_expect("perft -x 1", 2, "dama perft: unknown option -x (see 'dama perft --help')\n");
    /* the whole name, with its value as the next word or after '=' */
    test_dama_expect("perft --variant=intl --fen=start 3", 0, "nodes 658 ");
    test_dama_expect("perft --variant intl --divide 1", 0, "nodes 9 ");
    test_dama_expect("perft --fen", 2, "option '--fen' needs a value (see 'dama perft --help')\n");
    test_dama_expect("perft --paths=yes 1", 2, "option '--paths' takes no value, not 'yes'");
}

/* Bad input to the pipeline commands: one line naming what is wrong, exit 2, nothing run. */
static void test_pipeline_errors(void **state)
{
    (void)state;
    char bad_openings[64], bad_weights[64];
    snprintf(bad_openings, sizeof bad_openings, "/tmp/dama-cli-%d-openings.txt", (int)getpid());
    snprintf(bad_weights, sizeof bad_weights, "/tmp/dama-cli-%d-weights.txt", (int)getpid());
    FILE *f = fopen(bad_openings, "w");
    assert_non_null(f);
    fputs("# two good lines, then a bad one\nstart\nW:Wd4,e4:Bd6 ; a comment\nW:Wd4,d4:Bd6\n", f);
    fclose(f);
    f = fopen(bad_weights, "w");
    assert_non_null(f);
    fputs("MAN_MG 100\nMAN_EG lots\n", f);
    fclose(f);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "selfplay --db /nonexistent/x.db --openings %s", bad_openings);
    test_dama_expect(cmd, 2, ":4: bad FEN at 'd4': square given twice");
    snprintf(cmd, sizeof cmd, "selfplay --db /nonexistent/x.db --weights %s", bad_weights);
    test_dama_expect(cmd, 2, ":2:");
    snprintf(cmd, sizeof cmd, "match --a %s --b default", bad_weights);
    test_dama_expect(cmd, 2, ":2:");
    test_dama_expect("selfplay --games 0", 2, "bad value '0' for --games");
    test_dama_expect("selfplay --nodes x", 2, "bad value 'x' for --nodes");
    test_dama_expect("selfplay --openings /nonexistent/file", 2, "cannot read");
    test_dama_expect("selfplay --frobnicate", 2, "unknown option --frobnicate");
    test_dama_expect("match --a default", 2, "needs --a and --b");
    test_dama_expect("match --a default --b material --sprt elo0=5,elo1=1", 2, "elo1 > elo0");
    test_dama_expect("tune --lr -1", 2, "--lr");
    test_dama_expect("tune --runs 1,x", 2, "--runs");
    test_dama_expect("train --generations 0", 2, "--generations");
    /* refused before the database is touched: no file appears */
    char db[64];
    snprintf(db, sizeof db, "/tmp/dama-cli-%d.db", (int)getpid());
    snprintf(cmd, sizeof cmd, "train --db %s --start nothere.txt", db);
    test_dama_expect(cmd, 2, "nothere.txt");
    assert_int_equal(access(db, F_OK), -1);
    test_dama_expect("selfplay --db /nonexistent/dir/x.db --games 2", 1, "/nonexistent/dir/x.db");
    remove(bad_openings);
    remove(bad_weights);
}

static void test_help(void **state)
{
    (void)state;
    test_dama_expect("help", 0, "perft");
    test_dama_expect("perft --help", 0, "usage: dama perft");
    test_dama_expect("help moves", 0, "usage: dama moves");
    static const char *const commands[] = { "analyze", "bench", "selfplay", "tune", "match",
                                            "train", "export" };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        char args[64], usage[64];
        snprintf(args, sizeof args, "%s --help", commands[i]);
        snprintf(usage, sizeof usage, "usage: dama %s", commands[i]);
        test_dama_expect(args, 0, usage);
    }
}

/* `dama --version`: the version, the build's commit and the bench signature, three lines.
 * The commit must name a real commit of this checkout (git cat-file), or be "unknown" when
 * the build had no git; the binary may predate HEAD, so HEAD itself is not required. */
static void test_version(void **state)
{
    (void)state;
    static char out[4096];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(test_dama_run(out, sizeof out, i ? "version" : "--version"), 0);
        const char *c = strstr(out, "\ncommit ");
        if (strncmp(out, "dama ", 5) != 0 || !c || !strstr(c, "\nbench depth 6: "))
            fail_msg("dama --version:\n%s", out);
        c += strlen("\ncommit ");
        size_t len = strcspn(c, "\n");
        char commit[64];
        snprintf(commit, sizeof commit, "%.*s", (int)len, c);
        if (strcmp(commit, "unknown") != 0) {
            assert_true(len >= 4 && strspn(commit, "0123456789abcdef") == len);
            char cmd[128];
            snprintf(cmd, sizeof cmd, "git cat-file -e %s^{commit} 2>/dev/null", commit);
            if (system(cmd) != 0)
                fail_msg("dama --version names commit %s, which git does not know", commit);
        }
        const char *n = strstr(out, "bench depth 6: ") + strlen("bench depth 6: ");
        assert_true(*n >= '1' && *n <= '9');
        assert_int_equal(n[strspn(n, "0123456789")], '\n');
        /* then each other variant's, named: the same count `dama bench -v intl --depth 6` gives */
        assert_non_null(strstr(out, "\ninternational bench depth 6: "));
    }
    test_dama_expect("version --help", 0, "usage: dama --version");
    test_dama_expect("version extra", 2, "version takes no arguments");
}

/* help is a command like the others: its own --help, and errors that name the problem. */
/* `dama weights` prints a file that reads back; -v is --variant; the variant line of a
 * weights file is checked against the variant asked for. */
static void test_weights_command(void **state)
{
    (void)state;
    test_dama_expect("weights", 0, "\nvariant turkish\n");
    test_dama_expect("weights material", 0, "\nKING_FIRST_MG 300\nKING_FIRST_EG 300\n");
    test_dama_expect("weights --check data/weights/turkish.txt", 0,
                     "data/weights/turkish.txt: 72 weights for turkish");
    test_dama_expect("weights -v tr --check data/weights/turkish-trained.txt", 0, "72 weights for turkish");
    test_dama_expect("weights -v intl --check data/weights/international-trained.txt", 0,
                     "60 weights for international");
    /* the shipped International file read as Turkish: refused by its variant line */
    test_dama_expect("weights --check data/weights/international-trained.txt", 2,
                     "weights for variant 'international', not turkish");
    test_dama_expect("weights --variant chess", 2, "unknown variant 'chess'");
    test_dama_expect("weights --check no-such-file.txt", 2, "no-such-file.txt: cannot read");
    /* -v is the short --variant everywhere: International perft 3 from the start is 658
     * (tests/vectors/international/perft_start.txt), Turkish 708 (tests/vectors/turkish/perft_start.txt). */
    test_dama_expect("perft -v intl 3", 0, "nodes 658 ");
    test_dama_expect("perft -v tr 3", 0, "nodes 708 ");
}

/* `dama elo` pools pentanomials.  The figures were worked out apart from dama (Python, from
 * fishtest's regularised pair variance as tuner/sprt.c describes it): 100 pairs
 * [0,10,40,30,20] score 0.65, +107.5 [+74.1, +143.0]; 12 pairs all won allow 0.05^(1/12)
 * = 0.779 a game, +218.9; and the two International database matches of
 * docs/experiments.md, 2-4 and 2-5 pieces at 100 ms, pool to +12.6 [+2.3, +22.9]. */
static void test_elo_command(void **state)
{
    (void)state;
    test_dama_expect("elo 0,10,40,30,20", 0, "pairs 100 penta [0,10,40,30,20]\nelo +107.5 [+74.1, +143.0] los 100.0%\n");
    test_dama_expect("elo 0,24,143,30,3 1,25,135,34,5", 0,
                     "pairs 400 penta [1,49,278,64,8]\nelo +12.6 [+2.3, +22.9] los 99.2%\n");
    test_dama_expect("elo 0,0,0,0,12", 0, "above +218.9 at 95 %");
    test_dama_expect("elo 0,0,1,1,0", 0, "too few pairs (2 < 10) score 62.5%\n");
    test_dama_expect("elo 1,2,3,4", 2, "bad pentanomial '1,2,3,4'");
    test_dama_expect("elo 1,2,3,4,5,", 2, "bad pentanomial '1,2,3,4,5,'");
    test_dama_expect("elo 1,-2,3,4,5", 2, "bad pentanomial");
    test_dama_expect("elo 1,2,3,4,10000000000000", 2, "each 0 .. 1000000000000");
    test_dama_expect("elo", 2, "elo needs at least one PENTA");
}

/* A database file and the -wal and -shm files SQLite keeps beside it (a reader in WAL mode
 * makes them and may not remove them). */
static void unlink_database(const char *path)
{
    char side[96];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

/* `dama elo --db`: where the match runs of a file stand, worked out by hand.  Run 1, a match
 * stopped at 8 of its 10 games (A has White in even games): pairs (0, 1) white, white = A 1
 * + 0; (2, 3) draw, black = 0.5 + 1; (4, 5) lacks game 5 and (8, 9) game 8, so neither
 * counts; (6, 7) black, black = 0 + 1.  So penta [0,0,2,1,0], A 3-1-2 over 6 games, 3.5 points: 58.3 %.  Run 2, a
 * self-play run, is no match.  Run 3 ended and wrote its row, which counts instead of its
 * two stored games (its pentanomial's Elo is test_elo_command's, worked out apart). */
static void test_elo_from_db(void **state)
{
    (void)state;
    char db[64], empty[64], cmd[200], err[256];
    snprintf(db, sizeof db, "/tmp/dama-test-cli-elo-%ld.db", (long)getpid());
    snprintf(empty, sizeof empty, "/tmp/dama-test-cli-elo-empty-%ld.db", (long)getpid());
    unlink_database(db);
    unlink_database(empty);
    Store *st = store_open(db, err, sizeof err);
    assert_non_null(st);
    int64_t stopped = store_run_begin(st, "match", "turkish", "games=10 nodes=100 seed=1", NULL, NULL, 0);
    int64_t selfplay = store_run_begin(st, "selfplay", "turkish", "games=2 nodes=100", NULL, NULL, 0);
    int64_t ended = store_run_begin(st, "match", "turkish", "games=200 nodes=100 seed=2", NULL, NULL, 0);
    assert_true(stopped > 0 && selfplay > 0 && ended > 0);
    const int index[] = { 0, 1, 2, 3, 4, 6, 7, 9 };
    const int result[] = { RESULT_WHITE_WINS, RESULT_WHITE_WINS, RESULT_DRAW, RESULT_BLACK_WINS,
                           RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_BLACK_WINS, RESULT_DRAW };
    GameRecord games[8 + 2 + 2];
    int n = 0;
    for (int i = 0; i < 8; i++)
        games[n++] = (GameRecord){ .variant = "turkish", .run_id = stopped, .result = result[i], .plies = 10,
                                   .has_index = true, .game_index = index[i] };
    for (int i = 0; i < 2; i++) {
        games[n++] = (GameRecord){ .variant = "turkish", .run_id = selfplay, .result = RESULT_WHITE_WINS,
                                   .plies = 10, .has_index = true, .game_index = i };
        games[n++] = (GameRecord){ .variant = "turkish", .run_id = ended, .result = RESULT_DRAW, .plies = 10,
                                   .has_index = true, .game_index = i };
    }
    assert_true(store_games_write(st, games, n));
    assert_true(store_run_end(st, stopped, "interrupted"));
    assert_true(store_run_end(st, selfplay, "done"));
    assert_true(store_run_end(st, ended, "done"));
    MatchRecord rec = { .run_id = ended, .games = 200, .wins = 90, .draws = 80, .losses = 30,
                        .penta = "0,10,40,30,20", .verdict = "none" };
    assert_true(store_match_put(st, &rec) > 0);
    store_close(st);

    snprintf(cmd, sizeof cmd, "elo --db %s", db);
    test_dama_expect(cmd, 0,
                     "run 1 (turkish, interrupted): 8 of 10 games stored; the whole pairs so far\n"
                     "match games 6 wins 3 draws 1 losses 2 penta [0,0,2,1,0] (A's view)\n"
                     "elo n/a: too few pairs (3 < 10) score 58.3%\n"
                     "run 3 (turkish, done): 2 of 200 games stored; the match's own count\n"
                     "match games 200 wins 90 draws 80 losses 30 penta [0,10,40,30,20] (A's view)\n"
                     "elo +107.5 [+74.1, +143.0] los 100.0%\n");
    snprintf(cmd, sizeof cmd, "elo --db %s --run 3", db);
    test_dama_expect(cmd, 0, "run 3 (turkish, done)");
    snprintf(cmd, sizeof cmd, "elo --db %s --run 2", db);
    test_dama_expect(cmd, 2, "run 2 is no match run");
    snprintf(cmd, sizeof cmd, "elo --db %s 0,1,2,3,4", db);
    test_dama_expect(cmd, 2, "--db reads the pairs from the file");
    test_dama_expect("elo --run 1 0,1,2,3,4", 2, "--run needs --db");
    snprintf(cmd, sizeof cmd, "elo --db %s", empty);
    test_dama_expect(cmd, 1, empty); /* a reader never creates a file */
    st = store_open(empty, err, sizeof err);
    assert_non_null(st);
    store_close(st);
    test_dama_expect(cmd, 2, "no match run in the file");
    unlink_database(db);
    unlink_database(empty);
}

/* One pair of a match shows its plain score, as `dama elo` does: the same engine on both
 * sides plays the pair's second game as the first with the names swapped, so side A scores
 * exactly one point of two whatever the opening gives. */
static void test_match_few_pairs_line(void **state)
{
    (void)state;
    char db[64], cmd[160];
    snprintf(db, sizeof db, "/tmp/dama-test-cli-match-%ld.db", (long)getpid());
    snprintf(cmd, sizeof cmd, "match --a material --b material --games 2 --nodes 200 --threads 1 --db %s", db);
    test_dama_expect(cmd, 0, "elo n/a: too few pairs (1 < 10) score 50.0%\n");
    unlink(db);
}

/* --progress lines writes plain lines a log can keep (stderr here is a pipe): a match's
 * line a game and the closing progress line, with no carriage return or terminal code;
 * auto, the default, writes none off a terminal, and a bad value is named. */
static void test_progress_lines(void **state)
{
    (void)state;
    char db[64], out[8192];
    snprintf(db, sizeof db, "/tmp/dama-test-cli-progress-%ld.db", (long)getpid());
    const char *match = "match --a material --b material --games 2 --nodes 200 --threads 1";
    assert_int_equal(test_dama_run(out, sizeof out, "%s --db %s --progress lines", match, db), 0);
    assert_non_null(strstr(out, "game 1/2: "));
    assert_non_null(strstr(out, "\ngame 2/2: "));
    assert_non_null(strstr(out, "\nmatch: games 2/2 "));
    assert_null(strchr(out, '\r'));
    assert_null(strchr(out, '\033'));
    unlink(db);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(test_dama_run(out, sizeof out, "%s --db %s%s", match, db, i ? " --progress off" : ""), 0);
        assert_null(strstr(out, "game 1/2"));
        assert_null(strstr(out, "match: games"));
        unlink(db);
    }
    assert_int_equal(test_dama_run(out, sizeof out, "selfplay --games 2 --nodes 200 --threads 1 --db %s "
                                   "--progress lines", db), 0);
    assert_non_null(strstr(out, "selfplay: games 2/2 "));
    assert_null(strchr(out, '\r'));
    unlink(db);
    test_dama_expect("match --a material --b material --progress often", 2,
                     "bad value 'often' for --progress: expected auto, lines or off");
}

/* Removes the figure after every " nps " in analyze's output (its width varies too). */
static void blank_nps(char *out)
{
    for (char *s = strstr(out, " nps "); s; s = strstr(s, " nps ")) {
        s += 5;
        size_t digits = strcspn(s, " \n");
        memmove(s, s + digits, strlen(s + digits) + 1);
    }
}

/* The built-in best weights are the shipped pattern files, byte for byte: analyze's default
 * searches exactly what --weights FILE searches (the same best move and node counts). */
static void test_best_weights_are_the_shipped_files(void **state)
{
    (void)state;
    static const char *const variants[2][2] = { { "tr", "data/weights/turkish-pattern.txt" },
                                                { "intl", "data/weights/international-pattern.txt" } };
    for (int i = 0; i < 2; i++) {
        char a[8192], b[8192], c[8192];
        assert_int_equal(test_dama_run(a, sizeof a, "analyze -v %s --depth 7", variants[i][0]), 0);
        assert_int_equal(test_dama_run(b, sizeof b, "analyze -v %s --depth 7 --weights %s", variants[i][0],
                                       variants[i][1]), 0);
        assert_int_equal(test_dama_run(c, sizeof c, "analyze -v %s --depth 7 --weights default",
                                       variants[i][0]), 0);
        blank_nps(a); /* node counts and moves are compared, not the nps figures */
        blank_nps(b);
        blank_nps(c);
        assert_string_equal(a, b);
        assert_true(strcmp(a, c) != 0); /* and they are not the hand-set weights */
    }
    test_dama_expect("weights --check data/weights/turkish-pattern.txt", 0, "275634 weights for turkish");
}

/* --moves plays the game so far: `dama position` shows where it leads, the draw rules see
 * it, and the search uses it.  Three white kings against two: Black is lost, but after
 * a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1 its h7-h8 repeats the start a third time. */
static void test_moves_history(void **state)
{
    (void)state;
    /* International: after 32-28 19-23 White must take, and 28x19 is the only capture */
    test_dama_expect("position -v intl --moves \"1. 32-28 19-23\"", 0,
                     "fen W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                     "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23\nside white\nply 2\n"
                     "result none\nmoves 1 28x19\n");
    const char *f = "--fen W:WKa1,Kc1,Ke1:BKh8,Kf8";
    const char *m = "a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1";
    char args[512];
    snprintf(args, sizeof args, "position %s --moves \"%s h7-h8\"", f, m);
    test_dama_expect(args, 0, "ply 8\nresult draw (repetition)\nmoves 0\n");
    snprintf(args, sizeof args, "analyze %s --moves \"%s h7-h8\"", f, m);
    test_dama_expect(args, 0, "game over: draw (repetition)\n");
    /* with the history the lost side takes the draw; the same position alone is a loss */
    snprintf(args, sizeof args, "analyze %s --moves \"%s\" --depth 6", f, m);
    test_dama_expect(args, 0, " score 0 nodes");
    test_dama_expect(args, 0, "bestmove h7-h8\n");
    char out[8192];
    assert_int_equal(test_dama_run(out, sizeof out, "analyze --fen B:WKa1,Kc1,Ke1:BKh7,Kf8 --depth 6"), 0);
    assert_null(strstr(out, "bestmove h7-h8"));
    assert_non_null(strstr(out, "info depth 6 score -"));
    /* a bad move is named by its number; so is one after the end of the game */
    test_dama_expect("position --moves \"c3-c4 h6-h5 c4-c3\"", 2,
                     "--moves: move 3 'c4-c3': the piece on c4 can go to b4, d4, c5 only\n");
    test_dama_expect("position --moves \"c3-c4 c6-c5 c4-c3\"", 2,
                     "--moves: move 3 'c4-c3': a capture is compulsory: the piece on c4 can capture\n");
    /* the reason as `play` gives it: after 19-23 White must take with the man on 28 */
    test_dama_expect("moves -v intl --moves \"32-28 19-23 31-27\"", 2,
                     "--moves: move 3 '31-27': a capture is compulsory: the piece on 28 can capture\n");
    test_dama_expect("perft -v intl --moves \"32-28 19-23 31-27\" 1", 2, "a capture is compulsory");
    test_dama_expect("analyze --moves \"c3-c4 h6-h5 c4-c5 d6xd4\"", 2,
                     "--moves: move 4 'd6xd4': a capture is compulsory: the piece on c6 can capture\n");
    snprintf(args, sizeof args, "position %s --moves \"%s h7-h8 a1-a2\"", f, m);
    test_dama_expect(args, 2, "--moves: move 9 'a1-a2': the game is over: draw (repetition)");
    test_dama_expect("analyze --in x.txt --moves c3-c4", 2, "--moves is for one position");
}

static void test_help_command(void **state)
{
    (void)state;
    test_dama_expect("help --help", 0, "usage: dama help [COMMAND]");
    test_dama_expect("help help", 0, "usage: dama help [COMMAND]");
    test_dama_expect("--help", 0, "commands:");
    test_dama_expect("-h", 0, "commands:");
    test_dama_expect("help match", 0, "usage: dama match");
    test_dama_expect("help frobnicate", 2, "unknown command 'frobnicate'");
    test_dama_expect("help match train", 2, "one command at a time");
    test_dama_expect("help --frobnicate", 2, "dama help: unknown option --frobnicate (see 'dama help --help')\n");
}

/* No --help lists an option twice (two defaults for one option contradict each other:
 * train's once listed --games twice). */
static void test_help_no_duplicates(void **state)
{
    (void)state;
    static const char *const commands[] = { "perft", "moves", "analyze", "bench", "selfplay",
                                            "tune", "match", "train", "export", "help", "version" };
    static char out[1 << 15];
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        assert_int_equal(test_dama_run(out, sizeof out, "%s --help", commands[c]), 0);
        /* The option list: lines that start with two spaces and "--". */
        for (const char *line = out; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
            if (strncmp(line, "  --", 4) != 0)
                continue;
            size_t len = strcspn(line + 2, " ,\n");
            char option[64];
            snprintf(option, sizeof option, "\n  %.*s ", (int)len, line + 2);
            const char *first = strstr(out, option), *again = first ? strstr(first + 1, option) : NULL;
            if (again)
                fail_msg("dama %s --help lists %.*s twice:\n%s", commands[c], (int)len, line + 2, out);
        }
    }
}

/* The long options the parser of `dama ARGV... --help` takes, one per line into names:
 * the command runs in a child (its help to /dev/null) and hands back the table its
 * cli_parse call was given.  Empty when the command reads no options (help, version). */
static void parser_options(const char *const *args, int nargs, char *names, size_t len)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        if (!freopen("/dev/null", "w", stdout))
            _exit(3);
        char *argv[8];
        int argc = 0;
        for (; argc < nargs; argc++)
            argv[argc] = (char *)args[argc];
        argv[argc++] = (char *)"--help";
        argv[argc] = NULL;
        const Command *c = command_find(args[0]);
        cli_set_command(args[0]);
        if (!c || c->run(argc, argv) != 0)
            _exit(4);
        for (const struct option *o = cli_getopt_options(); o && o->name; o++)
            if (write(fds[1], o->name, strlen(o->name)) < 0 || write(fds[1], "\n", 1) < 0)
                _exit(5);
        _exit(0);
    }
    close(fds[1]);
    int status = test_read_child(fds[0], pid, names, len);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("dama %s --help in a child: status %d", args[0], status);
}

/* Columns of a line of UTF-8 text: its characters (the boards of play's help are ○ ●). */
static size_t columns(const char *line, size_t bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < bytes; i++)
        n += ((unsigned char)line[i] & 0xC0) != 0x80;
    return n;
}

/* Every command's help fits 80 columns and names every option its parser takes (perft's
 * once lacked --variant and --moves).  The options come from the parser's own table. */
static void test_help_names_every_option(void **state)
{
    (void)state;
    static char help[1 << 15], names[4096];
    int problems = 0; /* every one is reported before the test fails */
    for (int i = 0; dama_commands[i]; i++) {
        const char *name = dama_commands[i]->name;
        /* the commands with subcommands read their options in each subcommand */
        static const char *const subcommands[][2] = { { "pdn", "export" }, { "pdn", "import" },
                                                      { "db", "merge" }, { "book", "build" } };
        const char *const *argvs[4];
        int nargv[4], runs = 0;
        for (size_t k = 0; k < sizeof subcommands / sizeof subcommands[0]; k++)
            if (strcmp(subcommands[k][0], name) == 0) {
                argvs[runs] = subcommands[k];
                nargv[runs++] = 2;
            }
        const char *alone[1] = { name };
        if (runs == 0) {
            argvs[0] = alone;
            nargv[runs++] = 1;
        }
        assert_int_equal(test_dama_run(help, sizeof help, "%s --help", name), 0);
        for (const char *line = help; *line;) {
            size_t len = strcspn(line, "\n");
            if (columns(line, len) > 80) {
                print_error("dama %s --help: a line of %zu columns:\n%.*s\n", name, columns(line, len), (int)len, line);
                problems++;
            }
            line += len + (line[len] == '\n');
        }
        for (int r = 0; r < runs; r++) {
            parser_options(argvs[r], nargv[r], names, sizeof names);
            if (strcmp(name, "help") != 0 && strcmp(name, "version") != 0 && !names[0])
                fail_msg("dama %s: no option table seen", name);
            for (const char *o = names; *o; o += strcspn(o, "\n") + 1) {
                if (strncmp(o, "help\n", 5) == 0)
                    continue; /* every command takes --help; dama help says so */
                char option[64];
                snprintf(option, sizeof option, "--%.*s", (int)strcspn(o, "\n"), o);
                bool found = false;
                for (const char *at = strstr(help, option); at && !found; at = strstr(at + 1, option)) {
                    char next = at[strlen(option)];
                    found = (at == help || at[-1] != '-') && !(next == '-' || (next >= 'a' && next <= 'z'));
                }
                if (!found) {
                    print_error("dama %s --help does not name %s, which its parser takes\n", name, option);
                    problems++;
                }
            }
        }
    }
    assert_int_equal(problems, 0);
}

/* Exit codes as README states them: 2 for bad usage or a bad text input, 1 when the
 * database or an output cannot be used. */
/* The value errors of the option tables' kinds and calls, each as the hand-written parsers
 * said it (cli/option_table.c replaced them; these messages are theirs, to the letter). */
static void test_option_value_errors(void **state)
{
    (void)state;
    char want[256];
    test_dama_expect("selfplay --shard 3/2", 2, "dama: bad value '3/2' for --shard: expected K/N with 1 <= K <= N\n");
    test_dama_expect("export --k 0 --out x.csv", 2, "dama: bad value '0' for --k: expected a number above 0\n");
    test_dama_expect("pdn export --run 0", 2, "dama: bad value '0' for --run: expected a positive number\n");
    test_dama_expect("annotate --game -3", 2, "dama: bad value '-3' for --game: expected a non-negative whole number\n");
    test_dama_expect("analyze --sample 0", 2, "dama: bad value '0' for --sample: expected a positive number\n");
    test_dama_expect("analyze --format xml", 2, "dama: bad value 'xml' for --format: expected fen or pdn\n");
    test_dama_expect("tune --lr 0", 2, "dama: bad value '0' for --lr: expected a positive number\n");
    test_dama_expect("tune --validation 1", 2, "dama: bad value '1' for --validation: expected a number in [0, 1)\n");
    test_dama_expect("train --reg -1", 2, "dama: bad value '-1' for --reg: expected a number >= 0\n");
    test_dama_expect("weights --eval nnue", 2, "dama: bad value 'nnue' for --eval: expected linear or pattern\n");
    test_dama_expect("train --gauntlet ''", 2, "dama: --gauntlet: empty command\n");
    test_dama_expect("match --name-b \"$(printf 'a\\tb')\"", 2, "dama: --name-b: a control character in the name\n");
    test_dama_expect("match --engine-margin -1", 2,
                     "dama: bad value '-1' for --engine-margin: expected a whole number from 0 to 3600000\n");
    test_dama_expect("match --clock 10+1 --nodes 5", 2, "dama: --clock and --nodes cannot be combined: give one search limit\n");
    test_dama_expect("selfplay --win-adjudication x", 2,
                     "dama: bad value 'x' for --win-adjudication: expected CP:PLIES, e.g. 800:6\n");
    test_dama_expect("selfplay --draw-adjudication 5:0:80", 2,
                     "dama: bad value '5:0:80' for --draw-adjudication: PLIES must be at least 1\n");
    test_dama_expect("selfplay --clock x", 2, "dama: bad value 'x' for --clock: expected SECONDS+INCREMENT, e.g. 60+0.5\n");
    test_dama_expect("play --nodes 0", 2, "dama: bad value '0' for --nodes: expected a positive number\n");
    snprintf(want, sizeof want, "dama: bad value '0' for --depth: expected a whole number from 1 to %d\n", SEARCH_DEPTH_MAX);
    test_dama_expect("bench --depth 0", 2, want);
    snprintf(want, sizeof want, "dama: bad value '0' for --hash: expected a whole number from 1 to %d\n", HUB_HASH_MAX);
    test_dama_expect("hub --hash 0", 2, want);
    test_dama_expect("hub --egdb $(printf %01100d 0)", 2, "dama: --egdb: too long\n"); /* 1024 bytes at most */
    test_dama_expect("perft --rules a --rules b --rules c --rules d --rules e --rules f --rules g --rules h --rules i"
                     " --rules j --rules k --rules l --rules m --rules n --rules o --rules p --rules q 1", 2,
                     "dama: too many --rules options (at most 16): join them with commas\n");
    test_dama_expect("db merge --into x.db --variant chess y.db", 2, "dama: unknown variant 'chess'");
    test_dama_expect("perft -v international 1", 0, "nodes 9 ");
}

static void test_exit_codes(void **state)
{
    (void)state;
    test_dama_expect("analyze --in /nonexistent/in.fen", 2, "/nonexistent/in.fen");
    test_dama_expect("match --a /nonexistent/w.txt --b default", 2, "/nonexistent/w.txt");
    test_dama_expect("selfplay --weights /nonexistent/w.txt", 2, "/nonexistent/w.txt");
    test_dama_expect("selfplay --openings /nonexistent/o.fen", 2, "/nonexistent/o.fen");
    /* the database or the output cannot be used: a run-time failure */
    test_dama_expect("export --db /nonexistent/x.db runs --out /tmp/never.csv", 1, "/nonexistent/x.db");
    test_dama_expect("analyze --db /nonexistent/x.db --game 1", 1, "/nonexistent/x.db");
    test_dama_expect("selfplay --db /nonexistent/dir/x.db --games 2", 1, "/nonexistent/dir/x.db");
    test_dama_expect("match --a default --b default --games 2 --db /nonexistent/dir/x.db", 1,
           "/nonexistent/dir/x.db");
    assert_int_equal(access("/tmp/never.csv", F_OK), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_output),
        cmocka_unit_test(test_moves_output),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_whole_option_names),
        cmocka_unit_test(test_pipeline_errors),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_weights_command),
        cmocka_unit_test(test_elo_command),
        cmocka_unit_test(test_elo_from_db),
        cmocka_unit_test(test_match_few_pairs_line),
        cmocka_unit_test(test_progress_lines),
        cmocka_unit_test(test_best_weights_are_the_shipped_files),
        cmocka_unit_test(test_moves_history),
        cmocka_unit_test(test_help_command),
        cmocka_unit_test(test_help_no_duplicates),
        cmocka_unit_test(test_help_names_every_option),
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_option_value_errors),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
