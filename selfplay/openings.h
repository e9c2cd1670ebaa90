/* Where games start: positions from a file, or random legal plies filtered for balance. */
#ifndef DAMA_OPENINGS_H
#define DAMA_OPENINGS_H

#include <stdatomic.h>
#include <stddef.h>

#include "search.h"

/* About 80 000 positions, far more than a match or a training run can use: every position
 * is also written into the run's identity (run_settings_identity), which for a book of
 * this size takes a third of a second and must stay short enough not to delay a Ctrl-C. */
#define OPENINGS_FILE_MAX ((size_t)8 << 20)

typedef struct OpeningBook {
    Position *positions;
    int count;
} OpeningBook;

/* Reads one position a line (FEN, optionally followed by "; comment"); '#' lines and blank
 * lines are skipped.  The file is text as engine/text_input.h says (a byte-order mark
 * skipped, CRLF accepted, NUL bytes and invalid UTF-8 refused).  A bad line, or a position
 * where the game is already over under rules, is an error naming the file and line. */
/* At most OPENINGS_FILE_MAX bytes; reading and parsing stop when *stop is set (Ctrl-C,
 * SIGTERM; may be NULL), with "PATH: interrupted while reading". */
bool openings_load(OpeningBook *book, const Variant *v, const Rules *rules, const char *path,
                   const atomic_bool *stop, char *err, size_t errlen);
void openings_free(OpeningBook *book);

/* plies random legal moves from the start position, drawn from seed; redrawn (up to a
 * bound) until a short search with probe scores it within +-balance hundredths of a man
 * and the game is not already over.  Deterministic for a given seed and probe weights. */
void opening_random(const Variant *v, const Rules *rules, int plies, uint64_t seed,
                    Searcher *probe, int balance, Position *out);

#endif
