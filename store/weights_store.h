/* Weights by name and in the database: "default", "material" and "best" (built in), a
 * weights file, or a stored id; a weight set stored with its file's text.  Shared by every
 * command and room that plays or records with weights (train, hub, play, serve, analysis). */
#ifndef DAMA_WEIGHTS_STORE_H
#define DAMA_WEIGHTS_STORE_H

#include "store.h"
#include "weights.h"

/* Stores w as its file's head and table (deduplicated by text for linear weights, by
 * weights_hash for a pattern evaluation's); returns its id or -1 (message in store_error). */
int64_t weights_store_save(Store *store, const Weights *w, int generation, int64_t parent,
                               const char *note);
/* Reads stored weights id back as v's weights of the evaluation they declare; false with
 * "weights ID: reason" in err. */
bool weights_store_load(Store *store, const Variant *v, int64_t id, Weights *w, char *err,
                                  size_t errlen);

/* Weights by name: a file (of v's linear or pattern evaluation, as its eval line says; its
 * reading stops on Ctrl-C once interrupt.h's handlers are installed), "best" for the
 * shipped weights, or "default" / "material" for the built-in sets of v's linear
 * evaluation. */
bool weights_by_name(Weights *w, const Variant *v, const char *name, char *err,
                              size_t errlen);

/* --eval of train and tune: the evaluation the run learns. */
typedef enum EvalChoice {
    EVAL_AS_GIVEN, /* no --eval: the one of the starting weights */
    EVAL_LINEAR,
    EVAL_PATTERN,
} EvalChoice;
/* The starting weights of a run: name's (weights_by_name), with EVAL_PATTERN the
 * weights of v's pattern evaluation (linear weights converted: the same linear values,
 * pattern weights 0; pattern weights as they are).  False with the reason in err: v has
 * no pattern evaluation, or --eval linear with pattern weights. */
bool start_weights(Weights *w, const Variant *v, const char *name, EvalChoice eval, char *err,
                            size_t errlen);

#endif
