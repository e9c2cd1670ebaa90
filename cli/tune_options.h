/* The tuner's options that tune and train read the one way: --eval and the real-valued
 * --lr, --reg, --lambda, --validation. */
#ifndef DAMA_TUNE_OPTIONS_H
#define DAMA_TUNE_OPTIONS_H

#include <stdbool.h>

#include "weights_store.h"

/* "linear" or "pattern"; false after printing the usage error. */
bool eval_choice_parse(const char *text, EvalChoice *out);
typedef enum TuneRealOption {
    TUNE_OPT_LR,         /* --lr: positive */
    TUNE_OPT_REG,        /* --reg: >= 0 (below 1e30) */
    TUNE_OPT_LAMBDA,     /* --lambda: in [0, 1] */
    TUNE_OPT_VALIDATION, /* --validation: in [0, 1) */
} TuneRealOption;
/* text as the value of option; false after printing the usage error (out unchanged). */
bool tune_real_parse(TuneRealOption option, const char *text, double *out);

#endif
