/* The workers that make deferred replies (http_reply_defer), and the watch over their
 * clients: while a reply waits or is being made, its client's socket is looked at every
 * WATCH_MS, and a client that hung up gets its work cancelled.  No libmicrohttpd here: the
 * connection is resumed through the job's finished callback. */
#ifndef DAMA_HTTP_WORKERS_H
#define DAMA_HTTP_WORKERS_H

#include <stdatomic.h>
#include <stdbool.h>

#include "http_reply.h"

typedef struct DeferredJob DeferredJob;
struct DeferredJob {
    HttpReply reply;        /* in: work, release, work_arg; out: the reply made */
    int fd;                 /* the client's socket */
    atomic_bool cancel;
    /* Called on the worker once the reply is made (or dropped): the job is the caller's
     * again from then on. */
    void (*finished)(DeferredJob *job);
    void *owner;            /* the caller's (its connection) */
    unsigned long seq;      /* the workers' bookkeeping: order of arrival */
    bool running;
};

typedef struct Workers Workers;

/* n worker threads and the watch; NULL when out of memory or threads. */
Workers *workers_start(int n);
/* Queues job: false when HTTP_QUEUE_MAX jobs wait already or the workers stop. */
bool workers_submit(Workers *w, DeferredJob *job);
/* Cancels every job, waits until each is finished, joins the threads and frees w. */
void workers_stop(Workers *w);

#endif
