/* Filling a reply of the HTTP layer (http_reply.h). */
#include <stdlib.h>
#include <string.h>

#include "http_reply.h"

void http_reply_defer(HttpReply *reply, HttpWork work, void *arg, HttpRelease release)
{
    reply->work = work;
    reply->work_arg = arg;
    reply->release = release;
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
