/* A PDN game read against a variant's rules: its start position (the GameType and FEN
 * tags) and its moves, one at a time, with the problem in words when one is wrong.  What
 * batch analysis and `dama pdn import` share; the syntax is pdn_read.h's. */
#ifndef DAMA_PDN_GAME_H
#define DAMA_PDN_GAME_H

#include <stdbool.h>

#include "pdn_read.h"
#include "types.h"

/* What is wrong, for "FILE:LINE: game N: what: why". */
typedef struct PdnProblem {
    long line;
    char what[600];
    char why[512];
} PdnProblem;

/* The longest FEN tag read; a longer one is refused, never cut. */
#define PDN_VALUE_MAX 511

/* The start of the game for v: the FEN tag's position (a trailing dot accepted), else the
 * variant's start; refused when GameType names another game or the FEN is bad.  *fen_given
 * (may be NULL) says whether a FEN tag set it up. */
bool pdn_game_start(const Variant *v, const PdnGame *g, Position *pos, bool *fen_given, PdnProblem *p);

/* The legal move of pos that a PDN_MOVE item names, into *m. */
bool pdn_game_move(const Variant *v, const Rules *rules, const Position *pos, const PdnItem *it,
                   Move *m, PdnProblem *p);

/* The legal moves of pos that a PDN_MOVE item names, at most max into out: how many (more
 * than one when its short form is ambiguous: "36x16" for two capture paths). */
int pdn_game_candidates(const Variant *v, const Rules *rules, const Position *pos, const PdnItem *it,
                        Move *out, int max);

#endif
