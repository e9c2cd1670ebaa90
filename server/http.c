/* libmicrohttpd behind http.h. */
#include <errno.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include "http.h"

struct HttpServer {
    struct MHD_Daemon *daemon;
    HttpHandler handler;
    void *ctx;
    int port;
};

/* What one request collects between libmicrohttpd's calls. */
typedef struct PendingRequest {
    char *body;
    size_t len;
    bool too_large;
    bool answered;    /* a reply is queued (a declared body over the limit: at once) */
} PendingRequest;

const char *http_query(const HttpRequest *req, const char *name)
{
    return MHD_lookup_connection_value((struct MHD_Connection *)req->connection,
                                       MHD_GET_ARGUMENT_KIND, name);
}

void http_reply_take(HttpReply *reply, int status, const char *content_type, char *body,
                     size_t len)
{
    free(reply->body);
    reply->status = status;
    reply->content_type = content_type;
    reply->body = body;
    reply->len = body ? len : 0;
}

bool http_reply_set(HttpReply *reply, int status, const char *content_type, const char *data,
                    size_t len)
{
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, data, len);
        copy[len] = '\0';
    }
    http_reply_take(reply, status, content_type, copy, len);
    return copy != NULL;
}

static enum MHD_Result send_reply(struct MHD_Connection *conn, HttpReply *reply)
{
    struct MHD_Response *r;
    if (reply->body)
        r = MHD_create_response_from_buffer(reply->len, reply->body, MHD_RESPMEM_MUST_FREE);
    else
        r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (!r) {
        free(reply->body);
        return MHD_NO;
    }
    reply->body = NULL; /* the response owns it now */
    if (reply->content_type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, reply->content_type);
    if (reply->allow)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, reply->allow);
    /* Game states change with every move: never answer from a cache. */
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)reply->status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result answer(HttpServer *server, struct MHD_Connection *conn, const char *url,
                              const char *method, PendingRequest *pending)
{
    HttpRequest req = {
        .method = method,
        .path = url,
        .body = pending->body ? pending->body : "",
        .body_len = pending->len,
        .body_too_large = pending->too_large,
        .connection = conn,
    };
    HttpReply reply = { .status = 200 };
    pending->answered = true;
    server->handler(server->ctx, &req, &reply);
    return send_reply(conn, &reply);
}

/* A declared body over the limit is refused before it is read. */
static bool declared_too_large(struct MHD_Connection *conn)
{
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (!cl)
        return false;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(cl, &end, 10);
    return errno != 0 || n > HTTP_MAX_BODY;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    (void)version;
    HttpServer *server = cls;
    PendingRequest *pending = *con_cls;
    if (pending && pending->answered) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (!pending) { /* the first call: headers only */
        pending = calloc(1, sizeof *pending);
        if (!pending)
            return MHD_NO;
        *con_cls = pending;
        if (declared_too_large(conn)) {
            pending->too_large = true;
            return answer(server, conn, url, method, pending);
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (pending->too_large)
            return MHD_YES; /* already refused: the rest is dropped */
        if (pending->len + n > HTTP_MAX_BODY) {
            pending->too_large = true;
            free(pending->body);
            pending->body = NULL;
            pending->len = 0;
            return MHD_YES;
        }
        char *grown = realloc(pending->body, pending->len + n + 1);
        if (!grown)
            return MHD_NO;
        memcpy(grown + pending->len, upload_data, n);
        pending->len += n;
        grown[pending->len] = '\0';
        pending->body = grown;
        return MHD_YES;
    }
    return answer(server, conn, url, method, pending);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
    (void)cls, (void)conn, (void)why;
    PendingRequest *pending = *con_cls;
    if (pending) {
        free(pending->body);
        free(pending);
        *con_cls = NULL;
    }
}

HttpServer *http_start(const char *host, int port, HttpHandler handler, void *ctx, char *err,
                       size_t errlen, bool *bad_address)
{
    *bad_address = false;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE };
    struct addrinfo *addr = NULL;
    int gai = getaddrinfo(host, service, &hints, &addr);
    if (gai != 0) {
        snprintf(err, errlen, "--host %s: %s", host, gai_strerror(gai));
        *bad_address = true;
        return NULL;
    }
    HttpServer *server = calloc(1, sizeof *server);
    if (!server) {
        freeaddrinfo(addr);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->ctx = ctx;
    /* ITC: a stop wakes the listening thread at once instead of at its next timeout. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ITC;
    if (addr->ai_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    errno = 0;
    server->daemon = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, server,
                                      MHD_OPTION_SOCK_ADDR, addr->ai_addr,
                                      MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
                                      MHD_OPTION_CONNECTION_LIMIT, 64u,
                                      MHD_OPTION_CONNECTION_TIMEOUT, 60u,
                                      MHD_OPTION_END);
    int saved = errno;
    freeaddrinfo(addr);
    if (!server->daemon) {
        /* not an address of this machine: the input's fault; a busy port is not */
        *bad_address = saved == EADDRNOTAVAIL;
        snprintf(err, errlen, "%s%s port %d: %s", *bad_address ? "--host " : "cannot listen on ", host, port,
                 saved ? strerror(saved) : "libmicrohttpd refused to start");
        free(server);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon,
                                                           MHD_DAEMON_INFO_BIND_PORT);
    server->port = info ? info->port : port;
    return server;
}

int http_port(const HttpServer *server) { return server->port; }

void http_stop(HttpServer *server)
{
    if (!server)
        return;
    MHD_stop_daemon(server->daemon);
    free(server);
}
