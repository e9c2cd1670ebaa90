/* Many games in parallel (OpenMP), each written to the database by one writer in batches.
 * Self-play and matches are both a run of game pairs: player A has White in the first game
 * of a pair and Black in the second, on the same opening. */
#ifndef DAMA_RUNNER_H
#define DAMA_RUNNER_H

#include <stdatomic.h>

#include "engine_config.h"
#include "openings.h"
#include "play.h"
#include "store.h"

/* How often --progress lines writes its progress line: a log of a long run stays short. */
#define RUNNER_LOG_SECONDS 60

typedef struct RunnerConfig {
    GameSetup setup;
    int games;                    /* total; pairs = (games + 1) / 2 */
    /* Shard `shard` of `shards` (1 <= shard <= shards) plays only its block of pairs
     * (runner_shard_range), with the same game indices, seeds and openings as the whole
     * run, so the shards together are exactly the games of the whole run; 0, 0 = all. */
    int shard, shards;
    int threads;                  /* OpenMP threads (0 = all cores) */
    uint64_t seed;                /* game i has seed seed + i; pair k's opening uses seed + 2k */
    const Weights *weights[2];    /* players A and B (self-play: the same); for a side that is
                                     an outside engine, weights[0] still probes random openings */
    int64_t weights_id[2];        /* 0 for an outside engine (stored as NULL) */
    const EngineConfig *engine[2];/* non-NULL: that side is this outside engine, one player
                                     (made by its new_player) per worker thread */
    const char *names[2];         /* players A and B's names, stored with each game as its
                                     White and Black; NULL = none (self-play) */
    const OpeningBook *book;      /* openings by pair index, cycling; NULL = random plies */
    int random_plies;
    int opening_balance;          /* random openings: |probe score| allowed, hundredths of a man */
    size_t hash_mb;               /* per searcher */
    Egdb *egdb_search[2];         /* endgame databases player A's, B's search probes (NULL:
                                     none; an outside engine's side: ignored) */
    Store *store;                 /* where games go (may be NULL: nothing stored) */
    int64_t run_id;
    int batch_games;              /* games per transaction (the writer also flushes every 2 s) */
    const atomic_bool *stop; /* Ctrl-C: no new games; games in flight are dropped */
    /* A resumed run: stored[i] is the result (enum Result) of game i already in the
     * database, RESULT_NONE for a game still to play; NULL = none stored.  Stored games are
     * not played again and count in their pairs as if just played. */
    const int *stored;
    bool progress;                /* a progress line on stderr */
    /* With progress: plain lines for a log or a batch job's output (--progress lines), the
     * progress line every RUNNER_LOG_SECONDS and at the end, never drawn over; else one
     * line drawn over again and again, for a terminal. */
    bool progress_lines;
    const char *label;            /* "selfplay" or "match" in the progress line */
    /* Called (under the writer's lock) for each finished pair in pair order (pair k only
     * after pairs 0..k-1), so a sequential test sees the same sequence whatever the thread
     * timing; a_points are player A's points in the pair's two games (0, 0.5 or 1 each).
     * Returning false stops the run (an SPRT decision): later pairs are not counted. */
    bool (*on_pair)(void *ctx, int pair, const double a_points[2]);
    /* Called (under the writer's lock, with progress on) for each game as it finishes, in
     * the order they finish, after on_pair saw any pair it completed: a line of its own
     * about it (a match's result line); may be NULL.  The progress line is drawn again
     * after it.  result is an enum Result, reason an enum Reason. */
    void (*on_game)(void *ctx, int index, int result, int reason, int plies);
    /* Appends to the progress line (e.g. the running Elo); may be NULL. */
    void (*describe)(void *ctx, char *buf, size_t len);
    void *ctx;
} RunnerConfig;

typedef struct RunnerTotals {
    /* Games played and committed by this call (a batch lost to a failed write is not
     * counted), by colour. */
    int games;
    int white_wins, black_wins, draws;
    int mars;
    long long positions;
    int resumed;                  /* games found stored (cfg->stored), not played again */
    /* The pairs counted, in pair order, up to and including the one on which on_pair said
     * stop (stored pairs included): A's view. */
    int pairs;
    int a_wins, a_draws, a_losses;
    int pentanomial[5];           /* pairs by A's score: 0, 0.5, 1, 1.5, 2 */
    double seconds, db_seconds;   /* wall time of the run, and inside the database */
    bool interrupted;             /* stopped by *stop */
    bool decided;                 /* stopped by on_pair */
    bool failed;                  /* a database write failed (message in error) */
    char error[256];
} RunnerTotals;

/* The game indices shard of shards plays: [*first, *end), the contiguous block of pairs
 * floor((shard-1)*P/shards) .. floor(shard*P/shards)-1 of the P = (games+1)/2 pairs (the
 * lone last game of an odd total is in the last shard); shards <= 0: every game. */
void runner_shard_range(int games, int shard, int shards, int *first, int *end);

/* Plays the games; returns false on a database failure (totals->error says why). */
bool runner_play(const RunnerConfig *cfg, RunnerTotals *totals);

#endif
