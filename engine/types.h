/* Central types of the engine: every header includes this one and only what else it needs.
 * The engine is a library with no dependency but libc. */
#ifndef DAMA_TYPES_H
#define DAMA_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t Bitboard;

enum Color { WHITE = 0, BLACK = 1 };

/* One position, the same struct for every variant.  Turkish uses all 64 bits
 * (a1 = bit 0, b1 = bit 1, ..., h8 = bit 63).  Game history lives in Game, not here. */
typedef struct Position {
    Bitboard men[2];   /* men of WHITE and BLACK */
    Bitboard kings[2]; /* kings of WHITE and BLACK */
    int side;          /* WHITE or BLACK: the side to move */
} Position;

/* Longest capture we must store: all 16 (Turkish) or 20 (International) enemy pieces. */
#define MAX_JUMPS 20

/* A move: from, to, the captured set and the landing squares.  Two capture paths with the
 * same (from, to, captured) are one move; `path` keeps one of them for printing. */
typedef struct Move {
    Bitboard captured;        /* squares of the pieces taken (empty for a quiet move) */
    uint8_t from, to;         /* square indices */
    uint8_t njumps;           /* number of captures; 0 for a quiet move */
    uint8_t promotes;         /* 1 when a man is crowned by this move */
    uint8_t path[MAX_JUMPS];  /* landing square after each jump; path[njumps-1] == to */
} Move;

/* Room for the legal moves of one position.  Quiet moves: at most 196 in any position (see
 * turkish_movegen.c).  Captures have no proved bound: a search for many distinct capture
 * moves found positions with 486 (tests/test_search.c holds one); 256 was too few.  The
 * generator stops the program rather than drop a move past this limit. */
#define MAX_MOVES 1024

/* Legal moves of a position.  npaths[i] is how many capture paths reach moves[i] (1 for a
 * quiet move): kish and pydraughts count every path, dama counts the move once. */
typedef struct MoveList {
    int count;
    Move moves[MAX_MOVES];
    uint32_t npaths[MAX_MOVES];
} MoveList;

/* Rule options, a plain value.  Each game keeps its own struct of options in these bytes
 * and alone reads them (its rules_default, rules_option, rules_describe in variant.h; the
 * game's header has the struct and its accessors); the rest of the code passes Rules on
 * unread, so a new game adds no field here. */
#define RULES_BYTES 32
typedef struct Rules {
    unsigned char bytes[RULES_BYTES];
} Rules;

typedef struct Variant Variant;
typedef struct Game Game;

#endif
