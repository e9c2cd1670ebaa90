/* The HTTP layer of `dama serve` (libmicrohttpd): one thread a connection, so a long engine
 * search holds only its own request; a request's body collected up to HTTP_MAX_BODY bytes;
 * one handler called per request with the whole request, whose reply is sent as it is.
 * The only file that includes microhttpd.h. */
#ifndef DAMA_HTTP_H
#define DAMA_HTTP_H

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

typedef struct HttpReply {
    int status;               /* 200 unless set */
    const char *content_type; /* a static string */
    char *body;               /* malloc'd, owned by the reply; NULL = empty */
    size_t len;
    const char *allow;        /* the Allow header of a 405 (static); NULL = none */
} HttpReply;

/* Replaces the reply's body with a copy of len bytes of data (false when out of memory). */
bool http_reply_set(HttpReply *reply, int status, const char *content_type, const char *data,
                    size_t len);
/* The same, taking ownership of body (malloc'd). */
void http_reply_take(HttpReply *reply, int status, const char *content_type, char *body,
                     size_t len);

typedef void (*HttpHandler)(void *ctx, const HttpRequest *req, HttpReply *reply);

typedef struct HttpServer HttpServer;
/* Listens on host (a numeric IPv4 or IPv6 address, or a name) and port (0: a free port,
 * see http_port) and serves each request with handler.  NULL with the reason in err, and
 * *bad_address set when host is to blame (it does not resolve, or is not this machine's). */
HttpServer *http_start(const char *host, int port, HttpHandler handler, void *ctx, char *err,
                       size_t errlen, bool *bad_address);
int http_port(const HttpServer *server);
/* Stops listening, waits for the requests being answered and frees the server. */
void http_stop(HttpServer *server);

#endif
