/* The legal moves of a position as sorted text: what `dama moves` and `dama position`
 * print, and what a script compares against another generator. */
#ifndef DAMA_MOVE_TEXTS_H
#define DAMA_MOVE_TEXTS_H

#include "types.h"

typedef struct MoveTexts {
    char (*items)[128];
    int count, cap;
} MoveTexts;

/* The legal moves of pos as a player writes them (the short form where it names one move),
 * or with paths every capture path in the long form, sorted by strcmp.  A text that finds
 * no memory is left out. */
MoveTexts legal_move_texts(const Variant *v, const Position *pos, const Rules *rules, bool paths);
void move_texts_free(MoveTexts *t);

#endif
