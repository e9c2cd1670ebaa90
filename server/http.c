/* libmicrohttpd behind http.h. */
#include <errno.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http.h"
#include "http_workers.h"

/* File descriptors kept for everything but connections: the database, the page's files,
 * epoll, the workers' pipes. */
#define FD_RESERVE 128

struct HttpServer {
    struct MHD_Daemon *daemon;
    Workers *workers;
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
    struct MHD_Connection *conn;
    DeferredJob *job; /* a reply made by a worker: the connection is suspended meanwhile */
    atomic_bool job_done; /* the worker is through with job: its reply can go */
} PendingRequest;

const char *http_query(const HttpRequest *req, const char *name)
{
    return MHD_lookup_connection_value((struct MHD_Connection *)req->connection,
                                       MHD_GET_ARGUMENT_KIND, name);
}

static enum MHD_Result find_nul(void *cls, enum MHD_ValueKind kind, const char *key,
                                size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    const char **found = cls;
    if (strlen(key) != key_size || (value && strlen(value) != value_size)) {
        *found = key;
        return MHD_NO;
    }
    return MHD_YES;
}

const char *http_query_with_nul(const HttpRequest *req)
{
    const char *found = NULL;
    MHD_get_connection_values_n((struct MHD_Connection *)req->connection, MHD_GET_ARGUMENT_KIND,
                                find_nul, &found);
    return found;
}

/* The worker is through with the job (on its thread): the connection goes on, and
 * libmicrohttpd calls on_request again, which sends the reply. */
static void job_finished(DeferredJob *job)
{
    PendingRequest *pending = job->owner;
    struct MHD_Connection *conn = pending->conn;
    atomic_store(&pending->job_done, true);
    MHD_resume_connection(conn);
}

static void job_free(DeferredJob *job)
{
    if (job) {
        free(job->reply.body);
        free(job);
    }
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
        reply->body = NULL;
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

static void reply_busy(HttpReply *reply)
{
    static const char busy[] = "{\"error\":\"the server is busy: every worker has "
                               "requests waiting; try again in a moment\"}";
    http_reply_set(reply, 503, "application/json", busy, sizeof busy - 1);
}

/* Hands the reply's making to a worker and suspends the connection meanwhile. */
static enum MHD_Result defer(HttpServer *server, struct MHD_Connection *conn,
                             PendingRequest *pending, HttpReply *reply)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    DeferredJob *job = calloc(1, sizeof *job);
    if (!job || !info) {
        free(job);
        reply->release(reply->work_arg);
        reply_busy(reply);
        return send_reply(conn, reply);
    }
    job->reply = *reply;
    job->fd = info->connect_fd;
    job->finished = job_finished;
    job->owner = pending;
    pending->job = job;
    MHD_suspend_connection(conn);
    if (!workers_submit(server->workers, job)) {
        /* every worker busy and the queue full: a 503 as soon as the connection resumes */
        job->reply.release(job->reply.work_arg);
        job->reply.work = NULL;
        reply_busy(&job->reply);
        job_finished(job);
    }
    return MHD_YES;
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
    if (reply.work)
        return defer(server, conn, pending, &reply);
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
    if (pending && pending->job && atomic_load(&pending->job_done)) {
        /* resumed: the worker's reply goes */
        DeferredJob *job = pending->job;
        pending->job = NULL;
        enum MHD_Result ok = send_reply(conn, &job->reply);
        job_free(job);
        return ok;
    }
    if (pending && pending->answered) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (!pending) { /* the first call: headers only */
        pending = calloc(1, sizeof *pending);
        if (!pending)
            return MHD_NO;
        pending->conn = conn;
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
        /* a job still held is done: a connection ends only once it is resumed */
        job_free(pending->job);
        free(pending->body);
        free(pending);
        *con_cls = NULL;
    }
}

/* As many connections as the process may open files for, up to HTTP_CONNECTIONS_MAX: the
 * soft limit of open files is raised to the hard one first. */
static unsigned connection_limit(void)
{
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return 256;
    if (lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
        getrlimit(RLIMIT_NOFILE, &lim);
    }
    rlim_t n = lim.rlim_cur == RLIM_INFINITY ? HTTP_CONNECTIONS_MAX : lim.rlim_cur;
    n = n > FD_RESERVE * 2 ? n - FD_RESERVE : n / 2;
    return n > HTTP_CONNECTIONS_MAX ? HTTP_CONNECTIONS_MAX : (unsigned)n;
}

/* Polling threads: one a core, at least 2 (so a slow database read holds up only the
 * connections of its own thread), at most 8. */
static unsigned polling_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 2 ? 2 : cores > 8 ? 8 : (unsigned)cores;
}

HttpServer *http_start(const char *host, int port, HttpHandler handler, void *ctx, int workers,
                       char *err, size_t errlen, bool *bad_address)
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
    if (server)
        server->workers = workers_start(workers);
    if (!server || !server->workers) {
        free(server);
        freeaddrinfo(addr);
        snprintf(err, errlen, "out of memory for the server's threads");
        return NULL;
    }
    server->handler = handler;
    server->ctx = ctx;
    /* epoll (or poll) on a pool of threads; suspend/resume for the deferred replies (it
     * brings ITC, so a stop also wakes the threads at once). */
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    if (addr->ai_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    unsigned connections = connection_limit();
    /* one address (a remote one; all of this machine's clients share 127.0.0.1) may take
     * three quarters of them, leaving room for the others */
    unsigned per_address = connections - connections / 4;
    errno = 0;
    server->daemon = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, server,
                                      MHD_OPTION_SOCK_ADDR, addr->ai_addr,
                                      MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
                                      MHD_OPTION_THREAD_POOL_SIZE, polling_threads(),
                                      MHD_OPTION_CONNECTION_LIMIT, connections,
                                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
                                      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_SECONDS,
                                      MHD_OPTION_END);
    int saved = errno;
    freeaddrinfo(addr);
    if (!server->daemon) {
        /* not an address of this machine: the input's fault; a busy port is not */
        *bad_address = saved == EADDRNOTAVAIL;
        snprintf(err, errlen, "%s%s port %d: %s", *bad_address ? "--host " : "cannot listen on ", host, port,
                 saved ? strerror(saved) : "libmicrohttpd refused to start");
        workers_stop(server->workers);
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
    /* the workers first: every suspended connection is resumed before the daemon stops */
    workers_stop(server->workers);
    MHD_stop_daemon(server->daemon);
    free(server);
}
