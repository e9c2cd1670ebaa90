/* What was played from one position: the games that left it, grouped by the move that
 * leads to the position that followed, with each move's results and search scores.  The
 * book builder and the opening explorer both count this way (docs/book.md). */
#ifndef DAMA_MOVE_STATS_H
#define DAMA_MOVE_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "move.h"

/* One game leaving the position: the position after its move, the game's result and the
 * search score stored with that position (from its side to move: the opponent's). */
typedef struct MoveSample {
    Position next;
    int64_t game_id;
    int result;       /* enum Result */
    int score;        /* valid when has_score */
    bool has_score;
} MoveSample;

/* One move's figures, from the view of the side that plays it. */
typedef struct MoveStats {
    Move move;
    int games;        /* distinct games that played it */
    int wins, draws, losses;
    int nscores;      /* games whose next position has a score */
    int score;        /* their average, rounded to nearest (valid when nscores > 0) */
    char text[96];    /* the move as a player writes it (move_to_text_in) */
} MoveStats;

/* Groups n samples (reordered in place) of the games leaving pos by the legal move (under
 * rules) that leads to each next position.  A game counts once per move even when it
 * passed the position twice, with its first sample in the samples' order (the book gives
 * a game's passes in ply order).  Writes at most max entries into out, ordered by games
 * (most first), then score (best first), then the move's text; returns how many
 * (-1 when memory runs out).
 * *unmatched (may be NULL) gets the samples no legal move leads to (a game under other
 * rules): they are left out.  Scores beyond the forced-result bound count as that bound,
 * so one found win cannot swamp an average. */
int move_stats_collect(const Variant *v, const Rules *rules, const Position *pos, MoveSample *samples,
                       int n, MoveStats *out, int max, int *unmatched);

/* Distinct game ids among n (sorted in place). */
int move_stats_distinct_games(int64_t *ids, int n);

#endif
