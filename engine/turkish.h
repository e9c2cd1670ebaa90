/* Turkish draughts: the functions behind turkish_variant (see variant.h for contracts). */
#ifndef DAMA_TURKISH_H
#define DAMA_TURKISH_H

#include "types.h"

void turkish_start(Position *pos);
void turkish_generate(const Position *pos, const Rules *rules, MoveList *list);
void turkish_for_each_path(const Position *pos, const Rules *rules,
                           void (*visit)(void *ctx, const Move *move), void *ctx);
uint64_t turkish_count(const Position *pos, const Rules *rules, bool count_paths);
bool turkish_capture_pending(const Position *pos);
void turkish_make(Position *pos, const Move *move);
const char *turkish_square_name(int sq, char *buf);
int turkish_parse_square(const char *text, int *used);

#endif
