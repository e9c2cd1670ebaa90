/* Move text: long form with every landing square (d3xd5xf5, 50x22x11), quiet d3-d4, and
 * the short form of numbered boards (26x37). */
#ifndef DAMA_NOTATION_H
#define DAMA_NOTATION_H

#include <stddef.h>
#include "move.h"

/* Writes the long form of move into buf; returns buf. */
char *move_to_text(const Variant *v, const Move *move, char *buf, size_t len);
/* The text a player writes for a legal move of pos: on numbered boards (International)
 * "32-28" or "26x37", with every landing square ("50x22x11") only when another legal move
 * has the same from and to (PDN 3.0); elsewhere the long form of move_to_text. */
char *move_to_text_in(const Variant *v, const Position *pos, const Rules *rules, const Move *move,
                      char *buf, size_t len);
/* Finds the legal move that text names: long form, short form (from and to only) or any
 * form listing some landing squares in order; a trailing "=K" or "K" is accepted.
 * Returns false with a reason in err (no such move, or ambiguous with the candidates). */
bool move_from_text(const Variant *v, const Position *pos, const Rules *rules, const char *text,
                    Move *move, char *err, size_t errlen);

#endif
