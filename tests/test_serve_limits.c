/* `dama serve` against a hostile or careless client (issue 20): a thousand idle and slow
 * ("slowloris") connections held open while a normal request still answers within a
 * second; links in the web folder that point outside it refused; a search of the deepest
 * level abandoned by its client, after which the server's CPU time stops growing within a
 * second, and whose game can be read while the engine thinks; the server's caps on every
 * search; a full table of games answered 503 with no game in play pushed out.  The server
 * runs as a child process (tests/serve_process.h); its CPU time is read from /proc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "serve_process.h"
#include "test_tmpdir.h"

#define IDLE_CONNECTIONS 1000
#define SLOW_CONNECTIONS 100
#define ANSWER_WITHIN_S 1.0
/* A search abandoned: the server's CPU time over a window of CPU_WINDOW_S starting SETTLE_S
 * after the disconnect must stay below IDLE_CPU_MAX_S and below half of what the search
 * took over such a window before (on a loaded machine a search gets less than a core). */
#define SETTLE_S 1.0
#define CPU_WINDOW_S 0.5
#define IDLE_CPU_MAX_S 0.15
#define BUSY_CPU_MIN_S 0.02
#define GAME_TABLE 32

static char dir[64];
static pid_t server_pid;
static int port;

/* web/ with index.html, and beside it a secret no request may read; links from web/ to
 * the secret, to its folder, to /etc/passwd, and one to index.html (inside: served). */
static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(dir, sizeof dir, "serve-limits") != 0 ||
        serve_make_folders(dir, "dama limits page") != 0)
        return -1;
    char path[160], target[160];
    struct { const char *target, *link; } links[] = {
        { "%s/secret.txt", "%s/web/x.txt" },
        { "../secret.txt", "%s/web/relative.txt" },
        { "%s", "%s/web/up" },
        { "/etc/passwd", "%s/web/passwd.txt" },
        { "index.html", "%s/web/alias.html" },
    };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        snprintf(target, sizeof target, links[i].target, dir);
        snprintf(path, sizeof path, links[i].link, dir);
        if (symlink(target, path) != 0)
            return -1;
    }
    server_pid = serve_start(dir, NULL, &port);
    return server_pid > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    serve_kill(server_pid);
    return test_tmpdir_remove(dir);
}

static json_t *api(const char *method, const char *path, const char *body, int status)
{
    return serve_api(port, method, path, body, status);
}

static json_int_t num(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v))
        fail_msg("field %s is not an integer", key);
    return json_integer_value(v);
}

/* GET /api/info: 200 within ANSWER_WITHIN_S, the seconds it took. */
static double timed_info(void)
{
    double t0 = serve_now();
    HttpResponse r = http_request(port, "GET", "/api/info", NULL);
    double took = serve_now() - t0;
    if (r.status != 200 || took > ANSWER_WITHIN_S)
        fail_msg("GET /api/info: status %d after %.3f s", r.status, took);
    http_response_free(&r);
    return took;
}

/* Open files enough for the test's sockets: the soft limit raised to the hard one. */
static int sockets_allowed(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return 0;
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
    getrlimit(RLIMIT_NOFILE, &lim);
    return lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > 1 << 20 ? 1 << 20 : (int)lim.rlim_cur;
}

static void close_all(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* 1000 connections that send nothing and 100 that send a request's head a line at a time,
 * never ending it: a normal request is answered within a second all along. */
static void test_idle_and_slow_connections(void **state)
{
    (void)state;
    int idle = IDLE_CONNECTIONS, slow = SLOW_CONNECTIONS;
    if (sockets_allowed() < idle + slow + 64)
        skip(); /* this machine's hard limit of open files is below the test's sockets */
    int *fds = malloc(sizeof(int) * (size_t)(idle + slow));
    assert_non_null(fds);
    for (int i = 0; i < idle + slow; i++) {
        fds[i] = http_connect(port);
        if (fds[i] < 0)
            fail_msg("connection %d refused: %s", i, strerror(errno));
    }
    static const char head[] = "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    for (int i = idle; i < idle + slow; i++)
        http_send_all(fds[i], head, sizeof head - 1);
    double worst = timed_info();
    /* the slow ones go on, a header line each, as the normal requests come */
    enum { REQUESTS = 200 };
    double t0 = serve_now();
    for (int i = 0; i < REQUESTS; i++) {
        if (i % 40 == 0)
            for (int j = idle; j < idle + slow; j++)
                http_send_all(fds[j], "X-Slow: 1\r\n", 11);
        double took = timed_info();
        worst = took > worst ? took : worst;
    }
    double seconds = serve_now() - t0;
    printf("serve: %d idle and %d slow connections held: %d requests in %.2f s (%.0f/s), "
           "the slowest answered in %.1f ms\n", idle, slow, REQUESTS, seconds,
           REQUESTS / seconds, worst * 1000);
    /* the held connections were kept, not dropped: one of the slow ones ends its request
     * and is answered */
    HttpResponse r = { .status = -1 };
    if (http_send_all(fds[idle], "Connection: close\r\n\r\n", 21))
        http_read_reply(fds[idle], &r);
    assert_int_equal(r.status, 200);
    http_response_free(&r);
    close_all(fds, idle + slow);
    free(fds);
    timed_info();
}

/* Links out of web/ are refused, whatever they point at; a link inside it is served. */
static void test_links_out_of_the_folder(void **state)
{
    (void)state;
    static const char *const refused[] = { "/static/x.txt", "/static/relative.txt",
                                           "/static/up/secret.txt", "/static/passwd.txt" };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        HttpResponse r = http_request(port, "GET", refused[i], NULL);
        if (r.status != 404 || (r.body && (strstr(r.body, "SECRET") || strstr(r.body, "root:"))))
            fail_msg("GET %s: status %d, body %s", refused[i], r.status, r.body ? r.body : "");
        http_response_free(&r);
    }
    HttpResponse r = http_request(port, "GET", "/static/alias.html", NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "dama limits page"));
    http_response_free(&r);
}

/* The server's CPU time (user and system) from /proc. */
static double cpu_seconds(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command may hold spaces */
    unsigned long utime = 0, stime = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
        fail_msg("cannot read %s", path);
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static double cpu_over(double seconds)
{
    double c0 = cpu_seconds(server_pid);
    usleep((useconds_t)(seconds * 1e6));
    return cpu_seconds(server_pid) - c0;
}

/* Sends a request and leaves the connection open (its fd). */
static int send_and_hold(const char *method, const char *path, const char *body)
{
    int fd = http_connect(port);
    assert_true(fd >= 0);
    char head[512];
    size_t len = body ? strlen(body) : 0;
    int n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", method,
                     path, len, body ? body : "");
    assert_true(http_send_all(fd, head, (size_t)n));
    return fd;
}

/* A new game where the engine (white) is to move at the deepest level. */
static json_int_t deep_game(void)
{
    json_t *g = api("POST", "/api/games", "{\"human\":\"black\",\"level\":{\"depth\":126}}", 201);
    json_int_t id = num(g, "id");
    json_decref(g);
    return id;
}

/* The engine's move at the deepest level, and an analysis of the most nodes, each
 * abandoned by its client: the server is idle again within a second. */
static void test_abandoned_searches(void **state)
{
    (void)state;
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/engine", (long long)deep_game());
    struct { const char *path, *body; } searches[] = {
        { path, NULL },
        { "/api/analyze", "{\"variant\":\"international\",\"nodes\":5000000}" },
    };
    for (size_t i = 0; i < sizeof searches / sizeof searches[0]; i++) {
        int fd = send_and_hold("POST", searches[i].path, searches[i].body);
        double busy = cpu_over(CPU_WINDOW_S); /* it searches */
        close(fd);
        double t0 = serve_now();
        usleep((useconds_t)(SETTLE_S * 1e6));
        double after = cpu_over(CPU_WINDOW_S);
        printf("serve: %s: %.2f s of CPU in %.1f s while searching; %.3f s of CPU in the %.1f s "
               "from %.1f s after the client left\n", searches[i].path, busy, CPU_WINDOW_S,
               after, CPU_WINDOW_S, serve_now() - t0 - CPU_WINDOW_S);
        assert_true(busy >= BUSY_CPU_MIN_S);
        if (after > IDLE_CPU_MAX_S || after > busy / 2)
            fail_msg("%s: the search went on after its client left (%.2f s of CPU in %.1f s)",
                     searches[i].path, after, CPU_WINDOW_S);
    }
}

/* While the engine thinks about a game, the game is read at once; a second engine request
 * is refused; the abandoned search plays no move. */
static void test_game_read_while_the_engine_thinks(void **state)
{
    (void)state;
    json_int_t id = deep_game();
    char path[64], engine[64];
    snprintf(path, sizeof path, "/api/games/%lld", (long long)id);
    snprintf(engine, sizeof engine, "/api/games/%lld/engine", (long long)id);
    int fd = send_and_hold("POST", engine, NULL);
    usleep(200 * 1000);
    double t0 = serve_now();
    json_t *g = api("GET", path, NULL, 200);
    double took = serve_now() - t0;
    if (took > ANSWER_WITHIN_S)
        fail_msg("GET %s took %.3f s while the engine thought", path, took);
    assert_string_equal(json_string_value(json_object_get(g, "to_move")), "engine");
    json_decref(g);
    json_t *e = api("POST", engine, NULL, 409);
    assert_non_null(strstr(json_string_value(json_object_get(e, "error")), "thinking"));
    json_decref(e);
    close(fd);
    usleep(300 * 1000);
    g = api("GET", path, NULL, 200);
    assert_int_equal(json_array_size(json_object_get(g, "moves")), 0);
    json_decref(g);
}

/* Every search under the server's caps, whatever the request asks. */
static void test_search_caps(void **state)
{
    (void)state;
    static const char *const capped[] = { "--max-nodes", "20000", NULL };
    int capped_port;
    pid_t pid = serve_start(dir, capped, &capped_port);
    assert_true(pid > 0);
    json_t *g = serve_api(capped_port, "POST", "/api/games",
                          "{\"human\":\"black\",\"level\":{\"depth\":126}}", 201);
    char path[64];
    snprintf(path, sizeof path, "/api/games/%lld/engine", (long long)num(g, "id"));
    json_decref(g);
    double t0 = serve_now();
    g = serve_api(capped_port, "POST", path, NULL, 200);
    double took = serve_now() - t0;
    json_int_t nodes = num(json_object_get(g, "last"), "nodes");
    json_decref(g);
    json_t *a = serve_api(capped_port, "POST", "/api/analyze", "{\"nodes\":5000000}", 200);
    json_int_t analyze_nodes = num(a, "nodes");
    json_decref(a);
    serve_kill(pid);
    pid = 0;
    printf("serve --max-nodes 20000: depth 126 searched %lld nodes in %.2f s, analyze %lld\n",
           (long long)nodes, took, (long long)analyze_nodes);
    assert_true(nodes > 0 && nodes <= 20000);
    assert_true(analyze_nodes > 0 && analyze_nodes <= 20000);

    /* and by time: a movetime of a minute asked, 300 ms given */
    static const char *const timed[] = { "--max-movetime", "300", NULL };
    pid = serve_start(dir, timed, &capped_port);
    assert_true(pid > 0);
    g = serve_api(capped_port, "POST", "/api/games",
                  "{\"human\":\"black\",\"level\":{\"movetime\":60000}}", 201);
    snprintf(path, sizeof path, "/api/games/%lld/engine", (long long)num(g, "id"));
    json_decref(g);
    t0 = serve_now();
    json_decref(serve_api(capped_port, "POST", path, NULL, 200));
    took = serve_now() - t0;
    serve_kill(pid);
    printf("serve --max-movetime 300: a movetime of 60000 asked, answered in %.2f s\n", took);
    assert_true(took < 3.0);
    test_dama_expect("serve --max-nodes 0", 2, "--max-nodes");
    test_dama_expect("serve --max-movetime 0", 2, "--max-movetime");
}

/* A full table of games in play: 503 with the reason, and every game stays. */
static void test_full_game_table(void **state)
{
    (void)state;
    static const char *const fresh[] = { NULL };
    int table_port;
    pid_t pid = serve_start(dir, fresh, &table_port);
    assert_true(pid > 0);
    json_int_t ids[GAME_TABLE];
    for (int i = 0; i < GAME_TABLE; i++) {
        json_t *g = serve_api(table_port, "POST", "/api/games", "{\"human\":\"both\"}", 201);
        ids[i] = num(g, "id");
        json_decref(g);
    }
    HttpResponse r = http_request(table_port, "POST", "/api/games", "{\"human\":\"both\"}");
    int status = r.status;
    bool reason = r.body && strstr(r.body, "\"error\"") && strstr(r.body, "full");
    http_response_free(&r);
    int kept = 0;
    for (int i = 0; i < GAME_TABLE; i++) {
        char path[64];
        snprintf(path, sizeof path, "/api/games/%lld", (long long)ids[i]);
        r = http_request(table_port, "GET", path, NULL);
        kept += r.status == 200;
        http_response_free(&r);
    }
    serve_kill(pid);
    printf("serve: a 33rd game: status %d; %d of %d games in play kept\n", status, kept, GAME_TABLE);
    assert_int_equal(status, 503);
    assert_true(reason);
    assert_int_equal(kept, GAME_TABLE);
}

/* Ctrl-C while the engine thinks and a client waits for it: exit 130 at once (and, under
 * the sanitizers, with nothing leaked). */
static void test_sigint_while_searching(void **state)
{
    (void)state;
    char engine[64];
    snprintf(engine, sizeof engine, "/api/games/%lld/engine", (long long)deep_game());
    int fd = send_and_hold("POST", engine, NULL);
    usleep(200 * 1000);
    double t0 = serve_now();
    assert_int_equal(kill(server_pid, SIGINT), 0);
    int status = 0;
    pid_t got;
    while ((got = waitpid(server_pid, &status, WNOHANG)) == 0 && serve_now() - t0 < 5.0)
        usleep(1000);
    double seconds = serve_now() - t0;
    HttpResponse r = { .status = -1 };
    http_read_reply(fd, &r); /* a 503, or the connection closed */
    close(fd);
    http_response_free(&r);
    if (got != server_pid)
        fail_msg("dama serve still ran %.1f s after SIGINT", seconds);
    server_pid = 0;
    printf("serve: exit %d %.3f s after SIGINT during a search\n",
           WIFEXITED(status) ? WEXITSTATUS(status) : -1, seconds);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_and_slow_connections),
        cmocka_unit_test(test_links_out_of_the_folder),
        cmocka_unit_test(test_abandoned_searches),
        cmocka_unit_test(test_game_read_while_the_engine_thinks),
        cmocka_unit_test(test_search_caps),
        cmocka_unit_test(test_full_game_table),
        cmocka_unit_test(test_sigint_while_searching),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
