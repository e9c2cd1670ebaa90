/* Position text (PDN FEN style), Zobrist keys and position utilities. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "position.h"
#include "text_input.h"
#include "variant.h"

bool position_equal(const Position *a, const Position *b)
{
    return a->men[0] == b->men[0] && a->men[1] == b->men[1] && a->kings[0] == b->kings[0]
        && a->kings[1] == b->kings[1] && a->side == b->side;
}

void position_flip(const Variant *v, const Position *pos, Position *out)
{
    Position p = {
        .men = { v->mirror(pos->men[BLACK]), v->mirror(pos->men[WHITE]) },
        .kings = { v->mirror(pos->kings[BLACK]), v->mirror(pos->kings[WHITE]) },
        .side = !pos->side,
    };
    *out = p;
}

/* splitmix64's finaliser: a fixed, well-mixed key for every (kind, square). */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The same function as a constant expression, for the table below: a key a lookup, not
 * two multiplications (key_after_move runs at every node). */
#define MIX_1(x) ((x) + 0x9E3779B97F4A7C15ULL)
#define MIX_2(x) (((x) ^ ((x) >> 30)) * 0xBF58476D1CE4E5B9ULL)
#define MIX_3(x) (((x) ^ ((x) >> 27)) * 0x94D049BB133111EBULL)
#define MIX_4(x) ((x) ^ ((x) >> 31))
#define PIECE_KEY(k) MIX_4(MIX_3(MIX_2(MIX_1((uint64_t)(k) + 1))))
#define PIECE_KEYS_4(k) PIECE_KEY(k), PIECE_KEY((k) + 1), PIECE_KEY((k) + 2), PIECE_KEY((k) + 3)
#define PIECE_KEYS_16(k) PIECE_KEYS_4(k), PIECE_KEYS_4((k) + 4), PIECE_KEYS_4((k) + 8), PIECE_KEYS_4((k) + 12)
#define PIECE_KEYS_64(k) PIECE_KEYS_16(k), PIECE_KEYS_16((k) + 16), PIECE_KEYS_16((k) + 32), PIECE_KEYS_16((k) + 48)
/* mix64(kind * 64 + sq + 1) for the four kinds of piece */
static const uint64_t piece_keys[4 * 64] = { PIECE_KEYS_64(0), PIECE_KEYS_64(64), PIECE_KEYS_64(128),
                                             PIECE_KEYS_64(192) };

uint64_t zobrist_piece(int kind, int sq) { return piece_keys[kind * 64 + sq]; }
uint64_t zobrist_side(void) { return mix64(0xDA4A); }

/* Whether the table is mix64 (tests/test_rules.c asks). */
bool zobrist_table_matches(void)
{
    for (int k = 0; k < 4 * 64; k++)
        if (piece_keys[k] != mix64((uint64_t)k + 1))
            return false;
    return true;
}

uint64_t position_key(const Position *pos)
{
    const Bitboard sets[4] = { pos->men[WHITE], pos->kings[WHITE], pos->men[BLACK], pos->kings[BLACK] };
    uint64_t key = pos->side == BLACK ? zobrist_side() : 0;
    for (int kind = 0; kind < 4; kind++)
        for (Bitboard b = sets[kind]; b;)
            key ^= zobrist_piece(kind, pop_lsb(&b));
    return key;
}

uint64_t key_after_move(const Position *pos, uint64_t key, const Move *move)
{
    int us = pos->side;
    bool king = pos->kings[us] & square_bb(move->from);
    int from_kind = us == WHITE ? (king ? KEY_WHITE_KING : KEY_WHITE_MAN)
                                : (king ? KEY_BLACK_KING : KEY_BLACK_MAN);
    int to_kind = (king || move->promotes) ? (us == WHITE ? KEY_WHITE_KING : KEY_BLACK_KING)
                                           : from_kind;
    key ^= zobrist_piece(from_kind, move->from) ^ zobrist_piece(to_kind, move->to);
    int them = !us;
    for (Bitboard b = move->captured; b;) {
        int sq = pop_lsb(&b);
        bool k = pos->kings[them] & square_bb(sq);
        key ^= zobrist_piece(them == WHITE ? (k ? KEY_WHITE_KING : KEY_WHITE_MAN)
                                           : (k ? KEY_BLACK_KING : KEY_BLACK_MAN), sq);
    }
    return key ^ zobrist_side();
}

/* ---- FEN reading ---- */

static void trim(const char **s, const char **e)
{
    while (*s < *e && isspace((unsigned char)**s)) (*s)++;
    while (*e > *s && isspace((unsigned char)(*e)[-1])) (*e)--;
}

/* Longest piece of the text quoted back in an error message. */
#define FEN_QUOTE_MAX 40

static bool fen_fail(char *err, size_t errlen, const char *what, size_t len, const char *why)
{
    char quoted[4 * FEN_QUOTE_MAX + 4];
    if (what)
        snprintf(err, errlen, "bad FEN at '%s': %s",
                 text_quote(quoted, sizeof quoted, what, len, FEN_QUOTE_MAX), why);
    else
        snprintf(err, errlen, "bad FEN: %s", why);
    return false;
}

/* Puts one piece of a colour on sq; false with the reason when it cannot stand there. */
static bool fen_put(Position *pos, const Variant *v, int color, bool king, int sq,
                    const char *shown, size_t shown_len, char *err, size_t errlen)
{
    Bitboard b = square_bb(sq);
    if (position_occupied(pos) & b)
        return fen_fail(err, errlen, shown, shown_len, "square given twice");
    if (!king && (v->promotion_bb[color] & b))
        return fen_fail(err, errlen, shown, shown_len,
                        color == WHITE ? "a white man on the rank where it would have been crowned"
                                       : "a black man on the rank where it would have been crowned");
    if (king)
        pos->kings[color] |= b;
    else
        pos->men[color] |= b;
    return true;
}

/* One square or range item ("a2", "Kd4"; on numbered boards also "31-50", "K1-5") of a colour. */
static bool fen_item(Position *pos, const Variant *v, int color, const char *item, const char *end,
                     const char *shown, char *err, size_t errlen)
{
    size_t shown_len = (size_t)(end - shown);
    bool king = false;
    if (item < end && (*item == 'K' || *item == 'k')) {
        king = true;
        item++;
    }
    char buf[16];
    size_t len = (size_t)(end - item);
    if (len == 0 || len >= sizeof buf)
        return fen_fail(err, errlen, shown, shown_len, "no such square");
    memcpy(buf, item, len);
    buf[len] = '\0';
    int used = 0, last_used = 0;
    int sq = v->parse_square(buf, &used);
    int last = sq;
    if (sq >= 0 && v->numbered && buf[used] == '-') {
        last = v->parse_square(buf + used + 1, &last_used);
        used += 1 + last_used;
        if (last >= 0 && last < sq)
            return fen_fail(err, errlen, shown, shown_len, "a range must go up");
    }
    if (sq < 0 || last < 0 || (size_t)used != len)
        return fen_fail(err, errlen, shown, shown_len, "no such square");
    /* square numbers follow the bit order, so a range is the board's bits from sq to last */
    for (int s = sq; s <= last; s++)
        if ((v->board & square_bb(s)) && !fen_put(pos, v, color, king, s, shown, shown_len, err, errlen))
            return false;
    return true;
}

bool position_from_fen(Position *pos, const Variant *v, const char *text, char *err, size_t errlen)
{
    const char *s = text, *e = text + strlen(text);
    trim(&s, &e);
    if (e > s && e[-1] == '.') /* PDN allows a trailing dot */
        e--;
    if (e - s == 5 && memcmp(s, "start", 5) == 0) {
        v->start(pos);
        return true;
    }
    Position p = { .side = -1 };
    const char *colon = memchr(s, ':', (size_t)(e - s));
    const char *side_end = colon ? colon : e;
    const char *ss = s;
    trim(&ss, &side_end);
    if (side_end - ss != 1 || !strchr("WwBb", *ss))
        return fen_fail(err, errlen, NULL, 0, "missing side to move (W or B) before the first ':'");
    p.side = (*ss == 'W' || *ss == 'w') ? WHITE : BLACK;

    bool seen[2] = { false, false };
    for (const char *sec = colon; sec && sec < e;) {
        const char *sec_start = sec + 1;
        const char *next = memchr(sec_start, ':', (size_t)(e - sec_start));
        const char *sec_end = next ? next : e;
        trim(&sec_start, &sec_end);
        if (sec_start == sec_end || !strchr("WB", *sec_start))
            return fen_fail(err, errlen, sec_start, (size_t)(sec_end - sec_start),
                            "a section must start with W or B");
        int color = *sec_start == 'W' ? WHITE : BLACK;
        if (seen[color])
            return fen_fail(err, errlen, sec_start, 1, "colour given twice");
        seen[color] = true;
        const char *item = sec_start + 1;
        bool first = true;
        while (item < sec_end) {
            const char *comma = memchr(item, ',', (size_t)(sec_end - item));
            const char *item_end = comma ? comma : sec_end;
            const char *is = item, *ie = item_end;
            trim(&is, &ie);
            /* the first item is shown with its colour letter: 'Wz9' */
            if (!fen_item(&p, v, color, is, ie, first ? sec_start : is, err, errlen))
                return false;
            first = false;
            item = comma ? comma + 1 : sec_end;
            if (comma && item >= sec_end)
                return fen_fail(err, errlen, sec_start, (size_t)(sec_end - sec_start),
                                "a comma without a square after it");
        }
        sec = next;
    }
    for (int c = 0; c < 2; c++) {
        int n = popcount(position_pieces(&p, c));
        if (n > v->max_pieces) {
            char why[80];
            snprintf(why, sizeof why, "%d %s pieces (at most %d)", n, c == WHITE ? "white" : "black",
                     v->max_pieces);
            return fen_fail(err, errlen, NULL, 0, why);
        }
    }
    *pos = p;
    return true;
}

/* ---- FEN writing ---- */

void position_to_fen(const Position *pos, const Variant *v, char *buf, size_t len)
{
    size_t n = 0;
    /* n counts what the whole text needs; past the end of buf nothing more is written (and
     * no pointer beyond buf is formed), so a short buf gets a cut but terminated text. */
#define PUT(...) do { int w_ = n < len ? snprintf(buf + n, len - n, __VA_ARGS__) : 0; \
                      if (w_ > 0) n += (size_t)w_; } while (0)
    PUT("%c", pos->side == WHITE ? 'W' : 'B');
    for (int c = 0; c < 2; c++) {
        PUT(":%c", c == WHITE ? 'W' : 'B');
        bool first = true;
        for (Bitboard b = position_pieces(pos, c); b;) {
            int sq = pop_lsb(&b);
            char name[8];
            PUT("%s%s%s", first ? "" : ",", (pos->kings[c] & square_bb(sq)) ? "K" : "",
                v->square_name(sq, name));
            first = false;
        }
    }
#undef PUT
}
