/* Export of the database to CSV (libcsv), one file per kind of table ("WHAT"), rows
 * streamed from one read snapshot straight to the file (never a whole table in memory).
 *
 * WHATs and their columns:
 * Rows of the options' variant only; runs, games, positions, summary and openings end with
 * a variant column.
 *   runs         id, kind, status, started_at, ended_at, weights_id, engine_version,
 *                bench_signature, params
 *   games        id, run_id, pair_id, opening_id, opening_fen, white_weights_id,
 *                black_weights_id, result (white|black|draw), reason, plies, mars,
 *                npositions, seed, created_at, run_kind (selfplay|match), game_index (the
 *                game's place in its run; empty before schema 3), moves (space-separated
 *                long notation)
 *   positions    game_id, ply, fen, white_men, white_kings, black_men, black_kings (the
 *                64-bit bitboards as signed 64-bit integers with the same bits, as the
 *                database stores them: a1 = bit 0 ... h8 = bit 63, and a piece on h8 makes
 *                the number negative; one int64 dtype for pandas, whose
 *                `.to_numpy().view('uint64')` gives the unsigned boards), side
 *                (white|black), score (search score from the side to move, empty when
 *                none), capture_pending (0|1), result (win|draw|loss from the side to
 *                move), points (1, 0.5, 0)
 *   summary, openings and calibration are statistics: they count the games of runs that
 *                ended 'done' only (include_unfinished adds running, interrupted, failed
 *                and stale runs)
 *   summary      one row per run: run_id, kind, status, games, white_wins, draws, black_wins,
 *                white_score, black_score, white_mars, black_mars, draws_repetition,
 *                draws_no_progress, draws_one_each, draws_move_cap, draws_other, min_plies,
 *                max_plies, mean_plies, stddev_plies (sample standard deviation)
 *   openings     opening_id, fen, source, games, white_wins, draws, black_wins, white_score,
 *                mean_plies
 *   calibration  stored search scores in buckets (default 50 wide; forced wins and losses
 *                left out): bucket_low, bucket_high, positions, mean_score, expected
 *                (mean of 1 / (1 + exp(-K * score)), the tuner's logistic, K = 0.0055 per
 *                hundredth of a man by default), observed (mean points of the side to move),
 *                wins, draws, losses
 *   tuning       one row per epoch: tune_run_id, run_id, epoch, train_loss, validation_loss,
 *                k, positions, parent_weights_id, result_weights_id, result_generation
 *   tune_runs    one row per tuning run: tune_run_id, run_id, parent_weights_id,
 *                parent_generation, result_weights_id, result_generation, k, train_loss,
 *                validation_loss, positions, epochs, created_at
 *   matches      match_id, run_id, weights_a, generation_a, weights_b, generation_b, games,
 *                wins, draws, losses (from A's side), score, elo, elo_low, elo_high, llr,
 *                llr_low, llr_high, verdict, penta, created_at, train_generation and
 *                decision (promoted|rejected) when `dama train` decided on this candidate
 *                (A) against this best (B), empty otherwise
 *   weights      id, variant, generation, parent_id, note, created_at, hash, eval (linear or
 *                pattern), then one column per linear weight name (empty when the stored
 *                text does not parse with this build); a pattern set's table is no column
 *   analyses     id, run_id, item_id, fen, best_move, score, score_text, depth, nodes,
 *                time_ms, pv, created_at */
#ifndef DAMA_EXPORT_H
#define DAMA_EXPORT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store.h"
#include "variant.h"

#define EXPORT_DEFAULT_K 0.0055
#define EXPORT_DEFAULT_BUCKET 50

typedef struct ExportOptions {
    const Variant *variant; /* required: only this game's rows (a database may hold both) */
    int64_t run_id;      /* > 0: only this run's rows */
    double k;            /* calibration logistic scale */
    int bucket;          /* calibration bucket width, hundredths of a man */
    FILE *warnings;      /* where row-level warnings go (may be NULL) */
    bool include_unfinished; /* statistics count runs that did not end 'done' too */
    const atomic_bool *stop; /* set (by a signal): stop, write nothing (may be NULL) */
} ExportOptions;

/* The WHATs, NULL-terminated, in the order `export --out DIR/` writes them. */
extern const char *const export_names[];
bool export_known(const char *what);

/* Writes WHAT to path (temporary name, renamed when complete).  *rows gets the data rows
 * written.  false with a message in err (nothing left at path), also when o->stop was set.
 * Several calls read one snapshot when the caller holds one (store_snapshot_begin). */
bool export_write(Store *s, const char *what, const ExportOptions *o, const char *path,
                  int64_t *rows, char *err, size_t errlen);

/* The canonical FEN of pos, as position_to_fen writes it, without printf (the positions
 * export formats a million a second); returns the length.  buf holds at least 160 bytes. */
size_t export_fen(const Position *pos, const Variant *v, char *buf);

#endif
