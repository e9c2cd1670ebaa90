/* International draughts (FMJD 10x10): the functions behind international_variant (see
 * variant.h for the contracts, international_board.h for the board in 64 bits). */
#ifndef DAMA_INTERNATIONAL_H
#define DAMA_INTERNATIONAL_H

#include <stddef.h>

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
void international_make(Position *pos, const Move *move);
const char *international_square_name(int sq, char *buf);
int international_parse_square(const char *text, int *used);

Rules international_rules_default(void);
void international_rules_describe(const Rules *rules, char *buf, size_t len);
bool international_rules_option(Rules *rules, const char *key, size_t keylen, const char *val,
                        size_t vallen, char *err, size_t errlen);
GameEnd international_game_end(const Position *pos, const Rules *rules, bool can_move,
                       const DrawCounts *counts);
int international_endgame_class(const Position *pos);

#endif
