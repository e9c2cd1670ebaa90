/* What the pipeline commands (selfplay, match, train, tune) share: Ctrl-C handling,
 * the engine's identity for run records, and weights stored with their text. */
#ifndef DAMA_PIPELINE_H
#define DAMA_PIPELINE_H

#include <stdatomic.h>

#include "store.h"
#include "weights.h"

/* Installs SIGINT/SIGTERM handlers that only set the returned flag. */
const atomic_bool *pipeline_interrupt_flag(void);
/* Whether those handlers caught a signal (false while none are installed: then the signal's
 * default action ends the process). */
bool pipeline_interrupted(void);

/* "dama VERSION" for run records. */
const char *pipeline_engine_version(void);
/* "bench depth 6: N" (bench_signature): the signature of search and evaluation, the same
 * count `dama bench --depth 6` prints.  Exits with an error if the bench cannot run. */
void pipeline_bench_signature(const Variant *v, char *buf, size_t len);

/* Stores w as its file's head and table (deduplicated by text for linear weights, by
 * weights_hash for a pattern evaluation's); returns its id or -1 (message in store_error). */
int64_t pipeline_store_weights(Store *store, const Weights *w, int generation, int64_t parent,
                               const char *note);
/* Reads stored weights id back as v's weights of the evaluation they declare; false with
 * "weights ID: reason" in err. */
bool pipeline_load_stored_weights(Store *store, const Variant *v, int64_t id, Weights *w, char *err,
                                  size_t errlen);

/* Opens the database for a command, printing the error; NULL on failure. */
Store *pipeline_open_store(const char *path);
/* The same for a command that only reads: read-only, never created or migrated. */
Store *pipeline_open_store_readonly(const char *path);

/* The tune step (cmd_tune.c): fits cfg, stores the weights (generation, parent) and the
 * tuning run, writes out_path if given; *result_weights_id gets the new weights' id.
 * Returns an exit code (errors printed). */
struct TuneConfig;
int pipeline_tune(Store *store, const struct TuneConfig *cfg, int64_t parent_weights_id,
                  int generation, const char *out_path, bool show,
                  const atomic_bool *stop, int64_t *result_weights_id);

/* Weights by name: a file (of v's linear or pattern evaluation, as its eval line says), or
 * "default" / "material" for the built-in sets of v's linear evaluation. */
bool pipeline_weights_by_name(Weights *w, const Variant *v, const char *name, char *err,
                              size_t errlen);

/* --eval of train and tune: the evaluation the run learns. */
typedef enum EvalChoice {
    EVAL_AS_GIVEN, /* no --eval: the one of the starting weights */
    EVAL_LINEAR,
    EVAL_PATTERN,
} EvalChoice;
/* "linear" or "pattern"; false after printing the usage error. */
bool pipeline_eval_parse(const char *text, EvalChoice *out);
/* The tuner's real-valued options, read the one way by tune and train. */
typedef enum TuneRealOption {
    TUNE_OPT_LR,         /* --lr: positive */
    TUNE_OPT_REG,        /* --reg: >= 0 (below 1e30) */
    TUNE_OPT_LAMBDA,     /* --lambda: in [0, 1] */
    TUNE_OPT_VALIDATION, /* --validation: in [0, 1) */
} TuneRealOption;
/* text as the value of option; false after printing the usage error (out unchanged). */
bool pipeline_tune_real(TuneRealOption option, const char *text, double *out);
/* The starting weights of a run: name's (pipeline_weights_by_name), with EVAL_PATTERN the
 * weights of v's pattern evaluation (linear weights converted: the same linear values,
 * pattern weights 0; pattern weights as they are).  False with the reason in err: v has
 * no pattern evaluation, or --eval linear with pattern weights. */
bool pipeline_start_weights(Weights *w, const Variant *v, const char *name, EvalChoice eval, char *err,
                            size_t errlen);

/* The match step (cmd_match.c). */
#include "run_options.h"
#include "sprt.h"
typedef struct SprtConfig {
    bool enabled;
    double elo0, elo1, alpha, beta;
} SprtConfig;
typedef struct MatchOutcome {
    int64_t run_id;
    EloEstimate elo;
    SprtVerdict verdict;
    double llr;
    int games;
    bool interrupted;
} MatchOutcome;
bool sprt_parse(SprtConfig *sc, const char *text, char *err, size_t errlen);

/* Where a game-playing step writes: a new run, or the last run of its kind continued. */
typedef enum RunResume {
    RESUME_NEVER,     /* always a new run */
    RESUME_IF_SAME,   /* continue the last run of the kind if its params are these (train) */
    RESUME_REQUIRED,  /* --resume: continue it, or fail when there is none or it differs */
} RunResume;
typedef struct PipelineRun {
    int64_t id;
    int *stored;      /* continued run: results by game index (RunnerConfig.stored); owned */
    bool resumed;
} PipelineRun;
/* Opens the run for cfg's games (errors printed); returns an exit code. */
int pipeline_run_open(Store *store, const char *db_path, const char *kind, const char *params,
                      int64_t weights_id, const RunnerConfig *cfg, RunResume resume, PipelineRun *run);
/* Ends the run with status ('done', 'interrupted', 'failed') and frees it; false when the
 * status cannot be written (printed when report: a failed run has its own message). */
bool pipeline_run_close(Store *store, const char *db_path, PipelineRun *run, const char *status,
                        bool report);
/* The self-play step (cmd_selfplay.c): plays ro's games with weights on both sides, records
 * the run; *run_id gets its id (may be NULL).  Returns an exit code (errors printed). */
int pipeline_selfplay(Store *store, RunOptions *ro, const Weights *weights, int64_t weights_id,
                      const char *params, RunResume resume, int64_t *run_id);
/* "elo E [LOW, HIGH]" (an end at the clamp is +inf or -inf), "elo n/a: every game won
 * (above B at 95 %, one-sided)" for a perfect score, whose Elo is infinite, or "elo n/a: too
 * few pairs (N < 10)" when e has no interval: the one way match results are shown (never
 * "-0.0", never an interval of a handful of games, never a finite Elo of a perfect score). */
void match_elo_text(const EloEstimate *e, char *buf, size_t len);
/* The Elo, low and high of e as stored (NaN, stored as NULL, where there is no number: too
 * few pairs, the far end and the point of a perfect score, an end at the clamp), and back. */
void match_elo_stored(const EloEstimate *e, double *elo, double *lo, double *hi);
EloEstimate match_elo_from_stored(double games, double elo, double lo, double hi);
/* A match run's params: ro's settings, the weights ids of A and B (or the outside engines
 * of ro->cfg.engine, by name and command) and the SPRT. */
void match_params(const RunOptions *ro, const SprtConfig *sprt, const int64_t ids[2], char *buf,
                  size_t len);
/* Sets out to the outside engine command of side (0: A, 1: B) with ro's engine options
 * for it, started once to check it and learn its name: EXIT_OK, or the exit code after
 * printing why it failed (EXIT_INTERRUPTED when Ctrl-C cut the check short). */
int match_start_engine(const RunOptions *ro, int side, const char *command, EngineConfig *out);
/* Plays A against B with ro's settings (a side with ro->cfg.engine set is that engine), stores the run and the match row, prints the
 * result lines; returns an exit code (errors printed). */
int pipeline_match(Store *store, RunOptions *ro, const SprtConfig *sprt, const Weights *a,
                   int64_t a_id, const Weights *b, int64_t b_id, const char *params,
                   RunResume resume, MatchOutcome *outcome);

#endif
