/* Turkish draughts: the functions behind turkish_variant (see variant.h for contracts). */
#ifndef DAMA_TURKISH_H
#define DAMA_TURKISH_H

#include <stddef.h>

#include "game.h"
#include "perft.h"
#include "types.h"

void turkish_start(Position *pos);
void turkish_generate(const Position *pos, const Rules *rules, MoveList *list);
void turkish_for_each_path(const Position *pos, const Rules *rules,
                           void (*visit)(void *ctx, const Move *move), void *ctx);
uint64_t turkish_count(const Position *pos, const Rules *rules, bool count_paths);
bool turkish_capture_pending(const Position *pos);
uint64_t turkish_perft(const Position *pos, const Rules *rules, int depth, const PerftOptions *opt);
void turkish_make(Position *pos, const Move *move);
const char *turkish_square_name(int sq, char *buf);
int turkish_parse_square(const char *text, int *used);

Rules turkish_rules_default(void);
void turkish_rules_describe(const Rules *rules, char *buf, size_t len);
bool turkish_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                        size_t vallen, char *err, size_t errlen);
GameEnd turkish_game_end(const Position *pos, const Rules *rules, bool can_move,
                       const DrawCounts *counts);

#endif
