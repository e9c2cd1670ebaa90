/* A reply of `dama serve`'s HTTP layer: made at once by the handler, or later by a worker
 * (http_reply_defer) for the work that takes long.  Apart from http.h so that the workers
 * (http_workers.c) and the server (http.c) both use it without using each other. */
#ifndef DAMA_HTTP_REPLY_H
#define DAMA_HTTP_REPLY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#define HTTP_QUEUE_MAX 64 /* deferred replies waiting for a worker */

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

#endif
