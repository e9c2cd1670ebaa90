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

struct HttpReply;
/* Work that makes a reply slowly (an engine search), run on a worker thread while its
 * connection waits suspended, so the polling threads go on serving everyone else.  cancel
 * is set when the client goes away (it closed the connection, or shut its sending side as
 * nginx also takes it) or the server stops: the work should stop at once; its reply is then
 * dropped. */
typedef void (*HttpWork)(void *arg, const atomic_bool *cancel, struct HttpReply *reply);
/* Frees what arg holds; called once, whether the work ran or not. */
typedef void (*HttpRelease)(void *arg);

typedef struct HttpReply {
    int status;               /* 200 unless set */
    const char *content_type; /* a static string */
    char *body;               /* malloc'd, owned by the reply; NULL = empty */
    size_t len;
    const char *allow;        /* the Allow header of a 405 (static); NULL = none */
    HttpWork work;            /* set by http_reply_defer: the reply is made later */
    HttpRelease release;
    void *work_arg;
} HttpReply;

/* Replaces the reply's body with a copy of len bytes of data (false when out of memory). */
bool http_reply_set(HttpReply *reply, int status, const char *content_type, const char *data,
                    size_t len);
/* The same, taking ownership of body (malloc'd). */
void http_reply_take(HttpReply *reply, int status, const char *content_type, char *body,
                     size_t len);

/* The handler's reply is made by work(arg, ...) on a worker thread (see HttpWork); release
 * frees arg afterwards.  When every worker is busy and HTTP_QUEUE_MAX replies wait already,
 * the answer is a 503 at once instead. */
void http_reply_defer(HttpReply *reply, HttpWork work, void *arg, HttpRelease release);

typedef void (*HttpHandler)(void *ctx, const HttpRequest *req, HttpReply *reply);

/* The bounds of the server (README.md, "JSON API"). */
#define HTTP_CONNECTIONS_MAX 16384  /* at once, all addresses (fewer when files are fewer) */
#define HTTP_IDLE_SECONDS 10        /* a connection that sends nothing this long is closed */
#define HTTP_QUEUE_MAX 64           /* deferred replies waiting for a worker */

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
