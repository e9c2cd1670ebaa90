/* Hub position and move text (hub_text.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "hub_text.h"
#include "move.h"
#include "search.h"
#include "variant.h"

/* The squares in Hub order; returns how many: row by row from the top as White sees the
 * board, each row from the left (the game's geometry, Variant.square_cell).  On numbered
 * boards (International) that is the order of the numbers; on boards with algebraic names
 * (Turkish) a8, b8, ..., h1. */
static int hub_order(const Variant *v, int order[64])
{
    int n = 0;
    for (int row = 0; row < v->rows; row++)
        for (int col = 0; col < v->columns; col++) {
            int sq = variant_square_at(v, row, col);
            if (sq >= 0)
                order[n++] = sq;
        }
    return n;
}

int hub_square_count(const Variant *v)
{
    int order[64];
    return hub_order(v, order);
}

int hub_square_at(const Variant *v, int i)
{
    int order[64];
    int n = hub_order(v, order);
    return i >= 0 && i < n ? order[i] : -1;
}

char *hub_position_to_text(const Variant *v, const Position *pos, char *buf, size_t len)
{
    int order[64];
    int n = hub_order(v, order);
    if (len < (size_t)n + 2) {
        if (len)
            buf[0] = '\0';
        return buf;
    }
    buf[0] = pos->side == WHITE ? 'W' : 'B';
    for (int i = 0; i < n; i++) {
        Bitboard b = square_bb(order[i]);
        buf[i + 1] = pos->men[WHITE] & b ? 'w' : pos->men[BLACK] & b ? 'b'
                   : pos->kings[WHITE] & b ? 'W' : pos->kings[BLACK] & b ? 'B' : 'e';
    }
    buf[n + 1] = '\0';
    return buf;
}

bool hub_position_from_text(const Variant *v, const char *text, Position *pos, char *err,
                            size_t errlen)
{
    int order[64];
    int n = hub_order(v, order);
    size_t len = strlen(text);
    if (len != (size_t)n + 1) {
        snprintf(err, errlen, "bad position: %s needs %d characters (the side W or B, then %d "
                 "squares), not %zu", v->name, n + 1, n, len);
        return false;
    }
    Position p = { .side = WHITE };
    if (text[0] == 'B')
        p.side = BLACK;
    else if (text[0] != 'W') {
        snprintf(err, errlen, "bad position: the side to move is W or B, not '%c'", text[0]);
        return false;
    }
    for (int i = 0; i < n; i++) {
        char c = text[i + 1], name[8];
        Bitboard b = square_bb(order[i]);
        switch (c) {
        case 'w': p.men[WHITE] |= b; break;
        case 'b': p.men[BLACK] |= b; break;
        case 'W': p.kings[WHITE] |= b; break;
        case 'B': p.kings[BLACK] |= b; break;
        case 'e': break;
        default:
            snprintf(err, errlen, "bad position: square %s is '%c' (expected w, b, W, B or e)",
                     v->square_name(order[i], name), c);
            return false;
        }
        int color = c == 'w' ? WHITE : c == 'b' ? BLACK : -1;
        if (color >= 0 && (v->promotion_bb[color] & b)) {
            snprintf(err, errlen, "bad position: a %s man on %s, where it would have been crowned",
                     color == WHITE ? "white" : "black", v->square_name(order[i], name));
            return false;
        }
    }
    *pos = p;
    return true;
}

char *hub_move_to_text(const Variant *v, const Move *move, char *buf, size_t len)
{
    char a[8], b[8];
    int n = snprintf(buf, len, "%s%c%s", v->square_name(move->from, a), move->captured ? 'x' : '-',
                     v->square_name(move->to, b));
    for (Bitboard c = move->captured; c && n >= 0 && (size_t)n < len; c &= c - 1)
        n += snprintf(buf + n, len - (size_t)n, "x%s", v->square_name(lsb(c), a));
    return buf;
}

/* The text quoted in a message: at most 60 characters, so a long line stays one line. */
static const char *shown(const char *text, char *buf, size_t len)
{
    snprintf(buf, len, "%.60s%s", text, strlen(text) > 60 ? "..." : "");
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < ' ' || *p == '"')
            *p = '?';
    return buf;
}

bool hub_move_from_text(const Variant *v, const Position *pos, const Rules *rules, const char *text,
                        Move *move, char *err, size_t errlen)
{
    char q[80];
    int squares[MAX_JUMPS + 2], count = 0;
    char separator = 0;
    const char *p = text;
    for (;;) {
        int used = 0, sq = v->parse_square(p, &used);
        if (sq < 0 || count == MAX_JUMPS + 2) {
            snprintf(err, errlen, "bad move '%s': expected a square at '%s'", shown(text, q, sizeof q),
                     *p ? p : "the end");
            return false;
        }
        squares[count++] = sq;
        p += used;
        if (*p == '\0')
            break;
        if ((*p != '-' && *p != 'x') || (separator && *p != separator) || (*p == '-' && count > 1)) {
            snprintf(err, errlen, "bad move '%s': squares are joined by one '-' (a quiet move) or "
                     "by 'x' (a capture)", shown(text, q, sizeof q));
            return false;
        }
        separator = *p++;
    }
    if (count < 2) {
        snprintf(err, errlen, "bad move '%s': expected from and to", shown(text, q, sizeof q));
        return false;
    }
    Bitboard listed = 0;
    for (int i = 2; i < count; i++)
        listed |= square_bb(squares[i]);
    bool capture = separator == 'x';

    MoveList list;
    v->generate(pos, rules, &list);
    int found = 0;
    for (int i = 0; i < list.count; i++) {
        const Move *m = &list.moves[i];
        if (m->from != squares[0] || m->to != squares[1] || (m->captured != 0) != capture
            || (m->captured & listed) != listed)
            continue;
        if (found == 0)
            *move = *m;
        found++;
    }
    if (found == 1)
        return true;
    if (found)
        snprintf(err, errlen, "ambiguous move '%s': %d legal moves fit, list the captured squares",
                 shown(text, q, sizeof q), found);
    else
        snprintf(err, errlen, "illegal move '%s' in this position", shown(text, q, sizeof q));
    return false;
}

/* Appends text to buf, which holds *used bytes of len. */
static void append(char *buf, size_t len, size_t *used, const char *text)
{
    int n = snprintf(buf + *used, len - *used, "%s", text);
    if (n > 0)
        *used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

char *hub_game_list(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        append(buf, len, &used, i ? ", " : "");
        append(buf, len, &used, v->name);
        if (!v->hub_aliases)
            continue;
        for (const char *const *a = v->hub_aliases; *a; a++) {
            append(buf, len, &used, a == v->hub_aliases ? " (also called " : " or ");
            append(buf, len, &used, *a);
        }
        append(buf, len, &used, ")");
    }
    return buf;
}

char *hub_variant_values(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; variant_at(i); i++) {
            const Variant *v = variant_at(i);
            if (v->hub_default != (pass == 0) || !v->eval)
                continue; /* a game without an evaluation is not played here */
            append(buf, len, &used, used ? " " : "");
            append(buf, len, &used, v->name);
            for (const char *const *a = v->hub_aliases; a && *a; a++) {
                append(buf, len, &used, " ");
                append(buf, len, &used, *a);
            }
        }
    return buf;
}

const Variant *hub_variant_by_name(const char *name, char *err, size_t errlen)
{
    /* Draughts games other engines play and dama does not: named as such, not as unknown. */
    static const char *const others[] = {
        "killer", "bt", "breakthrough", "frisian", "frysk", "frysk!", "losing", "antidraughts",
        "russian", "brazilian", "english", "italian", "checkers", "canadian", "pool", "czech",
    };
    const Variant *v = variant_by_hub_name(name);
    if (v && v->eval)
        return v;
    bool other = false;
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        other |= strcmp(name, others[i]) == 0;
    char quoted[64], games[256];
    snprintf(err, errlen, "%s variant '%s': dama plays %s", other ? "dama does not play the" : "unknown",
             shown(name, quoted, sizeof quoted), hub_game_list(games, sizeof games));
    return NULL;
}

char *hub_score_to_text(int score, char *buf, size_t len)
{
    int shown_score;
    if (score > SCORE_WIN_BOUND || score < -SCORE_WIN_BOUND) {
        int plies = SCORE_WIN - (score < 0 ? -score : score);
        if (plies > HUB_SCORE_WIN - HUB_SCORE_EVAL_MAX - 1)
            plies = HUB_SCORE_WIN - HUB_SCORE_EVAL_MAX - 1; /* never inside the evaluations */
        shown_score = score < 0 ? -(HUB_SCORE_WIN - plies) : HUB_SCORE_WIN - plies;
    } else {
        shown_score = score > HUB_SCORE_EVAL_MAX ? HUB_SCORE_EVAL_MAX
                      : score < -HUB_SCORE_EVAL_MAX ? -HUB_SCORE_EVAL_MAX : score;
    }
    snprintf(buf, len, "%s%d.%02d", shown_score < 0 ? "-" : "", abs(shown_score) / 100,
             abs(shown_score) % 100);
    return buf;
}

bool hub_score_from_text(const char *text, int *score)
{
    const char *p = text;
    bool negative = *p == '-';
    p += *p == '-' || *p == '+';
    int men = 0, whole_digits = 0, decimals = 0, hundredths = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (++whole_digits > 3) /* 1000 men or more */
            return false;
        men = men * 10 + (*p - '0');
    }
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, decimals++) {
            if (decimals < 2)
                hundredths = hundredths * 10 + (*p - '0');
            else if (decimals == 2 && *p >= '5')
                hundredths++; /* the third decimal rounds; the others are ignored */
        }
    }
    if (decimals == 1)
        hundredths *= 10;
    int value = men * 100 + hundredths;
    if (*p != '\0' || (whole_digits == 0 && decimals == 0) || value > HUB_SCORE_WIN)
        return false;
    if (value > HUB_SCORE_EVAL_MAX) /* a result in n = HUB_SCORE_WIN - value plies */
        value = SCORE_WIN - (HUB_SCORE_WIN - value);
    *score = negative ? -value : value;
    return true;
}
