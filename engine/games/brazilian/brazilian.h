/* Brazilian draughts (8x8, International's rules): the functions behind brazilian_variant.
 * The generator and the rules are International's compiled for this board
 * (brazilian_movegen.c, brazilian_rules.c); their options are International's
 * (InternationalRules, international.h). */
#ifndef DAMA_BRAZILIAN_H
#define DAMA_BRAZILIAN_H

#include <stddef.h>

#include "eval_spec.h"
#include "game.h"
#include "international.h"
#include "types.h"
#include "variant.h"

extern const Variant brazilian_variant;

struct PerftOptions;

void brazilian_generate(const Position *pos, const Rules *rules, MoveList *list);
void brazilian_for_each_path(const Position *pos, const Rules *rules,
                             void (*visit)(void *ctx, const Move *move), void *ctx);
uint64_t brazilian_count(const Position *pos, const Rules *rules, bool count_paths);
uint64_t brazilian_perft(const Position *pos, const Rules *rules, int depth,
                         const struct PerftOptions *opt);
bool brazilian_capture_pending(const Position *pos);
bool brazilian_has_quiet_move(const Position *pos);
void brazilian_generate_known(const Position *pos, const Rules *rules, bool capture, MoveList *list);

Rules brazilian_rules_default(void);
void brazilian_rules_describe(const Rules *rules, char *buf, size_t len);
bool brazilian_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                            size_t vallen, char *err, size_t errlen);
GameEnd brazilian_game_end(const Position *pos, const Rules *rules, bool can_move,
                           const DrawCounts *counts);
int brazilian_endgame_class(const Position *pos);

/* Square text: numbers 1..32 written; numbers and a1..h8 read. */

extern const EvalSpec brazilian_eval_spec;
extern const EvalSpec brazilian_pattern_eval_spec;

#endif
