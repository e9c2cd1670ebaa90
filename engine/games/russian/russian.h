/* Russian draughts (shashki, 8x8): the functions behind russian_variant (see variant.h for
 * the contracts).  The board is International's layout compiled for 8x8
 * (international_board.h with RUSSIAN_BOARD first): squares 1..32 from Black's side, b8 = 1,
 * h8 = 4, a1 = 29, g1 = 32. */
#ifndef DAMA_RUSSIAN_H
#define DAMA_RUSSIAN_H

#include <stddef.h>
#include <string.h>

#include "game.h"
#include "types.h"

extern const struct Variant russian_variant;

/* The geometry every file of the folder compiles international_board.h with. */
#define INTL_ROWS 8
#define INTL_COLUMNS 8

void russian_generate(const Position *pos, const Rules *rules, MoveList *list);
void russian_for_each_path(const Position *pos, const Rules *rules,
                           void (*visit)(void *ctx, const Move *move), void *ctx);
uint64_t russian_count(const Position *pos, const Rules *rules, bool count_paths);
struct PerftOptions;
uint64_t russian_perft(const Position *pos, const Rules *rules, int depth,
                       const struct PerftOptions *opt);
bool russian_capture_pending(const Position *pos);
bool russian_has_quiet_move(const Position *pos);
void russian_generate_known(const Position *pos, const Rules *rules, bool capture, MoveList *list);
Bitboard russian_half_turn(Bitboard b);

/* The draw rules of Russian draughts (docs/rules-russian.md), kept in a Rules value; every
 * count in plies (a move of each side is 2), 0 = the rule is off. */
typedef struct RussianRules {
    int kingmoves_plies;   /* both sides moved only kings, no capture */
    int threekings_plies;  /* three kings or more against a lone king */
    int mainroad_plies;    /* three pieces with a king against a lone king on the main road */
    int endgame3_plies;    /* both sides with kings, 2 or 3 pieces in all, balance unchanged */
    int endgame5_plies;    /* the same with 4 or 5 pieces */
    int endgame7_plies;    /* the same with 6 or 7 pieces */
} RussianRules;
_Static_assert(sizeof(RussianRules) <= sizeof(Rules), "Russian rules must fit in Rules");

static inline RussianRules russian_rules(const Rules *rules)
{
    RussianRules t;
    memcpy(&t, rules->bytes, sizeof t);
    return t;
}
static inline Rules russian_rules_pack(RussianRules t)
{
    Rules rules = { { 0 } };
    memcpy(rules.bytes, &t, sizeof t);
    return rules;
}

/* Its own end reasons (Variant.reasons). */
enum RussianReason { RUSSIAN_REASON_KING_MOVES = 0, RUSSIAN_REASON_ENDGAME = 1 };

Rules russian_rules_default(void);
void russian_rules_describe(const Rules *rules, char *buf, size_t len);
bool russian_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                          size_t vallen, char *err, size_t errlen);
GameEnd russian_game_end(const Position *pos, const Rules *rules, bool can_move,
                         const DrawCounts *counts);
int russian_endgame_class(const Position *pos);
/* The main road (a1-h8), where a lone king holds the draw. */
Bitboard russian_main_road(void);

#endif
