/* Refused moves explained from the legal move list: the rules never need a second
 * generator, because every reason is a comparison of what was tried with what is legal. */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "move_check.h"
#include "notation.h"
#include "variant.h"

static const char *const REFUSAL_NAMES[REFUSAL_COUNT] = {
    "none", "syntax", "not-your-piece", "capture-compulsory", "maximum-capture",
    "no-such-move", "ambiguous", "no-moves",
};

const char *move_refusal_name(int refusal)
{
    return refusal >= 0 && refusal < REFUSAL_COUNT ? REFUSAL_NAMES[refusal] : "unknown";
}

/* Appends the names of the squares of set, comma separated, to buf at *n. */
static void append_squares(const Variant *v, Bitboard set, char *buf, size_t len, size_t *n)
{
    const char *sep = "";
    while (set && *n < len) {
        char sq[8];
        *n += (size_t)snprintf(buf + *n, len - *n, "%s%s", sep, v->square_name(pop_lsb(&set), sq));
        sep = ", ";
    }
}

/* A capture is what the text asks for when it says so ('x' or ':') or lists landing
 * squares beyond the first and last. */
static bool text_asks_capture(const Variant *v, const char *text)
{
    if (strpbrk(text, "xX:"))
        return true;
    int squares = 0, used = 0;
    for (const char *p = text; *p; p++) {
        if (v->parse_square(p, &used) >= 0) {
            squares++;
            p += used - 1;
        }
    }
    return squares > 2;
}

bool move_check_text(const Variant *v, const Position *pos, const Rules *rules, const char *text,
                     MoveCheck *check)
{
    memset(check, 0, sizeof *check);
    MoveList list;
    v->generate(pos, rules, &list);
    for (int i = 0; i < list.count; i++)
        check->movable |= square_bb(list.moves[i].from);
    /* Under a rule without the maximum (International majority=off) captures differ in
     * length: then a refused capture is only "not legal", never "too short". */
    bool maximum_rule = true;
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i].njumps > check->capture_count)
            check->capture_count = list.moves[i].njumps;
        if (list.moves[i].njumps != list.moves[0].njumps)
            maximum_rule = false;
    }

    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    int used = 0;
    int from = v->parse_square(p, &used);
    if (from >= 0)
        for (int i = 0; i < list.count; i++)
            if (list.moves[i].from == from)
                check->targets |= square_bb(list.moves[i].to);

    char err[200]; /* leaves room in reason for the advice that follows it */
    if (move_from_text(v, pos, rules, text, &check->move, err, sizeof err))
        return true;

    size_t len = sizeof check->reason, n = 0;
    char *out = check->reason;
    char sq[8];
    Bitboard own = pos->men[pos->side] | pos->kings[pos->side];
    if (from < 0 || strncmp(err, "bad move", 8) == 0) {
        check->refusal = REFUSAL_SYNTAX;
        snprintf(out, len, "%s", err);
    } else if (list.count == 0) {
        check->refusal = REFUSAL_NO_MOVES;
        snprintf(out, len, "%s has no legal move: the game is over",
                 pos->side == WHITE ? "white" : "black");
    } else if (strncmp(err, "ambiguous", 9) == 0) {
        check->refusal = REFUSAL_AMBIGUOUS;
        snprintf(out, len, "%s; name a landing square to choose", err);
    } else if (!(own & square_bb(from))) {
        check->refusal = REFUSAL_NOT_YOUR_PIECE;
        snprintf(out, len, "there is no %s piece on %s", pos->side == WHITE ? "white" : "black",
                 v->square_name(from, sq));
    } else if (check->capture_count > 0 &&
               (!(check->movable & square_bb(from)) || !text_asks_capture(v, text))) {
        check->refusal = REFUSAL_CAPTURE_COMPULSORY;
        n = (size_t)snprintf(out, len, "a capture is compulsory: %s ",
                             popcount(check->movable) == 1 ? "the piece on" : "the pieces on");
        append_squares(v, check->movable, out, len, &n);
        if (n < len)
            snprintf(out + n, len - n, " can capture");
    } else if (check->capture_count > 0 && maximum_rule) {
        check->refusal = REFUSAL_MAXIMUM_CAPTURE;
        n = (size_t)snprintf(out, len, "the most pieces must be taken: %d, by a capture ending on ",
                             check->capture_count);
        append_squares(v, check->targets, out, len, &n);
    } else {
        check->refusal = REFUSAL_NO_SUCH_MOVE;
        n = (size_t)snprintf(out, len, "the piece on %s ", v->square_name(from, sq));
        if (!check->targets) {
            if (n < len)
                snprintf(out + n, len - n, "cannot move");
        } else {
            if (n < len)
                n += (size_t)snprintf(out + n, len - n, "can go to ");
            append_squares(v, check->targets, out, len, &n);
            if (n < len)
                snprintf(out + n, len - n, " only");
        }
    }
    return false;
}
