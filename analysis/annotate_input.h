/* Annotated games, their input: the games of a PDN file, a stored game or a run's games.
 * Each returns 0, 2 (bad input: a file that cannot be read or holds a bad move, no such
 * game or run; "FILE:LINE: game N: what: why" in err), 1 (a database failure or out of
 * memory) or 130 (stop was raised while reading). */
#ifndef DAMA_ANNOTATE_INPUT_H
#define DAMA_ANNOTATE_INPUT_H

#include <stdatomic.h>

#include "annotate.h"

typedef struct AnnotateGames {
    AnnotateGame *games;
    int n, cap;
} AnnotateGames;

void annotate_games_free(AnnotateGames *gs);

/* Every game of the file, up to the first bad one (which makes it 2). */
int annotate_read_pdn_file(AnnotateGames *gs, const Variant *v, const Rules *rules, const char *path,
                           const atomic_bool *stop, char *err, size_t errlen);
/* g's start (setup set when it is not the variant's start) and moves from the long-form
 * moves of the database (space-separated); false with the reason in err when a move is not
 * legal there or out of memory. */
bool annotate_game_moves(const Variant *v, const Rules *rules, const Position *start, const char *moves,
                         AnnotateGame *g, char *err, size_t errlen);
/* A stored game, with its PDN tags. */
int annotate_add_stored(AnnotateGames *gs, Store *s, const Variant *v, const Rules *rules, int64_t game_id,
                        char *err, size_t errlen);
/* Every game of run_id of the variant, in the run's order. */
int annotate_add_run(AnnotateGames *gs, Store *s, const Variant *v, const Rules *rules, int64_t run_id,
                     char *err, size_t errlen);

#endif
