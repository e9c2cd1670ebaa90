/* A PDN game against the rules: GameType, FEN and moves. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "notation.h"
#include "pdn_game.h"
#include "position.h"
#include "text_input.h"
#include "variant.h"

static bool problem(PdnProblem *p, long line, const char *what, const char *why)
{
    p->line = line;
    snprintf(p->what, sizeof p->what, "%s", what);
    snprintf(p->why, sizeof p->why, "%s", why);
    return false;
}

/* The GameType tag names v's game (or there is none). */
static bool gametype_ok(const Variant *v, const PdnGame *g, PdnProblem *p)
{
    const PdnTag *tag = pdn_tag_find(g, "GameType");
    if (!tag)
        return true;
    int number = pdn_gametype_number(tag->value);
    if (number == v->pdn_gametype)
        return true;
    const Variant *other = variant_by_pdn_gametype(number);
    char why[256];
    if (number < 0)
        snprintf(why, sizeof why, "not a game type number (%s is %d)", v->name, v->pdn_gametype);
    else if (other)
        snprintf(why, sizeof why, "%d is %s draughts, not %s (give --variant %s)", number, other->name,
                 v->name, other->name);
    else
        snprintf(why, sizeof why, "%d is no game dama plays (%s is %d)", number, v->name, v->pdn_gametype);
    return problem(p, tag->line, "GameType", why);
}

/* The FEN of a setup item, /FEN "W:..."/, into fen; false when it is no such thing. */
static bool setup_fen(const PdnItem *it, char *fen, size_t len)
{
    const char *p = it->text + 1, *end = it->text + it->len - 1;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    if (end - p < 3 || strncasecmp(p, "FEN", 3) != 0)
        return false;
    for (p += 3; p < end && (*p == ' ' || *p == '\t'); p++)
        ;
    const char *q = p < end && *p == '"' ? memchr(p + 1, '"', (size_t)(end - p - 1)) : NULL;
    if (!q || (size_t)(q - p - 1) >= len)
        return false;
    memcpy(fen, p + 1, (size_t)(q - p - 1));
    fen[q - p - 1] = '\0';
    return true;
}

/* A FEN whose side to move is '?' (the standard allows it): the side whose move the game's
 * first move is, into *pos; false when the FEN is bad, there is no move, or both or neither
 * side could play it (the rules' options are not known here: the defaults). */
static bool side_from_first_move(const Variant *v, const PdnGame *g, char *fen, Position *pos)
{
    const PdnItem *first = NULL;
    for (int i = 0; i < g->nitems && !first; i++)
        if (g->items[i].kind == PDN_MOVE)
            first = &g->items[i];
    Rules rules = rules_default(v);
    int sides = 0;
    for (const char *side = "WB"; first && *side; side++) {
        Position candidate;
        Move m;
        PdnProblem ignored;
        char why[256];
        fen[0] = *side;
        if (position_from_fen(&candidate, v, fen, why, sizeof why)
            && pdn_game_move(v, &rules, &candidate, first, &m, &ignored)) {
            *pos = candidate;
            sides++;
        }
    }
    fen[0] = '?';
    return sides == 1;
}

bool pdn_game_start(const Variant *v, const PdnGame *g, Position *pos, bool *fen_given, PdnProblem *p)
{
    if (fen_given)
        *fen_given = false;
    if (!gametype_ok(v, g, p))
        return false;
    char why[256], fen[PDN_VALUE_MAX + 1];
    const PdnTag *tag = pdn_tag_find(g, "FEN");
    const char *what = "FEN tag";
    long line = tag ? tag->line : g->line;
    if (tag && tag->value_len > PDN_VALUE_MAX) {
        snprintf(why, sizeof why, "longer than %d characters", PDN_VALUE_MAX);
        return problem(p, tag->line, what, why);
    }
    snprintf(fen, sizeof fen, "%s", tag ? tag->value : "");
    /* A setup in the move text before the first move sets the start as the tag does; one
     * after a move would make two games of one. */
    bool moved = false;
    for (int i = 0; i < g->nitems; i++) {
        const PdnItem *it = &g->items[i];
        moved |= it->kind == PDN_MOVE;
        if (it->kind != PDN_SETUP)
            continue;
        what = "setup";
        line = it->line;
        if (moved)
            return problem(p, line, what, "a position set up after moves (dama keeps games that follow"
                                          " from one start)");
        if (!setup_fen(it, fen, sizeof fen))
            return problem(p, line, what, "not /FEN \"...\"/");
    }
    size_t n = strlen(fen);
    while (n > 0 && (fen[n - 1] == '.' || fen[n - 1] == ' '))
        fen[--n] = '\0';
    if (!fen[0]) {
        v->start(pos);
        return true;
    }
    if (fen[0] == '?' && !side_from_first_move(v, g, fen, pos))
        return problem(p, line, what, "the side to move is unknown ('?') and no first move tells it");
    if (fen[0] != '?' && !position_from_fen(pos, v, fen, why, sizeof why))
        return problem(p, line, what, why);
    if (fen_given)
        *fen_given = true;
    return true;
}

/* The move of a PDN_MOVE item (raw_len <= PDN_TOKEN_MAX) as the standard writes it: no
 * blanks ("1- 6"), 'x' for captures (':' is read too), no leading zero ("06-11"). */
static void normal_move_text(const PdnItem *it, char tok[PDN_TOKEN_MAX + 1])
{
    size_t n = 0;
    for (size_t i = 0; i < it->len && n < PDN_TOKEN_MAX; i++) {
        char c = it->text[i], before = n ? tok[n - 1] : '\0';
        bool number_start = !(before >= '0' && before <= '9') && !(before >= 'a' && before <= 'h');
        if (c == ' ' || c == '\t' || (c == '0' && number_start && i + 1 < it->len && it->text[i + 1] >= '0'
                                       && it->text[i + 1] <= '9'))
            continue;
        tok[n++] = c == ':' ? 'x' : c;
    }
    tok[n] = '\0';
}

/* Does the move text `text` (squares joined by '-' or 'x') name the move written in long
 * form as `full`: the same first and last square, its other squares among full's in order? */
static bool names_move(const char *text, const char *full)
{
    const char *t = text, *f = full;
    bool first = true;
    while (*t) {
        size_t tn = strcspn(t, "-x");
        bool last = t[tn] == '\0';
        for (;;) { /* the next square of full equal to this one of text */
            size_t fn = strcspn(f, "-x");
            bool match = fn == tn && memcmp(f, t, tn) == 0, f_last = f[fn] == '\0';
            f += fn + (f_last ? 0 : 1);
            if (match && (!last || f_last))
                break;
            if (first || f_last)
                return false;
        }
        first = false;
        t += tn + (last ? 0 : 1);
    }
    return *f == '\0';
}

int pdn_game_candidates(const Variant *v, const Rules *rules, const Position *pos, const PdnItem *it,
                        Move *out, int max)
{
    if (it->raw_len > PDN_TOKEN_MAX)
        return 0;
    char tok[PDN_TOKEN_MAX + 1], full[256];
    normal_move_text(it, tok);
    MoveList list;
    v->generate(pos, rules, &list);
    int n = 0;
    for (int i = 0; i < list.count && n < max; i++)
        if (names_move(tok, move_to_text(v, &list.moves[i], full, sizeof full)))
            out[n++] = list.moves[i];
    return n;
}

bool pdn_game_move(const Variant *v, const Rules *rules, const Position *pos, const PdnItem *it,
                   Move *m, PdnProblem *p)
{
    char quoted[4 * PDN_TOKEN_MAX + 4], what[sizeof quoted + 16], why[512];
    if (it->raw_len > PDN_TOKEN_MAX) {
        snprintf(what, sizeof what, "move '%s'", text_quote(quoted, sizeof quoted, it->raw, it->raw_len, 20));
        snprintf(why, sizeof why, "longer than %d characters", PDN_TOKEN_MAX);
        return problem(p, it->line, what, why);
    }
    char tok[PDN_TOKEN_MAX + 1];
    normal_move_text(it, tok);
    if (move_from_text(v, pos, rules, tok, m, why, sizeof why))
        return true;
    snprintf(what, sizeof what, "move '%s'", text_quote(quoted, sizeof quoted, it->text, it->len, PDN_TOKEN_MAX));
    return problem(p, it->line, what, why);
}
