/* Texel tuning of the evaluation weights from stored games. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evaluate.h"
#include "game.h"
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
    cfg->learning_rate = 1.0;
    cfg->patience = 50;
    cfg->skip_plies = 8;
    cfg->seed = 1;
}

typedef struct Loader {
    Dataset *ds;
    float *scores;           /* per position: the stored search score, NAN when none */
    size_t scores_cap;
    const TuneConfig *cfg;
    int64_t last_game_id;    /* the game of the previous position */
    int64_t game_number;     /* games met so far in the stream: the identity the split hashes */
    size_t mismatches;
    char first_mismatch[64];
    bool out_of_memory;
} Loader;

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
    EvalTerm terms[EVAL_MAX_TERMS];
    int n = eval_extract(ld->cfg->start.spec, pos, terms);
    /* What is fitted must be what is played: the dot product must be the engine's eval. */
    if (eval_dot(terms, n, &ld->cfg->start) != evaluate(pos, &ld->cfg->start)) {
        if (ld->mismatches++ == 0)
            snprintf(ld->first_mismatch, sizeof ld->first_mismatch, "game %lld ply %d",
                     (long long)game_id, ply);
        return 0;
    }
    int winner = result == RESULT_WHITE_WINS ? WHITE : result == RESULT_BLACK_WINS ? BLACK : -1;
    float label = winner < 0 ? 0.5f : winner == pos->side ? 1.0f : 0.0f;
    int32_t idx[EVAL_MAX_TERMS], coef[EVAL_MAX_TERMS];
    for (int i = 0; i < n; i++) {
        idx[i] = terms[i].index;
        coef[i] = terms[i].coef;
    }
    if (ld->cfg->lambda > 0 && ld->ds->npos == ld->scores_cap) {
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
    if (!dataset_add(ld->ds, ld->game_number, label, idx, coef, n)) {
        ld->out_of_memory = true;
        return 1;
    }
    if (ld->cfg->lambda > 0) /* forced results carry no calibrated score: results only */
        ld->scores[at] = has_score && score > -SCORE_WIN_BOUND && score < SCORE_WIN_BOUND ? (float)score : NAN;
    return 0;
}

/* Blends each label with the probability the stored search score predicts, mapped by the
 * logistic scale that best fits the results themselves. */
static void blend_labels(Dataset *ds, const float *scores, const double *w, double lambda, int threads)
{
    double K = texel_fit_k(ds, w, threads);
    for (size_t i = 0; i < ds->npos; i++)
        if (!isnan(scores[i]))
            ds->pos[i].label = (float)((1 - lambda) * ds->pos[i].label
                                       + lambda * texel_sigmoid(K, scores[i]));
}

bool tune_run(Store *store, const TuneConfig *cfg, TuneOutcome *out)
{
    memset(out, 0, sizeof *out);
    if (!weights_copy(&out->weights, &cfg->start)) {
        snprintf(out->error, sizeof out->error, "out of memory");
        return false;
    }
    double t0 = now_seconds();
    const EvalSpec *spec = cfg->start.spec;
    int nweights = weights_count(spec);
    Dataset *ds = dataset_new(nweights, spec->phase_max);
    Dataset *train = NULL, *valid = NULL;
    Loader ld = { .ds = ds, .cfg = cfg };
    double *w = calloc((size_t)nweights, sizeof *w);
    bool ok = false;
    if (!ds || !w) {
        snprintf(out->error, sizeof out->error, "out of memory");
        goto done;
    }
    if (!store_positions_foreach(store, cfg->variant, cfg->run_ids, cfg->nruns, true, load_position, &ld)) {
        snprintf(out->error, sizeof out->error, "%s", store_error(store));
        goto done;
    }
    if (ld.out_of_memory) {
        snprintf(out->error, sizeof out->error, "out of memory after %zu positions", ds->npos);
        goto done;
    }
    if (ld.mismatches) {
        snprintf(out->error, sizeof out->error,
                 "the feature dot product differs from the engine's evaluation in %zu positions "
                 "(first: %s): refusing to fit", ld.mismatches, ld.first_mismatch);
        goto done;
    }
    out->positions = ds->npos;
    if (ds->npos < 100) {
        snprintf(out->error, sizeof out->error,
                 "only %zu quiet positions to learn from (play more games first)", ds->npos);
        goto done;
    }
    for (int i = 0; i < nweights; i++)
        w[i] = cfg->start.w[i];
    if (cfg->lambda > 0)
        blend_labels(ds, ld.scores, w, cfg->lambda, cfg->threads);
    if (!dataset_split(ds, cfg->validation, cfg->seed, &train, &valid)) {
        snprintf(out->error, sizeof out->error, "out of memory splitting the data");
        goto done;
    }
    out->train_positions = train->npos;
    out->valid_positions = valid->npos;
    out->extract_seconds = now_seconds() - t0;
    unsigned char frozen[EVAL_MAX_WEIGHTS] = { 0 };
    frozen[0] = frozen[1] = 1; /* feature 0, the man, is the unit: it pins the scale */

    TexelOptions opt = texel_default_options();
    opt.epochs = cfg->epochs;
    opt.learning_rate = cfg->learning_rate;
    opt.batch_size = cfg->batch;
    opt.patience = cfg->patience;
    opt.threads = cfg->threads;
    opt.frozen = frozen;
    opt.seed = cfg->seed;
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
    out->K = res.K;
    out->epochs_run = res.epochs_run;
    out->best_epoch = res.best_epoch;
    out->train_loss = texel_loss(train, w, res.K, cfg->threads);
    out->valid_loss = texel_loss(holdout, w, res.K, cfg->threads);
    for (int i = 0; i < nweights; i++) {
        double r = round(w[i]);
        out->weights.w[i] = r > INT32_MAX / 64 ? INT32_MAX / 64 : r < -INT32_MAX / 64 ? -INT32_MAX / 64 : (int32_t)r;
    }
    ok = true;
done:
    free(ld.scores);
    dataset_free(train);
    dataset_free(valid);
    dataset_free(ds);
    free(w);
    return ok;
}
