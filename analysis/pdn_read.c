/* PDN syntax: tags, move text, comments, variations and results, game by game. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game.h"
#include "pdn_read.h"

/* The game being read, with its growing arrays. */
typedef struct Reader {
    PdnGame g;
    int tag_cap, item_cap;
    bool any;             /* the game has a tag or a move */
    bool oom;
} Reader;

static void clear_game(Reader *r)
{
    for (int i = 0; i < r->g.ntags; i++) {
        free(r->g.tags[i].name);
        free(r->g.tags[i].value);
    }
    r->g.ntags = r->g.nitems = r->g.nmoves = 0;
    r->g.result[0] = '\0';
    r->g.result_line = 0;
    r->g.syntax = false;
    r->any = false;
}

static bool grow(void **array, int *cap, int count, size_t size)
{
    if (count < *cap)
        return true;
    if (*cap > INT_MAX / 2)
        return false;
    int ncap = *cap ? 2 * *cap : 16;
    void *p = realloc(*array, (size_t)ncap * size);
    if (!p)
        return false;
    *array = p;
    *cap = ncap;
    return true;
}

static void begin_game(Reader *r, long line)
{
    if (!r->any) {
        r->any = true;
        r->g.line = line;
    }
}

static void add_item(Reader *r, int kind, const char *text, size_t len, const char *raw,
                     size_t raw_len, long line)
{
    if (!grow((void **)&r->g.items, &r->item_cap, r->g.nitems, sizeof *r->g.items)) {
        r->oom = true;
        return;
    }
    r->g.items[r->g.nitems++] = (PdnItem){ kind, text, len, raw, raw_len, line };
    if (kind == PDN_MOVE)
        r->g.nmoves++;
}

/* Hands the game to the callback (when it has something) and starts the next one. */
static int finish_game(Reader *r, PdnGameFn fn, void *ctx)
{
    int code = 0;
    if (r->any || r->g.syntax)
        code = fn(ctx, &r->g);
    if (r->any)
        r->g.number++;
    clear_game(r);
    return code;
}

static bool is_result(const char *t, size_t n)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*",
                                            "2-2", "0-4", "4-0", "1/2", NULL };
    for (int i = 0; results[i]; i++)
        if (strlen(results[i]) == n && memcmp(t, results[i], n) == 0)
            return true;
    return false;
}

/* One move-text token of n bytes (n >= 1): a result, a NAG, a move number, a move. */
static int read_token(Reader *r, const char *text, size_t n, long line, PdnGameFn fn, void *ctx)
{
    if (n > PDN_TOKEN_MAX) { /* no move: the caller says so, quoting it */
        begin_game(r, line);
        add_item(r, PDN_MOVE, text, n, text, n, line);
        return 0;
    }
    if (is_result(text, n)) {
        memcpy(r->g.result, text, n);
        r->g.result[n] = '\0';
        r->g.result_line = line;
        return finish_game(r, fn, ctx);
    }
    if (text[0] == '$') {
        add_item(r, PDN_NAG, text, n, text, n, line);
        return 0;
    }
    const char *p = text, *end = text + n;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    if (p > text && p < end && *p == '.') { /* a move number: "12." or "12..." possibly glued to a move */
        while (p < end && *p == '.')
            p++;
    } else {
        p = text;
    }
    const char *mark = end;
    while (mark > p && (mark[-1] == '!' || mark[-1] == '?'))
        mark--;
    if (mark == p)
        return 0;
    begin_game(r, line);
    add_item(r, PDN_MOVE, p, (size_t)(mark - p), text, n, line);
    if (mark < end)
        add_item(r, PDN_MARK, mark, (size_t)(end - mark), mark, (size_t)(end - mark), line);
    return 0;
}

/* Appends byte c to a growing string. */
static bool put_char(char **s, size_t *len, size_t *cap, char c)
{
    if (*len + 1 >= *cap) {
        size_t ncap = *cap ? 2 * *cap : 32;
        char *p = realloc(*s, ncap);
        if (!p)
            return false;
        *s = p;
        *cap = ncap;
    }
    (*s)[(*len)++] = c;
    (*s)[*len] = '\0';
    return true;
}

/* A tag "[Name "value"]" at text (text[0] == '['): the length consumed, or 0 when the tag
 * is not closed before the end of the text. */
static size_t read_tag(Reader *r, const char *text, size_t len, long *line)
{
    size_t i = 1;
    char *name = NULL, *value = NULL;
    size_t nl = 0, ncap = 0, vl = 0, vcap = 0;
    bool ok = true;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    while (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '"' && text[i] != ']'
           && text[i] != '\n')
        ok = ok && put_char(&name, &nl, &ncap, text[i++]);
    while (i < len && text[i] != '"' && text[i] != ']') {
        if (text[i] == '\n')
            (*line)++;
        i++;
    }
    if (i < len && text[i] == '"') {
        for (i++; i < len && text[i] != '"'; i++) {
            if (text[i] == '\\' && i + 1 < len)
                i++;
            if (text[i] == '\n')
                (*line)++;
            ok = ok && put_char(&value, &vl, &vcap, text[i]);
        }
        if (i < len)
            i++; /* the closing quote */
    }
    while (i < len && text[i] != ']') {
        if (text[i] == '\n')
            (*line)++;
        i++;
    }
    if (ok && !name)
        ok = (name = calloc(1, 1)) != NULL;
    if (ok && !value)
        ok = (value = calloc(1, 1)) != NULL;
    if (i == len || !ok || !grow((void **)&r->g.tags, &r->tag_cap, r->g.ntags, sizeof *r->g.tags)) {
        r->oom = i < len;
        free(name);
        free(value);
        return i == len ? 0 : i + 1;
    }
    r->g.tags[r->g.ntags++] = (PdnTag){ name, value, vl, *line };
    return i + 1;
}

/* Where a move-text token ends. */
static bool is_delimiter(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '[' || c == '{' || c == '('
        || c == ';';
}

/* A {comment} or (variation), nested, at text[*i]: skips it; false when it is not closed. */
static bool skip_group(const char *text, size_t len, size_t *i, long *line)
{
    char open = text[*i], close = open == '{' ? '}' : ')';
    long depth = 0;
    for (; *i < len; (*i)++) {
        if (text[*i] == '\n')
            (*line)++;
        if (text[*i] == open)
            depth++;
        else if (text[*i] == close && --depth == 0) {
            (*i)++;
            return true;
        }
    }
    return false;
}

/* The text stops at a syntax error: the game ends with it. */
static int syntax_error(Reader *r, long line, const char *what, const char *why, PdnGameFn fn,
                        void *ctx)
{
    r->g.syntax = true;
    r->g.syntax_line = line;
    r->g.syntax_what = what;
    r->g.syntax_why = why;
    return finish_game(r, fn, ctx);
}

int pdn_read_text(const char *text, size_t len, PdnGameFn fn, void *ctx, char *err, size_t errlen)
{
    Reader r = { .g = { .number = 1 } };
    long line = 1;
    int code = 0;
    bool line_start = true, stopped = false;
    for (size_t i = 0; i < len && !code && !r.oom && !stopped;) {
        char c = text[i];
        if (c == '\n') {
            line++;
            i++;
            line_start = true;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        bool at_line_start = line_start;
        line_start = false;
        long start_line = line;
        if ((c == '%' && at_line_start) || c == ';') { /* an escape line, a comment line */
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '[') {
            if (r.g.nmoves)
                code = finish_game(&r, fn, ctx); /* a tag after moves begins the next game */
            if (code)
                break;
            begin_game(&r, line);
            size_t used = read_tag(&r, text + i, len - i, &line);
            if (!used) {
                code = syntax_error(&r, start_line, "tag", "'[' not closed by ']'", fn, ctx);
                stopped = true;
            }
            i += used;
        } else if (c == '{' || c == '(') {
            size_t start = i;
            if (!skip_group(text, len, &i, &line)) {
                code = syntax_error(&r, start_line, c == '{' ? "comment" : "variation",
                                    c == '{' ? "'{' not closed by '}'" : "'(' not closed by ')'", fn, ctx);
                stopped = true;
            } else {
                add_item(&r, c == '{' ? PDN_COMMENT : PDN_VARIATION, text + start, i - start,
                         text + start, i - start, start_line);
            }
        } else {
            size_t start = i;
            while (i < len && !is_delimiter(text[i]))
                i++;
            code = read_token(&r, text + start, i - start, line, fn, ctx);
        }
    }
    if (!code && !r.oom && !stopped)
        code = finish_game(&r, fn, ctx);
    if (r.oom && !code) {
        snprintf(err, errlen, "out of memory");
        code = 1;
    }
    clear_game(&r);
    free(r.g.tags);
    free(r.g.items);
    return code;
}

const PdnTag *pdn_tag_find(const PdnGame *game, const char *name)
{
    for (int i = game->ntags - 1; i >= 0; i--)
        if (strcasecmp(game->tags[i].name, name) == 0)
            return &game->tags[i];
    return NULL;
}

int pdn_gametype_number(const char *value)
{
    int number = 0;
    for (size_t k = 0; value[k] >= '0' && value[k] <= '9' && number < 1000; k++)
        number = number * 10 + (value[k] - '0');
    return number > 0 ? number : -1;
}

int pdn_result_from_text(const char *text)
{
    if (strcmp(text, "2-0") == 0 || strcmp(text, "1-0") == 0)
        return RESULT_WHITE_WINS;
    if (strcmp(text, "0-2") == 0 || strcmp(text, "0-1") == 0)
        return RESULT_BLACK_WINS;
    if (strcmp(text, "1-1") == 0 || strcmp(text, "1/2-1/2") == 0)
        return RESULT_DRAW;
    return RESULT_NONE;
}

const char *pdn_result_text(int result)
{
    switch (result) {
    case RESULT_WHITE_WINS: return "2-0";
    case RESULT_BLACK_WINS: return "0-2";
    case RESULT_DRAW: return "1-1";
    default: return "*";
    }
}
