/* Turkish draughts: the functions behind turkish_variant (see variant.h for contracts). */
#ifndef DAMA_TURKISH_H
#define DAMA_TURKISH_H

#include <stddef.h>
#include <string.h>

#include "game.h"
#include "perft.h"
#include "types.h"

void turkish_start(Position *pos);
void turkish_generate(const Position *pos, const Rules *rules, MoveList *list);
void turkish_for_each_path(const Position *pos, const Rules *rules,
                           void (*visit)(void *ctx, const Move *move), void *ctx);
uint64_t turkish_count(const Position *pos, const Rules *rules, bool count_paths);
bool turkish_capture_pending(const Position *pos);
bool turkish_has_quiet_move(const Position *pos);
void turkish_generate_known(const Position *pos, const Rules *rules, bool capture, MoveList *list);
uint64_t turkish_perft(const Position *pos, const Rules *rules, int depth, const PerftOptions *opt);
const char *turkish_square_name(int sq, char *buf);
int turkish_parse_square(const char *text, int *used);

/* The rule options of Turkish draughts (docs/rules.md), kept in a Rules value. */
enum Promotion { PROMOTE_MAN = 0, PROMOTE_STOP = 1, PROMOTE_KING = 2 };
enum KingVsMan { KVM_DRAW = 0, KVM_WIN = 1 };
typedef struct TurkishRules {
    int promotion;        /* enum Promotion: what a man does on reaching the last rank mid-capture */
    int kvm;              /* enum KingVsMan: outcome of one piece against one piece */
    int noprogress_plies; /* plies without capture before a draw; 0 = never */
} TurkishRules;
_Static_assert(sizeof(TurkishRules) <= sizeof(Rules), "Turkish rules must fit in Rules");

/* Turkish's options out of and into a Rules value (memcpy: a copy, no aliasing). */
static inline TurkishRules turkish_rules(const Rules *rules)
{
    TurkishRules t;
    memcpy(&t, rules->bytes, sizeof t);
    return t;
}
static inline Rules turkish_rules_pack(TurkishRules t)
{
    Rules rules = { { 0 } };
    memcpy(rules.bytes, &t, sizeof t);
    return rules;
}

/* Its own end reasons (Variant.reasons; game_reason gives their codes). */
enum TurkishReason { TURKISH_REASON_NOPROGRESS = 0, TURKISH_REASON_ONE_EACH = 1 };

Rules turkish_rules_default(void);
void turkish_rules_describe(const Rules *rules, char *buf, size_t len);
bool turkish_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                        size_t vallen, char *err, size_t errlen);
GameEnd turkish_game_end(const Position *pos, const Rules *rules, bool can_move,
                       const DrawCounts *counts);

#endif
