/* Writing PDN 3.0 text: a game's tags, then its moves with move numbers in the short form
 * (the landing squares only where the short form names two moves), its comments,
 * variations and NAGs where they were read, and its result. */
#ifndef DAMA_PDN_WRITE_H
#define DAMA_PDN_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "store.h"

typedef struct PdnGameOut {
    const Variant *variant;
    const Rules *rules;
    const Position *start;
    bool setup;                 /* write the FEN tag: the game starts from another position */
    const char *moves;          /* the long form, space-separated, as the database keeps it */
    int result;                 /* enum Result; RESULT_NONE is written "*" */
    const StorePdnTag *tags;    /* Result, GameType and FEN among them are not written */
    int ntags;
    const StorePdnNote *notes;  /* in ply order */
    int nnotes;
} PdnGameOut;

/* The tags written first, in this order ("?" when a game has none), then Result, GameType
 * and FEN, then the game's other tags in their order. */
extern const char *const pdn_roster_tags[];
#define PDN_ROSTER_COUNT 6

/* Writes one game and a blank line after it.  false with the reason in err when a stored
 * move is not legal (a damaged database) or out of memory; the caller judges the stream. */
bool pdn_write_game(FILE *f, const PdnGameOut *g, char *err, size_t errlen);

#endif
