/* A DXP connection: TCP, each message followed by one NUL byte (docs/dxp.md).  Reads wait
 * until a deadline and look at a stop flag, and a message longer than the protocol allows
 * ends the connection, so a peer that says nothing, floods or sends garbage never hangs or
 * crashes dama.  Writes never raise SIGPIPE. */
#ifndef DAMA_DXP_LINK_H
#define DAMA_DXP_LINK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "dxp_text.h"

#define DXP_DEFAULT_PORT "27531"

typedef struct DxpLink {
    int fd;                            /* -1: not connected */
    char buf[DXP_TEXT_MAX + 1];        /* bytes read and not yet returned */
    size_t len;
    size_t consumed;                   /* bytes of buf returned as the last message */
} DxpLink;

typedef enum DxpRead {
    DXP_READ_MESSAGE,  /* a message (its text, without the NUL) */
    DXP_READ_CLOSED,   /* the peer closed the connection, or it failed */
    DXP_READ_TIMEOUT,
    DXP_READ_STOPPED,
    DXP_READ_TOO_LONG, /* more than DXP_TEXT_MAX bytes without a NUL: not a DXP peer */
} DxpRead;

/* Splits "[HOST:]PORT" (HOST alone is refused; a missing HOST is 127.0.0.1; PORT 0 lets
 * a listener take any free port); false with a reason in err. */
bool dxp_address_parse(const char *text, char host[256], char port[16], char *err, size_t errlen);

/* A listening socket on host:port; -1 with a reason in err.  *bound gets the port it took. */
int dxp_listen(const char *host, const char *port, int *bound, char *err, size_t errlen);
/* The next connection of a listening socket; -1 on timeout, stop or error (reason in err). */
int dxp_accept(int listen_fd, double deadline_ms, const atomic_bool *stop, char *err, size_t errlen);
/* Connects to host:port, trying again until deadline_ms while the peer refuses (a program
 * just started may not listen yet); -1 with a reason in err. */
int dxp_connect(const char *host, const char *port, double deadline_ms, const atomic_bool *stop,
                char *err, size_t errlen);

void dxp_link_init(DxpLink *l, int fd);
void dxp_link_close(DxpLink *l);
/* The next message into *text (NUL-terminated, valid until the next read) by deadline_ms
 * (dxp_now_ms() time). */
DxpRead dxp_link_read(DxpLink *l, double deadline_ms, const atomic_bool *stop, const char **text);
/* Encodes and sends m with its NUL; false when m does not encode or the write fails. */
bool dxp_link_send(DxpLink *l, const DxpMessage *m);

double dxp_now_ms(void);

#endif
