/* Annotated games: each move's score before and after, the score it lost, a mark by that
 * loss (?!, ?, ??) and the best alternative with its line, as lichess shows after a game.
 *
 * Every position of a game is searched on its own (batch.h, so --nodes is deterministic
 * whatever the threads).  For the move from P(i) to P(i+1), from the mover's view:
 *   before = score(P(i)), after = -score(P(i+1)),
 *   loss = clamp(before) - clamp(after) (0 when negative), clamp to [-cap, cap],
 * so that in a position already lost (or won) by more than cap nothing is marked.  A move
 * is marked only when it is not the search's best move and not the only legal move. */
#ifndef DAMA_ANNOTATE_H
#define DAMA_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>

#include "batch.h"
#include "store.h"

/* Hundredths of a man (docs/annotate.md). */
typedef struct AnnotateThresholds {
    int inaccuracy, mistake, blunder; /* the least loss of ?!, ? and ?? */
    int cap;                          /* scores count up to +-cap */
} AnnotateThresholds;

extern const AnnotateThresholds annotate_thresholds_default; /* 50, 100, 200, cap 500 */

enum AnnotateMark { MARK_NONE, MARK_INACCURACY, MARK_MISTAKE, MARK_BLUNDER };

/* The score lost by a move from before to after (both from the mover's view). */
int annotate_loss(const AnnotateThresholds *t, int before, int after);
/* The mark of a move; MARK_NONE for the best move or the only legal move. */
int annotate_mark(const AnnotateThresholds *t, int before, int after, bool best_played, bool only_move);
const char *annotate_mark_text(int mark); /* "", "?!", "?", "??" */
const char *annotate_mark_nag(int mark);  /* "", "$6", "$2", "$4" (PDN's NAGs) */

/* A game to annotate: owned fields, freed by annotate_game_free. */
typedef struct AnnotateGame {
    char *id;                 /* the database's game id, or the game's number in a file */
    Position start;
    bool setup;               /* started from another position than the variant's start */
    Move *moves;
    int nmoves;
    int result;               /* enum Result */
    StorePdnTag *tags;
    int ntags;
} AnnotateGame;

typedef struct AnnotatedMove {
    int ply;                  /* 1 = the game's first move */
    int mover;                /* WHITE or BLACK */
    char move[128];           /* short form */
    int before, after, loss, mark;
    bool only_move, best_played;
    char best[128];           /* the search's best move in P(i), short form ("" if none) */
    char *line;               /* owned: its line (the PV), short form */
} AnnotatedMove;

void annotate_game_free(AnnotateGame *g);
void annotated_moves_free(AnnotatedMove *m, int n);

/* The positions of the games, each P(0)..P(nmoves) in order, ids "gameID:plyP". */
bool annotate_positions(const Variant *v, const AnnotateGame *games, int ngames, BatchList *out);

/* The annotation of game g from the results of its positions (nmoves + 1 of them, as
 * annotate_positions lists them).  *out gets g->nmoves moves; false when out of memory. */
bool annotate_game(const Variant *v, const Rules *rules, const AnnotateThresholds *t,
                   const AnnotateGame *g, const BatchResult *r, AnnotatedMove **out);

/* The PDN notes of an annotation: after each move its NAG (when marked) and a comment
 * "{before -> after}" or, when marked, "{before -> after; best MOVE: LINE}".  *out gets
 * the notes (free each text, then the array); false when out of memory. */
bool annotate_notes(const AnnotatedMove *m, int n, StorePdnNote **out, int *nout);
void annotate_notes_free(StorePdnNote *notes, int n);

/* CSV columns (docs/csv.md): game_id, ply, move, mover, score_before, score_after, loss,
 * mark, best_move, best_line. */
extern const char *const annotate_csv_columns[];
#define ANNOTATE_CSV_NCOLUMNS 10

#endif
