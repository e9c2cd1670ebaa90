/* Deferred replies on worker threads, cancelled when their client hangs up (http_workers.h). */
#define _GNU_SOURCE /* POLLRDHUP */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "http_workers.h"

#define WATCH_MS 50
#define CANCELLED "{\"error\":\"the request was dropped before its turn: its client went away, " \
                  "or the server stops\"}"

struct Workers {
    pthread_mutex_t lock;
    pthread_cond_t wake;      /* a job queued, or stopping */
    pthread_cond_t watch;     /* the watch's sleep, cut short by stopping */
    bool stopping;
    int nthreads;
    pthread_t *threads;
    pthread_t watcher;
    bool watcher_started;
    /* every job queued or running: HTTP_QUEUE_MAX waiting plus one a worker */
    DeferredJob **jobs;
    int njobs, capacity;
    unsigned long next_seq;
};

/* The oldest job not running yet; -1 when none.  Under the lock. */
static int next_waiting(const Workers *w)
{
    int best = -1;
    for (int i = 0; i < w->njobs; i++)
        if (!w->jobs[i]->running && (best < 0 || w->jobs[i]->seq < w->jobs[best]->seq))
            best = i;
    return best;
}

static void forget(Workers *w, DeferredJob *job)
{
    for (int i = 0; i < w->njobs; i++)
        if (w->jobs[i] == job) {
            w->jobs[i] = w->jobs[--w->njobs];
            return;
        }
}

static void *work_loop(void *arg)
{
    Workers *w = arg;
    pthread_mutex_lock(&w->lock);
    for (;;) {
        int i = next_waiting(w);
        if (i < 0) {
            if (w->stopping)
                break;
            pthread_cond_wait(&w->wake, &w->lock);
            continue;
        }
        DeferredJob *job = w->jobs[i];
        job->running = true;
        pthread_mutex_unlock(&w->lock);
        HttpReply *r = &job->reply;
        if (!atomic_load(&job->cancel))
            r->work(r->work_arg, &job->cancel, r);
        else
            http_reply_set(r, 503, "application/json", CANCELLED, sizeof CANCELLED - 1);
        r->release(r->work_arg);
        r->work = NULL;
        r->release = NULL;
        r->work_arg = NULL;
        pthread_mutex_lock(&w->lock);
        forget(w, job); /* no longer watched: its socket may close once it is resumed */
        pthread_mutex_unlock(&w->lock);
        job->finished(job);
        pthread_mutex_lock(&w->lock);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

/* Every WATCH_MS: a client that closed its connection (or its sending side) or whose
 * socket failed has its job cancelled.  The sockets are polled under the lock, so none of
 * them is closed meanwhile. */
static void *watch_loop(void *arg)
{
    Workers *w = arg;
    struct pollfd *fds = calloc((size_t)w->capacity, sizeof *fds);
    pthread_mutex_lock(&w->lock);
    while (!w->stopping) {
        int n = fds ? w->njobs : 0;
        for (int i = 0; i < n; i++)
            fds[i] = (struct pollfd){ .fd = w->jobs[i]->fd, .events = POLLRDHUP };
        if (n > 0 && poll(fds, (nfds_t)n, 0) > 0)
            for (int i = 0; i < n; i++)
                if (fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))
                    atomic_store(&w->jobs[i]->cancel, true);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&w->watch, &w->lock, &until);
    }
    pthread_mutex_unlock(&w->lock);
    free(fds);
    return NULL;
}

Workers *workers_start(int n)
{
    Workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->capacity = n + HTTP_QUEUE_MAX;
    w->jobs = calloc((size_t)w->capacity, sizeof *w->jobs);
    w->threads = calloc((size_t)n, sizeof *w->threads);
    if (!w->jobs || !w->threads) {
        free(w->jobs);
        free(w->threads);
        free(w);
        return NULL;
    }
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    pthread_cond_init(&w->watch, NULL);
    w->watcher_started = pthread_create(&w->watcher, NULL, watch_loop, w) == 0;
    for (int i = 0; w->watcher_started && i < n; i++, w->nthreads++)
        if (pthread_create(&w->threads[i], NULL, work_loop, w) != 0)
            break;
    if (w->nthreads < n) {
        workers_stop(w);
        return NULL;
    }
    return w;
}

bool workers_submit(Workers *w, DeferredJob *job)
{
    pthread_mutex_lock(&w->lock);
    int waiting = 0;
    for (int i = 0; i < w->njobs; i++)
        waiting += !w->jobs[i]->running;
    bool ok = !w->stopping && waiting < HTTP_QUEUE_MAX && w->njobs < w->capacity;
    if (ok) {
        job->seq = w->next_seq++;
        job->running = false;
        w->jobs[w->njobs++] = job;
        pthread_cond_signal(&w->wake);
    }
    pthread_mutex_unlock(&w->lock);
    return ok;
}

void workers_stop(Workers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = true;
    for (int i = 0; i < w->njobs; i++)
        atomic_store(&w->jobs[i]->cancel, true);
    pthread_cond_broadcast(&w->wake);
    pthread_cond_broadcast(&w->watch);
    pthread_mutex_unlock(&w->lock);
    for (int i = 0; i < w->nthreads; i++)
        pthread_join(w->threads[i], NULL);
    if (w->watcher_started)
        pthread_join(w->watcher, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_cond_destroy(&w->watch);
    pthread_mutex_destroy(&w->lock);
    free(w->jobs);
    free(w->threads);
    free(w);
}
