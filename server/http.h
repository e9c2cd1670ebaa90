/* The HTTP layer of `dama serve` (libmicrohttpd): a few polling threads (epoll) serve every
 * connection, so idle or slow clients cost a socket each and nothing more; a request's body
 * collected up to HTTP_MAX_BODY bytes; one handler called per request with the whole
 * request, whose reply is sent as it is, or made later by a worker (http_reply_defer) for
 * the work that takes long.  The only file that includes microhttpd.h. */
#ifndef DAMA_HTTP_H
#define DAMA_HTTP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "http_reply.h"

#define HTTP_MAX_BODY (64 * 1024)

typedef struct HttpRequest {
    const char *method;     /* "GET", "POST", ... */
    const char *path;       /* the URL's path, decoded, without the query */
    const char *body;       /* NUL-terminated (body_len bytes before the NUL); "" when none */
    size_t body_len;
    bool body_too_large;    /* the body was over HTTP_MAX_BODY: body is empty */
    void *connection;       /* for http_query */
} HttpRequest;

/* The value of query parameter name ("?variant=turkish"), decoded; NULL when absent. */
const char *http_query(const HttpRequest *req, const char *name);
/* The name of the first query parameter whose decoded value holds a NUL byte ("%00"), which
 * no parameter may; NULL when none does. */
const char *http_query_with_nul(const HttpRequest *req);

typedef void (*HttpHandler)(void *ctx, const HttpRequest *req, HttpReply *reply);

/* The bounds of the server (README.md, "JSON API"); HTTP_QUEUE_MAX is in http_reply.h. */
#define HTTP_CONNECTIONS_MAX 16384  /* at once, all addresses (fewer when files are fewer) */
#define HTTP_IDLE_SECONDS 10        /* a connection that sends nothing this long is closed */

typedef struct HttpServer HttpServer;
/* Listens on host (a numeric IPv4 or IPv6 address, or a name) and port (0: a free port,
 * see http_port) and serves each request with handler; workers threads make the deferred
 * replies.  NULL with the reason in err, and *bad_address set when host is to blame (it
 * does not resolve, or is not this machine's). */
HttpServer *http_start(const char *host, int port, HttpHandler handler, void *ctx, int workers,
                       char *err, size_t errlen, bool *bad_address);
int http_port(const HttpServer *server);
/* Stops listening, cancels the deferred work, waits for the requests being answered and
 * frees the server. */
void http_stop(HttpServer *server);

#endif
