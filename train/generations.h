/* One generation of a training run (self-play, tune, match, decision), the matches it and
 * the run's end play, and the gauntlet against an outside engine. */
#ifndef DAMA_GENERATIONS_H
#define DAMA_GENERATIONS_H

#include "train_config.h"

/* Stored weights id as the run's variant's, the error printed when they cannot be read. */
bool train_load_weights(Store *store, const TrainConfig *tc, int64_t id, Weights *w);
/* A match of the training run (gen 0: the final match): A against B with the match
 * settings, continued when an interrupted run left it unfinished.  A TrainStatus. */
int train_match(Store *store, TrainConfig *tc, int64_t train_id, int gen, int games,
                const SprtConfig *sprt, const Weights *a, int64_t a_id, const Weights *b,
                int64_t b_id, MatchOutcome *mo);
/* The gauntlet: weights_id (the start at generation 0, else the newly promoted best)
 * against tc's outside engine.  A TrainStatus. */
int train_gauntlet(Store *store, TrainConfig *tc, int64_t train_id, int gen, int64_t weights_id);
/* Generation gen, its finished steps read from the journal; *best_id is updated on
 * promotion.  A TrainStatus. */
int train_generation(Store *store, TrainConfig *tc, int64_t train_id, int gen, int64_t *best_id);

#endif
