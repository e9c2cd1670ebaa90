/* Texel tuning of the evaluation weights from stored games. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evaluate.h"
#include "game.h"
#include "dataset_file.h"
#include "position_set.h"
#include "search.h"
#include "tune.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void tune_default_config(TuneConfig *cfg, const EvalSpec *spec)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->variant = spec->variant;
    cfg->validation = 0.1;
    cfg->epochs = 300;
    cfg->dedup = true;
    cfg->pattern_keys = true;
    /* Measured on 0.7-0.9 M self-play positions (docs/experiments.md): a pattern spec's
     * hundreds of thousands of weights need mini-batches, a pull toward the parent, a
     * smaller step and less patience (the validation loss turns within 10-30 epochs). */
    bool pattern = eval_spec_is_pattern(spec);
    cfg->learning_rate = pattern ? TUNE_PATTERN_LR : 1.0;
    cfg->batch = pattern ? TUNE_PATTERN_BATCH : 0;
    cfg->reg = pattern ? TUNE_PATTERN_REG : 0;
    cfg->patience = pattern ? TUNE_PATTERN_PATIENCE : 50;
    cfg->skip_plies = 8;
    cfg->seed = 1;
}

typedef struct Loader {
    Dataset *ds;
    float *scores;           /* per position: the stored search score, NAN when none */
    size_t scores_cap;
    bool keep_scores;        /* scores wanted: to blend labels, or to save them */
    const TuneConfig *cfg;
    int64_t last_game_id;    /* the game of the previous position */
    int64_t game_number;     /* games met so far in the stream: the identity the split hashes */
    PositionSet seen;        /* with dedup: the positions kept so far */
    size_t duplicates;
    size_t mismatches;
    char first_mismatch[96];
    bool out_of_memory;
    bool bad_feature;        /* a feature value the dataset cannot hold */
} Loader;

/* The engine's score from feature terms, as the dataset's model sums them (texel.h). */
static int feature_eval(const Weights *w, const EvalFeatureTerm *f, int n, int phase)
{
    const int pm = w->spec->phase_max;
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += (int64_t)f[i].value * ((int64_t)phase * w->w[2 * f[i].feature] +
                                      (int64_t)(pm - phase) * w->w[2 * f[i].feature + 1]);
    return eval_scale_score(sum, pm);
}

/* One stored position: extract its terms, check them against the engine, label it. */
static int load_position(void *vctx, int64_t game_id, int ply, const Position *pos, int score,
                         bool has_score, int result)
{
    Loader *ld = vctx;
    /* The stream comes in (run, game index, ply) order, so the k-th game is the same game
     * on every run of the same inputs, whichever rowid the database gave it. */
    if (game_id != ld->last_game_id) {
        ld->last_game_id = game_id;
        ld->game_number++;
    }
    if (ply < ld->cfg->skip_plies || result == RESULT_NONE)
        return 0;
    if (ld->cfg->dedup) {
        /* The first occurrence stays: the game that brought it keeps it, so the split by
         * game is still one. */
        int added = position_set_add(&ld->seen, pos);
        if (added < 0) {
            ld->out_of_memory = true;
            return 1;
        }
        if (added == 0) {
            ld->duplicates++;
            return 0;
        }
    }
    const Weights *w = &ld->cfg->start;
    EvalFeatureTerm f[EVAL_MAX_FEATURE_TERMS];
    int phase, n = eval_features(w->spec, pos, f, &phase);
    /* What is fitted must be what is played: the model's sum must be the engine's eval. */
    if (feature_eval(w, f, n, phase) != evaluate(pos, w)) {
        if (ld->mismatches++ == 0)
            snprintf(ld->first_mismatch, sizeof ld->first_mismatch, "game %lld ply %d",
                     (long long)game_id, ply);
        return 0;
    }
    int winner = result == RESULT_WHITE_WINS ? WHITE : result == RESULT_BLACK_WINS ? BLACK : -1;
    float label = winner < 0 ? 0.5f : winner == pos->side ? 1.0f : 0.0f;
    if (ld->keep_scores && ld->ds->npos == ld->scores_cap) {
        size_t cap = ld->scores_cap ? ld->scores_cap * 2 : 4096;
        float *p = realloc(ld->scores, cap * sizeof *p);
        if (!p) {
            ld->out_of_memory = true;
            return 1;
        }
        ld->scores = p;
        ld->scores_cap = cap;
    }
    size_t at = ld->ds->npos;
    for (int i = 0; i < n; i++)
        if (f[i].value < INT16_MIN || f[i].value > INT16_MAX) { /* the dataset's 16 bits */
            ld->bad_feature = true;
            snprintf(ld->first_mismatch, sizeof ld->first_mismatch, "game %lld ply %d feature %d value %d",
                     (long long)game_id, ply, (int)f[i].feature, (int)f[i].value);
            return 1;
        }
    /* A keyed dataset stores the linear terms (eval_features writes them first) and the
     * pattern key for the occurrences. */
    bool added;
    if (ld->ds->key_spec) {
        uint8_t key[EVAL_MAX_PATTERN_KEY];
        int linear = 0;
        while (linear < n && f[linear].feature < w->spec->nfeatures)
            linear++;
        w->spec->pattern_key(pos, key);
        added = dataset_add_keyed(ld->ds, ld->game_number, label, phase, f, linear, key);
    } else {
        added = dataset_add(ld->ds, ld->game_number, label, phase, f, n);
    }
    if (!added) {
        ld->out_of_memory = true;
        return 1;
    }
    if (ld->keep_scores) /* forced results carry no calibrated score: results only */
        ld->scores[at] = has_score && score > -SCORE_WIN_BOUND && score < SCORE_WIN_BOUND ? (float)score : NAN;
    if (ld->cfg->data_progress && ld->ds->npos % TUNE_PROGRESS_EVERY == 0)
        ld->cfg->data_progress(ld->cfg->ctx, "read", ld->ds->npos, 0);
    return 0;
}

/* Blends each label with the probability the stored search score predicts, mapped by the
 * logistic scale K that best fits the results themselves.  The labels are written in the
 * split's views (in memory even when ds is a mapped file's): the split keeps the order of
 * ds and every game whole on one side, so position i of ds is the next one of the view
 * whose next game is its game. */
static void blend_labels(const Dataset *ds, const float *scores, double K, double lambda, Dataset *train,
                         Dataset *valid)
{
    size_t t = 0, v = 0;
    for (size_t i = 0; i < ds->npos; i++) {
        DatasetPosition *p = t < train->npos && train->game[t] == ds->game[i] ? &train->pos[t++] : &valid->pos[v++];
        if (!isnan(scores[i]))
            dataset_set_label(p, (1 - lambda) * dataset_label(p) + lambda * texel_sigmoid(K, scores[i]));
    }
}

/* False (out->error set) when the load ran out of memory or found a position the
 * features cannot reproduce. */
static bool loaded_cleanly(const Loader *ld, const Dataset *ds, TuneOutcome *out)
{
    if (ld->out_of_memory) {
        snprintf(out->error, sizeof out->error, "out of memory after %zu positions", ds->npos);
        return false;
    }
    if (ld->bad_feature) {
        snprintf(out->error, sizeof out->error, "a feature value outside -32768..32767 (%s): "
                 "the dataset stores 16 bits", ld->first_mismatch);
        return false;
    }
    if (ld->mismatches) {
        snprintf(out->error, sizeof out->error,
                 "the feature dot product differs from the engine's evaluation in %zu positions "
                 "(first: %s): refusing to fit", ld->mismatches, ld->first_mismatch);
        return false;
    }
    return true;
}

/* The fit's options from the tuning config (K is fitted afterwards). */
static TexelOptions fit_options(const TuneConfig *cfg, const unsigned char *frozen)
{
    TexelOptions opt = texel_default_options();
    opt.epochs = cfg->epochs;
    opt.learning_rate = cfg->learning_rate;
    opt.batch_size = cfg->batch;
    opt.reg = cfg->reg;
    opt.patience = cfg->patience;
    opt.threads = cfg->threads;
    opt.frozen = frozen;
    opt.seed = cfg->seed;
    return opt;
}

/* The fit's figures into the outcome, with the fitted weights' losses. */
static void record_fit(TuneOutcome *out, const TexelResult *res, const Dataset *train,
                       const Dataset *holdout, const double *w, int threads)
{
    out->K = res->K;
    out->epochs_run = res->epochs_run;
    out->best_epoch = res->best_epoch;
    out->touched_per_step = res->touched_per_step;
    out->train_loss = texel_loss(train, w, res->K, threads);
    out->valid_loss = texel_loss(holdout, w, res->K, threads);
}

/* The fitted weights rounded to integers, clamped to what the evaluation can sum safely. */
static void round_weights(int32_t *dst, const double *w, int nweights)
{
    for (int i = 0; i < nweights; i++) {
        double r = round(w[i]);
        dst[i] = r > INT32_MAX / 64 ? INT32_MAX / 64 : r < -INT32_MAX / 64 ? -INT32_MAX / 64 : (int32_t)r;
    }
}

/* What a file of positions is for: the game, the evaluation and its feature set. */
static void data_tag(const EvalSpec *spec, char *tag, size_t len)
{
    snprintf(tag, len, "%s %s %u", spec->variant, eval_spec_is_pattern(spec) ? "pattern" : "linear",
             (unsigned)spec->feature_set_version);
}

/* Loads the positions cfg selects from the store into *ds (the stored search scores into
 * *scores when keep_scores, else NULL; malloc'd).  False with out->error. */
static bool load_positions(Store *store, const TuneConfig *cfg, bool keep_scores, Dataset **ds, float **scores,
                           TuneOutcome *out)
{
    const EvalSpec *spec = cfg->start.spec;
    *scores = NULL;
    Loader ld = { .ds = dataset_new(weights_count(spec) / 2, spec->phase_max), .cfg = cfg,
                  .keep_scores = keep_scores };
    if (ld.ds && cfg->pattern_keys && spec->pattern_key) /* the occurrences as keys: less memory */
        dataset_use_keys(ld.ds, spec);
    *ds = ld.ds;
    int64_t stored = 0; /* every stored position: the dedup set's size (an upper bound) */
    bool ok = false;
    if (cfg->dedup && !store_count(store, "positions", &stored))
        snprintf(out->error, sizeof out->error, "%s", store_error(store));
    else if (!ld.ds || (cfg->dedup && !position_set_init(&ld.seen, (size_t)stored)))
        snprintf(out->error, sizeof out->error, "out of memory");
    else if (!store_positions_foreach(store, cfg->variant, cfg->run_ids, cfg->nruns, true, load_position, &ld))
        snprintf(out->error, sizeof out->error, "%s", store_error(store));
    else
        ok = true;
    position_set_free(&ld.seen); /* before the fit: it needs the memory more */
    if (ok && !loaded_cleanly(&ld, ld.ds, out))
        ok = false;
    if (ok) {
        out->positions = ld.ds->npos;
        out->duplicates = ld.duplicates;
        dataset_trim(ld.ds); /* loading is over: the doubling's slack goes */
    }
    *scores = ld.scores;
    return ok;
}

/* The save's progress, passed on to the tune's. */
static void save_progress(void *vcfg, size_t done, size_t total)
{
    const TuneConfig *cfg = vcfg;
    cfg->data_progress(cfg->ctx, "write", done, total);
}

bool tune_save_data(Store *store, const TuneConfig *cfg, const char *path, TuneOutcome *out)
{
    memset(out, 0, sizeof *out);
    Dataset *ds = NULL;
    float *scores = NULL;
    bool ok = load_positions(store, cfg, true, &ds, &scores, out);
    if (ok) {
        char tag[DATASET_TAG_MAX + 1];
        data_tag(cfg->start.spec, tag, sizeof tag);
        DatasetFileExtras extras = { .tag = tag, .scores = scores,
                                     .progress = cfg->data_progress ? save_progress : NULL, .ctx = (void *)cfg };
        out->dataset_bytes = dataset_bytes(ds);
        ok = dataset_save(ds, path, &extras, out->error, sizeof out->error);
    }
    free(scores);
    dataset_free(ds);
    return ok;
}

/* Splits ds, blends its labels when asked (scores: one a position, or NULL), and fits; the
 * outcome's figures and weights filled.  ds is released as the fit goes (not freed). */
static bool fit_positions(Dataset *ds, const float *scores, const TuneConfig *cfg, double t0, TuneOutcome *out)
{
    const int nweights = weights_count(cfg->start.spec);
    Dataset *train = NULL, *valid = NULL;
    double *w = calloc((size_t)nweights, sizeof *w);
    unsigned char *frozen = calloc((size_t)nweights, 1);
    bool ok = false;
    if (!w || !frozen) {
        snprintf(out->error, sizeof out->error, "out of memory");
        goto done;
    }
    if (ds->npos < 100) {
        snprintf(out->error, sizeof out->error,
                 "only %zu quiet positions to learn from (play more games first)", ds->npos);
        goto done;
    }
    for (int i = 0; i < nweights; i++)
        w[i] = cfg->start.w[i];
    /* The blend's K is fitted on the results of all positions, before the split. */
    double blend_k = cfg->lambda > 0 && scores ? texel_fit_k(ds, w, cfg->threads) : 0;
    if (!dataset_split(ds, cfg->validation, cfg->seed, &train, &valid)) {
        snprintf(out->error, sizeof out->error, "out of memory splitting the data");
        goto done;
    }
    if (blend_k > 0)
        blend_labels(ds, scores, blend_k, cfg->lambda, train, valid);
    dataset_release_positions(ds); /* the views have their copies; the fit needs the memory */
    dataset_release_games(train); /* read by the split only */
    dataset_release_games(valid);
    out->dataset_bytes = dataset_bytes(ds) + dataset_bytes(train) + dataset_bytes(valid);
    out->train_positions = train->npos;
    out->valid_positions = valid->npos;
    out->extract_seconds = now_seconds() - t0;
    frozen[0] = frozen[1] = 1; /* feature 0, the man, is the unit: it pins the scale */

    TexelOptions opt = fit_options(cfg, frozen);
    opt.K = texel_fit_k(train, w, cfg->threads);
    const Dataset *holdout = valid->npos ? valid : train;
    out->start_loss = texel_loss(holdout, w, opt.K, cfg->threads);
    double t1 = now_seconds();
    TexelResult res;
    if (!texel_train(train, valid->npos ? valid : NULL, w, &opt, cfg->progress, cfg->ctx, &res)) {
        snprintf(out->error, sizeof out->error, "the fit failed (bad options or out of memory)");
        goto done;
    }
    out->fit_seconds = now_seconds() - t1;
    record_fit(out, &res, train, holdout, w, cfg->threads);
    round_weights(out->weights.w, w, nweights);
    ok = true;
done:
    free(frozen);
    dataset_free(train);
    dataset_free(valid);
    free(w);
    return ok;
}

bool tune_run(Store *store, const TuneConfig *cfg, TuneOutcome *out)
{
    memset(out, 0, sizeof *out);
    if (!weights_copy(&out->weights, &cfg->start)) {
        snprintf(out->error, sizeof out->error, "out of memory");
        return false;
    }
    double t0 = now_seconds();
    Dataset *ds = NULL;
    float *loaded_scores = NULL;
    const float *scores = NULL;
    bool ok;
    if (cfg->data_path) { /* a packed file: its pages are read as the fit goes */
        char tag[DATASET_TAG_MAX + 1];
        data_tag(cfg->start.spec, tag, sizeof tag);
        ds = dataset_map(cfg->data_path, tag, cfg->start.spec, &scores, out->error, sizeof out->error);
        ok = ds != NULL;
        out->positions = ok ? ds->npos : 0;
        if (ok && ds->num_features != weights_count(cfg->start.spec) / 2) { /* a changed feature set */
            snprintf(out->error, sizeof out->error, "%s: %d features, the evaluation has %d: saved by another "
                     "version of the feature set", cfg->data_path, ds->num_features, weights_count(cfg->start.spec) / 2);
            ok = false;
        }
        if (ok && cfg->lambda > 0 && !scores) {
            snprintf(out->error, sizeof out->error, "%s: no search scores in the file for --lambda", cfg->data_path);
            ok = false;
        }
    } else {
        ok = load_positions(store, cfg, cfg->lambda > 0, &ds, &loaded_scores, out);
        scores = loaded_scores;
    }
    ok = ok && fit_positions(ds, scores, cfg, t0, out);
    free(loaded_scores);
    dataset_free(ds);
    return ok;
}
