/* Russian draughts: the draw rules and the end of the game, as docs/rules-russian.md
 * states them (the FMJD / Russian Draughts Federation rules, section 7.2). */
#include <stdio.h>
#include <string.h>

#include "russian.h"
#include "bitboard.h"
#include "international_board.h"
#include "position.h"
#include "variant.h"

/* The rules count moves of each side; the counters here count plies. */
#define PLIES_PER_MOVE_PAIR 2

Rules russian_rules_default(void)
{
    return russian_rules_pack((RussianRules){
        .kingmoves_plies = 15 * PLIES_PER_MOVE_PAIR,
        .threekings_plies = 15 * PLIES_PER_MOVE_PAIR,
        .mainroad_plies = 5 * PLIES_PER_MOVE_PAIR,
        .endgame3_plies = 5 * PLIES_PER_MOVE_PAIR,
        .endgame5_plies = 30 * PLIES_PER_MOVE_PAIR,
        .endgame7_plies = 60 * PLIES_PER_MOVE_PAIR });
}

/* The options by name, in the order rules_describe writes them. */
static const struct {
    const char *key;
    size_t offset;
} option_table[] = {
    { "kingmoves", offsetof(RussianRules, kingmoves_plies) },
    { "threekings", offsetof(RussianRules, threekings_plies) },
    { "mainroad", offsetof(RussianRules, mainroad_plies) },
    { "endgame3", offsetof(RussianRules, endgame3_plies) },
    { "endgame5", offsetof(RussianRules, endgame5_plies) },
    { "endgame7", offsetof(RussianRules, endgame7_plies) },
};
#define OPTION_COUNT (sizeof option_table / sizeof option_table[0])

static int *option_field(RussianRules *t, size_t i) { return (int *)((char *)t + option_table[i].offset); }

bool russian_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                          size_t vallen, char *err, size_t errlen)
{
    RussianRules t = russian_rules(rules);
    for (size_t i = 0; i < OPTION_COUNT; i++) {
        if (strlen(option_table[i].key) != keylen || memcmp(key, option_table[i].key, keylen) != 0)
            continue;
        int moves;
        if (!rules_number(val, vallen, 50000, &moves))
            return rules_bad_value(key, keylen, val, vallen, err, errlen);
        *option_field(&t, i) = moves * PLIES_PER_MOVE_PAIR;
        *rules = russian_rules_pack(t);
        return true;
    }
    return rules_unknown(&russian_variant, key, keylen, err, errlen);
}

void russian_rules_describe(const Rules *rules, char *buf, size_t len)
{
    RussianRules t = russian_rules(rules);
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < OPTION_COUNT && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s=%d", i ? " " : "", option_table[i].key,
                              *option_field(&t, i) / PLIES_PER_MOVE_PAIR);
}

/* The squares a1, b2, ..., h8: squares 29, 25, 22, 18, 15, 11, 8, 4. */
Bitboard russian_main_road(void)
{
    static const int numbers[] = { 29, 25, 22, 18, 15, 11, 8, 4 };
    Bitboard b = 0;
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
        b |= square_bb(intl_bit_of_number(numbers[i]));
    return b;
}

/* The balance of forces the endgame counts watch: 0 when none applies, else a number that
 * changes whenever the balance does (a capture, a man crowned), so that game.c restarts
 * the count.  It applies when both sides have kings and at most 7 pieces are on the
 * board. */
int russian_endgame_class(const Position *pos)
{
    int wm = popcount(pos->men[WHITE]), wk = popcount(pos->kings[WHITE]);
    int bm = popcount(pos->men[BLACK]), bk = popcount(pos->kings[BLACK]);
    if (!wk || !bk || wm + wk + bm + bk > 7)
        return 0;
    return 1 + wm + 8 * wk + 64 * bm + 512 * bk;
}

/* The shortest draw count that applies to the balance of pos (0: none). */
static int endgame_limit(const Position *pos, const RussianRules *rules)
{
    int cls = russian_endgame_class(pos);
    if (!cls)
        return 0;
    int wm = popcount(pos->men[WHITE]), wk = popcount(pos->kings[WHITE]);
    int bm = popcount(pos->men[BLACK]), bk = popcount(pos->kings[BLACK]);
    int pieces = wm + wk + bm + bk;
    int limit = pieces <= 3 ? rules->endgame3_plies : pieces <= 5 ? rules->endgame5_plies
                                                                  : rules->endgame7_plies;
#define TIGHTER(n) (limit = (n) > 0 && (limit == 0 || (n) < limit) ? (n) : limit)
    for (int lone = WHITE; lone <= BLACK; lone++) {
        int om = lone == WHITE ? bm : wm, ok = lone == WHITE ? bk : wk;
        if (popcount(position_pieces(pos, lone)) != 1)
            continue; /* not a lone king (both sides have kings here) */
        if (om == 0 && ok >= 3)
            TIGHTER(rules->threekings_plies);
        if (om + ok == 3 && (pos->kings[lone] & russian_main_road()))
            TIGHTER(rules->mainroad_plies);
    }
#undef TIGHTER
    return limit;
}

/* In order of precedence:
 *   1. the side to move has no legal move (no pieces, or blocked): it loses;
 *   2. threefold repetition;
 *   3. 15 moves each in which both sides moved only kings and nothing was captured
 *      (since_irreversible: a man's move and a capture are the irreversible moves);
 *   4. the endgame counts, from the ply the balance arose: three kings or more against a
 *      lone king, 15 moves; three pieces with a king against a lone king that stands on
 *      the main road, 5 moves; both sides with kings and the balance unchanged, 5 moves with 2-3 pieces,
 *      30 with 4-5, 60 with 6-7. */
GameEnd russian_game_end(const Position *pos, const Rules *options, bool can_move,
                         const DrawCounts *counts)
{
    RussianRules rules = russian_rules(options);
    if (!can_move)
        return game_end_no_moves(pos);
    if (counts->repetitions >= REPETITIONS_FOR_DRAW)
        return (GameEnd){ RESULT_DRAW, REASON_REPETITION };
    if (rules.kingmoves_plies > 0 && counts->since_irreversible >= rules.kingmoves_plies)
        return (GameEnd){ RESULT_DRAW, game_reason(&russian_variant, RUSSIAN_REASON_KING_MOVES) };
    int limit = endgame_limit(pos, &rules);
    if (limit > 0 && counts->endgame_plies >= limit)
        return (GameEnd){ RESULT_DRAW, game_reason(&russian_variant, RUSSIAN_REASON_ENDGAME) };
    return (GameEnd){ RESULT_NONE, REASON_NONE };
}
