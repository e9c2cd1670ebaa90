/* JSON replies, errors and request fields (api_json.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_json.h"
#include "position.h"
#include "server.h"
#include "variant.h"

#define JSON_TYPE "application/json"

void reply_json(HttpReply *reply, int status, json_t *obj)
{
    char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    if (!text) {
        static const char oom[] = "{\"error\":\"out of memory\"}";
        http_reply_set(reply, 500, JSON_TYPE, oom, sizeof oom - 1);
        return;
    }
    http_reply_take(reply, status, JSON_TYPE, text, strlen(text));
}

static void reply_error_v(HttpReply *reply, int status, json_t *extra, const char *fmt,
                          va_list ap)
{
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    json_t *obj = json_object();
    /* json_string refuses invalid UTF-8 (a path quoted in the message): say it in ASCII. */
    json_t *text = json_string(message);
    json_object_set_new(obj, "error", text ? text : json_string("the request is not valid UTF-8"));
    if (extra)
        json_object_update(obj, extra);
    json_decref(extra);
    reply_json(reply, status, obj);
}

void reply_error(HttpReply *reply, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reply_error_v(reply, status, NULL, fmt, ap);
    va_end(ap);
}

void reply_error_fields(HttpReply *reply, int status, json_t *extra, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reply_error_v(reply, status, extra, fmt, ap);
    va_end(ap);
}

json_t *request_object(const HttpRequest *req, bool required, HttpReply *reply)
{
    if (req->body_len == 0 && !required)
        return json_object();
    if (req->body_len == 0) {
        reply_error(reply, 400, "the body is empty: %s %s takes a JSON object", req->method, req->path);
        return NULL;
    }
    json_error_t err;
    json_t *obj = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &err);
    if (!obj) {
        reply_error(reply, 400, "malformed JSON at line %d column %d: %s", err.line, err.column,
                    err.text);
        return NULL;
    }
    if (!json_is_object(obj)) {
        json_decref(obj);
        reply_error(reply, 400, "the body must be a JSON object");
        return NULL;
    }
    return obj;
}

bool field_string(json_t *obj, const char *name, bool required, const char **out,
                  HttpReply *reply)
{
    json_t *v = json_object_get(obj, name);
    if (!v || json_is_null(v)) {
        if (required)
            reply_error(reply, 400, "missing field \"%s\"", name);
        return !required;
    }
    if (!json_is_string(v)) {
        reply_error(reply, 400, "field \"%s\" must be a string", name);
        return false;
    }
    *out = json_string_value(v);
    return true;
}

bool field_int(json_t *obj, const char *name, bool required, int64_t min, int64_t max,
               int64_t *out, HttpReply *reply)
{
    json_t *v = json_object_get(obj, name);
    if (!v || json_is_null(v)) {
        if (required)
            reply_error(reply, 400, "missing field \"%s\"", name);
        return !required;
    }
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        reply_error(reply, 400, "field \"%s\" must be a whole number from %lld to %lld", name,
                    (long long)min, (long long)max);
        return false;
    }
    *out = json_integer_value(v);
    return true;
}

const Variant *request_variant(const Server *srv, const char *name, HttpReply *reply)
{
    if (!name || !name[0])
        return srv->default_variant;
    const Variant *v = variant_by_name(name);
    if (!v || !server_weights(srv, v)) {
        char games[256];
        reply_error(reply, 400, "unknown variant \"%s\" (%s)", name,
                    variant_names(" or ", games, sizeof games));
        return NULL;
    }
    return v;
}

bool request_position(const Variant *v, const char *fen, Position *pos, HttpReply *reply)
{
    char err[256];
    if (!fen) {
        v->start(pos);
        return true;
    }
    if (!position_from_fen(pos, v, fen, err, sizeof err)) {
        reply_error(reply, 400, "field \"fen\": %s", err);
        return false;
    }
    return true;
}
