/* An opening book: positions by key with the moves that stay in the book, written as a
 * small text file with a checked header (docs/book.md has the format).
 *
 * A file is read whole and checked before any of it is used: the header, the checksum of
 * the body, every line's fields, every position's key against its FEN, every move's
 * legality.  A corrupted or truncated file is refused with its name (and the line). */
#ifndef DAMA_BOOK_FILE_H
#define DAMA_BOOK_FILE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "move_stats.h"

/* Version 1: books from games.  Version 2 adds the source line (games or search) and a
 * search book's options; both are read, a games book is written as version 1 unless it
 * was read as version 2 (a file round trips byte for byte). */
#define BOOK_FORMAT_VERSION 2
/* A larger file is refused: about a million moves. */
#define BOOK_FILE_MAX ((size_t)64 << 20)

typedef struct BookPosition {
    uint64_t key;          /* position_key(&pos) */
    Position pos;
    int ply;               /* the fewest plies from a game's start it was seen at */
    int games;             /* distinct games that played a move from it (0: a search book) */
    int first, nmoves;     /* its moves: Book.moves[first .. first + nmoves - 1] */
} BookPosition;

/* Where a book's moves come from. */
enum BookSource {
    BOOK_SOURCE_GAMES,     /* book build: counted from a database's games */
    BOOK_SOURCE_SEARCH     /* book expand: searched (no games; book_expand.h) */
};

/* What a search book was built with: its resume must use the same (book_expand.h). */
typedef struct BookSearchParams {
    uint64_t nodes;        /* each position's search, nodes */
    int full_plies;        /* every position before this ply expanded */
    int max_ply;           /* no leaf at this ply or beyond expanded */
    uint64_t weights;      /* weights_hash of the evaluation's weights */
} BookSearchParams;

typedef struct Book {
    const Variant *variant;
    int version;           /* the file's format: 1 or 2 (0 when built: the lowest that holds it) */
    int source;            /* enum BookSource; a version 1 file is games */
    int min_games;         /* the build's --min-games (0 for a search book) */
    int margin;            /* the build's --margin, hundredths of a man */
    BookSearchParams search; /* BOOK_SOURCE_SEARCH only */
    BookPosition *positions; /* ascending key */
    int npositions;
    MoveStats *moves;      /* each position's, best score first; a search book lists every
                              legal move, best first, then by text, games 0, nscores 1 */
    int nmoves;
} Book;

/* How the engine picks among a position's book moves. */
enum BookChoice {
    BOOK_BEST,             /* the best average score (the first listed) */
    BOOK_WEIGHTED          /* at random, weighted by games, drawn from a seed; in a search
                              book uniformly among the moves within its margin of the best */
};

/* Writes the book to path (through a temporary file renamed into place).  false with
 * "PATH: why" in err. */
bool book_write(const Book *b, const char *path, char *err, size_t errlen);
/* The file's bytes into a malloc'd buffer (*text, *len): what book_write writes. */
bool book_format(const Book *b, char **text, size_t *len);
/* Reads and checks the file at path; stop (may be NULL) interrupts the read.  false with
 * "PATH: why" or "PATH:LINE: why" in err and *b empty. */
bool book_read(Book *b, const char *path, const atomic_bool *stop, char *err, size_t errlen);
/* The same from bytes in memory; name is used in the messages. */
bool book_parse(Book *b, const char *name, const char *text, size_t len, char *err, size_t errlen);
void book_free(Book *b);
/* The checksum line's value: FNV-1a 64 of the header above that line, then the body. */
uint64_t book_checksum(const char *header, size_t header_len, const char *body, size_t body_len);

/* The book's entry for pos, or NULL. */
const BookPosition *book_find(const Book *b, const Position *pos);
/* The book move for pos (legal under rules) by choice; seed draws a weighted one.  false
 * when pos is not in the book or none of its moves is legal under rules. */
bool book_choose(const Book *b, const Position *pos, const Rules *rules, int choice, uint64_t seed,
                 Move *out);

#endif
