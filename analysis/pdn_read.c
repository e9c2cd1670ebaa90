/* PDN syntax: tags, move text, comments, variations and results, game by game, from a
 * text in memory or a file read piece by piece. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "game.h"
#include "pdn_read.h"
#include "text_input.h"

/* The game being read, with its growing arrays. */
typedef struct Reader {
    PdnGame g;
    int tag_cap, item_cap;
    bool any;             /* the game has a tag or a move */
    bool oom;
} Reader;

/* Where the parser is in the text at hand. */
typedef struct Cursor {
    size_t i;
    long line;
    bool line_start;
} Cursor;

/* How one pass over the text at hand ended. */
enum Pass {
    PASS_GAME,            /* a game (or a syntax error) is in the reader */
    PASS_MORE,            /* the text at hand ends inside a game: read more, pass again */
    PASS_END              /* the end of the text, no game left */
};

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

static bool is_result(const char *t, size_t n)
{
    static const char *const results[] = { "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*",
                                            "2-2", "0-4", "4-0", "1/2", NULL };
    for (int i = 0; results[i]; i++)
        if (strlen(results[i]) == n && memcmp(t, results[i], n) == 0)
            return true;
    return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Where a move-text token ends. */
static bool is_delimiter(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '[' || c == '{' || c == '('
        || c == ';';
}

/* A move written with blanks after its separator ("1- 6", "35x 4"): the end of the square
 * that follows on the same line, or 0 when none does (a move number "6." is no square).
 * When the text at hand ends too soon to tell, the game cannot end before more is read
 * either: a pass that reaches the end of the text is read again whole. */
static size_t split_square_end(const char *text, size_t len, size_t end)
{
    char last = text[end - 1];
    if (last != '-' && last != 'x' && last != ':')
        return 0;
    size_t j = end;
    while (j < len && (text[j] == ' ' || text[j] == '\t'))
        j++;
    size_t digits = j;
    while (j < len && is_digit(text[j]))
        j++;
    if (j == digits || (j < len && !is_delimiter(text[j]) && text[j] != 'x' && text[j] != '-'
                        && text[j] != ':' && text[j] != '!' && text[j] != '?'))
        return 0;
    return j;
}

/* One move-text token of n bytes (n >= 1), not a result: a NAG, a move number, a move. */
static void read_token(Reader *r, const char *text, size_t n, long line)
{
    if (n > PDN_TOKEN_MAX) { /* no move: the caller says so, quoting it */
        begin_game(r, line);
        add_item(r, PDN_MOVE, text, n, text, n, line);
        return;
    }
    if (text[0] == '$') {
        add_item(r, PDN_NAG, text, n, text, n, line);
        return;
    }
    const char *p = text, *end = text + n;
    while (p < end && is_digit(*p))
        p++;
    if (!(p > text && p < end && *p == '.')) /* a move number: "12." or "12..." possibly glued to a move */
        p = text;
    while (p < end && *p == '.') /* its dots, or an ellipsis standing for them ("1. ... 7-12") */
        p++;
    const char *mark = end;
    while (mark > p && (mark[-1] == '!' || mark[-1] == '?'))
        mark--;
    if (mark == p)
        return;
    begin_game(r, line);
    add_item(r, PDN_MOVE, p, (size_t)(mark - p), text, n, line);
    if (mark < end)
        add_item(r, PDN_MARK, mark, (size_t)(end - mark), mark, (size_t)(end - mark), line);
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
    long lines = 0;
    bool ok = true;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    while (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '"' && text[i] != ']'
           && text[i] != '\n')
        ok = ok && put_char(&name, &nl, &ncap, text[i++]);
    while (i < len && text[i] != '"' && text[i] != ']') {
        if (text[i] == '\n')
            lines++;
        i++;
    }
    if (i < len && text[i] == '"') {
        for (i++; i < len && text[i] != '"'; i++) {
            if (text[i] == '\\' && i + 1 < len)
                i++;
            if (text[i] == '\n')
                lines++;
            ok = ok && put_char(&value, &vl, &vcap, text[i]);
        }
        if (i < len)
            i++; /* the closing quote */
    }
    while (i < len && text[i] != ']') {
        if (text[i] == '\n')
            lines++;
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
    *line += lines;
    r->g.tags[r->g.ntags++] = (PdnTag){ name, value, vl, *line };
    return i + 1;
}

/* A {comment} (to the first '}', as the standard has it), a (variation) (nested, with the
 * comments inside skipped, so a ')' in one does not end it) or a /setup/ at text[*i]:
 * skips it; false when it is not closed before len (*i and *line then unchanged). */
static bool skip_group(const char *text, size_t len, size_t *i, long *line)
{
    char open = text[*i], close = open == '{' ? '}' : open == '(' ? ')' : '/';
    long depth = 1, lines = 0;
    for (size_t k = *i + 1; k < len; k++) {
        char ch = text[k];
        if (ch == '\n') {
            lines++;
        } else if (open == '(' && ch == '{') {
            size_t end = k;
            if (!skip_group(text, len, &end, &lines))
                return false;
            k = end - 1;
        } else if (ch == close && --depth == 0) {
            *i = k + 1;
            *line += lines;
            return true;
        } else if (open == '(' && ch == '(') {
            depth++;
        }
    }
    return false;
}

/* "(!?)": a move strength written in parentheses, not a variation. */
static bool is_strength(const char *text, size_t len)
{
    if (len < 3)
        return false;
    for (size_t k = 1; k + 1 < len; k++)
        if (text[k] != '!' && text[k] != '?')
            return false;
    return true;
}

/* The text stops at a syntax error: the game ends with it. */
static void syntax_error(Reader *r, long line, const char *what, const char *why)
{
    r->g.syntax = true;
    r->g.syntax_line = line;
    r->g.syntax_what = what;
    r->g.syntax_why = why;
}

/* A group (comment, variation or setup) at k: adds it as an item and moves k past it.
 * False when the game pass ends there (*pass: PASS_MORE for more text, or PASS_GAME with
 * the syntax error of a group not closed). */
static bool read_group(Reader *r, const char *text, size_t len, bool eof, Cursor *k, Cursor *c,
                       long start_line, enum Pass *pass)
{
    char ch = text[k->i];
    size_t start = k->i;
    if (!skip_group(text, len, &k->i, &k->line)) {
        if (!eof) {
            *pass = PASS_MORE;
            return false;
        }
        syntax_error(r, start_line, ch == '{' ? "comment" : ch == '(' ? "variation" : "setup",
                     ch == '{' ? "'{' not closed by '}'"
                     : ch == '(' ? "'(' not closed by ')'" : "'/' not closed by '/'");
        c->i = len;
        *pass = PASS_GAME;
        return false;
    }
    size_t n = k->i - start;
    int kind = ch == '{' ? PDN_COMMENT : ch == '/' ? PDN_SETUP
             : is_strength(text + start, n) ? PDN_MARK : PDN_VARIATION;
    if (kind == PDN_SETUP)
        begin_game(r, start_line);
    add_item(r, kind, text + start, n, text + start, n, start_line);
    return true;
}

/* The end of the word at i: the first delimiter, or len. */
static size_t word_end(const char *text, size_t len, size_t i)
{
    while (i < len && !is_delimiter(text[i]))
        i++;
    return i;
}

/* A move split after a square ("35x 4x15") joined again: the end of its last part. */
static size_t split_move_end(const char *text, size_t len, size_t i)
{
    for (size_t joined; (joined = split_square_end(text, len, i));)
        i = word_end(text, len, joined); /* "35x 4x15": the rest of it */
    return i;
}

/* Reads one game from the cursor on.  eof says the text at hand is the whole rest of the
 * input; when it is not, a game (or group, or token) that reaches the end of the text is
 * PASS_MORE: *c then stands where the pending game began, after the blank text, escape
 * lines and lone separators before it, so the caller may drop what lies before. */
static enum Pass parse_game(Reader *r, const char *text, size_t len, bool eof, Cursor *c)
{
    clear_game(r);
    Cursor k = *c;
    bool pending = false; /* something of the game is read (a comment counts) */
    while (!r->oom) {
        if (!pending)
            *c = k;
        if (k.i == len) {
            if (!eof)
                return PASS_MORE;
            *c = k;
            return r->any ? PASS_GAME : PASS_END;
        }
        char ch = text[k.i];
        if (ch == '\n') {
            k.line++;
            k.i++;
            k.line_start = true;
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            k.i++;
            continue;
        }
        bool at_line_start = k.line_start;
        k.line_start = false;
        long start_line = k.line;
        if ((ch == '%' && at_line_start) || ch == ';') { /* an escape line, a comment line */
            const char *nl = memchr(text + k.i, '\n', len - k.i);
            if (!nl && !eof)
                return PASS_MORE;
            k.i = nl ? (size_t)(nl - text) : len;
        } else if (ch == '[') {
            if (r->g.nmoves) { /* a tag after moves begins the next game */
                *c = k;
                c->line_start = at_line_start;
                return PASS_GAME;
            }
            begin_game(r, k.line);
            pending = true;
            size_t used = read_tag(r, text + k.i, len - k.i, &k.line);
            if (!used) {
                if (!eof)
                    return PASS_MORE;
                syntax_error(r, start_line, "tag", "'[' not closed by ']'");
                c->i = len;
                return PASS_GAME;
            }
            k.i += used;
        } else if (ch == '{' || ch == '(' || ch == '/') {
            enum Pass pass;
            if (!read_group(r, text, len, eof, &k, c, start_line, &pass))
                return pass;
            pending = true;
        } else {
            size_t start = k.i;
            k.i = word_end(text, len, k.i);
            if (k.i == len && !eof)
                return PASS_MORE;
            if (text[start] != '$') /* a NAG is never a split move ("$- 0-2" is two tokens) */
                k.i = split_move_end(text, len, k.i);
            size_t n = k.i - start;
            if (is_result(text + start, n)) {
                memcpy(r->g.result, text + start, n);
                r->g.result[n] = '\0';
                r->g.result_line = k.line;
                if (r->any) {
                    *c = k;
                    return PASS_GAME;
                }
                clear_game(r); /* a separator with no game before it */
                pending = false;
                continue;
            }
            read_token(r, text + start, n, k.line);
            pending = true;
        }
    }
    return PASS_MORE; /* out of memory: the caller sees r->oom */
}

/* Hands the game to the callback and numbers the next one. */
static int report(Reader *r, PdnGameFn fn, void *ctx)
{
    int code = fn(ctx, &r->g);
    if (r->any)
        r->g.number++;
    return code;
}

static void free_reader(Reader *r)
{
    clear_game(r);
    free(r->g.tags);
    free(r->g.items);
}

int pdn_read_text(const char *text, size_t len, PdnGameFn fn, void *ctx, char *err, size_t errlen)
{
    Reader r = { .g = { .number = 1 } };
    Cursor c = { 0, 1, true };
    int code = 0;
    while (!code) {
        enum Pass pass = parse_game(&r, text, len, true, &c);
        if (r.oom || pass == PASS_END)
            break;
        code = report(&r, fn, ctx);
        if (r.g.syntax)
            break;
    }
    if (r.oom && !code) {
        snprintf(err, errlen, "out of memory");
        code = PDN_READ_OOM;
    }
    free_reader(&r);
    return code;
}

/* ---- files, piece by piece ---- */

/* Read at most this much at a time, so a stop is seen between reads of a large file. */
#define PIECE_BYTES ((size_t)1 << 16)
/* How long a wait for bytes from a pipe lasts before the stop flag is looked at again. */
#define STOP_POLL_MS 100

typedef struct Source {
    const char *path;
    int fd;
    const atomic_bool *stop;
    char *buf;
    size_t cap, len;      /* buf holds len bytes; the cursor's i is an offset into it */
    size_t checked;       /* bytes from the start of buf checked to be text */
    long checked_line;    /* the line at buf[checked] */
    size_t line_start;    /* the start of that line in buf (checked when it was dropped) */
    size_t piece;         /* bytes read at a time */
    bool eof, started;
} Source;

static bool stopped(const Source *s) { return s->stop && atomic_load(s->stop); }

/* Reads the next piece into buf (room for PIECE_BYTES made by the caller): 1, 0 at the end
 * of the file, -1 on failure (err), -2 when stopped. */
static int read_piece(Source *s, char *err, size_t errlen)
{
    for (;;) {
        if (stopped(s))
            return -2;
        ssize_t n = read(s->fd, s->buf + s->len, s->piece);
        if (n > 0) {
            s->len += (size_t)n;
            return 1;
        }
        if (n == 0)
            return 0;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            struct pollfd p = { .fd = s->fd, .events = POLLIN };
            poll(&p, 1, STOP_POLL_MS);
        } else if (errno != EINTR) {
            snprintf(err, errlen, "%s: cannot read: %s", s->path, strerror(errno));
            return -1;
        }
    }
}

/* Checks what was read since the last check: whole characters only until the end. */
static bool check_piece(Source *s, char *err, size_t errlen)
{
    if (!s->started) {
        if (s->len < 3 && !s->eof)
            return true; /* too little to tell a byte-order mark yet */
        s->started = true;
        if (s->len >= 3 && memcmp(s->buf, "\xEF\xBB\xBF", 3) == 0) {
            memmove(s->buf, s->buf + 3, s->len - 3);
            s->len -= 3;
        }
    }
    size_t upto = s->len - (s->eof ? 0 : text_incomplete_tail(s->buf + s->checked, s->len - s->checked));
    if (upto <= s->checked)
        return true;
    if (!text_check_piece(s->path, s->checked_line, 0, s->buf + s->line_start, upto - s->line_start, err,
                          errlen))
        return false;
    for (size_t k = s->checked; k < upto; k++)
        if (s->buf[k] == '\n') {
            s->checked_line++;
            s->line_start = k + 1;
        }
    s->checked = upto;
    return true;
}

/* Drops what lies before the cursor and makes room for a piece: false when out of memory. */
static bool make_room(Source *s, Cursor *c)
{
    if (c->i > 0) {
        memmove(s->buf, s->buf + c->i, s->len - c->i);
        s->len -= c->i;
        s->checked -= c->i;
        s->line_start = s->line_start > c->i ? s->line_start - c->i : 0;
        c->i = 0;
    }
    if (s->cap - s->len >= s->piece)
        return true;
    size_t cap = s->len + 2 * s->piece;
    char *p = realloc(s->buf, cap);
    if (!p)
        return false;
    s->buf = p;
    s->cap = cap;
    return true;
}

int pdn_read_file(const char *path, PdnGameFn fn, void *ctx, const atomic_bool *stop, char *err,
                  size_t errlen)
{
    return pdn_read_file_pieces(path, PIECE_BYTES, fn, ctx, stop, err, errlen);
}

int pdn_read_file_pieces(const char *path, size_t piece, PdnGameFn fn, void *ctx, const atomic_bool *stop,
                         char *err, size_t errlen)
{
    err[0] = '\0';
    /* Non-blocking: opening a FIFO does not wait for a writer, and a read never waits where
     * the stop flag cannot be seen (read_piece polls, 0.1 s at a time). */
    Source s = { .path = path, .fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), .stop = stop,
                 .checked_line = 1, .piece = piece ? piece : PIECE_BYTES };
    if (s.fd < 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return PDN_READ_BAD_INPUT;
    }
    Reader r = { .g = { .number = 1 } };
    Cursor c = { 0, 1, true };
    int code = 0;
    while (!code) {
        if (stopped(&s)) {
            code = PDN_READ_STOPPED;
            break;
        }
        enum Pass pass = parse_game(&r, s.buf, s.checked, s.eof && s.checked == s.len, &c);
        if (r.oom)
            break;
        if (pass == PASS_END)
            break;
        if (pass == PASS_GAME) {
            code = report(&r, fn, ctx);
            if (r.g.syntax)
                break;
            continue;
        }
        if (s.len - c.i >= PDN_GAME_MAX_BYTES) {
            snprintf(err, errlen, "%s:%ld: game %ld: longer than %zu bytes, the bound of a PDN game (no"
                     " result, tag or end of file before)", path, r.any ? r.g.line : c.line, r.g.number,
                     PDN_GAME_MAX_BYTES);
            code = PDN_READ_BAD_INPUT;
            break;
        }
        if (!make_room(&s, &c)) {
            r.oom = true;
            break;
        }
        int got = read_piece(&s, err, errlen);
        if (got == -2)
            code = PDN_READ_STOPPED;
        else if (got < 0)
            code = PDN_READ_BAD_INPUT;
        else if ((s.eof = got == 0, !check_piece(&s, err, errlen)))
            code = PDN_READ_BAD_INPUT;
    }
    if (r.oom && !code) {
        snprintf(err, errlen, "%s: out of memory", path);
        code = PDN_READ_OOM;
    }
    if (code == PDN_READ_STOPPED)
        snprintf(err, errlen, "%s: interrupted while reading", path);
    free_reader(&r);
    free(s.buf);
    close(s.fd);
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
