/* Why a move a person tried is refused, in words and in squares: what a board in the
 * browser or the terminal shows next to the refusal (a capture is compulsory, the most
 * pieces must be taken, which pieces may move). */
#ifndef DAMA_MOVE_CHECK_H
#define DAMA_MOVE_CHECK_H

#include <stddef.h>
#include "types.h"

enum MoveRefusal {
    REFUSAL_NONE = 0,            /* the move is legal: MoveCheck.move holds it */
    REFUSAL_SYNTAX,              /* the text names no squares joined by '-' or 'x' */
    REFUSAL_NOT_YOUR_PIECE,      /* no piece of the side to move on the first square */
    REFUSAL_CAPTURE_COMPULSORY,  /* a capture is legal, so a quiet move (or this piece) is not */
    REFUSAL_MAXIMUM_CAPTURE,     /* this piece captures, but not the most pieces */
    REFUSAL_NO_SUCH_MOVE,        /* the piece cannot go there */
    REFUSAL_AMBIGUOUS,           /* several legal moves fit the text: name a landing square */
    REFUSAL_NO_MOVES,            /* the side to move has no legal move (the game is over) */
    REFUSAL_COUNT
};

typedef struct MoveCheck {
    int refusal;               /* enum MoveRefusal */
    Move move;                 /* the legal move when refusal is REFUSAL_NONE */
    char reason[256];          /* one sentence for a person; empty when legal */
    Bitboard movable;          /* the pieces that have a legal move (those that can capture
                                  the most, when a capture is compulsory) */
    Bitboard targets;          /* where the piece named first can legally go */
    int capture_count;         /* pieces every legal move takes (0: no capture is legal) */
} MoveCheck;

/* Checks the move named by text (any form move_from_text reads) in pos; returns true when
 * it is legal.  Either way *check says what may be played instead. */
bool move_check_text(const Variant *v, const Position *pos, const Rules *rules, const char *text,
                     MoveCheck *check);
/* Stable names for JSON and tests: "capture-compulsory", "maximum-capture", ... */
const char *move_refusal_name(int refusal);

#endif
