/* The tuner's options that tune and train read the one way: --eval and the real-valued
 * --lr, --reg, --lambda, --validation. */
#ifndef DAMA_TUNE_OPTIONS_H
#define DAMA_TUNE_OPTIONS_H

#include <stdbool.h>

#include "match_step.h"
#include "weights_store.h"

#include "option_table.h"

/* --eval: "linear" or "pattern" into the EvalChoice option->dest; false after the error. */
bool tune_option_eval(const CliOption *option, const char *value);
/* --lr (positive), --reg (>= 0, below 1e30), --lambda (in [0, 1]) or --validation (in
 * [0, 1)) into the double option->dest; false after the error (the value unchanged). */
bool tune_option_real(const CliOption *option, const char *value);
/* --sprt: the SprtConfig option->dest (sprt_parse); false after the error. */
bool sprt_option(const CliOption *option, const char *value);

#endif
