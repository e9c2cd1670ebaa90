/* Reading PDN text: the tokenizer and parser that batch analysis (batch_input.c) and
 * `dama pdn import` share.  It knows PDN 3.0's syntax only (the standard's reading grammar:
 * tags, move numbers, moves, comments, variations, NAGs, move strengths, setups, results);
 * the rules of a game are the caller's.
 *
 * A game is its tags and its move text in order, each piece with the line it is on.  The
 * parser hands each game to a callback as soon as it ends (at its result or '*', at a tag
 * after moves, at the end of the text: a game without a result is a game like another);
 * a syntax error (a tag, comment or variation not closed) ends the current game with
 * `syntax` set and stops the reading, since nothing after it can be trusted.
 *
 * What files in the wild write and the reading grammar allows is read too: a move split by
 * blanks after its separator ("1- 6", "35x 4", Dutch files align one-digit squares so), an
 * ellipsis for a move number's dots ("1. ... 7-12", "77. ... *"), ':' as the capture
 * separator, a leading zero ("06-11"), chess results (1-0 0-1 1/2-1/2) and 0-0. */
#ifndef DAMA_PDN_READ_H
#define DAMA_PDN_READ_H

#include <stdbool.h>
#include <stddef.h>

#include <stdatomic.h>

/* A move text longer than this cannot be a move (checked by the callers). */
#define PDN_TOKEN_MAX 127
/* The bound of one game read from a file (its tags, moves, comments and the blank text
 * before it): a longer one ends the reading with an error, so a file that is no PDN (or
 * /dev/zero) cannot take the memory; a file may hold any number of games. */
#define PDN_GAME_MAX_BYTES ((size_t)1 << 20)

typedef struct PdnTag {
    char *name, *value;   /* value with its escapes undone */
    size_t value_len;
    long line;            /* the line of the closing ']' */
} PdnTag;

enum PdnItemKind {
    PDN_MOVE,             /* a move (its number and !? marks taken off) */
    PDN_COMMENT,          /* "{...}", braces included */
    PDN_VARIATION,        /* "(...)", parentheses included */
    PDN_NAG,              /* "$3" */
    PDN_MARK,             /* the "!", "?!", "(!?)" ... a move carried (after the move item) */
    PDN_SETUP             /* "/FEN "W:..."/": a position set up in the move text */
};

/* Items point into the text read: valid during the callback only. */
typedef struct PdnItem {
    int kind;             /* enum PdnItemKind */
    const char *text;     /* len bytes; not NUL-terminated; a move split by blanks ("1- 6")
                             keeps them: pdn_game_move reads it without */
    size_t len;
    const char *raw;      /* PDN_MOVE: the whole token, move number included */
    size_t raw_len;
    long line;
} PdnItem;

typedef struct PdnGame {
    long number;          /* 1, 2, ... in the file */
    long line;            /* the line of its first tag or move */
    PdnTag *tags;
    int ntags;
    PdnItem *items;
    int nitems;
    int nmoves;           /* PDN_MOVE items */
    char result[16];      /* the result token ("2-0", "1/2-1/2", "*"); "" = none */
    long result_line;
    /* A syntax error ends the game here: "FILE:LINE: game N: what: why". */
    bool syntax;
    long syntax_line;
    const char *syntax_what, *syntax_why;
} PdnGame;

/* Called once a game; a non-zero return stops the reading and is pdn_read_text's result. */
typedef int (*PdnGameFn)(void *ctx, const PdnGame *game);

/* What the readers return besides 0 and the callback's code (callbacks return 0 to go on,
 * 1 or 2 to stop). */
enum {
    PDN_READ_OOM = 1,          /* out of memory (err set) */
    PDN_READ_BAD_INPUT = 2,    /* the file cannot be read, is no text, or a game is longer
                                  than PDN_GAME_MAX_BYTES: "FILE[:LINE]: why" in err */
    PDN_READ_STOPPED = 130     /* *stop was set (Ctrl-C, SIGTERM) */
};

/* Reads the games of len bytes at text (text_prepare already applied by the caller).
 * Returns 0, the callback's non-zero code, or PDN_READ_OOM (err set). */
int pdn_read_text(const char *text, size_t len, PdnGameFn fn, void *ctx, char *err, size_t errlen);

/* Reads the games of the file at path piece by piece: the memory it takes is bounded by
 * PDN_GAME_MAX_BYTES, whatever the file's size.  Each piece is checked to be text as
 * text_prepare does (a BOM at the start skipped).  stop (may be NULL) is looked at between
 * pieces and games and at least every 0.1 s while a pipe or FIFO gives nothing.  Returns 0,
 * the callback's code, or one of PDN_READ_*. */
int pdn_read_file(const char *path, PdnGameFn fn, void *ctx, const atomic_bool *stop, char *err,
                  size_t errlen);
/* The same, reading at most piece bytes at a time (pdn_read_file: 64 KiB): the games do
 * not depend on it, which the tests check with pieces of a few bytes. */
int pdn_read_file_pieces(const char *path, size_t piece, PdnGameFn fn, void *ctx, const atomic_bool *stop,
                         char *err, size_t errlen);

/* The tag called name (case-insensitive), the last one when repeated; NULL when none. */
const PdnTag *pdn_tag_find(const PdnGame *game, const char *name);

/* The number GameType gives ("20" or in full "20,W,10,10,N2,0"); -1 when it is no number. */
int pdn_gametype_number(const char *value);

/* The result a token names: enum Result (RESULT_NONE for "*" and unknown tokens). */
int pdn_result_from_text(const char *text);
/* The PDN 3.0 text of a result: "2-0", "0-2", "1-1", or "*" for RESULT_NONE. */
const char *pdn_result_text(int result);

#endif
