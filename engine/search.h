/* Iterative-deepening alpha-beta search.  A Searcher is a value one thread owns: several
 * searches run at once (self-play, batch analysis) with no shared mutable state.  One search
 * may itself use several threads (searcher_set_threads, Lazy SMP): helper searchers the
 * Searcher owns share its transposition table while its own thread decides the move. */
#ifndef DAMA_SEARCH_H
#define DAMA_SEARCH_H

#include <stdatomic.h>
#include <stddef.h>

#include "evaluate.h"
#include "types.h"
#include "weights.h"

#define MAX_PLY 128
/* The deepest iteration a search runs (the tree needs a ply beyond it): the bound of every
 * depth a user may ask for (cli_option_search_limit, Hub's depth, the server's level). */
#define SEARCH_DEPTH_MAX (MAX_PLY - 2)
/* Scores: hundredths of a man; a win in n plies scores SCORE_WIN - n. */
#define SCORE_WIN 30000
#define SCORE_WIN_BOUND (SCORE_WIN - 1000) /* |score| above this is a forced result */
#define SCORE_INF 32000
/* An endgame database's win (search_probe_score): below every forced result, above every
 * evaluation.  |score| above SCORE_EGDB_BOUND is a database result or a forced one. */
#define SCORE_EGDB_WIN 20000
#define SCORE_EGDB_BOUND (SCORE_EGDB_WIN - 2000)
#define STOP_POLL_NODES 4096
/* The most search threads one search may use (searcher_set_threads). */
#define SEARCH_THREADS_MAX 64

/* Time: movetime_ms is a hard limit, checked inside the search every 1024 nodes.  An
 * iteration it cuts short is not lost: once that iteration has searched the first root move
 * (the previous best) its best root move so far is the answer, since every move it has
 * searched was searched to the new depth.  So without soft_ms the search runs until
 * movetime_ms.  soft_ms, when set, is a target: after each iteration the next one's time is
 * predicted from the growth per iteration (the square root of the last iteration's nodes
 * over those of the one two before it: odd and even depths grow differently), and it is not
 * started when it would end after soft_ms.  Node and depth limits are
 * exact and deterministic: a search cut by nodes keeps its last completed iteration.
 * With more than one thread (searcher_set_threads) nodes counts the nodes of every thread,
 * read every 1024 nodes, and no search is reproducible: the threads' timing decides what
 * the shared table holds when. */
typedef struct SearchLimits {
    int depth;          /* maximum iteration depth; 0 = none (SEARCH_DEPTH_MAX) */
    uint64_t nodes;     /* stop after this many nodes; 0 = none (deterministic) */
    int movetime_ms;    /* hard limit of wall time; 0 = none */
    int soft_ms;        /* start no iteration predicted to end after this; 0 = none */
} SearchLimits;

/* What one completed iteration found (also the final result). */
typedef struct SearchInfo {
    int depth;
    int score;          /* from the side to move */
    uint64_t nodes;
    double seconds;
    int pv_length;
    Move pv[MAX_PLY];
    bool interrupted;   /* cut short by the stop request: the result may be incomplete */
    bool partial;       /* the move and score come from iteration depth + 1, which the time
                           limit cut after it had searched some root moves */
    uint64_t egdb_probes; /* endgame database look-ups (SearchProbe) in the whole search */
    uint64_t egdb_hits;   /*   of them answered with a value */
} SearchInfo;

typedef void (*SearchReport)(void *ctx, const SearchInfo *info);

/* An endgame database the search may consult, filled by the room that owns it
 * (egdb_search_attach in egdb/; the engine knows no files).  probe returns the value of pos
 * for its side to move, one of the SEARCH_PROBE_* values, with perfect play to the end the
 * rules give *without* their move-count draws (docs/egdb.md).  Searched positions with at
 * most max_pieces pieces are probed, at every node but the root.  probe NULL: none. */
enum { SEARCH_PROBE_UNKNOWN = -1, SEARCH_PROBE_DRAW = 0, SEARCH_PROBE_WIN = 1, SEARCH_PROBE_LOSS = 2 };
typedef struct SearchProbe {
    int (*probe)(void *ctx, const Position *pos);
    void *ctx;
    int max_pieces;
} SearchProbe;

typedef struct TTEntry TTEntry;
typedef struct PlyMoves PlyMoves;

typedef struct Searcher {
    const Variant *variant;
    Rules rules;
    const Weights *weights;
    TTEntry *tt;                 /* transposition table, tt_mask + 1 entries */
    size_t tt_mask;
    Move killers[MAX_PLY][2];
    int32_t history[64][64];     /* from, to: a quiet move's record of proving best, +-2^14 */
    /* The quiet reply (from << 8 | to, 0 for none) that last refuted a move (its from, to),
     * and the move (from << 8 | to) played at each ply of the path. */
    uint16_t counter_moves[64][64];
    uint16_t path_moves[MAX_PLY];
    /* The singular extension's test (search.c, step 4c) searches a node again without its
     * table move: that move (as the table names it: from, to, captured hash) per ply, and
     * the depth of the iteration, whose double bounds the plies it extends. */
    struct { bool on; uint8_t from, to; uint16_t captured; } excluded[MAX_PLY];
    int iteration_depth;
    /* Keys of the game before the root (since the last capture) then of the search path:
     * repetition needs both. */
    uint64_t keys[MAX_PLY + 256];
    int game_keys;               /* how many of keys are game history */
    uint64_t nodes;
    SearchProbe egdb;            /* none by default (searcher_new); searcher_clear keeps it */
    uint64_t egdb_probes, egdb_hits;
    SearchLimits limits;
    double start_time;
    bool stopped;
    bool may_stop;               /* false during the first iteration */
    bool out_of_time;            /* the stop came from limits.movetime_ms */
    int root_moves_done;         /* root moves searched to the full depth this iteration */
    int root_score;              /* the best of them */
    /* Ctrl-C or SIGTERM (may be NULL): polled every STOP_POLL_NODES nodes, even in the first
     * iteration, so that a deep search ends within milliseconds of the request. */
    const atomic_bool *stop_request;
    /* Self-play variety: when noise > 0, every leaf evaluation gets a fixed pseudo-random
     * offset in [-noise, noise] drawn from (position, noise_seed), so a game differs from
     * its twin yet stays reproducible.  0 (the default) for analysis, bench and matches. */
    int noise;
    uint64_t noise_seed;
    /* Plies the root position's endgame count has run (Game.endgame_plies; 0 for a position
     * given alone): the tree goes on counting the 16- and 5-move draws of International. */
    int root_endgame_plies;
    PlyMoves *ply_moves;         /* MAX_PLY move lists and ordering keys, off the stack */
    /* The incremental evaluation state of the position at each ply of the path: the root's
     * read from scratch, every child's from its parent's and the move (evaluate.h). */
    EvalInc *eval_inc;
    /* A check for tests and debugging (as an engine asserts its board after every move):
     * when set, every node compares its incremental evaluation with evaluate() from
     * scratch, counting the comparisons and the differences (which must stay 0). */
    bool check_eval;
    uint64_t eval_checks, eval_mismatches;
    Move pv_table[MAX_PLY][MAX_PLY];
    int pv_length[MAX_PLY];
    /* Lazy SMP: threads - 1 helper searchers, each with its own ordering tables and stacks
     * and this one's table (owns_tt false), run while search() runs and stop when it ends.
     * A helper's stop_request is its owner's helpers_stop; it publishes its node count
     * every 1024 nodes in published_nodes for its owner's node limit and totals. */
    int threads;                 /* 1 (searcher_new's default): this thread alone */
    struct Searcher **helpers;
    bool owns_tt;
    bool is_helper;
    atomic_bool helpers_stop;
    _Atomic uint64_t published_nodes;
} Searcher;

/* Creates a searcher with a transposition table of about tt_megabytes (a power of two
 * entries); NULL when out of memory.  weights must outlive it. */
Searcher *searcher_new(const Variant *v, const Rules *rules, const Weights *w, size_t tt_megabytes);
void searcher_free(Searcher *s);
/* Forgets everything learned (TT, killers, history): the next search is as if new. */
void searcher_clear(Searcher *s);
/* Sets how many threads search() uses, 1..SEARCH_THREADS_MAX (1: exactly the single-threaded
 * search, deterministic); false (threads unchanged) when out of memory or out of range. */
bool searcher_set_threads(Searcher *s, int threads);

/* Searches pos.  history: keys of the positions before it since the last capture (oldest
 * first, may be NULL/0), needed for repetition draws.  Calls report after each completed
 * iteration (may be NULL).  Returns the result of the last completed iteration; its pv[0]
 * is the best move (pv_length 0 only when there is no legal move). */
SearchInfo search(Searcher *s, const Position *pos, const uint64_t *history, int nhistory,
                  const SearchLimits *limits, SearchReport report, void *ctx);

/* Score text: "35", "-120", "win7" (wins in 7 plies), "loss4". */
char *score_to_text(int score, char *buf, size_t len);

#endif
