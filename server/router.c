/* Which handler answers a request: the route table, path patterns, 404 and 405. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "api_json.h"
#include "server.h"

/* A pattern's segments: text matches itself, "#" a decimal id (1 .. 2^53), "*" the rest of
 * the path (one or more characters). */
static const struct Route {
    const char *method;
    const char *pattern;
    RouteFn fn;
} routes[] = {
    { "GET", "/", route_index },
    { "GET", "/static/*", route_static },
    { "GET", "/lib/dygraphs/*", route_dygraphs },
    { "GET", "/api/info", route_info },
    { "GET", "/api/board", route_board },
    { "GET", "/api/position", route_position },
    { "POST", "/api/legal", route_legal },
    { "POST", "/api/analyze", route_analyze },
    { "POST", "/api/games", route_game_new },
    { "GET", "/api/games/#", route_game_get },
    { "POST", "/api/games/#/move", route_game_move },
    { "POST", "/api/games/#/engine", route_game_engine },
    { "POST", "/api/games/#/resign", route_game_resign },
    { "GET", "/api/games/#/pdn", route_game_pdn },
    { "GET", "/api/db/games", route_db_games },
    { "GET", "/api/db/games/#", route_db_game },
    { "GET", "/api/runs", route_runs },
    { "GET", "/api/runs/#", route_run },
    { "GET", "/api/training", route_training },
    { "GET", "/api/explorer", route_explorer },
};
#define NROUTES ((int)(sizeof routes / sizeof routes[0]))

/* An id segment: digits only, no leading zero, at most 2^53 (what JSON numbers keep). */
static bool read_id(const char *s, size_t len, int64_t *id)
{
    if (len == 0 || len > 16 || s[0] == '0')
        return false;
    int64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v > ((int64_t)1 << 53))
        return false;
    *id = v;
    return true;
}

static bool match(const char *pattern, const char *path, RouteArgs *args)
{
    args->id = 0;
    args->rest = NULL;
    while (*pattern && *path) {
        if (*pattern == '*') {
            args->rest = path;
            return true;
        }
        if (*pattern == '#') {
            size_t n = strcspn(path, "/");
            if (!read_id(path, n, &args->id))
                return false;
            pattern++;
            path += n;
            continue;
        }
        if (*pattern != *path)
            return false;
        pattern++;
        path++;
    }
    return *pattern == '\0' && *path == '\0';
}

void server_handle(void *ctx, const HttpRequest *req, HttpReply *reply)
{
    Server *srv = ctx;
    if (req->body_too_large) {
        reply_error(reply, 413, "the request body is over %d KiB", HTTP_MAX_BODY / 1024);
        return;
    }
    const char *nul = http_query_with_nul(req);
    if (nul) {
        reply_error(reply, 400, "parameter %s holds a NUL byte (%%00)", nul);
        return;
    }
    /* The methods of the routes the path matches, for a 405's Allow header. */
    bool get = false, post = false;
    for (int i = 0; i < NROUTES; i++) {
        RouteArgs args;
        if (!match(routes[i].pattern, req->path, &args))
            continue;
        /* HEAD is GET without the body, which libmicrohttpd leaves out by itself */
        bool head = strcmp(req->method, "HEAD") == 0 && routes[i].method[0] == 'G';
        if (head || strcmp(routes[i].method, req->method) == 0) {
            routes[i].fn(srv, req, &args, reply);
            return;
        }
        get |= routes[i].method[0] == 'G';
        post |= routes[i].method[0] == 'P';
    }
    if (get || post) {
        reply->allow = get && post ? "GET, HEAD, POST" : get ? "GET, HEAD" : "POST";
        reply_error(reply, 405, "%s is not allowed on %s (use %s)", req->method, req->path,
                    reply->allow);
        return;
    }
    reply_error(reply, 404, "no such path: %s", req->path);
}
