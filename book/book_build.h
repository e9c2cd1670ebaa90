/* Building an opening book from the games of a database (docs/book.md). */
#ifndef DAMA_BOOK_BUILD_H
#define DAMA_BOOK_BUILD_H

#include "book_file.h"
#include "store.h"

typedef struct BookBuildOptions {
    const Variant *variant;
    int min_games;   /* a position, and a move, needs at least this many games */
    int margin;      /* a move stays when its average score is within this of the best's */
    int max_ply;     /* positions up to this ply of their games (0: every ply) */
} BookBuildOptions;

/* What the build saw, for its report. */
typedef struct BookBuildStats {
    int64_t positions_seen;  /* rows with a next position in the same game */
    int64_t distinct;        /* distinct positions among them */
    int64_t unmatched;       /* next positions no legal move under the default rules reaches */
} BookBuildStats;

/* Every game of the variant in s (any run, any status): each position up to max_ply with
 * the position after it.  false with the reason in err. */
bool book_build(Store *s, const BookBuildOptions *opt, Book *out, BookBuildStats *stats, char *err,
                size_t errlen);
/* `dama book build`: book_build of the database at db_path (opened read-only), written to
 * out_path.  True with the book in *out (free with book_free); false with err the line that
 * says why ("book build: DB: why" when the build fails) and nothing to free. */
bool book_build_file(const char *db_path, const BookBuildOptions *opt, const char *out_path, Book *out,
                     BookBuildStats *stats, char *err, size_t errlen);

#endif
