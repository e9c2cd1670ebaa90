/* International draughts (FMJD 10x10): the functions behind international_variant (see
 * variant.h for the contracts, international_board.h for the board in 64 bits). */
#ifndef DAMA_INTERNATIONAL_H
#define DAMA_INTERNATIONAL_H

#include <stddef.h>
#include <string.h>

#include "game.h"
#include "types.h"

void international_start(Position *pos);
void international_generate(const Position *pos, const Rules *rules, MoveList *list);
void international_for_each_path(const Position *pos, const Rules *rules,
                                 void (*visit)(void *ctx, const Move *move), void *ctx);
uint64_t international_count(const Position *pos, const Rules *rules, bool count_paths);
struct PerftOptions;
uint64_t international_perft(const Position *pos, const Rules *rules, int depth,
                             const struct PerftOptions *opt);
bool international_capture_pending(const Position *pos);
bool international_has_quiet_move(const Position *pos);
void international_generate_known(const Position *pos, const Rules *rules, bool capture, MoveList *list);

/* The rule options of International draughts (FMJD articles 4.13 and 6), kept in a Rules
 * value. */
typedef struct InternationalRules {
    bool majority;        /* the capture taking the most pieces is compulsory; false: any capture */
    int kingmoves_plies;  /* plies of king moves only, no capture, before a draw; 0 = never */
    int endgame16_plies;  /* lone king v three pieces with a king: plies before a draw; 0 = never */
    int endgame5_plies;   /* lone king v two pieces with a king, or v one king; 0 = never */
} InternationalRules;
_Static_assert(sizeof(InternationalRules) <= sizeof(Rules), "International rules must fit in Rules");

/* International's options out of and into a Rules value (memcpy: a copy, no aliasing). */
static inline InternationalRules international_rules(const Rules *rules)
{
    InternationalRules t;
    memcpy(&t, rules->bytes, sizeof t);
    return t;
}
static inline Rules international_rules_pack(InternationalRules t)
{
    Rules rules = { { 0 } };
    memcpy(rules.bytes, &t, sizeof t);
    return rules;
}

/* Its own end reasons (Variant.reasons; game_reason gives their codes). */
enum InternationalReason { INTERNATIONAL_REASON_KING_MOVES = 0, INTERNATIONAL_REASON_ENDGAME = 1 };

Rules international_rules_default(void);
void international_rules_describe(const Rules *rules, char *buf, size_t len);
bool international_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                        size_t vallen, char *err, size_t errlen);
GameEnd international_game_end(const Position *pos, const Rules *rules, bool can_move,
                       const DrawCounts *counts);
int international_endgame_class(const Position *pos);

#endif
