/* The opening explorer: for one position, the moves the stored games played from it, with
 * their games, results and average search score (docs/book.md). */
#ifndef DAMA_EXPLORER_H
#define DAMA_EXPLORER_H

#include "move_stats.h"
#include "store.h"

typedef struct Explorer {
    MoveStats *moves;   /* most games first (move_stats_collect's order) */
    int nmoves;
    int games;          /* distinct games that left the position */
    int unmatched;      /* games whose next position no legal move reaches (other rules) */
} Explorer;

/* The games of variant v in s that reached pos; false with the reason in err. */
bool explorer_query(Store *s, const Variant *v, const Rules *rules, const Position *pos, Explorer *out,
                    char *err, size_t errlen);
void explorer_free(Explorer *e);

/* A move's results from White's view (the counts are kept from the mover's). */
static inline int explorer_white_wins(const Position *pos, const MoveStats *m)
{
    return pos->side == WHITE ? m->wins : m->losses;
}
static inline int explorer_black_wins(const Position *pos, const MoveStats *m)
{
    return pos->side == WHITE ? m->losses : m->wins;
}

#endif
