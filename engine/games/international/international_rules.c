/* International draughts: the rule options and the end of the game, as decided in
 * docs/rules-international.md (FMJD articles 4.13 and 6).
 *
 * A game with International's rules on another board compiles this file again
 * (diagonal_game.h): its DIAGONAL_GAME names the functions and its Variant, and
 * DIAGONAL_KINGMOVES its count of king moves before a draw when that is not FMJD's 25
 * (Brazilian draughts: 20). */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "diagonal_game.h"
#include "international.h"
#include "position.h"
#include "variant.h"

#ifndef DIAGONAL_KINGMOVES
#define DIAGONAL_KINGMOVES 25 /* FMJD article 6.2 */
#endif

extern const Variant DIAGONAL_VARIANT;
Rules DIAGONAL_FN(rules_default)(void);
void DIAGONAL_FN(rules_describe)(const Rules *rules, char *buf, size_t len);
bool DIAGONAL_FN(rules_option)(Rules *rules, const char *key, size_t keylen, const char *val,
                               size_t vallen, char *err, size_t errlen);
GameEnd DIAGONAL_FN(game_end)(const Position *pos, const Rules *rules, bool can_move,
                              const DrawCounts *counts);
int DIAGONAL_FN(endgame_class)(const Position *pos);

/* FMJD counts moves of each side; the counters here count plies (one move each = 2). */
#define PLIES_PER_MOVE_PAIR 2

Rules DIAGONAL_FN(rules_default)(void)
{
    return international_rules_pack((InternationalRules){
        .majority = true,
        .kingmoves_plies = DIAGONAL_KINGMOVES * PLIES_PER_MOVE_PAIR,
        .endgame16_plies = 16 * PLIES_PER_MOVE_PAIR,  /* article 6.3 */
        .endgame5_plies = 5 * PLIES_PER_MOVE_PAIR }); /* article 6.4 */
}

#define KEY_IS(lit) (keylen == sizeof(lit) - 1 && memcmp(key, (lit), keylen) == 0)

/* Draw counts are given in moves of each side, as FMJD states them. */
static bool moves_each(const char *val, size_t vallen, int *plies)
{
    int moves;
    if (!rules_number(val, vallen, 50000, &moves))
        return false;
    *plies = moves * PLIES_PER_MOVE_PAIR;
    return true;
}

bool DIAGONAL_FN(rules_option)(Rules *rules, const char *key, size_t keylen, const char *val,
                               size_t vallen, char *err, size_t errlen)
{
    static const char *const offon[] = { "off", "on" };
    InternationalRules t = international_rules(rules);
    bool ok;
    if (KEY_IS("majority")) {
        int on = 0;
        ok = rules_choice(val, vallen, offon, 2, &on);
        t.majority = on == 1;
    } else if (KEY_IS("kingmoves"))
        ok = moves_each(val, vallen, &t.kingmoves_plies);
    else if (KEY_IS("endgame16"))
        ok = moves_each(val, vallen, &t.endgame16_plies);
    else if (KEY_IS("endgame5"))
        ok = moves_each(val, vallen, &t.endgame5_plies);
    else
        return rules_unknown(&DIAGONAL_VARIANT, key, keylen, err, errlen);
    if (!ok)
        return rules_bad_value(key, keylen, val, vallen, err, errlen);
    *rules = international_rules_pack(t);
    return true;
}

/* The options as --rules would give them (counts in moves of each side). */
void DIAGONAL_FN(rules_describe)(const Rules *options, char *buf, size_t len)
{
    InternationalRules rules = international_rules(options);
    snprintf(buf, len, "majority=%s kingmoves=%d endgame16=%d endgame5=%d", rules.majority ? "on" : "off",
             rules.kingmoves_plies / PLIES_PER_MOVE_PAIR, rules.endgame16_plies / PLIES_PER_MOVE_PAIR,
             rules.endgame5_plies / PLIES_PER_MOVE_PAIR);
}

/* The lone-king endgames of article 6.3 and 6.4, by the other side's material. */
enum { ENDGAME_NONE = 0, ENDGAME_16, ENDGAME_5 };

int DIAGONAL_FN(endgame_class)(const Position *pos)
{
    for (int lone = WHITE; lone <= BLACK; lone++) {
        int other = !lone;
        if (pos->men[lone] || popcount(pos->kings[lone]) != 1 || !pos->kings[other])
            continue;
        int n = popcount(position_pieces(pos, other));
        if (n == 3)
            return ENDGAME_16; /* three kings, two kings and a man, a king and two men */
        if (n <= 2)
            return ENDGAME_5;  /* two kings, a king and a man, or one king */
    }
    return ENDGAME_NONE;
}

/* In order of precedence:
 *   1. the side to move has no legal move (no pieces, or blocked): it loses;
 *   2. threefold repetition (article 6.1);
 *   3. 25 moves each (DIAGONAL_KINGMOVES) of kings only without a capture (article 6.2): since_irreversible,
 *      as a man's move and a capture are the irreversible moves here;
 *   4. a lone king against three pieces with a king, 16 moves each (article 6.3), or
 *      against at most two pieces with a king, 5 moves each (article 6.4), counted from
 *      the ply the endgame arose. */
GameEnd DIAGONAL_FN(game_end)(const Position *pos, const Rules *options, bool can_move,
                              const DrawCounts *counts)
{
    InternationalRules rules = international_rules(options);
    if (!can_move)
        return game_end_no_moves(pos);
    if (counts->repetitions >= REPETITIONS_FOR_DRAW)
        return (GameEnd){ RESULT_DRAW, REASON_REPETITION };
    if (rules.kingmoves_plies > 0 && counts->since_irreversible >= rules.kingmoves_plies)
        return (GameEnd){ RESULT_DRAW,
                          game_reason(&DIAGONAL_VARIANT, INTERNATIONAL_REASON_KING_MOVES) };
    int cls = DIAGONAL_FN(endgame_class)(pos);
    int limit = cls == ENDGAME_16 ? rules.endgame16_plies : cls == ENDGAME_5 ? rules.endgame5_plies : 0;
    if (limit > 0 && counts->endgame_plies >= limit)
        return (GameEnd){ RESULT_DRAW,
                          game_reason(&DIAGONAL_VARIANT, INTERNATIONAL_REASON_ENDGAME) };
    return (GameEnd){ RESULT_NONE, REASON_NONE };
}
