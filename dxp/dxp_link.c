/* DXP over TCP (dxp_link.h). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dxp_link.h"

#define DXP_POLL_MS 100          /* how often a wait looks at the stop flag */
#define DXP_CONNECT_RETRY_MS 50  /* between connection attempts while the peer refuses */

double dxp_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

bool dxp_address_parse(const char *text, char host[256], char port[16], char *err, size_t errlen)
{
    const char *colon = strrchr(text, ':');
    const char *p = colon ? colon + 1 : text;
    size_t hostlen = colon ? (size_t)(colon - text) : 0;
    size_t portlen = strlen(p);
    bool digits = portlen >= 1 && portlen <= 5;
    long n = 0;
    for (size_t i = 0; digits && i < portlen; i++) {
        digits = p[i] >= '0' && p[i] <= '9';
        n = n * 10 + (p[i] - '0');
    }
    if (!digits || n > 65535) {
        snprintf(err, errlen, "bad address '%s': expected [HOST:]PORT, PORT 0..65535", text);
        return false;
    }
    if (hostlen >= 256) {
        snprintf(err, errlen, "bad address '%.40s...': host name too long", text);
        return false;
    }
    if (hostlen >= 2 && text[0] == '[' && text[hostlen - 1] == ']') { /* [::1]:27531 */
        text++;
        hostlen -= 2;
    }
    snprintf(host, 256, "%.*s", (int)hostlen, hostlen ? text : "127.0.0.1");
    snprintf(port, 16, "%d", (int)n);
    return true;
}

static struct addrinfo *resolve(const char *host, const char *port, bool passive, char *err, size_t errlen)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = passive ? AI_PASSIVE : 0 };
    struct addrinfo *res = NULL;
    int rc = getaddrinfo(host, port, &hints, &res);
    if (rc != 0) {
        snprintf(err, errlen, "%s:%s: %s", host, port, gai_strerror(rc));
        return NULL;
    }
    return res;
}

int dxp_listen(const char *host, const char *port, int *bound, char *err, size_t errlen)
{
    struct addrinfo *res = resolve(host, port, true, err, errlen);
    if (!res)
        return -1;
    int fd = -1, saved = 0;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            saved = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 4) != 0) {
            saved = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(err, errlen, "cannot listen on %s:%s: %s", host, port, strerror(saved));
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    *bound = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        *bound = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                : ((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

/* Waits until fd is ready for events or deadline; 1 ready, 0 timeout, -1 stopped or error. */
static int wait_fd(int fd, short events, double deadline_ms, const atomic_bool *stop, bool *stopped)
{
    *stopped = false;
    for (;;) {
        if (stop && atomic_load(stop)) {
            *stopped = true;
            return -1;
        }
        double left = deadline_ms - dxp_now_ms();
        if (left <= 0)
            return 0;
        struct pollfd pfd = { .fd = fd, .events = events };
        int r = poll(&pfd, 1, left < DXP_POLL_MS ? (int)left + 1 : DXP_POLL_MS);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r > 0)
            return 1;
    }
}

int dxp_accept(int listen_fd, double deadline_ms, const atomic_bool *stop, char *err, size_t errlen)
{
    bool stopped;
    int r = wait_fd(listen_fd, POLLIN, deadline_ms, stop, &stopped);
    if (r <= 0) {
        snprintf(err, errlen, "%s", stopped ? "interrupted" : r == 0 ? "no connection in time" : strerror(errno));
        return -1;
    }
    int fd = accept(listen_fd, NULL, NULL);
    if (fd < 0)
        snprintf(err, errlen, "accept: %s", strerror(errno));
    else {
        fcntl(fd, F_SETFD, FD_CLOEXEC); /* a started engine must not inherit it */
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int));
    }
    return fd;
}

/* One non-blocking connection attempt to ai, finished by deadline_ms. */
static int connect_once(const struct addrinfo *ai, double deadline_ms, const atomic_bool *stop, int *error)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
    if (fd < 0) {
        *error = errno;
        return -1;
    }
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        bool stopped;
        int soerr = errno;
        if (errno == EINPROGRESS && wait_fd(fd, POLLOUT, deadline_ms, stop, &stopped) > 0) {
            socklen_t sl = sizeof soerr;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl);
        } else if (errno == EINPROGRESS) {
            soerr = ETIMEDOUT;
        }
        if (soerr != 0) {
            *error = soerr;
            close(fd);
            return -1;
        }
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

int dxp_connect(const char *host, const char *port, double deadline_ms, const atomic_bool *stop,
                char *err, size_t errlen)
{
    struct addrinfo *res = resolve(host, port, false, err, errlen);
    if (!res)
        return -1;
    int fd = -1, error = 0;
    for (;;) {
        for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
            fd = connect_once(ai, deadline_ms, stop, &error);
        if (fd >= 0 || (stop && atomic_load(stop)) || dxp_now_ms() + DXP_CONNECT_RETRY_MS > deadline_ms
            || (error != ECONNREFUSED && error != ETIMEDOUT))
            break;
        struct timespec ts = { 0, DXP_CONNECT_RETRY_MS * 1000000L };
        nanosleep(&ts, NULL);
    }
    freeaddrinfo(res);
    if (fd < 0)
        snprintf(err, errlen, "cannot connect to %s:%s: %s", host, port,
                 stop && atomic_load(stop) ? "interrupted" : strerror(error));
    return fd;
}

void dxp_link_init(DxpLink *l, int fd)
{
    l->fd = fd;
    l->len = l->consumed = 0;
}

void dxp_link_close(DxpLink *l)
{
    if (l->fd >= 0)
        close(l->fd);
    dxp_link_init(l, -1);
}

DxpRead dxp_link_read(DxpLink *l, double deadline_ms, const atomic_bool *stop, const char **text)
{
    if (l->fd < 0)
        return DXP_READ_CLOSED;
    if (l->consumed) { /* drop the message returned last time */
        memmove(l->buf, l->buf + l->consumed, l->len - l->consumed);
        l->len -= l->consumed;
        l->consumed = 0;
    }
    for (;;) {
        char *nul = memchr(l->buf, '\0', l->len);
        if (nul) {
            l->consumed = (size_t)(nul - l->buf) + 1;
            *text = l->buf;
            return DXP_READ_MESSAGE;
        }
        if (l->len == sizeof l->buf)
            return DXP_READ_TOO_LONG;
        bool stopped;
        int r = wait_fd(l->fd, POLLIN, deadline_ms, stop, &stopped);
        if (r == 0)
            return DXP_READ_TIMEOUT;
        if (r < 0)
            return stopped ? DXP_READ_STOPPED : DXP_READ_CLOSED;
        ssize_t n = recv(l->fd, l->buf + l->len, sizeof l->buf - l->len, MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (n <= 0)
            return DXP_READ_CLOSED;
        l->len += (size_t)n;
    }
}

bool dxp_link_send(DxpLink *l, const DxpMessage *m)
{
    char text[DXP_TEXT_MAX + 1];
    size_t n = dxp_encode(m, text, sizeof text);
    if (n == 0 || l->fd < 0)
        return false;
    size_t done = 0;
    n++; /* the NUL too */
    double give_up = dxp_now_ms() + 10000; /* a peer that reads nothing cannot block us */
    while (done < n) {
        ssize_t w = send(l->fd, text + done, n - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            bool stopped;
            if (wait_fd(l->fd, POLLOUT, give_up, NULL, &stopped) <= 0)
                return false;
            continue;
        }
        if (w <= 0)
            return false;
        done += (size_t)w;
    }
    return true;
}
