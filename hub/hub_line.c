/* Hub protocol lines: reading them into command and arguments, and writing them with the
 * quoting the protocol wants (hub_line.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hub_line.h"

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static bool fail(HubLine *line, char *err, size_t errlen, const char *why)
{
    snprintf(err, errlen, "%s", why);
    line->command = "";
    line->nargs = 0;
    return false;
}

bool hub_line_parse(HubLine *line, const char *text, char *err, size_t errlen)
{
    line->command = "";
    line->nargs = 0;
    line->text = NULL;
    if (strnlen(text, HUB_LINE_MAX + 1) > HUB_LINE_MAX) {
        snprintf(err, errlen, "a line longer than %d bytes", HUB_LINE_MAX);
        return false;
    }
    line->text = strdup(text);
    if (!line->text)
        return fail(line, err, errlen, "out of memory");
    char *p = line->text;
    size_t n = strlen(p);
    while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
        p[--n] = '\0';

    bool first = true;
    for (;;) {
        while (is_blank(*p))
            *p++ = '\0';
        if (!*p)
            return true;
        char *name = p;
        while (*p && !is_blank(*p) && *p != '=' && *p != '"')
            p++;
        if (*p == '"')
            return fail(line, err, errlen, "a double quote inside a word: quotes go around a value, as in name=\"a b\"");
        if (p == name)
            return fail(line, err, errlen, "an argument without a name before '='");
        if (first) {
            if (*p == '=')
                return fail(line, err, errlen, "the line starts with an argument, not a command");
            line->command = name;
            first = false;
            continue; /* the blank after it is cut by the loop */
        }
        if (line->nargs == HUB_MAX_ARGS)
            return fail(line, err, errlen, "too many arguments");
        HubArg *arg = &line->args[line->nargs++];
        arg->name = name;
        arg->value = NULL;
        if (*p != '=')
            continue; /* a bare flag */
        *p++ = '\0';
        if (*p == '"') {
            char *close = strchr(++p, '"');
            if (!close)
                return fail(line, err, errlen, "a quoted value without its closing double quote");
            *close = '\0';
            arg->value = p;
            p = close + 1;
            if (*p && !is_blank(*p))
                return fail(line, err, errlen, "text straight after a closing double quote");
        } else {
            arg->value = p;
            while (*p && !is_blank(*p))
                if (*p++ == '"')
                    return fail(line, err, errlen, "a double quote inside a value: quote the whole value");
        }
    }
}

void hub_line_free(HubLine *line)
{
    free(line->text);
    line->text = NULL;
    line->command = "";
    line->nargs = 0;
}

static const HubArg *find_arg(const HubLine *line, const char *name)
{
    for (int i = 0; i < line->nargs; i++)
        if (strcmp(line->args[i].name, name) == 0)
            return &line->args[i];
    return NULL;
}

const char *hub_line_value(const HubLine *line, const char *name)
{
    const HubArg *a = find_arg(line, name);
    return a ? a->value : NULL;
}

bool hub_line_has(const HubLine *line, const char *name) { return find_arg(line, name) != NULL; }

/* Appends len bytes of text (cut short and failed set when memory runs out). */
static void put(HubWriter *w, const char *text, size_t len)
{
    if (w->failed)
        return;
    if (w->len + len + 1 > w->cap) {
        size_t cap = (w->len + len + 1) * 2;
        char *b = realloc(w->buf, cap);
        if (!b) {
            w->failed = true;
            return;
        }
        w->buf = b;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, text, len);
    w->len += len;
    w->buf[w->len] = '\0';
}

void hub_writer_start(HubWriter *w, const char *command)
{
    w->len = 0;
    w->failed = false;
    if (w->buf)
        w->buf[0] = '\0';
    put(w, command, strlen(command));
}

void hub_writer_flag(HubWriter *w, const char *name)
{
    put(w, " ", 1);
    put(w, name, strlen(name));
}

void hub_writer_arg(HubWriter *w, const char *name, const char *value)
{
    bool quote = !*value || strpbrk(value, " \t=\"") != NULL;
    hub_writer_flag(w, name);
    put(w, quote ? "=\"" : "=", quote ? 2 : 1);
    size_t start = w->len;
    put(w, value, strlen(value));
    for (size_t i = start; !w->failed && i < w->len; i++) /* no escape exists for '"' */
        if (w->buf[i] == '"' || w->buf[i] == '\n' || w->buf[i] == '\r')
            w->buf[i] = w->buf[i] == '"' ? '\'' : ' ';
    if (quote)
        put(w, "\"", 1);
}

void hub_writer_argf(HubWriter *w, const char *name, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        w->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        hub_writer_arg(w, name, small);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        w->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    hub_writer_arg(w, name, big);
    free(big);
}

const char *hub_writer_text(const HubWriter *w) { return w->buf ? w->buf : ""; }

void hub_writer_free(HubWriter *w)
{
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
}
