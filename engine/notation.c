/* Move text: writing the long form and reading any form by matching legal moves. */
#include <stdio.h>
#include <string.h>

#include "notation.h"
#include "text_input.h"
#include "variant.h"

char *move_to_text(const Variant *v, const Move *move, char *buf, size_t len)
{
    char sq[8];
    size_t n = (size_t)snprintf(buf, len, "%s", v->square_name(move->from, sq));
    if (move->njumps == 0) {
        snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "-%s", v->square_name(move->to, sq));
        return buf;
    }
    for (int i = 0; i < move->njumps && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "x%s", v->square_name(move->path[i], sq));
    return buf;
}

/* Does another legal move share from and to with move (so that "fromxto" names both)? */
static bool short_form_ambiguous(const Variant *v, const Position *pos, const Rules *rules,
                                 const Move *move)
{
    MoveList list;
    v->generate(pos, rules, &list);
    for (int i = 0; i < list.count; i++) {
        const Move *o = &list.moves[i];
        if (o->from == move->from && o->to == move->to && o->captured != move->captured)
            return true;
    }
    return false;
}

char *move_to_text_in(const Variant *v, const Position *pos, const Rules *rules, const Move *move,
                      char *buf, size_t len)
{
    if (!v->numbered || move->njumps <= 1 || short_form_ambiguous(v, pos, rules, move))
        return move_to_text(v, move, buf, len);
    char from[8], to[8];
    snprintf(buf, len, "%sx%s", v->square_name(move->from, from), v->square_name(move->to, to));
    return buf;
}

/* What the text names: the squares in order (at least from and to). */
typedef struct MoveQuery {
    int squares[MAX_JUMPS + 2];
    int count;
    /* matches, one per distinct move */
    Move found[8];
    int nfound;
    int total;
} MoveQuery;

/* Does the path of move pass through the query's inner squares in order? */
static bool path_matches(const MoveQuery *q, const Move *m)
{
    if (q->squares[0] != m->from || q->squares[q->count - 1] != m->to)
        return false;
    int want = 1, last_inner = q->count - 1;
    for (int i = 0; i + 1 < m->njumps && want < last_inner; i++)
        if (m->path[i] == q->squares[want])
            want++;
    return want == last_inner;
}

static void match_path(void *ctx, const Move *m)
{
    MoveQuery *q = ctx;
    if (!path_matches(q, m))
        return;
    for (int i = 0; i < q->nfound; i++)
        if (move_same(&q->found[i], m))
            return;
    if (q->nfound < (int)(sizeof q->found / sizeof q->found[0]))
        q->found[q->nfound] = *m;
    q->nfound++;
}

/* Longest piece of the text quoted back in an error message. */
#define MOVE_QUOTE_MAX 40

typedef struct Quoted {
    char text[4 * MOVE_QUOTE_MAX + 4];
} Quoted;

/* The text as an error message shows it (made only when there is an error). */
static Quoted quote(const char *text)
{
    Quoted q;
    text_quote(q.text, sizeof q.text, text, strlen(text), MOVE_QUOTE_MAX);
    return q;
}

bool move_from_text(const Variant *v, const Position *pos, const Rules *rules, const char *text,
                    Move *move, char *err, size_t errlen)
{
    MoveQuery q = { .count = 0 };
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    for (;;) {
        int used = 0;
        int sq = v->parse_square(p, &used);
        if (sq < 0 || q.count == MAX_JUMPS + 2) {
            snprintf(err, errlen, "bad move '%s': no square at '%s'", quote(text).text, quote(p).text);
            return false;
        }
        q.squares[q.count++] = sq;
        p += used;
        if (*p == '-' || *p == 'x' || *p == 'X' || *p == ':')
            p++;
        else
            break;
    }
    if (p[0] == '=' && (p[1] == 'K' || p[1] == 'k'))
        p += 2;
    else if (*p == 'K' || *p == 'k')
        p++;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p || q.count < 2) {
        snprintf(err, errlen, "bad move '%s': expected squares joined by '-' or 'x'", quote(text).text);
        return false;
    }
    v->for_each_path(pos, rules, match_path, &q);
    if (q.nfound == 1) {
        *move = q.found[0];
        return true;
    }
    if (q.nfound == 0) {
        snprintf(err, errlen, "illegal move '%s' in this position", quote(text).text);
        return false;
    }
    size_t n = (size_t)snprintf(err, errlen, "ambiguous move '%s': candidates", quote(text).text);
    int listed = q.nfound < 8 ? q.nfound : 8;
    for (int i = 0; i < listed && n < errlen; i++) {
        char buf[128];
        n += (size_t)snprintf(err + n, errlen - n, " %s", move_to_text(v, &q.found[i], buf, sizeof buf));
    }
    return false;
}
