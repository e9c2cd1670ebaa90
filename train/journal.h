/* The training journal: a row for every finished step of a generation (selfplay, tune,
 * match, decision), what resume replays and what the summary reports. */
#ifndef DAMA_JOURNAL_H
#define DAMA_JOURNAL_H

#include "store.h"

/* Writes generation gen's step; false after printing the store's error. */
bool journal_put(Store *store, int64_t train_id, int gen, const char *step, int64_t ref,
                 int64_t best, int64_t candidate, const char *outcome);
/* Replays the journal of a resumed run: *best_id the best weights after its decided
 * generations (start_id before any); returns the first generation not decided yet, or -1
 * on a store error (not printed). */
int journal_resume_point(Store *store, int64_t train_id, int64_t start_id, int64_t *best_id);
/* Prints what each of the run's generations decided, from the journal and the match rows
 * (so a resumed run reports its earlier generations too).  A TrainStatus. */
int journal_print_summary(Store *store, const char *variant, int64_t train_id, int generations);

#endif
