/* What a training run is given: `dama train`'s options once read.  Apart from training.h
 * so that the run (training.c) and its generations (generations.c) share it without
 * including each other. */
#ifndef DAMA_TRAIN_CONFIG_H
#define DAMA_TRAIN_CONFIG_H

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

#endif
