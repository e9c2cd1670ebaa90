/* `dama serve` end to end: the server runs as a child process (bin/dama serve --port 0 on
 * a scratch database), and every test talks HTTP to it over a plain socket
 * (tests/http_client.h), checking the JSON API of README.md against positions whose
 * answers are known: a capture that is compulsory, a game played, resigned, saved and read
 * back, the errors of each class, and a clean stop on SIGINT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "serve_process.h"
#include "store.h"
#include "test_util.h"
#include "test_tmpdir.h"
#include "variant.h"

#define EXIT_DEADLINE_S 5.0

/* White to move must take d4 with d3 (d3xd5); a2 has quiet moves only, so a2-a3 is
 * refused because a capture is compulsory, and only d3 may move. */
#define CAPTURE_FEN "W:Wa2,d3:Bd4,h7"

static char dir[64];
static pid_t server_pid;
static int port;

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(dir, sizeof dir, "serve") != 0 ||
        serve_make_folders(dir, "dama test page") != 0)
        return -1;
    server_pid = serve_start(dir, NULL, &port);
    return server_pid > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    if (server_pid > 0) { /* the SIGINT test did not run or failed */
        kill(server_pid, SIGKILL);
        waitpid(server_pid, NULL, 0);
    }
    return test_tmpdir_remove(dir);
}

static json_t *api(const char *method, const char *path, const char *body, int status)
{
    return serve_api(port, method, path, body, status);
}

static const char *str(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_string(v))
        fail_msg("field %s is not a string", key);
    return json_string_value(v);
}

static json_int_t num(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        fail_msg("field %s is not an integer", key);
    return json_integer_value(v);
}

/* The array of strings a as one space-separated text (for comparisons). */
static const char *joined(json_t *a, char *buf, size_t len)
{
    size_t i, n = 0;
    json_t *s;
    buf[0] = '\0';
    json_array_foreach(a, i, s)
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? " " : "",
                              json_is_string(s) ? json_string_value(s) : "?");
    return buf;
}

static void test_info_and_board(void **state)
{
    (void)state;
    char buf[512];
    json_t *info = api("GET", "/api/info", NULL, 200);
    /* every game of the registry, in its order: Turkish, International, then the others */
    char names[512];
    size_t count = 0;
    for (size_t n = 0; variant_at((int)count); count++)
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", count ? " " : "",
                              variant_at((int)count)->name);
    assert_string_equal(joined(json_object_get(info, "variants"), buf, sizeof buf), names);
    assert_int_equal(strncmp(names, "turkish international", 21), 0);
    /* The games with their geometry, as the page's selects and boards read them. */
    json_t *games = json_object_get(info, "games");
    assert_int_equal(json_array_size(games), count);
    char *text = json_dumps(json_array_get(games, 0), JSON_SORT_KEYS | JSON_COMPACT);
    assert_string_equal(text, "{\"columns\":8,\"labels\":\"edges\",\"name\":\"turkish\","
                              "\"pdn_gametype\":30,\"rows\":8,\"title\":\"Turkish draughts\"}");
    free(text);
    text = json_dumps(json_array_get(games, 1), JSON_SORT_KEYS | JSON_COMPACT);
    assert_string_equal(text, "{\"columns\":10,\"labels\":\"numbers\",\"name\":\"international\","
                              "\"pdn_gametype\":20,\"rows\":10,\"title\":\"International draughts\"}");
    free(text);
    json_decref(info);

    /* Turkish: 64 squares from a8 (top left) to h1; d3 is on row 8-3 = 5, col 3. */
    json_t *b = api("GET", "/api/board?variant=turkish", NULL, 200);
    json_t *squares = json_object_get(b, "squares");
    assert_int_equal(num(b, "size"), 8);
    assert_int_equal(num(b, "rows"), 8);
    assert_int_equal(num(b, "columns"), 8);
    assert_string_equal(str(b, "labels"), "edges");
    assert_int_equal(json_array_size(squares), 64);
    assert_string_equal(str(json_array_get(squares, 0), "name"), "a8");
    json_t *d3 = json_array_get(squares, 5 * 8 + 3);
    assert_string_equal(str(d3, "name"), "d3");
    assert_int_equal(num(d3, "row"), 5);
    assert_int_equal(num(d3, "col"), 3);
    json_decref(b);

    /* International: the 50 dark squares; 1 is b10 (row 0, col 1), 46 is a1 (row 9, col 0). */
    b = api("GET", "/api/board?variant=international", NULL, 200);
    squares = json_object_get(b, "squares");
    assert_int_equal(num(b, "size"), 10);
    assert_int_equal(num(b, "rows"), 10);
    assert_int_equal(num(b, "columns"), 10);
    assert_string_equal(str(b, "labels"), "numbers");
    assert_int_equal(json_array_size(squares), 50);
    json_t *s1 = json_array_get(squares, 0), *s46 = json_array_get(squares, 45);
    assert_string_equal(str(s1, "name"), "1");
    assert_int_equal(num(s1, "row"), 0);
    assert_int_equal(num(s1, "col"), 1);
    assert_string_equal(str(s46, "name"), "46");
    assert_int_equal(num(s46, "row"), 9);
    assert_int_equal(num(s46, "col"), 0);
    json_decref(b);
}

static void test_legal_moves(void **state)
{
    (void)state;
    char buf[1024];
    json_t *j = api("POST", "/api/legal", "{\"variant\":\"turkish\",\"fen\":\"" CAPTURE_FEN "\"}", 200);
    assert_true(json_is_true(json_object_get(j, "capture_compulsory")));
    json_t *legal = json_object_get(j, "legal");
    assert_int_equal(json_array_size(legal), 1);
    json_t *m = json_array_get(legal, 0);
    assert_string_equal(str(m, "text"), "d3xd5");
    assert_string_equal(joined(json_object_get(m, "path"), buf, sizeof buf), "d3 d5");
    assert_string_equal(joined(json_object_get(m, "captured"), buf, sizeof buf), "d4");
    assert_string_equal(joined(json_object_get(j, "movable"), buf, sizeof buf), "d3");
    json_decref(j);

    /* The start of Turkish draughts: ranks 2 and 3 are full, so the only moves are the 8
     * steps forward from rank 3 (a3-a4 .. h3-h4). */
    j = api("POST", "/api/legal", "{\"variant\":\"turkish\"}", 200);
    assert_false(json_is_true(json_object_get(j, "capture_compulsory")));
    assert_int_equal(json_array_size(json_object_get(j, "legal")), 8);
    json_decref(j);
}

/* /api/position: the pieces of a FEN and the squares of a move, so the page reads neither
 * FEN nor move text itself. */
static void test_position(void **state)
{
    (void)state;
    char buf[1024];
    json_t *p = api("GET", "/api/position?variant=turkish&fen=" "W:Wa2,d3:Bd4,h7", NULL, 200);
    assert_string_equal(str(p, "variant"), "turkish");
    assert_string_equal(str(p, "side"), "white");
    json_t *pieces = json_object_get(p, "pieces");
    assert_int_equal(json_object_size(pieces), 4);
    assert_string_equal(str(pieces, "a2"), "w");
    assert_string_equal(str(pieces, "d4"), "b");
    assert_null(json_object_get(p, "move"));
    json_decref(p);

    /* The capture d3xd5 from there: its squares, and the position after it. */
    p = api("GET", "/api/position?variant=turkish&fen=W:Wa2,d3:Bd4,h7&move=d3xd5", NULL, 200);
    json_t *m = json_object_get(p, "move");
    assert_string_equal(joined(json_object_get(m, "path"), buf, sizeof buf), "d3 d5");
    assert_string_equal(joined(json_object_get(m, "captured"), buf, sizeof buf), "d4");
    json_t *after = json_object_get(p, "after");
    assert_string_equal(str(after, "side"), "black");
    assert_string_equal(str(after, "fen"), "B:Wa2,d5:Bh7");
    assert_int_equal(json_object_size(json_object_get(after, "pieces")), 3);
    assert_string_equal(str(json_object_get(after, "pieces"), "d5"), "w");
    json_decref(p);

    /* International, FEN ranges read by the server; a king; the start when fen is empty. */
    p = api("GET", "/api/position?variant=international&fen=B:W31-33,K50:B1-2", NULL, 200);
    assert_string_equal(str(p, "side"), "black");
    pieces = json_object_get(p, "pieces");
    assert_int_equal(json_object_size(pieces), 6);
    assert_string_equal(str(pieces, "32"), "w");
    assert_string_equal(str(pieces, "50"), "W");
    assert_string_equal(str(pieces, "2"), "b");
    json_decref(p);
    p = api("GET", "/api/position?variant=international&fen=", NULL, 200);
    assert_int_equal(json_object_size(json_object_get(p, "pieces")), 40);
    assert_string_equal(str(p, "side"), "white");
    json_decref(p);

    /* A move that is not legal there; a FEN and a variant that are not. */
    json_t *e = api("GET", "/api/position?variant=turkish&fen=W:Wa2,d3:Bd4,h7&move=a2-a3", NULL, 422);
    assert_non_null(strstr(str(e, "error"), "a2-a3"));
    json_decref(e);
    e = api("GET", "/api/position?variant=turkish&fen=W:Wz9", NULL, 400);
    assert_non_null(strstr(str(e, "error"), "fen"));
    json_decref(e);
    json_decref(api("GET", "/api/position?variant=chess", NULL, 400));
    json_decref(api("GET", "/api/position?variant=turkish&fen=W%00:Wa2", NULL, 400));
    json_decref(api("GET", "/api/position?variant=turkish&move=c3-c4%00x", NULL, 400));
    e = api("GET", "/api/position?variant=turkish&move=c3xc5xc7xc9xc11", NULL, 422);
    assert_non_null(strstr(str(e, "error"), "c3xc5"));
    json_decref(e);
}

/* A game from CAPTURE_FEN: the refused move, the capture, the engine's reply, resign,
 * saved into the database and read back, and its PDN. */
static void test_game_played_and_saved(void **state)
{
    (void)state;
    char buf[1024], path[128];
    json_t *g = api("POST", "/api/games",
                    "{\"variant\":\"turkish\",\"human\":\"white\",\"level\":{\"nodes\":3000},"
                    "\"fen\":\"" CAPTURE_FEN "\"}", 201);
    json_int_t id = num(g, "id");
    assert_string_equal(str(g, "side"), "white");
    assert_true(json_is_true(json_object_get(g, "capture_compulsory")));
    assert_int_equal(json_array_size(json_object_get(g, "legal")), 1);
    assert_string_equal(str(json_array_get(json_object_get(g, "legal"), 0), "text"), "d3xd5");
    assert_true(json_is_null(json_object_get(g, "last")));
    assert_true(json_is_null(json_object_get(g, "saved_game")));
    json_decref(g);

    snprintf(path, sizeof path, "/api/games/%lld/move", (long long)id);
    json_t *refused = api("POST", path, "{\"move\":\"a2-a3\"}", 422);
    assert_string_equal(str(refused, "refusal"), "capture-compulsory");
    assert_string_equal(joined(json_object_get(refused, "squares"), buf, sizeof buf), "d3");
    assert_non_null(strstr(str(refused, "error"), "capture"));
    json_decref(refused);
    /* The same piece dragged from a2 to a3 on the page: the server writes the move. */
    refused = api("POST", path, "{\"from\":\"a2\",\"to\":\"a3\"}", 422);
    assert_string_equal(str(refused, "refusal"), "capture-compulsory");
    json_decref(refused);

    g = api("POST", path, "{\"move\":\"d3xd5\"}", 200);
    assert_string_equal(joined(json_object_get(g, "moves"), buf, sizeof buf), "d3xd5");
    assert_string_equal(str(g, "side"), "black");
    json_t *last = json_object_get(g, "last");
    assert_string_equal(str(last, "by"), "human");
    assert_string_equal(joined(json_object_get(last, "captured"), buf, sizeof buf), "d4");
    assert_true(json_is_null(json_object_get(last, "eval")));
    assert_null(json_object_get(json_object_get(g, "pieces"), "d4"));
    assert_string_equal(str(json_object_get(g, "pieces"), "d5"), "w");
    json_decref(g);

    /* Black's man h7 has two moves (h6, g7): the engine plays one, with its search. */
    snprintf(path, sizeof path, "/api/games/%lld/engine", (long long)id);
    g = api("POST", path, NULL, 200);
    last = json_object_get(g, "last");
    assert_string_equal(str(last, "by"), "engine");
    const char *reply = str(last, "move");
    assert_true(strcmp(reply, "h7-h6") == 0 || strcmp(reply, "h7-g7") == 0);
    assert_true(json_is_integer(json_object_get(last, "eval")));
    assert_true(json_array_size(json_object_get(last, "pv")) >= 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(last, "pv"), 0)), reply);
    assert_true(num(last, "depth") >= 1);
    assert_true(num(last, "nodes") >= 1);
    char engine_move[32];
    snprintf(engine_move, sizeof engine_move, "%s", reply);
    json_decref(g);

    /* Not the engine's turn now: 409. */
    json_decref(api("POST", path, NULL, 409));

    snprintf(path, sizeof path, "/api/games/%lld/resign", (long long)id);
    g = api("POST", path, NULL, 200);
    assert_string_equal(str(g, "result"), "black-wins");
    assert_string_equal(str(g, "reason"), "resign");
    json_int_t saved = num(g, "saved_game");
    assert_true(saved > 0);
    assert_int_equal(json_array_size(json_object_get(g, "legal")), 0);
    json_decref(g);

    /* Over: a move is refused with 409, and asking again saves nothing twice. */
    snprintf(path, sizeof path, "/api/games/%lld/move", (long long)id);
    json_decref(api("POST", path, "{\"move\":\"d5-d6\"}", 409));
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    g = api("GET", path, NULL, 200);
    assert_int_equal(num(g, "saved_game"), saved);
    json_decref(g);

    json_t *list = api("GET", "/api/db/games?result=black-wins", NULL, 200);
    json_t *games = json_object_get(list, "games");
    int found = 0;
    size_t i;
    json_t *row;
    json_int_t play_run = 0;
    json_array_foreach(games, i, row)
        if (num(row, "id") == saved) {
            found++;
            play_run = num(row, "run");
            assert_string_equal(str(row, "run_kind"), "play");
            assert_int_equal(num(row, "plies"), 2);
            assert_string_equal(str(row, "reason"), "resign");
            assert_string_equal(str(row, "opening"), CAPTURE_FEN);
        }
    assert_int_equal(found, 1);
    json_decref(list);
    /* saved once: the play run holds this one game, whatever was asked since */
    snprintf(path, sizeof path, "/api/db/games?run=%lld", (long long)play_run);
    list = api("GET", path, NULL, 200);
    assert_int_equal(num(list, "total"), 1);
    json_decref(list);

    snprintf(path, sizeof path, "/api/db/games/%lld", (long long)saved);
    json_t *dbg = api("GET", path, NULL, 200);
    char expect[64];
    snprintf(expect, sizeof expect, "d3xd5 %s", engine_move);
    assert_string_equal(joined(json_object_get(dbg, "moves"), buf, sizeof buf), expect);
    assert_string_equal(str(dbg, "start_fen"), CAPTURE_FEN);
    json_t *fens = json_object_get(dbg, "fens");
    assert_int_equal(json_array_size(fens), 2);
    assert_string_equal(json_string_value(json_array_get(fens, 0)), "B:Wa2,d5:Bh7");
    /* the engine's move was searched: its score is stored, white's view; the person's not */
    json_t *scores = json_object_get(dbg, "scores");
    assert_int_equal(json_array_size(scores), 2);
    assert_true(json_is_null(json_array_get(scores, 0)));
    assert_true(json_is_integer(json_array_get(scores, 1)));
    json_decref(dbg);

    snprintf(path, sizeof path, "/api/games/%lld/pdn", (long long)id);
    HttpResponse r = http_request(port, "GET", path, NULL);
    assert_int_equal(r.status, 200);
    char type[128];
    assert_non_null(strstr(http_header(&r, "Content-Type", type, sizeof type), "text/plain"));
    assert_non_null(strstr(r.body, "[FEN \"" CAPTURE_FEN "\"]"));
    assert_non_null(strstr(r.body, "[Result \"0-2\"]"));
    snprintf(expect, sizeof expect, "1. d3xd5 %s 0-2", engine_move);
    assert_non_null(strstr(r.body, expect));
    http_response_free(&r);
}

/* The person plays black: the engine, white, is to move and waits for /engine. */
static void test_engine_moves_first(void **state)
{
    (void)state;
    char path[128];
    json_t *g = api("POST", "/api/games",
                    "{\"variant\":\"international\",\"human\":\"black\",\"level\":{\"depth\":2}}", 201);
    json_int_t id = num(g, "id");
    assert_string_equal(str(g, "to_move"), "engine");
    assert_int_equal(json_array_size(json_object_get(g, "moves")), 0);
    assert_int_equal(json_array_size(json_object_get(g, "legal")), 9); /* 9 first moves in 10x10 */
    json_decref(g);
    snprintf(path, sizeof path, "/api/games/%lld/engine", (long long)id);
    g = api("POST", path, NULL, 200);
    assert_int_equal(json_array_size(json_object_get(g, "moves")), 1);
    assert_string_equal(str(g, "side"), "black");
    assert_string_equal(str(g, "to_move"), "human");
    assert_int_equal(num(json_object_get(g, "last"), "depth"), 2);
    json_decref(g);
    /* white is the engine's: it cannot resign for it */
    snprintf(path, sizeof path, "/api/games/%lld/resign", (long long)id);
    json_decref(api("POST", path, "{\"side\":\"white\"}", 409));
}

static void test_analyze(void **state)
{
    (void)state;
    /* one legal move: the engine must name it */
    json_t *a = api("POST", "/api/analyze",
                    "{\"variant\":\"turkish\",\"fen\":\"" CAPTURE_FEN "\",\"nodes\":2000}", 200);
    assert_string_equal(str(a, "move"), "d3xd5");
    assert_string_equal(json_string_value(json_array_get(json_object_get(a, "pv"), 0)), "d3xd5");
    assert_true(num(a, "depth") >= 1);
    assert_true(num(a, "nodes") >= 1 && num(a, "nodes") <= 2000);
    json_decref(a);
    /* no legal move: no move, and the search says so */
    a = api("POST", "/api/analyze", "{\"variant\":\"turkish\",\"fen\":\"W:W:Bd4\",\"nodes\":100}", 200);
    assert_true(json_is_null(json_object_get(a, "move")));
    json_decref(a);
    json_decref(api("POST", "/api/analyze", "{\"nodes\":0}", 400));
    json_decref(api("POST", "/api/analyze", "{\"nodes\":99999999}", 400));
}

/* The turn clock through the API: white (the person) lets 1 s pass; the next GET plays a
 * move for white (by "clock") and counts the time-out; black, the engine, is to move. */
static void test_turn_clock(void **state)
{
    (void)state;
    json_t *g = api("POST", "/api/games", "{\"turn_seconds\":1,\"level\":{\"nodes\":100}}", 201);
    json_int_t id = num(g, "id");
    json_t *clock = json_object_get(g, "clock");
    assert_int_equal(num(clock, "turn_ms"), 1000);
    assert_true(num(clock, "left_ms") <= 1000);
    json_decref(g);
    usleep(1200 * 1000);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    g = api("GET", path, NULL, 200);
    assert_int_equal(json_array_size(json_object_get(g, "moves")), 1);
    assert_string_equal(str(json_object_get(g, "last"), "by"), "clock");
    assert_int_equal(num(json_object_get(json_object_get(g, "clock"), "timeouts"), "white"), 1);
    assert_string_equal(str(g, "to_move"), "engine");
    assert_true(json_is_null(json_object_get(g, "result")));
    json_decref(g);
}

/* A self-play run written into the same file while the server runs shows in /api/runs. */
static void test_runs_after_selfplay(void **state)
{
    (void)state;
    char out[4096], path[128];
    int code = test_dama_run(out, sizeof out, "selfplay --db %s/serve.db --games 2 --nodes 300", dir);
    assert_int_equal(code, 0);
    json_t *all = api("GET", "/api/runs", NULL, 200), *runs = json_object_get(all, "runs");
    json_t *run = NULL, *r;
    size_t i;
    json_array_foreach(runs, i, r)
        if (strcmp(str(r, "kind"), "selfplay") == 0)
            run = r;
    assert_non_null(run);
    assert_int_equal(num(run, "games"), 2);
    assert_int_equal(num(run, "planned"), 2);
    assert_string_equal(str(run, "status"), "done");
    json_int_t id = num(run, "id");

    snprintf(path, sizeof path, "/api/runs/%lld", (long long)id);
    json_t *detail = api("GET", path, NULL, 200);
    json_int_t games = 0;
    json_array_foreach(json_object_get(detail, "lengths"), i, r)
        games += num(r, "games");
    assert_int_equal(games, 2);
    assert_int_equal(num(json_object_get(detail, "progress"), "games"), 2);
    json_decref(detail);

    snprintf(path, sizeof path, "/api/db/games?run=%lld&limit=1", (long long)id);
    json_t *list = api("GET", path, NULL, 200);
    assert_int_equal(num(list, "total"), 2);
    assert_int_equal(json_array_size(json_object_get(list, "games")), 1);
    json_int_t game = num(json_array_get(json_object_get(list, "games"), 0), "id");
    json_decref(list);
    snprintf(path, sizeof path, "/api/db/games/%lld", (long long)game);
    json_t *g = api("GET", path, NULL, 200);
    json_int_t plies = num(g, "plies");
    assert_int_equal(json_array_size(json_object_get(g, "moves")), plies);
    assert_int_equal(json_array_size(json_object_get(g, "fens")), plies);
    assert_int_equal(json_array_size(json_object_get(g, "scores")), plies);
    json_decref(g);
    json_decref(all);

    json_t *training = api("GET", "/api/training?variant=turkish", NULL, 200);
    assert_true(json_is_null(json_object_get(training, "current"))); /* no train run */
    json_decref(training);
    /* an empty filter, as a form sends it, is the default variant (was a 400) */
    training = api("GET", "/api/training?variant=", NULL, 200);
    assert_string_equal(str(training, "variant"), "turkish");
    json_decref(training);
}

/* The training view over a journal written here through the store, as `dama train` writes
 * it: generation 1 decided (its match at +12.5 Elo, promoted; its tune run's losses), and
 * generation 2's self-play running (none of its 9 games stored yet). */
static void test_training_view(void **state)
{
    (void)state;
    char db[128], err[512];
    snprintf(db, sizeof db, "%s/serve.db", dir);
    Store *s = store_open(db, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    int64_t w1 = store_weights_put(s, "turkish", 0, 0, "variant turkish\nstart\n", "start");
    int64_t w2 = store_weights_put(s, "turkish", 1, w1, "variant turkish\ncandidate\n", "gen 1");
    int64_t train = store_run_begin(s, "train", "turkish", "games=9 train", NULL, NULL, w1);
    /* before its first step: running, nothing under way yet */
    json_t *t = api("GET", "/api/training?variant=turkish", NULL, 200);
    assert_int_equal(num(t, "train_run"), train);
    assert_true(json_is_null(json_object_get(json_object_get(t, "current"), "run")));
    assert_int_equal(num(json_object_get(t, "current"), "games"), 0);
    json_decref(t);
    char params[128];
    snprintf(params, sizeof params, "games=9 nodes=1 train_run=%lld generation=1", (long long)train);
    int64_t sp1 = store_run_begin(s, "selfplay", "turkish", params, NULL, NULL, w1);
    int64_t tune = store_run_begin(s, "tune", "turkish", "generation=1", NULL, NULL, w1);
    double train_loss[2] = { 0.30, 0.20 }, valid_loss[2] = { 0.35, 0.25 };
    TuneRunRecord tr = { .run_id = tune, .parent_weights_id = w1, .result_weights_id = w2,
                         .k = 1, .train_loss = 0.20, .validation_loss = 0.25, .positions = 10,
                         .epochs = 1, .epoch_train = train_loss, .epoch_valid = valid_loss, .nepochs = 2 };
    snprintf(params, sizeof params, "games=20 nodes=1 train_run=%lld generation=1", (long long)train);
    int64_t match = store_run_begin(s, "match", "turkish", params, NULL, NULL, w2);
    MatchRecord mr = { .run_id = match, .weights_a = w2, .weights_b = w1, .games = 20, .wins = 8,
                       .draws = 6, .losses = 6, .elo = 12.5, .elo_low = -3, .elo_high = 28,
                       .verdict = "accept-H1" };
    TrainStep step = { .ref_id = sp1, .best_weights_id = w1 };
    assert_true(w1 > 0 && w2 > 0 && train > 0 && sp1 > 0 && tune > 0 && match > 0);
    assert_true(store_tune_run_put(s, &tr) > 0);
    assert_true(store_match_put(s, &mr) > 0);
    assert_true(store_train_step_put(s, train, 1, "selfplay", &step));
    step.ref_id = w2;
    assert_true(store_train_step_put(s, train, 1, "tune", &step));
    step.ref_id = match;
    step.candidate_weights_id = w2;
    assert_true(store_train_step_put(s, train, 1, "match", &step));
    snprintf(step.outcome, sizeof step.outcome, "promoted");
    assert_true(store_train_step_put(s, train, 1, "decision", &step));
    snprintf(params, sizeof params, "games=9 nodes=1 train_run=%lld generation=2", (long long)train);
    int64_t sp2 = store_run_begin(s, "selfplay", "turkish", params, NULL, NULL, w2);
    assert_true(sp2 > 0);
    store_close(s);

    t = api("GET", "/api/training?variant=turkish", NULL, 200);
    assert_int_equal(num(t, "train_run"), train);
    json_t *gens = json_object_get(t, "generations");
    assert_int_equal(json_array_size(gens), 1);
    json_t *g1 = json_array_get(gens, 0);
    assert_int_equal(num(g1, "generation"), 1);
    assert_true(json_real_value(json_object_get(g1, "elo")) == 12.5);
    assert_true(json_real_value(json_object_get(g1, "elo_low")) == -3);
    assert_true(json_is_true(json_object_get(g1, "promoted")));
    assert_true(json_real_value(json_object_get(g1, "loss")) == 0.25);
    assert_int_equal(num(g1, "match_run"), match);
    json_t *cur = json_object_get(t, "current");
    assert_int_equal(num(cur, "run"), sp2);
    assert_int_equal(num(cur, "generation"), 2);
    assert_int_equal(num(cur, "games"), 0);
    assert_int_equal(num(cur, "planned"), 9);
    json_decref(t);

    /* the same journal seen from the runs: the match is generation 1's, promoted */
    char path[64];
    snprintf(path, sizeof path, "/api/runs/%lld", (long long)match);
    json_t *m = api("GET", path, NULL, 200);
    assert_int_equal(num(m, "generation"), 1);
    assert_int_equal(num(m, "train_run"), train);
    assert_true(json_is_true(json_object_get(m, "promoted")));
    assert_true(json_real_value(json_object_get(m, "elo")) == 12.5);
    json_decref(m);
    snprintf(path, sizeof path, "/api/runs/%lld", (long long)tune);
    m = api("GET", path, NULL, 200);
    assert_int_equal(num(m, "generation"), 1);
    json_t *loss = json_object_get(m, "loss");
    assert_int_equal(json_array_size(loss), 2);
    assert_true(json_real_value(json_object_get(json_array_get(loss, 1), "validation")) == 0.25);
    json_decref(m);
}

/* Every error class, each with its status and a JSON {"error": ...}. */
static void test_errors(void **state)
{
    (void)state;
    json_t *e = api("POST", "/api/games", "{\"variant\": \"turkish\",", 400);
    assert_non_null(strstr(str(e, "error"), "malformed JSON"));
    json_decref(e);
    json_decref(api("POST", "/api/legal", "[1, 2]", 400));
    e = api("POST", "/api/legal", NULL, 400); /* no body is not {} */
    assert_non_null(strstr(str(e, "error"), "empty"));
    json_decref(e);
    json_decref(api("POST", "/api/analyze", NULL, 400));
    /* a variant that is a NUL byte, or empty, is no variant (not the default one) */
    e = api("GET", "/api/board?variant=%00", NULL, 400);
    assert_non_null(strstr(str(e, "error"), "variant"));
    json_decref(e);
    json_decref(api("GET", "/api/board?variant=turkish%00x", NULL, 400));
    json_decref(api("GET", "/api/board?variant=", NULL, 400));
    json_decref(api("GET", "/api/db/games?variant=%00", NULL, 400));
    /* the deepest level is the CLI's (SEARCH_DEPTH_MAX, 126) */
    json_decref(api("POST", "/api/games", "{\"level\":{\"depth\":127}}", 400));
    json_t *g = api("POST", "/api/games", "{}", 201);
    char path[128];
    snprintf(path, sizeof path, "/api/games/%lld/move", (long long)num(g, "id"));
    json_decref(g);
    e = api("POST", path, "{\"mvoe\":\"c3-c4\"}", 400);
    assert_non_null(strstr(str(e, "error"), "missing field \"move\""));
    json_decref(e);
    json_decref(api("POST", path, "{\"move\":17}", 400));
    e = api("POST", path, "{\"move\":\"zz\"}", 422);
    assert_string_equal(str(e, "refusal"), "syntax");
    json_decref(e);
    json_decref(api("POST", path, "{\"from\":\"c3\"}", 400));
    json_decref(api("POST", path, "{\"from\":\"c3\",\"to\":5}", 400));
    e = api("POST", path, "{\"from\":\"c3\",\"to\":\"c4\"}", 200); /* a quiet move by squares */
    assert_string_equal(json_string_value(json_array_get(json_object_get(e, "moves"), 0)), "c3-c4");
    json_decref(e);
    json_decref(api("POST", "/api/games", "{\"variant\":\"chess\"}", 400));
    json_decref(api("POST", "/api/games", "{\"fen\":\"W:Wz9\"}", 400));
    json_decref(api("POST", "/api/games", "{\"human\":\"nobody\"}", 400));
    json_decref(api("POST", "/api/games", "{\"level\":{\"nodes\":-5}}", 400));

    json_decref(api("GET", "/api/games/999999", NULL, 404));
    json_decref(api("POST", "/api/games/999999/move", "{\"move\":\"c3-c4\"}", 404));
    json_decref(api("GET", "/api/games/abc", NULL, 404));
    json_decref(api("GET", "/api/db/games/999999", NULL, 404));
    json_decref(api("GET", "/api/runs/999999", NULL, 404));
    json_decref(api("GET", "/api/nothing", NULL, 404));
    json_decref(api("GET", "/api/db/games?limit=0", NULL, 400));

    e = api("GET", "/api/legal", NULL, 405);
    json_decref(e);
    json_decref(api("DELETE", "/api/games/1", NULL, 405));

    /* over 64 KiB: refused once the length is declared, and when the body is sent */
    HttpResponse r = http_request_ex(port, "POST", "/api/legal", "", 70000, false);
    assert_int_equal(r.status, 413);
    http_response_free(&r);
    size_t big = 70000;
    char *body = malloc(big + 1);
    memset(body, ' ', big);
    memcpy(body, "{\"fen\":\"", 8);
    body[big - 2] = '"';
    body[big - 1] = '}';
    body[big] = '\0';
    json_decref(api("POST", "/api/legal", body, 413));
    free(body);
    /* and a body of no declared length (chunked) that grows past the limit */
    size_t chunks = 80, chunk = 1024, len = 0;
    char *raw = malloc(chunks * (chunk + 16) + 256);
    len += (size_t)sprintf(raw, "POST /api/legal HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                "Transfer-Encoding: chunked\r\n\r\n");
    for (size_t c = 0; c < chunks; c++) {
        len += (size_t)sprintf(raw + len, "%zx\r\n", chunk);
        memset(raw + len, ' ', chunk);
        len += chunk;
        len += (size_t)sprintf(raw + len, "\r\n");
    }
    len += (size_t)sprintf(raw + len, "0\r\n\r\n");
    r = http_request_raw(port, raw, len);
    free(raw);
    assert_int_equal(r.status, 413);
    http_response_free(&r);

    /* the server still answers after all that */
    json_decref(api("GET", "/api/info", NULL, 200));
}

/* At most 32 games in play.  The tests before left game 1 finished (resigned) and games 2
 * and 3 in play: a new game beyond 32 takes the place of the finished one, even just
 * used; then the table is full (503): no game in play is pushed out. */
static json_int_t new_game(void)
{
    /* two people, no clock: no engine, so no transposition table to allocate */
    json_t *g = api("POST", "/api/games", "{\"human\":\"both\"}", 201);
    json_int_t id = num(g, "id");
    json_decref(g);
    return id;
}

static void expect_game(json_int_t id, int status)
{
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    json_decref(api("GET", path, NULL, status));
}

static void resign(json_int_t id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/resign", (long long)id);
    json_decref(api("POST", path, NULL, 200)); /* no body: the side to move of two people */
}

static void test_games_in_play_limit(void **state)
{
    (void)state;
    enum { TABLE = 32 };
    json_t *g1 = api("GET", "/api/games/1", NULL, 200); /* now the latest used */
    assert_string_equal(str(g1, "result"), "black-wins");
    json_decref(g1);
    json_int_t first = new_game();
    assert_int_equal(first, 4);
    for (int i = 1; i < TABLE - 3; i++)
        new_game();
    expect_game(1, 200); /* 32 in play: nothing pushed out yet */
    json_int_t last = new_game();
    expect_game(1, 404);
    expect_game(2, 200);
    expect_game(3, 200);
    /* every game goes on: the table is full, and says why */
    json_t *e = api("POST", "/api/games", "{\"human\":\"both\"}", 503);
    assert_non_null(strstr(str(e, "error"), "32 games are in play"));
    json_decref(e);
    for (json_int_t id = 2; id <= last; id++)
        expect_game(id, 200);
    /* a finished game makes room; one more is left for the tests after this one */
    resign(first);
    resign(first + 1);
    json_int_t next = new_game();
    assert_int_equal(next, last + 1);
    expect_game(first, 404);
    expect_game(first + 1, 200);
}

static void test_static_files(void **state)
{
    (void)state;
    HttpResponse r = http_request(port, "GET", "/", NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "dama test page"));
    char type[128];
    assert_non_null(strstr(http_header(&r, "Content-Type", type, sizeof type), "text/html"));
    http_response_free(&r);
    r = http_request(port, "GET", "/static/index.html", NULL);
    assert_int_equal(r.status, 200);
    size_t page_len = r.body_len;
    http_response_free(&r);
    /* HEAD: GET's status and headers, no body (RFC 9110, 9.3.2) */
    r = http_request(port, "HEAD", "/static/index.html", NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body_len, 0);
    assert_int_equal(strtoul(http_header(&r, "Content-Length", type, sizeof type), NULL, 10), page_len);
    http_response_free(&r);
    r = http_request(port, "HEAD", "/api/board?variant=turkish", NULL);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body_len, 0);
    http_response_free(&r);
    r = http_request(port, "HEAD", "/api/legal", NULL); /* POST only */
    assert_int_equal(r.status, 405);
    assert_string_equal(http_header(&r, "Allow", type, sizeof type), "POST");
    http_response_free(&r);
    /* nothing outside web/: "..", its %-encoding, an absolute path, a missing file */
    static const char *const refused[] = { "/static/../secret.txt", "/static/%2e%2e/secret.txt",
                                           "/static//etc/passwd", "/static/./index.html",
                                           "/lib/dygraphs/../../../../etc/passwd", "/static/missing.js" };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        r = http_request(port, "GET", refused[i], NULL);
        if (r.status != 404 || strstr(r.body, "SECRET") || strstr(r.body, "root:"))
            fail_msg("GET %s: status %d, body %s", refused[i], r.status, r.body);
        http_response_free(&r);
    }
    if (access("/usr/share/javascript/dygraphs/dygraph.min.js", R_OK) == 0) {
        r = http_request(port, "GET", "/lib/dygraphs/dygraph.min.js", NULL);
        assert_int_equal(r.status, 200);
        assert_non_null(strstr(http_header(&r, "Content-Type", type, sizeof type), "javascript"));
        http_response_free(&r);
    }
}

/* A second server on the same port: a clear error, exit 1. */
static void test_port_in_use(void **state)
{
    (void)state;
    char port_text[16], out[256];
    snprintf(port_text, sizeof port_text, "%d", port);
    int fd = -1;
    pid_t pid = serve_spawn(dir, port_text, NULL, &fd);
    assert_true(pid > 0);
    serve_read_line(fd, out, sizeof out);
    close(fd);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    char err_path[128];
    snprintf(err_path, sizeof err_path, "%s/serve-err-%s.txt", dir, port_text);
    char *err = test_read_file(err_path);
    assert_non_null(err);
    assert_non_null(strstr(err, "cannot listen"));
    free(err);
    test_dama_expect("serve --port 70000", 2, "--port");
    /* an address that does not resolve, or is not this machine's: the input's fault */
    char args[256], never[128], needle[64];
    snprintf(never, sizeof never, "%s/never.db", dir);
    static const char *const hosts[] = { "999.1.1.1", "192.0.2.1" };
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "serve --port 0 --db %s --host %s", never, hosts[i]);
        snprintf(needle, sizeof needle, "--host %s", hosts[i]);
        test_dama_expect(args, 2, needle);
        assert_int_equal(access(never, F_OK), -1); /* and no database made for nothing */
    }
}

/* Ctrl-C: exit 130 at once, and the file is whole. */
static void test_sigint_stops(void **state)
{
    (void)state;
    double t0 = serve_now();
    assert_int_equal(kill(server_pid, SIGINT), 0);
    int status = 0;
    pid_t got;
    while ((got = waitpid(server_pid, &status, WNOHANG)) == 0 && serve_now() - t0 < EXIT_DEADLINE_S)
        usleep(1000);
    double seconds = serve_now() - t0;
    if (got != server_pid)
        fail_msg("dama serve still ran %.1f s after SIGINT", seconds);
    server_pid = 0;
    printf("serve: exit %d %.3f s after SIGINT\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1,
           seconds);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    char db[128], err[512];
    snprintf(db, sizeof db, "%s/serve.db", dir);
    Store *s = store_open_readonly(db, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    assert_true(store_check(s));
    store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_and_board),
        cmocka_unit_test(test_legal_moves),
        cmocka_unit_test(test_position),
        cmocka_unit_test(test_game_played_and_saved),
        cmocka_unit_test(test_engine_moves_first),
        cmocka_unit_test(test_analyze),
        cmocka_unit_test(test_runs_after_selfplay),
        cmocka_unit_test(test_training_view),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_games_in_play_limit),
        cmocka_unit_test(test_turn_clock),
        cmocka_unit_test(test_static_files),
        cmocka_unit_test(test_port_in_use),
        cmocka_unit_test(test_sigint_stops),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
