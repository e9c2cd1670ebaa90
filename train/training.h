/* `dama train`'s loop as a room of its own: for each generation self-play with the best
 * weights, tune a candidate on the recent games, promote it only if an SPRT match accepts
 * it; every finished step is journaled, so an interrupted run resumes where it stopped and
 * ends with the weights of a run never stopped.  A script or the server may call it. */
#ifndef DAMA_TRAINING_H
#define DAMA_TRAINING_H

#include "match_step.h"
#include "weights_store.h"

typedef struct TrainConfig {
    RunSettings *run;          /* self-play settings; the matches use them with their own games */
    int generations, match_games, match_noise, final_games, window, epochs, gauntlet_games;
    const char *start;         /* the start weights as named (recorded in the params) */
    const char *out_path;      /* where the best weights are written */
    const char *gauntlet;      /* an outside engine's command, or NULL */
    EngineConfig gauntlet_engine; /* that engine, started once by the caller */
    SprtConfig sprt;           /* the promotion test */
    bool resume;               /* continue the last training run (the same params) */
    EvalChoice eval;           /* --eval */
    double lambda;             /* the tuner's blend of results and search scores */
    double learning_rate, reg; /* the tuner's, when given (else its defaults) */
    bool lr_given, reg_given;
} TrainConfig;

/* Runs (or resumes) the training run of tc from the start weights, writes the best weights
 * to tc->out_path, plays the final match and prints the summary; returns a TrainStatus
 * (errors printed). */
int train_run(Store *store, TrainConfig *tc, const Weights *start);

#endif
