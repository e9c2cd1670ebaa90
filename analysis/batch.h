/* Batch analysis: many positions searched in parallel, results in input order.
 *
 * Positions come from a text file (one FEN a line), PDN games, or the database (every
 * position of a game, or a deterministic sample of a run).  Each position is searched on its
 * own (no game history) by a searcher cleared first, so with a node limit a result does not
 * depend on the thread that computed it nor on the positions before it.
 *
 * Input readers return an exit code: 0, EXIT 2 (bad input: a file that cannot be read, no
 * such game or run, or with strict a bad line), 1 (database failure) or 130 (list->stop was
 * set), with a message in err (empty when the bad line was already reported).  A file is at
 * most TEXT_FILE_MAX bytes.  Bad lines are reported on the
 * list's error stream as "FILE:LINE: reason" and counted in list->bad. */
#ifndef DAMA_BATCH_H
#define DAMA_BATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "egdb_probe.h"
#include "search.h"
#include "store.h"

typedef struct BatchItem {
    char *id;            /* owned: the "; id" of the line, its line number, or gameG:plyP */
    char *fen;           /* owned: canonical FEN */
    Position pos;
} BatchItem;

typedef struct BatchList {
    BatchItem *items;
    int count, cap;
    int bad;             /* bad input lines (or moves) seen */
    FILE *errors;        /* where bad lines are reported */
    bool strict;         /* stop at the first bad line */
    const atomic_bool *stop; /* Ctrl-C or SIGTERM (may be NULL): reading stops, code 130 */
} BatchList;

/* Which plies of a game to take (sorted or not); n = 0: every ply. */
typedef struct BatchPlies {
    const int *ply;
    int n;
} BatchPlies;

void batch_list_init(BatchList *l, FILE *errors, bool strict);
void batch_list_free(BatchList *l);
/* Appends pos with its id (copied); false when out of memory. */
bool batch_list_add(BatchList *l, const Variant *v, const Position *pos, const char *id);

/* Files are UTF-8 text (a byte-order mark is skipped, CRLF line ends are fine); a NUL byte
 * or invalid UTF-8 anywhere makes the whole file bad input: "FILE:LINE: NUL byte", exit 2,
 * nothing read.  The _text forms read len bytes at text named name (what the files hold). */

/* One position a line: "FEN" or "FEN ; id"; '#' comment lines and blank lines skipped. */
int batch_read_fen_file(BatchList *l, const Variant *v, const char *path, char *err, size_t errlen);
int batch_read_fen_text(BatchList *l, const Variant *v, const char *name, const char *text,
                        size_t len, char *err, size_t errlen);
/* PDN games: [FEN "..."] tags (else the start position) and move text (move numbers,
 * {comments}, (variations), $NAGs, !? marks and results skipped).  Every position of each
 * game, or the selected plies.  A move that is not legal (or a token too long to be one, a
 * FEN tag too long to be one, a tag, comment or variation not closed) is a bad line; the
 * game's positions before it are kept. */
int batch_read_pdn_file(BatchList *l, const Variant *v, const Rules *rules, const char *path,
                        const BatchPlies *plies, char *err, size_t errlen);
int batch_read_pdn_text(BatchList *l, const Variant *v, const Rules *rules, const char *name,
                        const char *text, size_t len, const BatchPlies *plies, char *err,
                        size_t errlen);
/* Every position of a stored game (or the selected plies). */
int batch_add_game(BatchList *l, Store *s, const Variant *v, int64_t game_id,
                   const BatchPlies *plies, char *err, size_t errlen);
/* n positions of run_id's games sampled by a hash of (game, ply, seed): the same n
 * positions every time, in game and ply order; n <= 0 = every position. */
int batch_add_run_sample(BatchList *l, Store *s, const Variant *v, int64_t run_id, int64_t n,
                         uint64_t seed, char *err, size_t errlen);

typedef struct BatchResult {
    char best[128];      /* best move, "" when there is no legal move */
    char *pv;            /* owned, space-separated; "" when none */
    int score, depth;
    uint64_t nodes;
    int64_t time_ms;
    bool done;
} BatchResult;

typedef struct BatchConfig {
    const Variant *variant;
    Rules rules;
    const Weights *weights;
    SearchLimits limits;
    int threads;         /* <= 0: all cores */
    size_t hash_mb;      /* per thread */
    bool progress;       /* "analyze i/n" on stderr */
    const atomic_bool *stop; /* may be NULL */
    Egdb *egdb;          /* endgame databases every searcher probes (NULL: none) */
} BatchConfig;

/* Searches every item (OpenMP, one searcher per thread); *out gets l->count results (free
 * with batch_results_free).  Returns false when out of memory (err); *interrupted is set
 * when stop was raised (some results are then not done). */
bool batch_run(const BatchConfig *cfg, const BatchList *l, BatchResult **out, bool *interrupted,
               char *err, size_t errlen);
void batch_results_free(BatchResult *r, int n);

/* CSV columns: id, fen, bestmove, score (text: 35, -120, win7, loss4), score_num (the same
 * as an integer: hundredths of a man from the side to move, or +-(30000 - plies) for a
 * forced result), depth, nodes, time_ms, pv.  path NULL = stdout. */
extern const char *const batch_csv_columns[];
#define BATCH_CSV_NCOLUMNS 9
bool batch_write_csv(const BatchList *l, const BatchResult *r, const char *path, char *err,
                     size_t errlen);
/* The results as one 'analysis' run and its rows, in one transaction: the run id or -1. */
int64_t batch_store(Store *s, const Variant *v, const BatchList *l, const BatchResult *r, const char *params,
                    const char *engine_version, const char *bench_signature, int64_t weights_id,
                    int64_t started_at);

#endif
