/* `dama train`'s loop as a room of its own: for each generation self-play with the best
 * weights, tune a candidate on the recent games, promote it only if an SPRT match accepts
 * it; every finished step is journaled, so an interrupted run resumes where it stopped and
 * ends with the weights of a run never stopped.  A script or the server may call it. */
#ifndef DAMA_TRAINING_H
#define DAMA_TRAINING_H

#include "train_config.h"

/* Runs (or resumes) the training run of tc from the start weights, writes the best weights
 * to tc->out_path, plays the final match and prints the summary; returns a TrainStatus
 * (errors printed). */
int train_run(Store *store, TrainConfig *tc, const Weights *start);

#endif
