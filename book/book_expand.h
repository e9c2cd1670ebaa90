/* An opening book grown by search from the start position: drop-out expansion (after
 * Lincke), simplified (docs/book.md, "dama book expand").
 *
 * The tree (a DAG: a position reached twice is one node) holds leaves, each with the score
 * of a fixed-node search, and expanded nodes, whose every legal move leads to a child;
 * an expanded node's value is the negamax of its children's.  Each step expands the leaf
 * whose path from the root gives up the least (the sum over its moves of what each loses
 * against the best move, plus BOOK_EXPAND_PLY_COST a ply), among those within --margin of
 * the best line and before --max-ply; every position before --full-plies first.  The book
 * file is the whole tree, so a run resumes from it, and the same options give the same
 * bytes on any number of threads, interrupted and resumed or not. */
#ifndef DAMA_BOOK_EXPAND_H
#define DAMA_BOOK_EXPAND_H

#include <stdatomic.h>
#include <stdio.h>

#include "book_file.h"
#include "weights.h"

/* What a ply of the path costs on top of the score given up (hundredths of a man): with
 * no deviation the main lines grow deeper, 2 a ply trades a 0.1-man deviation against five
 * plies of depth. */
#define BOOK_EXPAND_PLY_COST 2
/* The table of every search (part of what a search returns: the book depends on it). */
#define BOOK_EXPAND_HASH_MB 16
/* The most expanded positions: the file then stays well under BOOK_FILE_MAX. */
#define BOOK_EXPAND_POSITIONS_MAX 50000
/* A long run writes its book this often, and prints progress at least this often. */
#define BOOK_EXPAND_SAVE_SECONDS 60.0
#define BOOK_EXPAND_PROGRESS_SECONDS 5.0

typedef struct BookExpandOptions {
    const Variant *variant;
    const Weights *weights;  /* the evaluation's (its hash goes into the header) */
    uint64_t nodes;          /* each search's node limit */
    int positions;           /* stop once this many positions are expanded (the root counts) */
    int full_plies;          /* every position before this ply is expanded, first */
    int margin;              /* a leaf's path gives up at most this much (hundredths of a man) */
    int max_ply;             /* no leaf at this ply or beyond is expanded */
    int threads;             /* searches at once (one searcher each); 0: the CPUs */
    const char *out;         /* the book file, written at the end and every SAVE_SECONDS */
    bool resume;             /* continue the book in out when it exists (else out must not) */
    FILE *progress;          /* progress lines; NULL: none */
    const atomic_bool *stop; /* Ctrl-C: the book so far is written (may be NULL) */
} BookExpandOptions;

typedef struct BookExpandStats {
    int expanded;            /* expanded positions in the book: its P lines */
    int resumed;             /*   of them read from the file */
    int moves;               /* the book's M lines */
    int64_t searched;        /* positions this run searched */
    bool exhausted;          /* no leaf was left to expand before --positions */
    double seconds;
} BookExpandStats;

enum BookExpandResult {
    BOOK_EXPAND_OK,
    BOOK_EXPAND_INTERRUPTED, /* stopped by opt->stop; the book so far is written */
    BOOK_EXPAND_REFUSED,     /* the options or the file do not allow the run (err says why) */
    BOOK_EXPAND_FAILED       /* out of memory, a write error (err says why) */
};

/* Expands (or resumes) the book at opt->out; err gets "PATH: why" unless BOOK_EXPAND_OK or
 * BOOK_EXPAND_INTERRUPTED.  *stats is filled in every case. */
int book_expand(const BookExpandOptions *opt, BookExpandStats *stats, char *err, size_t errlen);

#endif
