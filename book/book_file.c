/* The opening book's file: format, checked reading and lookup (book_file.h, docs/book.md). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_file.h"
#include "notation.h"
#include "position.h"
#include "text_input.h"
#include "variant.h"

#define BOOK_MAGIC "dama-book"
#define FEN_MAX 512
#define LINE_FIELDS 9

#define FNV_OFFSET 0xcbf29ce484222325u

/* FNV-1a 64 continued over len more bytes: a cut or changed byte changes it. */
static uint64_t fnv1a(uint64_t h, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3u;
    }
    return h;
}

uint64_t book_checksum(const char *header, size_t header_len, const char *body, size_t body_len)
{
    return fnv1a(fnv1a(FNV_OFFSET, header, header_len), body, body_len);
}

/* ---- Writing ---- */

typedef struct Buffer {
    char *data;
    size_t len, cap;
    bool failed;
} Buffer;

static void put(Buffer *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Buffer *b, const char *fmt, ...)
{
    for (;;) {
        if (b->failed) return;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) { b->failed = true; return; }
        if (b->data && b->len + (size_t)n < b->cap) { b->len += (size_t)n; return; }
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + (size_t)n + 1) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) { b->failed = true; return; }
        b->data = grown;
        b->cap = cap;
    }
}

bool book_format(const Book *b, char **text, size_t *len)
{
    Buffer body = { 0 }, all = { 0 };
    for (int i = 0; i < b->npositions; i++) {
        const BookPosition *p = &b->positions[i];
        char fen[FEN_MAX];
        position_to_fen(&p->pos, b->variant, fen, sizeof fen);
        put(&body, "P %016" PRIx64 " %d %d %s\n", p->key, p->ply, p->games, fen);
        for (int j = p->first; j < p->first + p->nmoves; j++) {
            const MoveStats *m = &b->moves[j];
            put(&body, "M %s %d %d %d %d %d %d\n", m->text, m->games, m->wins, m->draws, m->losses,
                m->nscores, m->score);
        }
    }
    put(&body, "%s", ""); /* an empty book still has a buffer */
    bool search = b->source == BOOK_SOURCE_SEARCH;
    int version = search || b->version == 2 ? 2 : 1; /* a search book needs version 2 */
    put(&all, "%s %d\nvariant %s\n", BOOK_MAGIC, version, b->variant->name);
    if (version >= 2) put(&all, "source %s\n", search ? "search" : "games");
    put(&all, "min-games %d\nmargin %d\n", b->min_games, b->margin);
    if (search)
        put(&all, "nodes %" PRIu64 "\nfull-plies %d\nmax-ply %d\nweights %016" PRIx64 "\n", b->search.nodes,
            b->search.full_plies, b->search.max_ply, b->search.weights);
    put(&all, "positions %d\nmoves %d\n", b->npositions, b->nmoves);
    if (!body.failed && !all.failed) /* the header above the checksum line, then the body */
        put(&all, "checksum %016" PRIx64 "\n%s", book_checksum(all.data, all.len, body.data, body.len), body.data);
    bool ok = !body.failed && !all.failed;
    free(body.data);
    if (!ok) {
        free(all.data);
        return false;
    }
    *text = all.data;
    *len = all.len;
    return true;
}

bool book_write(const Book *b, const char *path, char *err, size_t errlen)
{
    char *text;
    size_t len;
    if (!book_format(b, &text, &len)) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        free(text);
        snprintf(err, errlen, "%s: path too long", path);
        return false;
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(text);
        snprintf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
        return false;
    }
    bool ok = fwrite(text, 1, len, f) == len;
    ok = fflush(f) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    free(text);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

/* ---- Reading ---- */

typedef struct Reader {
    const char *name;
    const char *start, *p, *end;
    int line;
    char *err;
    size_t errlen;
} Reader;

static bool fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Reader *r, const char *fmt, ...)
{
    char why[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (r->line > 0)
        snprintf(r->err, r->errlen, "%s:%d: %s", r->name, r->line, why);
    else
        snprintf(r->err, r->errlen, "%s: %s", r->name, why);
    return false;
}

/* The next line split at single spaces into fields (NUL-terminated copies in buf); false at
 * the end of the text or for a line without its '\n' (a cut file). */
static bool next_line(Reader *r, char *buf, size_t buflen, char **fields, int *nfields, bool *cut)
{
    *cut = false;
    if (r->p >= r->end)
        return false;
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    r->line++;
    if (!nl) {
        *cut = true;
        return false;
    }
    size_t n = (size_t)(nl - r->p);
    if (n > 0 && r->p[n - 1] == '\r')
        n--; /* a CRLF line end (the checksum still tells the file was rewritten) */
    if (n >= buflen) {
        fail(r, "line longer than %zu bytes", buflen - 1);
        *cut = true;
        return false;
    }
    memcpy(buf, r->p, n);
    buf[n] = '\0';
    r->p = nl + 1;
    *nfields = 0;
    for (char *s = buf; *s && *nfields < LINE_FIELDS;) {
        fields[(*nfields)++] = s;
        char *sp = strchr(s, ' ');
        if (!sp) break;
        *sp = '\0';
        s = sp + 1;
    }
    return true;
}

static bool int_field(const char *text, long min, long max, int *out)
{
    if (!*text || (*text != '-' && (*text < '0' || *text > '9'))) return false;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || v < min || v > max) return false;
    *out = (int)v;
    return true;
}

static bool key_field(const char *text, uint64_t *out)
{
    if (strlen(text) != 16 || strspn(text, "0123456789abcdef") != 16) return false;
    *out = strtoull(text, NULL, 16);
    return true;
}

/* A header line "NAME VALUE": the value's text. */
static const char *header_value(Reader *r, const char *name, char *buf, size_t buflen)
{
    char *f[LINE_FIELDS];
    int nf;
    bool cut;
    if (!next_line(r, buf, buflen, f, &nf, &cut) || nf != 2 || strcmp(f[0], name) != 0) {
        if (!r->err[0]) fail(r, "expected '%s VALUE' (the header is damaged or the file is cut)", name);
        return NULL;
    }
    return f[1];
}

static bool header_int(Reader *r, const char *name, long max, int *out)
{
    char buf[128];
    const char *v = header_value(r, name, buf, sizeof buf);
    if (!v) return false;
    return int_field(v, 0, max, out) || fail(r, "%s: not a whole number from 0 to %ld: '%s'", name, max, v);
}

/* A search book's options: nodes, full-plies, max-ply, weights. */
static bool parse_search_params(Reader *r, BookSearchParams *sp)
{
    char buf[128];
    const char *v = header_value(r, "nodes", buf, sizeof buf);
    if (!v) return false;
    char *end;
    errno = 0;
    if (!*v || *v < '1' || *v > '9' || (sp->nodes = strtoull(v, &end, 10), errno || *end))
        return fail(r, "nodes: not a positive whole number: '%s'", v);
    if (!header_int(r, "full-plies", INT_MAX, &sp->full_plies) || !header_int(r, "max-ply", INT_MAX, &sp->max_ply))
        return false;
    if (!(v = header_value(r, "weights", buf, sizeof buf))) return false;
    return key_field(v, &sp->weights) || fail(r, "weights: not 16 hex digits: '%s'", v);
}

static bool parse_header(Reader *r, Book *b, uint64_t *checksum, size_t *header_len)
{
    char buf[128];
    const char *v = header_value(r, BOOK_MAGIC, buf, sizeof buf);
    if (!v) {
        r->err[0] = '\0';
        return fail(r, "not a dama opening book (no '%s VERSION' header)", BOOK_MAGIC);
    }
    if (!int_field(v, 1, INT_MAX, &b->version) || b->version > BOOK_FORMAT_VERSION)
        return fail(r, "book format '%s', this build reads 1 to %d", v, BOOK_FORMAT_VERSION);
    if (!(v = header_value(r, "variant", buf, sizeof buf))) return false;
    if (!(b->variant = variant_by_name(v))) return fail(r, "unknown variant '%s'", v);
    b->source = BOOK_SOURCE_GAMES;
    if (b->version >= 2) {
        if (!(v = header_value(r, "source", buf, sizeof buf))) return false;
        if (strcmp(v, "search") == 0) b->source = BOOK_SOURCE_SEARCH;
        else if (strcmp(v, "games") != 0) return fail(r, "unknown source '%s' (games or search)", v);
    }
    size_t len = (size_t)(r->end - r->p);
    /* What the rest of the file can hold, so that no header asks for more memory than its
     * file's size warrants: a P line takes more than 24 bytes, an M line at least 16. */
    long most_positions = (long)(len / 24), most_moves = (long)(len / 16);
    if (!header_int(r, "min-games", INT_MAX, &b->min_games) || !header_int(r, "margin", INT_MAX, &b->margin))
        return false;
    if (b->source == BOOK_SOURCE_SEARCH && b->min_games != 0)
        return fail(r, "min-games %d: a search book has no games (0)", b->min_games);
    if (b->source == BOOK_SOURCE_SEARCH && !parse_search_params(r, &b->search))
        return false;
    if (!header_int(r, "positions", most_positions, &b->npositions)
        || !header_int(r, "moves", most_moves, &b->nmoves))
        return false;
    *header_len = (size_t)(r->p - r->start);
    if (!(v = header_value(r, "checksum", buf, sizeof buf))) return false;
    return key_field(v, checksum) || fail(r, "checksum: not 16 hex digits: '%s'", v);
}

static bool parse_position(Reader *r, Book *b, char **f, int nf, BookPosition *p)
{
    char err[256];
    if (nf != 5 || strcmp(f[0], "P") != 0)
        return fail(r, "expected 'P KEY PLY GAMES FEN'");
    if (!key_field(f[1], &p->key)) return fail(r, "key: not 16 hex digits: '%s'", f[1]);
    if (!int_field(f[2], 0, INT_MAX, &p->ply)) return fail(r, "ply: not a whole number: '%s'", f[2]);
    if (b->source == BOOK_SOURCE_SEARCH) {
        if (strcmp(f[3], "0") != 0) return fail(r, "games: '%s' in a search book (0)", f[3]);
        p->games = 0;
    } else if (!int_field(f[3], 1, INT_MAX, &p->games)) {
        return fail(r, "games: not a positive number: '%s'", f[3]);
    }
    if (!position_from_fen(&p->pos, b->variant, f[4], err, sizeof err)) return fail(r, "%s", err);
    if (position_key(&p->pos) != p->key) return fail(r, "the key %s is not the position's", f[1]);
    return true;
}

static bool parse_move(Reader *r, Book *b, const Rules *rules, const BookPosition *p, char **f, int nf,
                       MoveStats *m)
{
    char err[256];
    if (nf != 8 || strcmp(f[0], "M") != 0)
        return fail(r, "expected 'M MOVE GAMES WINS DRAWS LOSSES NSCORES SCORE'");
    *m = (MoveStats){ 0 };
    if (!move_from_text(b->variant, &p->pos, rules, f[1], &m->move, err, sizeof err))
        return fail(r, "%s", err);
    move_to_text_in(b->variant, &p->pos, rules, &m->move, m->text, sizeof m->text);
    if (b->source == BOOK_SOURCE_SEARCH) {
        /* No games: the counts 0 0 0 0, one score (the move's value). */
        for (int i = 2; i <= 5; i++)
            if (strcmp(f[i], "0") != 0) return fail(r, "games, wins, draws and losses are 0 in a search book");
        if (strcmp(f[6], "1") != 0) return fail(r, "nscores is 1 in a search book");
        if (!int_field(f[7], -SHRT_MAX, SHRT_MAX, &m->score))
            return fail(r, "score: not a whole number from %d to %d: '%s'", -SHRT_MAX, SHRT_MAX, f[7]);
        m->nscores = 1;
        return true;
    }
    if (!int_field(f[2], 1, p->games, &m->games) || !int_field(f[3], 0, m->games, &m->wins)
        || !int_field(f[4], 0, m->games, &m->draws) || !int_field(f[5], 0, m->games, &m->losses)
        || !int_field(f[6], 0, m->games, &m->nscores) || !int_field(f[7], -SHRT_MAX, SHRT_MAX, &m->score))
        return fail(r, "a count out of range (games 1..%d, results and scores 0..games)", p->games);
    if (m->wins + m->draws + m->losses != m->games)
        return fail(r, "wins, draws and losses do not add up to the games");
    return true;
}

/* A search book lists every legal move of a position (its resume needs them all). */
static bool all_moves_listed(Reader *r, const Book *b, const Rules *rules, const BookPosition *p, MoveList *list,
                             const char *where)
{
    if (b->source != BOOK_SOURCE_SEARCH) return true;
    b->variant->generate(&p->pos, rules, list);
    return p->nmoves == list->count
           || fail(r, "%s lists %d of its %d legal moves (a search book lists them all)", where, p->nmoves,
                   list->count);
}

/* A search book's moves go best first, then by their text. */
static bool in_search_order(const MoveStats *before, const MoveStats *m)
{
    return before->score > m->score || (before->score == m->score && strcmp(before->text, m->text) < 0);
}

static bool parse_body(Reader *r, Book *b, MoveList *list)
{
    Rules rules = b->variant->rules_default();
    int np = 0, nm = 0;
    char buf[1024];
    char *f[LINE_FIELDS] = { 0 }; /* (filled by next_line; gcc cannot see it through the inlining) */
    int nf;
    bool cut;
    while (next_line(r, buf, sizeof buf, f, &nf, &cut)) {
        if (nf > 0 && strcmp(f[0], "P") == 0) {
            if (np > 0 && b->positions[np - 1].nmoves == 0) return fail(r, "the position above has no move");
            if (np > 0 && !all_moves_listed(r, b, &rules, &b->positions[np - 1], list, "the position above"))
                return false;
            if (np == b->npositions) return fail(r, "more positions than the header's %d", b->npositions);
            BookPosition *p = &b->positions[np];
            if (!parse_position(r, b, f, nf, p)) return false;
            if (np > 0 && p->key <= b->positions[np - 1].key) return fail(r, "keys out of order");
            p->first = nm;
            p->nmoves = 0;
            np++;
        } else {
            if (np == 0) return fail(r, "a move before any position");
            if (nm == b->nmoves) return fail(r, "more moves than the header's %d", b->nmoves);
            BookPosition *p = &b->positions[np - 1];
            if (!parse_move(r, b, &rules, p, f, nf, &b->moves[nm])) return false;
            for (int j = p->first; j < nm; j++)
                if (move_same(&b->moves[j].move, &b->moves[nm].move)) return fail(r, "a move listed twice");
            if (b->source == BOOK_SOURCE_SEARCH && p->nmoves > 0 && !in_search_order(&b->moves[nm - 1], &b->moves[nm]))
                return fail(r, "moves out of order (a search book lists the best first, then by text)");
            p->nmoves++;
            nm++;
        }
    }
    if (cut) return r->err[0] ? false : fail(r, "the last line has no end (the file is cut)");
    r->line = 0;
    if (np > 0 && b->positions[np - 1].nmoves == 0) return fail(r, "the last position has no move");
    if (np > 0 && !all_moves_listed(r, b, &rules, &b->positions[np - 1], list, "the last position")) return false;
    if (np != b->npositions || nm != b->nmoves)
        return fail(r, "%d positions and %d moves, the header says %d and %d", np, nm, b->npositions, b->nmoves);
    return true;
}

bool book_parse(Book *b, const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    *b = (Book){ 0 };
    err[0] = '\0';
    Reader r = { name, text, text, text + len, 0, err, errlen };
    uint64_t checksum = 0;
    size_t header_len = 0;
    if (!parse_header(&r, b, &checksum, &header_len))
        goto fail;
    if (book_checksum(text, header_len, r.p, (size_t)(r.end - r.p)) != checksum) {
        r.line = 0;
        fail(&r, "checksum mismatch: the file is corrupted or cut");
        goto fail;
    }
    b->positions = calloc((size_t)b->npositions + 1, sizeof *b->positions);
    b->moves = calloc((size_t)b->nmoves + 1, sizeof *b->moves);
    MoveList *list = malloc(sizeof *list);
    if (!b->positions || !b->moves || !list) {
        free(list);
        r.line = 0;
        fail(&r, "out of memory");
        goto fail;
    }
    bool ok = parse_body(&r, b, list);
    free(list);
    if (ok)
        return true;
fail:
    book_free(b);
    return false;
}

bool book_read(Book *b, const char *path, const atomic_bool *stop, char *err, size_t errlen)
{
    *b = (Book){ 0 };
    TextLimit limit = { "an opening book", BOOK_FILE_MAX, stop };
    char *text;
    size_t len;
    if (!text_file_read(path, &limit, &text, &len, err, errlen))
        return false;
    const char *t = text;
    bool ok = text_prepare(path, &t, &len, err, errlen) && book_parse(b, path, t, len, err, errlen);
    free(text);
    return ok;
}

void book_free(Book *b)
{
    free(b->positions);
    free(b->moves);
    *b = (Book){ 0 };
}

/* ---- Lookup ---- */

const BookPosition *book_find(const Book *b, const Position *pos)
{
    uint64_t key = position_key(pos);
    int lo = 0, hi = b->npositions;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (b->positions[mid].key < key) lo = mid + 1;
        else hi = mid;
    }
    if (lo < b->npositions && b->positions[lo].key == key && position_equal(&b->positions[lo].pos, pos))
        return &b->positions[lo];
    return NULL;
}

/* splitmix64: a seed and a key give one well-mixed number. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

bool book_choose(const Book *b, const Position *pos, const Rules *rules, int choice, uint64_t seed, Move *out)
{
    const BookPosition *p = book_find(b, pos);
    if (!p) return false;
    MoveList *list = malloc(sizeof *list);
    if (!list) return false;
    b->variant->generate(pos, rules, list);
    /* The moves legal under these rules, and their games. */
    int legal[64], nlegal = 0;
    int64_t total = 0;
    for (int j = p->first; j < p->first + p->nmoves && nlegal < 64; j++)
        for (int i = 0; i < list->count; i++)
            if (move_same(&list->moves[i], &b->moves[j].move)) {
                legal[nlegal++] = j;
                total += b->moves[j].games;
                break;
            }
    free(list);
    if (nlegal == 0) return false;
    int pick = 0;
    if (choice == BOOK_WEIGHTED && total > 0) {
        int64_t r = (int64_t)(mix(seed ^ p->key) % (uint64_t)total);
        while (r >= b->moves[legal[pick]].games) r -= b->moves[legal[pick++]].games;
    } else if (choice == BOOK_WEIGHTED) {
        /* No games (a search book): any move within the book's margin of the best legal
         * one (listed first), uniformly. */
        int near = 1;
        while (near < nlegal && b->moves[legal[near]].score >= b->moves[legal[0]].score - b->margin) near++;
        pick = (int)(mix(seed ^ p->key) % (uint64_t)near);
    }
    *out = b->moves[legal[pick]].move;
    return true;
}
