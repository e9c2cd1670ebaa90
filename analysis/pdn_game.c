/* A PDN game against the rules: GameType, FEN and moves. */
#include <stdio.h>
#include <string.h>

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
    const Variant *other = NULL;
    for (int i = 0; variant_at(i); i++)
        if (variant_at(i)->pdn_gametype == number)
            other = variant_at(i);
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

bool pdn_game_start(const Variant *v, const PdnGame *g, Position *pos, bool *fen_given, PdnProblem *p)
{
    if (fen_given)
        *fen_given = false;
    if (!gametype_ok(v, g, p))
        return false;
    const PdnTag *tag = pdn_tag_find(g, "FEN");
    if (!tag) {
        v->start(pos);
        return true;
    }
    char why[256];
    if (tag->value_len > PDN_VALUE_MAX) {
        snprintf(why, sizeof why, "longer than %d characters", PDN_VALUE_MAX);
        return problem(p, tag->line, "FEN tag", why);
    }
    char fen[PDN_VALUE_MAX + 1];
    size_t n = tag->value_len;
    memcpy(fen, tag->value, n + 1);
    while (n > 0 && (fen[n - 1] == '.' || fen[n - 1] == ' '))
        fen[--n] = '\0';
    if (!fen[0]) {
        v->start(pos);
        return true;
    }
    if (!position_from_fen(pos, v, fen, why, sizeof why))
        return problem(p, tag->line, "FEN tag", why);
    if (fen_given)
        *fen_given = true;
    return true;
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
    memcpy(tok, it->text, it->len);
    tok[it->len] = '\0';
    if (move_from_text(v, pos, rules, tok, m, why, sizeof why))
        return true;
    snprintf(what, sizeof what, "move '%s'", text_quote(quoted, sizeof quoted, tok, it->len, PDN_TOKEN_MAX));
    return problem(p, it->line, what, why);
}
