/* Balanced start positions from an opening book, for self-play and matches (docs/book.md). */
#ifndef DAMA_BOOK_OPENINGS_H
#define DAMA_BOOK_OPENINGS_H

#include <stdio.h>

#include "book_file.h"
#include "openings.h"

/* The book's positions at ply whose best move scores within +-margin (in book order, by
 * key): start positions in which neither side is known to stand better by more than the
 * margin.  *out is malloc'd (NULL when none); returns how many, -1 when memory runs out. */
int book_balanced(const Book *b, int ply, int margin, Position **out);
/* The same positions as an openings file on out ("FEN ; ply P games G score S" a line,
 * what `dama book openings` prints); returns how many, -1 when memory runs out. */
int book_balanced_write(const Book *b, int ply, int margin, FILE *out);

/* Reads the book at path (of variant v) and keeps its balanced positions at ply, within
 * the book's own margin, as openings.  false with "PATH: why" in err, also when there is
 * no such position. */
bool book_openings_load(OpeningBook *ob, const Variant *v, const char *path, int ply, const atomic_bool *stop,
                        char *err, size_t errlen);

#endif
