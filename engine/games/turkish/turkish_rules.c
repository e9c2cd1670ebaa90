/* Turkish draughts: the rule options (docs/rules-turkish.md) and the end of the game. */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "position.h"
#include "turkish.h"
#include "variant.h"

Rules turkish_rules_default(void)
{
    return turkish_rules_pack((TurkishRules){ .promotion = PROMOTE_MAN, .kvm = KVM_DRAW, .noprogress_plies = 100 });
}

#define KEY_IS(lit) (keylen == sizeof(lit) - 1 && memcmp(key, (lit), keylen) == 0)

bool turkish_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                          size_t vallen, char *err, size_t errlen)
{
    static const char *const promotions[] = { "man", "stop", "king" }; /* enum Promotion */
    static const char *const kvms[] = { "draw", "win" };                /* enum KingVsMan */
    TurkishRules t = turkish_rules(rules);
    bool ok;
    if (KEY_IS("promotion"))
        ok = rules_choice(val, vallen, promotions, 3, &t.promotion);
    else if (KEY_IS("kvm"))
        ok = rules_choice(val, vallen, kvms, 2, &t.kvm);
    else if (KEY_IS("noprogress"))
        ok = rules_number(val, vallen, 100000, &t.noprogress_plies);
    else
        return rules_unknown(&turkish_variant, key, keylen, err, errlen);
    if (!ok)
        return rules_bad_value(key, keylen, val, vallen, err, errlen);
    *rules = turkish_rules_pack(t);
    return true;
}

/* Numbers, not names, for the options: runs stored before variants existed wrote them so,
 * and a resumed run compares this text with its stored params. */
void turkish_rules_describe(const Rules *rules, char *buf, size_t len)
{
    TurkishRules t = turkish_rules(rules);
    snprintf(buf, len, "promotion=%d kvm=%d noprogress=%d", t.promotion, t.kvm, t.noprogress_plies);
}

/* In order of precedence:
 *   1. the side to move has no legal move: it loses (even when a draw rule holds too, as on
 *      the ply that reaches the no-progress limit by blocking the last piece);
 *   2. one piece each: a draw, or with kvm=win a win for a king against a man;
 *   3. repetition: the position with the same side to move for the third time;
 *   4. no progress: rules.noprogress_plies plies without a capture. */
GameEnd turkish_game_end(const Position *pos, const Rules *options, bool can_move,
                         const DrawCounts *counts)
{
    TurkishRules rules = turkish_rules(options);
    if (!can_move) /* no passing: checked first, it ends the game outright */
        return game_end_no_moves(pos);
    if (popcount(position_pieces(pos, WHITE)) == 1 && popcount(position_pieces(pos, BLACK)) == 1) {
        int result = RESULT_DRAW;
        if (rules.kvm == KVM_WIN && pos->kings[WHITE] && pos->men[BLACK])
            result = RESULT_WHITE_WINS;
        else if (rules.kvm == KVM_WIN && pos->kings[BLACK] && pos->men[WHITE])
            result = RESULT_BLACK_WINS;
        return (GameEnd){ result, game_reason(&turkish_variant, TURKISH_REASON_ONE_EACH) };
    }
    if (counts->repetitions >= REPETITIONS_FOR_DRAW)
        return (GameEnd){ RESULT_DRAW, REASON_REPETITION };
    if (rules.noprogress_plies > 0 && counts->since_irreversible >= rules.noprogress_plies)
        return (GameEnd){ RESULT_DRAW, game_reason(&turkish_variant, TURKISH_REASON_NOPROGRESS) };
    return (GameEnd){ RESULT_NONE, REASON_NONE };
}
