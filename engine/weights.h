/* Evaluation weights as data: the vector the engine plays with and the tuner fits, and its
 * text form (files in data/weights/): one "name value" per line, '#' starts a comment, blank
 * lines are ignored, every weight of the variant's EvalSpec is named exactly once, and a
 * line "variant NAME" says which variant the weights are for (files without it are read as
 * the variant the caller expects: Turkish files from before the line existed). */
#ifndef DAMA_WEIGHTS_H
#define DAMA_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eval_spec.h"

/* Score unit: hundredths of a man.  w[2f] and w[2f + 1] are feature f's (eval_spec.h): a
 * linear evaluation has a hundred or so, a pattern evaluation hundreds of thousands, so the
 * vector lives on the heap.  A Weights owns its vector: the functions below that fill one
 * (init, default, material_only, copy, parse, load) write a new vector into *w without
 * freeing what *w held, so give them an empty or freed Weights; weights_free releases it.
 * A struct copy would share the vector: use weights_copy. */
typedef struct Weights {
    const EvalSpec *spec; /* the variant and features these values are for */
    int count;            /* 2 * eval_spec_features(spec) */
    int32_t *w;
} Weights;

static inline int weights_count(const EvalSpec *spec) { return 2 * eval_spec_features(spec); }

/* All weights 0.  False (and *w empty) when memory runs out. */
bool weights_init(Weights *w, const EvalSpec *spec);
/* The spec's hand-set values (the same as data/weights/VARIANT.txt); pattern weights 0. */
bool weights_default(Weights *w, const EvalSpec *spec);
/* Only material (the spec's material_only): the naive baseline for experiments. */
bool weights_material_only(Weights *w, const EvalSpec *spec);
/* A copy of src with its own vector. */
bool weights_copy(Weights *dst, const Weights *src);
/* The linear weights of src (a spec with the same linear features, e.g. the trained linear
 * weights as the parent of a pattern evaluation) under spec, pattern weights 0. */
bool weights_convert(Weights *dst, const EvalSpec *spec, const Weights *src);
/* Same spec and the same values. */
bool weights_equal(const Weights *a, const Weights *b);
/* Frees the vector and empties *w (safe on an empty Weights and twice). */
void weights_free(Weights *w);
/* A Weights freed when its scope ends (gcc and clang): give it an initialiser, = { 0 }. */
#define WEIGHTS_SCOPED __attribute__((cleanup(weights_free))) Weights

/* Name of weight index ("MAN_MG"), or NULL when index is out of range. */
const char *weight_name(const EvalSpec *spec, int index);
/* Index of the weight called name, or -1. */
int weight_index(const EvalSpec *spec, const char *name);

/* Parses the len bytes at text as weights of spec (a leading byte-order mark is skipped,
 * CRLF line ends are fine).  On error returns false, leaves *w unchanged and writes one line
 * to err: "SOURCE:LINE: reason" (a NUL byte or invalid UTF-8, weights of another variant,
 * unknown, duplicate or missing names, a value that is not an integer or does not fit
 * int32, text after the value). */
bool weights_parse_text(Weights *w, const EvalSpec *spec, const char *text, size_t len,
                        const char *source_name, char *err, size_t errlen);
/* The same for a NUL-terminated text. */
bool weights_parse(Weights *w, const EvalSpec *spec, const char *text, const char *source_name,
                   char *err, size_t errlen);
/* Reads and parses the file at path (at most 1 MiB); errors as weights_parse_text, or
 * "PATH: cannot read: why". */
bool weights_load(Weights *w, const EvalSpec *spec, const char *path, char *err, size_t errlen);
/* Writes the canonical text: a header comment and the variant line, then every weight in
 * table order, each feature's pair under a comment saying why it exists.  False on a write
 * error. */
bool weights_write(const Weights *w, FILE *out);

/* Writes the canonical text to path through a temporary file renamed into place, so a
 * reader never sees half a file.  False with "PATH: why" in err. */
bool weights_save(const Weights *w, const char *path, char *err, size_t errlen);

#endif
