/* The match step (dama match, and each match of a training run): two sides on paired
 * openings, the SPRT, the run and its match row stored. */
#ifndef DAMA_MATCH_STEP_H
#define DAMA_MATCH_STEP_H

#include "run_record.h"
#include "run_settings.h"
#include "sprt.h"
#include "weights.h"

typedef struct SprtConfig {
    bool enabled;
    double elo0, elo1, alpha, beta;
} SprtConfig;
/* "elo0=X,elo1=Y,alpha=A,beta=B" (keys in any order, each optional); false with the
 * reason in err. */
bool sprt_parse(SprtConfig *sc, const char *text, char *err, size_t errlen);

typedef struct MatchOutcome {
    int64_t run_id;
    EloEstimate elo;
    SprtVerdict verdict;
    double llr;
    int games;
    bool interrupted;
} MatchOutcome;

/* A match run's params: rs's settings, the weights ids of A and B (or the outside engines
 * of rs->cfg.engine, by name and command) and the SPRT. */
void match_params(const RunSettings *rs, const SprtConfig *sprt, const int64_t ids[2], char *buf,
                  size_t len);
/* Plays A against B with rs's settings (a side with rs->cfg.engine set is that engine),
 * stores the run and the match row, prints the result lines; returns a TrainStatus (errors
 * printed). */
int match_step(Store *store, RunSettings *rs, const SprtConfig *sprt, const Weights *a,
               int64_t a_id, const Weights *b, int64_t b_id, const char *params,
               RunResume resume, MatchOutcome *outcome);

#endif
