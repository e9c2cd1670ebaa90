/* Evaluation weights as data: the vector the engine plays with and the tuner fits, and its
 * text form (files in data/weights/): one "name value" per line, '#' starts a comment, blank
 * lines are ignored, every weight of the variant's EvalSpec is named exactly once, and a
 * line "variant NAME" says which variant the weights are for (files without it are read as
 * the variant the caller expects: Turkish files from before the line existed).
 *
 * A pattern evaluation's file (eval_spec_is_pattern) has more header lines, then its linear
 * weights as above, then its pattern weights as binary data after one last text line:
 *     variant turkish
 *     eval pattern              the evaluation the weights are for ("eval linear" may
 *                               appear in a linear file; no line = linear)
 *     feature-set 3             EvalSpec.feature_set_version: what the states mean
 *     patterns 65536            EvalSpec.npattern_states
 *     hash 0123456789abcdef     weights_hash of the whole vector
 *     MAN_MG 100 ...
 *     binary zlib 12345         then exactly 12345 bytes: the pattern weights 2 nfeatures
 *                               .. count - 1 as int32 little-endian, compressed with zlib
 * Everything is checked when it is read: a file of other states or other values is refused. */
#ifndef DAMA_WEIGHTS_H
#define DAMA_WEIGHTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "eval_spec.h"

struct Variant;

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

/* FNV-1a 64 of the whole vector as int32 little-endian: what names pattern weights in
 * their file and in the database. */
uint64_t weights_hash(const Weights *w);

/* Name of weight index ("MAN_MG"), or NULL when index is out of range. */
const char *weight_name(const EvalSpec *spec, int index);
/* Index of the weight called name, or -1. */
int weight_index(const EvalSpec *spec, const char *name);

/* Parses the len bytes at text as weights of spec (a leading byte-order mark is skipped,
 * CRLF line ends are fine).  On error returns false, leaves *w unchanged and writes one line
 * to err: "SOURCE:LINE: reason" (a NUL byte or invalid UTF-8 in the text, weights of another
 * variant or evaluation, unknown, duplicate or missing names, a value that is not an
 * integer or does not fit int32, text after the value, a pattern header that does not match
 * spec) or "SOURCE: reason" (the binary table truncated, corrupt, too long or followed by
 * more bytes, a hash that does not match the weights). */
bool weights_parse_text(Weights *w, const EvalSpec *spec, const char *text, size_t len,
                        const char *source_name, char *err, size_t errlen);
/* The linear weights of any weights text of spec's variant (spec linear): the pattern
 * header lines are skipped and no table is read, so a pattern set's head gives its linear
 * values (the columns of an export). */
bool weights_parse_linear_values(Weights *w, const EvalSpec *spec, const char *text, size_t len,
                                 const char *source_name, char *err, size_t errlen);
/* The same for a NUL-terminated text. */
bool weights_parse(Weights *w, const EvalSpec *spec, const char *text, const char *source_name,
                   char *err, size_t errlen);
/* Reads and parses the file at path (at most WEIGHTS_FILE_MAX bytes); errors as
 * weights_parse_text, or "PATH: cannot read: why". */
bool weights_load(Weights *w, const EvalSpec *spec, const char *path, char *err, size_t errlen);
#define WEIGHTS_FILE_MAX ((size_t)64 << 20)

/* True when the text declares weights of a pattern evaluation ("eval pattern" before any
 * binary data). */
bool weights_text_is_pattern(const char *text, size_t len);
/* The evaluation of v the text declares: v->pattern_eval for "eval pattern", else v->eval;
 * NULL with "SOURCE: reason" in err when v has none such. */
const EvalSpec *weights_spec_for(const struct Variant *v, const char *text, size_t len,
                                 const char *source_name, char *err, size_t errlen);
/* weights_parse_text and weights_load with the spec weights_spec_for picks. */
bool weights_parse_variant(Weights *w, const struct Variant *v, const char *text, size_t len,
                           const char *source_name, char *err, size_t errlen);
bool weights_load_variant(Weights *w, const struct Variant *v, const char *path, char *err,
                          size_t errlen);
/* The same, reading until *stop is set (Ctrl-C, SIGTERM; may be NULL): then false with
 * "PATH: interrupted while reading". */
bool weights_load_variant_until(Weights *w, const struct Variant *v, const char *path,
                                const atomic_bool *stop, char *err, size_t errlen);

/* The file form of a Weights in its two parts: the text head (all of a linear file) and,
 * for a pattern evaluation, the compressed table that follows it.  A file is head then
 * table; the database stores them in two columns. */
typedef struct WeightsImage {
    char *head;           /* NUL-terminated text */
    size_t head_len;
    unsigned char *table; /* NULL for linear weights */
    size_t table_len;
} WeightsImage;
/* False when memory runs out. */
bool weights_image(const Weights *w, WeightsImage *img);
void weights_image_free(WeightsImage *img);

/* Writes the canonical file: a header comment and the header lines, then every linear
 * weight in table order, each feature's pair under a comment saying why it exists, then a
 * pattern evaluation's table.  False on a write error. */
bool weights_write(const Weights *w, FILE *out);

/* Writes the canonical text to path through a temporary file renamed into place, so a
 * reader never sees half a file.  False with "PATH: why" in err. */
bool weights_save(const Weights *w, const char *path, char *err, size_t errlen);

#endif
