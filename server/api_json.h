/* JSON in and out of the API (jansson): replies, errors ({"error": "one sentence"}), the
 * request body read as an object, and its fields checked, a 400 naming what is wrong. */
#ifndef DAMA_API_JSON_H
#define DAMA_API_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "http.h"
#include "types.h"

/* Sends obj (its reference is taken; NULL: out of memory, a 500) with status. */
void reply_json(HttpReply *reply, int status, json_t *obj);
/* {"error": message} with status.  The _fields form adds the fields of extra (taken). */
void reply_error(HttpReply *reply, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void reply_error_fields(HttpReply *reply, int status, json_t *extra, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The body as a JSON object; NULL after a 400 (malformed JSON, not an object, or empty when
 * required: an optional body left out is {}).  The caller owns the result (json_decref). */
json_t *request_object(const HttpRequest *req, bool required, HttpReply *reply);

/* A field of a request object.  The getters return false after a 400 when the field is
 * required and missing, or present with the wrong type or out of range; an absent
 * optional field leaves *out as it was. */
bool field_string(json_t *obj, const char *name, bool required, const char **out,
                  HttpReply *reply);
bool field_int(json_t *obj, const char *name, bool required, int64_t min, int64_t max,
               int64_t *out, HttpReply *reply);

/* The variant called name (NULL or "": the server's default); NULL after a 400 when unknown or
 * without an evaluation. */
struct Server;
const Variant *request_variant(const struct Server *srv, const char *name, HttpReply *reply);
/* The position of fen (NULL: the start) in v; false after a 400 naming what is wrong. */
bool request_position(const Variant *v, const char *fen, Position *pos, HttpReply *reply);

#endif
