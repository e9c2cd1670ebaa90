/* DXP message text (dxp_text.h). */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "dxp_text.h"
#include "hub_text.h"
#include "move.h"
#include "variant.h"

/* Appends n as exactly width digits; false when it does not fit. */
static bool put_number(char *buf, size_t *at, int n, int width)
{
    if (n < 0)
        return false;
    for (int i = width - 1; i >= 0; i--) {
        buf[*at + (size_t)i] = (char)('0' + n % 10);
        n /= 10;
    }
    *at += (size_t)width;
    return n == 0;
}

/* The program name padded with blanks to its width (the spec forbids a leading blank and a
 * NUL; a longer name is cut, characters outside printable ASCII become '?'). */
static void put_name(char *buf, size_t *at, const char *name)
{
    while (*name == ' ')
        name++;
    size_t n = strlen(name);
    for (size_t i = 0; i < DXP_NAME_LEN; i++) {
        char c = i < n ? name[i] : ' ';
        buf[*at + i] = c >= ' ' && c <= '~' ? c : '?';
    }
    *at += DXP_NAME_LEN;
}

static bool is_color(char c)
{
    return c == 'W' || c == 'Z';
}

static bool is_code(char c, char last)
{
    return c >= '0' && c <= last;
}

size_t dxp_encode(const DxpMessage *m, char *buf, size_t len)
{
    char out[DXP_TEXT_MAX + 64];
    size_t at = 0;
    bool ok = true;
    out[at++] = m->type;
    switch (m->type) {
    case 'C': {
        size_t n = strnlen(m->text, sizeof m->text);
        ok = n >= 1 && n <= DXP_TEXT_MAX - 1;
        for (size_t i = 0; ok && i < n; i++)
            ok = m->text[i] > 0; /* any ASCII but NUL, as the spec allows */
        if (ok) {
            memcpy(out + at, m->text, n);
            at += n;
        }
        break;
    }
    case 'R':
        ok = put_number(out, &at, m->version, 2);
        put_name(out, &at, m->name);
        out[at++] = m->color;
        ok = ok && is_color(m->color) && put_number(out, &at, m->minutes, 3)
             && put_number(out, &at, m->moves, 3) && (m->start == 'A' || m->start == 'B');
        out[at++] = m->start;
        if (ok && m->start == 'B') {
            ok = strlen(m->position) == DXP_SQUARES + 1;
            if (ok) {
                memcpy(out + at, m->position, DXP_SQUARES + 1);
                at += DXP_SQUARES + 1;
            }
        }
        break;
    case 'A':
        put_name(out, &at, m->name);
        ok = is_code(m->code, '3');
        out[at++] = m->code;
        break;
    case 'M':
        ok = m->ncaptured >= 0 && m->ncaptured <= DXP_MAX_CAPTURED
             && put_number(out, &at, m->seconds, 4) && put_number(out, &at, m->from, 2)
             && put_number(out, &at, m->to, 2) && put_number(out, &at, m->ncaptured, 2);
        for (int i = 0; ok && i < m->ncaptured; i++)
            ok = put_number(out, &at, m->captured[i], 2);
        break;
    case 'E':
        ok = is_code(m->reason, '3') && is_code(m->stop, '1');
        out[at++] = m->reason;
        out[at++] = m->stop;
        break;
    case 'B':
        ok = m->move_number >= 1 && put_number(out, &at, m->move_number, 3) && is_color(m->color);
        out[at++] = m->color;
        break;
    case 'K':
        ok = is_code(m->code, '1');
        out[at++] = m->code;
        break;
    default:
        ok = false;
    }
    if (!ok || at > DXP_TEXT_MAX || at + 1 > len) {
        if (len)
            buf[0] = '\0';
        return 0;
    }
    memcpy(buf, out, at);
    buf[at] = '\0';
    return at;
}

/* Reads the message's fields in order; the first problem is kept in err. */
typedef struct Scanner {
    const char *text;
    size_t len, at;
    char *err;
    size_t errlen;
    bool failed;
} Scanner;

static bool scan_fail(Scanner *s, const char *what)
{
    if (!s->failed)
        snprintf(s->err, s->errlen, "bad %c message: %s", s->text[0], what);
    s->failed = true;
    return false;
}

static int scan_number(Scanner *s, int width, const char *field)
{
    char what[96];
    if (s->failed)
        return 0;
    if (s->at + (size_t)width > s->len) {
        snprintf(what, sizeof what, "too short for its %s (%d digits)", field, width);
        scan_fail(s, what);
        return 0;
    }
    int n = 0;
    for (int i = 0; i < width; i++) {
        char c = s->text[s->at + (size_t)i];
        if (c < '0' || c > '9') {
            snprintf(what, sizeof what, "its %s is not %d digits", field, width);
            scan_fail(s, what);
            return 0;
        }
        n = n * 10 + (c - '0');
    }
    s->at += (size_t)width;
    return n;
}

static char scan_char(Scanner *s, const char *allowed, const char *field)
{
    char what[96];
    if (s->failed)
        return 0;
    char c = s->at < s->len ? s->text[s->at] : '\0';
    if (!c || !strchr(allowed, c)) {
        snprintf(what, sizeof what, "its %s is not one of %s", field, allowed);
        scan_fail(s, what);
        return 0;
    }
    s->at++;
    return c;
}

static void scan_name(Scanner *s, char name[DXP_NAME_LEN + 1])
{
    if (s->failed)
        return;
    if (s->at + DXP_NAME_LEN > s->len) {
        scan_fail(s, "too short for its name (32 characters)");
        return;
    }
    memcpy(name, s->text + s->at, DXP_NAME_LEN);
    s->at += DXP_NAME_LEN;
    size_t n = DXP_NAME_LEN;
    while (n > 0 && name[n - 1] == ' ')
        n--;
    name[n] = '\0';
}

static void scan_end(Scanner *s)
{
    char what[64];
    if (!s->failed && s->at != s->len) {
        snprintf(what, sizeof what, "%zu characters too many", s->len - s->at);
        scan_fail(s, what);
    }
}

/* The fields of an R (game request) message, with the position when it starts from one. */
static void scan_game_request(Scanner *s, DxpMessage *m)
{
    m->version = scan_number(s, 2, "version");
    scan_name(s, m->name);
    m->color = scan_char(s, "WZ", "follower colour");
    m->minutes = scan_number(s, 3, "thinking time");
    m->moves = scan_number(s, 3, "number of moves");
    m->start = scan_char(s, "AB", "starting position");
    if (!s->failed && m->start == 'B') {
        if (s->len - s->at != DXP_SQUARES + 1)
            scan_fail(s, "a position is the side to move and 50 squares (51 characters)");
        else {
            memcpy(m->position, s->text + s->at, DXP_SQUARES + 1);
            m->position[DXP_SQUARES + 1] = '\0';
            s->at += DXP_SQUARES + 1;
        }
    }
}

/* The fields of an M (move) message; every square must be on the board. */
static void scan_move(Scanner *s, DxpMessage *m)
{
    m->seconds = scan_number(s, 4, "time");
    m->from = scan_number(s, 2, "from square");
    m->to = scan_number(s, 2, "to square");
    m->ncaptured = scan_number(s, 2, "number captured");
    if (!s->failed && m->ncaptured > DXP_MAX_CAPTURED)
        scan_fail(s, "more than 20 captured pieces");
    for (int i = 0; !s->failed && i < m->ncaptured; i++)
        m->captured[i] = scan_number(s, 2, "captured square");
    if (!s->failed) {
        bool squares_ok = m->from >= 1 && m->from <= DXP_SQUARES && m->to >= 1 && m->to <= DXP_SQUARES;
        for (int i = 0; i < m->ncaptured; i++)
            squares_ok = squares_ok && m->captured[i] >= 1 && m->captured[i] <= DXP_SQUARES;
        if (!squares_ok)
            scan_fail(s, "a square outside 01..50");
    }
}

bool dxp_decode(const char *text, DxpMessage *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    size_t len = strnlen(text, DXP_TEXT_MAX + 1);
    if (len == 0) {
        snprintf(err, errlen, "empty message");
        return false;
    }
    if (len > DXP_TEXT_MAX) {
        snprintf(err, errlen, "message longer than %d characters", DXP_TEXT_MAX);
        return false;
    }
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)text[i] > 127) {
            snprintf(err, errlen, "byte %zu of the message is not ASCII", i + 1);
            return false;
        }
    Scanner s = { .text = text, .len = len, .at = 1, .err = err, .errlen = errlen };
    m->type = text[0];
    switch (m->type) {
    case 'C':
        if (len == 1)
            return snprintf(err, errlen, "bad C message: a chat has 1 to 126 characters of text"), false;
        memcpy(m->text, text + 1, len - 1);
        m->text[len - 1] = '\0';
        s.at = len;
        break;
    case 'R':
        scan_game_request(&s, m);
        break;
    case 'A':
        scan_name(&s, m->name);
        m->code = scan_char(&s, "0123", "acceptance code");
        break;
    case 'M':
        scan_move(&s, m);
        break;
    case 'E':
        m->reason = scan_char(&s, "0123", "reason");
        m->stop = scan_char(&s, "01", "stop code");
        break;
    case 'B':
        m->move_number = scan_number(&s, 3, "move number");
        m->color = scan_char(&s, "WZ", "colour to move");
        if (!s.failed && m->move_number < 1)
            scan_fail(&s, "move numbers start at 001");
        break;
    case 'K':
        m->code = scan_char(&s, "01", "acceptance code");
        break;
    default:
        snprintf(err, errlen, "unknown message type '%c'", text[0] >= ' ' && text[0] <= '~' ? text[0] : '?');
        return false;
    }
    scan_end(&s);
    return !s.failed;
}

void dxp_printable(char *text)
{
    for (char *p = text; *p; p++)
        if (*p < ' ' || *p > '~')
            *p = '?';
}

/* International's square number (1..50) of a bit index, and back. */
static int square_number(int sq)
{
    for (int i = 0; i < DXP_SQUARES; i++)
        if (hub_square_at(&international_variant, i) == sq)
            return i + 1;
    return 0;
}

static int square_index(int number)
{
    return hub_square_at(&international_variant, number - 1);
}

void dxp_position_to_text(const Position *pos, char buf[DXP_SQUARES + 2])
{
    char hub[HUB_POSITION_MAX];
    hub_position_to_text(&international_variant, pos, hub, sizeof hub);
    for (int i = 0; i <= DXP_SQUARES; i++) /* Hub's B, b for black are DXP's Z, z */
        buf[i] = hub[i] == 'B' ? 'Z' : hub[i] == 'b' ? 'z' : hub[i];
    buf[DXP_SQUARES + 1] = '\0';
}

bool dxp_position_from_text(const char *text, Position *pos, char *err, size_t errlen)
{
    char hub[DXP_SQUARES + 2];
    size_t n = strnlen(text, sizeof hub);
    if (n != DXP_SQUARES + 1) {
        snprintf(err, errlen, "bad position: the side to move and 50 squares (51 characters)");
        return false;
    }
    if (text[0] != 'W' && text[0] != 'Z') {
        snprintf(err, errlen, "bad position: the side to move is W or Z, not '%c'", text[0]);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (c == 'b' || c == 'B') { /* Hub's letters are not DXP's */
            snprintf(err, errlen, "bad position: '%c' at character %zu (black is z or Z)", c, i + 1);
            return false;
        }
        hub[i] = c == 'Z' ? 'B' : c == 'z' ? 'b' : c;
    }
    hub[n] = '\0';
    return hub_position_from_text(&international_variant, hub, pos, err, errlen);
}

bool dxp_is_start_position(const Position *pos)
{
    Position start;
    international_variant.start(&start);
    return start.side == pos->side && start.men[WHITE] == pos->men[WHITE] && start.men[BLACK] == pos->men[BLACK]
           && start.kings[WHITE] == pos->kings[WHITE] && start.kings[BLACK] == pos->kings[BLACK];
}

void dxp_move_message(const Move *move, int seconds, DxpMessage *m)
{
    memset(m, 0, sizeof *m);
    m->type = 'M';
    m->seconds = seconds < 0 ? 0 : seconds > 9999 ? 9999 : seconds;
    m->from = square_number(move->from);
    m->to = square_number(move->to);
    for (Bitboard c = move->captured; c && m->ncaptured < DXP_MAX_CAPTURED; c &= c - 1)
        m->captured[m->ncaptured++] = square_number(lsb(c));
}

bool dxp_move_from_message(const DxpMessage *m, const Position *pos, const Rules *rules, Move *move,
                           char *err, size_t errlen)
{
    bool in_range = m->from >= 1 && m->from <= DXP_SQUARES && m->to >= 1 && m->to <= DXP_SQUARES
                    && m->ncaptured >= 0 && m->ncaptured <= DXP_MAX_CAPTURED;
    Bitboard listed = 0;
    for (int i = 0; in_range && i < m->ncaptured; i++) {
        in_range = m->captured[i] >= 1 && m->captured[i] <= DXP_SQUARES;
        if (in_range)
            listed |= square_bb(square_index(m->captured[i]));
    }
    if (!in_range) {
        snprintf(err, errlen, "bad move: a square outside 1..50");
        return false;
    }
    int from = square_index(m->from), to = square_index(m->to);
    MoveList list;
    international_variant.generate(pos, rules, &list);
    int found = 0;
    for (int i = 0; i < list.count; i++) {
        const Move *c = &list.moves[i];
        if (c->from != from || c->to != to || (c->captured & listed) != listed
            || (m->ncaptured && c->captured != listed))
            continue;
        if (found++ == 0)
            *move = *c;
    }
    if (found == 1)
        return true;
    if (found)
        snprintf(err, errlen, "ambiguous move %d%c%d: %d legal moves fit, the captured squares "
                 "are needed", m->from, m->ncaptured ? 'x' : '-', m->to, found);
    else
        snprintf(err, errlen, "illegal move %d%c%d (%d captured) in this position", m->from,
                 m->ncaptured ? 'x' : '-', m->to, m->ncaptured);
    return false;
}
