/* A tiny HTTP/1.1 client for the tests of `dama serve`: one request a connection
 * (Connection: close, so the reply ends at EOF), over a plain socket to 127.0.0.1.  It
 * never shuts its sending side: the server takes that as the client gone. */
#ifndef DAMA_TEST_HTTP_CLIENT_H
#define DAMA_TEST_HTTP_CLIENT_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

typedef struct HttpResponse {
    int status;        /* -1: no reply */
    char *head;        /* the status line and headers (malloc'd) */
    char *body;        /* NUL-terminated (malloc'd) */
    size_t body_len;
} HttpResponse;

static inline void http_response_free(HttpResponse *r)
{
    free(r->head);
    free(r->body);
    memset(r, 0, sizeof *r);
}

static inline int http_connect(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = { 60, 0 }; /* a hung server fails the test instead of hanging it */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static inline bool http_send_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* Reads the reply until EOF and splits it into status, head and body. */
static inline void http_read_reply(int fd, HttpResponse *out)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    ssize_t n;
    while (buf && (n = recv(fd, buf + len, cap - len, 0)) > 0) {
        len += (size_t)n;
        if (len == cap) {
            char *grown = realloc(buf, 2 * cap + 1);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
    }
    out->status = -1;
    if (!buf)
        return;
    buf[len] = '\0';
    char *split = strstr(buf, "\r\n\r\n");
    if (split && sscanf(buf, "HTTP/1.%*d %d", &out->status) == 1) {
        *split = '\0';
        out->head = strdup(buf);
        out->body_len = len - (size_t)(split + 4 - buf);
        out->body = malloc(out->body_len + 1);
        memcpy(out->body, split + 4, out->body_len);
        out->body[out->body_len] = '\0';
    }
    free(buf);
}

/* Sends METHOD path with body (NULL: none; declared_len < 0: its length is declared) and
 * reads the reply.  send_body false sends the headers only (a body declared too large). */
static inline HttpResponse http_request_ex(int port, const char *method, const char *path,
                                           const char *body, long declared_len, bool send_body)
{
    HttpResponse r = { .status = -1 };
    int fd = http_connect(port);
    if (fd < 0)
        return r;
    size_t body_len = body ? strlen(body) : 0;
    char head[4096];
    int n = snprintf(head, sizeof head,
                     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     "Content-Type: application/json\r\nContent-Length: %ld\r\n\r\n",
                     method, path, declared_len >= 0 ? declared_len : (long)body_len);
    if (http_send_all(fd, head, (size_t)n) && (!send_body || http_send_all(fd, body, body_len)))
        http_read_reply(fd, &r);
    close(fd);
    return r;
}

/* Sends raw (a whole request as written) and reads the reply. */
static inline HttpResponse http_request_raw(int port, const char *raw, size_t len)
{
    HttpResponse r = { .status = -1 };
    int fd = http_connect(port);
    if (fd < 0)
        return r;
    if (http_send_all(fd, raw, len))
        http_read_reply(fd, &r);
    close(fd);
    return r;
}

static inline HttpResponse http_request(int port, const char *method, const char *path,
                                        const char *body)
{
    return http_request_ex(port, method, path, body, -1, true);
}

/* The value of header name in r's head ("" when absent), into buf. */
static inline const char *http_header(const HttpResponse *r, const char *name, char *buf,
                                      size_t len)
{
    buf[0] = '\0';
    for (const char *line = r->head ? strstr(r->head, "\r\n") : NULL; line; line = strstr(line + 2, "\r\n")) {
        const char *h = line + 2;
        size_t nl = strlen(name);
        if (strncasecmp(h, name, nl) == 0 && h[nl] == ':') {
            h += nl + 1;
            while (*h == ' ')
                h++;
            size_t vl = strcspn(h, "\r\n");
            snprintf(buf, len, "%.*s", (int)vl, h);
            break;
        }
    }
    return buf;
}

#endif
