/* Evaluation weights as data: the vector the engine plays with and the tuner fits, and its
 * text form (files in data/weights/): one "name value" per line, '#' starts a comment, blank
 * lines are ignored, and every weight of eval_features.h is named exactly once. */
#ifndef DAMA_WEIGHTS_H
#define DAMA_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eval_features.h"

/* Score unit: hundredths of a man.  Indexed by enum EvalWeight. */
typedef struct Weights {
    int32_t w[EVAL_NUM_WEIGHTS];
} Weights;

/* The hand-set values of eval_features.h (the same as data/weights/turkish.txt). */
void weights_default(Weights *w);
/* Only material: men 100, first king 300, further kings 200 in both phases, all else 0.
 * The naive baseline for experiments. */
void weights_material_only(Weights *w);

/* Name of weight index ("MAN_MG"), or NULL when index is out of range. */
const char *weight_name(int index);
/* Index of the weight called name, or -1. */
int weight_index(const char *name);

/* Parses the len bytes at text (a leading byte-order mark is skipped, CRLF line ends are
 * fine).  On error returns false, leaves *w unchanged and writes one line to err:
 * "SOURCE:LINE: reason" (a NUL byte or invalid UTF-8, unknown, duplicate or missing names,
 * a value that is not an integer or does not fit int32, text after the value). */
bool weights_parse_text(Weights *w, const char *text, size_t len, const char *source_name,
                        char *err, size_t errlen);
/* The same for a NUL-terminated text. */
bool weights_parse(Weights *w, const char *text, const char *source_name, char *err, size_t errlen);
/* Reads and parses the file at path (at most 1 MiB); errors as weights_parse_text, or
 * "PATH: cannot read: why". */
bool weights_load(Weights *w, const char *path, char *err, size_t errlen);
/* Writes the canonical text: a header comment, then every weight in table order, each
 * feature's pair under a comment saying why it exists.  False on a write error. */
bool weights_write(const Weights *w, FILE *out);

/* Writes the canonical text to path through a temporary file renamed into place, so a
 * reader never sees half a file.  False with "PATH: why" in err. */
bool weights_save(const Weights *w, const char *path, char *err, size_t errlen);

#endif
