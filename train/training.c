/* The training run (training.h): its params, its record (new or resumed from the
 * journal), the generations, the best weights written out, the final match and the
 * summary. */
#include <stdio.h>
#include <string.h>

#include "generations.h"
#include "journal.h"
#include "match_elo.h"
#include "train_status.h"
#include "variant.h"

/* What a resumed run must repeat; --generations may grow on resume. */
static void train_params(const TrainConfig *tc, char *params, size_t len)
{
    char desc[1024];
    run_settings_describe(tc->run, desc, sizeof desc);
    snprintf(params, len, "%s match_games=%d match_noise=%d final_games=%d window=%d "
             "epochs=%d start=%s sprt=%g,%g,%g,%g", desc, tc->match_games, tc->match_noise,
             tc->final_games, tc->window, tc->epochs, tc->start, tc->sprt.elo0, tc->sprt.elo1,
             tc->sprt.alpha, tc->sprt.beta);
    /* The options below are written only when given: earlier runs keep their params. */
    if (tc->gauntlet)
        params_append(params, len, " gauntlet=%s gauntlet_games=%d", tc->gauntlet, tc->gauntlet_games);
    if (tc->eval == EVAL_PATTERN)
        params_append(params, len, " eval=pattern");
    if (tc->lambda > 0)
        params_append(params, len, " lambda=%g", tc->lambda);
    if (tc->lr_given)
        params_append(params, len, " lr=%g", tc->learning_rate);
    if (tc->reg_given)
        params_append(params, len, " reg=%g", tc->reg);
}

/* The run's record: the last training run continued (tc->resume: the same params, else
 * refused), or a new one.  *first_gen and *best_id say where it goes on.  A TrainStatus. */
static int train_begin(Store *store, const TrainConfig *tc, int64_t start_id, int64_t *train_id,
                       int *first_gen, int64_t *best_id)
{
    char params[2048];
    train_params(tc, params, sizeof params);
    const char *db = tc->run->db_path;
    const Variant *v = tc->run->cfg.setup.variant;
    *first_gen = 1;
    *best_id = start_id;
    if (!tc->resume) {
        *train_id = run_record_begin(store, db, "train", v, params, start_id);
        return *train_id < 0 ? TRAIN_FAILED : TRAIN_OK;
    }
    char status[32], old_params[2048];
    *train_id = store_last_run(store, "train", v->name, status, sizeof status, old_params, sizeof old_params);
    if (*train_id < 0)
        return train_fail("%s: %s", db, store_error(store));
    if (*train_id == 0)
        return train_refuse("%s: no training run to resume", db);
    if (strcmp(old_params, params) != 0)
        return train_refuse("--resume needs the options of the interrupted run: %s", old_params);
    *first_gen = journal_resume_point(store, *train_id, start_id, best_id);
    if (*first_gen < 0)
        return train_fail("%s: %s", db, store_error(store));
    printf("resuming training run %lld at generation %d\n", (long long)*train_id, *first_gen);
    return TRAIN_OK;
}

/* The baseline of a gauntlet: the start weights against the engine, before generation 1's
 * self-play (whose journal step says it was played). */
static int baseline_gauntlet(Store *store, TrainConfig *tc, int64_t train_id, int64_t start_id)
{
    TrainStep ts;
    int found = store_train_step_get(store, train_id, 1, "selfplay", &ts);
    if (found < 0)
        return train_fail("%s", store_error(store));
    return found ? TRAIN_OK : train_gauntlet(store, tc, train_id, 0, start_id);
}

static int write_best(Store *store, const TrainConfig *tc, int64_t train_id, int64_t best_id)
{
    char err[512];
    Weights best = { 0 };
    int code = TRAIN_OK;
    if (!train_load_weights(store, tc, best_id, &best))
        code = TRAIN_FAILED;
    else if (!weights_save(&best, tc->out_path, err, sizeof err))
        code = train_fail("%s", err);
    else
        printf("train run %lld: best weights %lld written to %s\n", (long long)train_id,
               (long long)best_id, tc->out_path);
    weights_free(&best);
    return code;
}

/* The best weights against the starting weights: did the training work? */
static int final_match(Store *store, TrainConfig *tc, int64_t train_id, int64_t start_id, int64_t best_id)
{
    if (tc->final_games == 0) {
        printf("final match skipped (--final-games 0)\n");
        return TRAIN_OK;
    }
    if (best_id == start_id) {
        printf("final: no generation was promoted; the best weights are the starting weights\n");
        return TRAIN_OK;
    }
    Weights best = { 0 }, start = { 0 };
    if (!train_load_weights(store, tc, best_id, &best) || !train_load_weights(store, tc, start_id, &start)) {
        weights_free(&best);
        return TRAIN_FAILED;
    }
    SprtConfig none = { .enabled = false, .alpha = 0.05, .beta = 0.05 };
    MatchOutcome mo;
    int code = train_match(store, tc, train_id, 0, tc->final_games, &none, &best, best_id, &start,
                           start_id, &mo);
    weights_free(&best);
    weights_free(&start);
    char elo[96];
    match_elo_text(&mo.elo, elo, sizeof elo);
    if (code == TRAIN_OK)
        printf("final: best weights %lld against the starting weights %lld: %s over %d games\n",
               (long long)best_id, (long long)start_id, elo, mo.games);
    return code;
}

int train_run(Store *store, TrainConfig *tc, const Weights *start)
{
    const char *db = tc->run->db_path;
    int64_t start_id = weights_store_save(store, start, 0, 0, tc->start);
    if (start_id < 0)
        return train_fail("%s: %s", db, store_error(store));
    int64_t train_id, best_id;
    int first_gen;
    int code = train_begin(store, tc, start_id, &train_id, &first_gen, &best_id);
    if (code != TRAIN_OK)
        return code;
    if (tc->gauntlet)
        code = baseline_gauntlet(store, tc, train_id, start_id);
    for (int gen = first_gen; gen <= tc->generations && code == TRAIN_OK; gen++) {
        printf("generation %d/%d\n", gen, tc->generations);
        fflush(stdout);
        code = train_generation(store, tc, train_id, gen, &best_id);
    }
    if (code == TRAIN_OK)
        code = write_best(store, tc, train_id, best_id);
    if (code == TRAIN_OK)
        code = final_match(store, tc, train_id, start_id, best_id);
    if (code == TRAIN_OK)
        code = journal_print_summary(store, tc->run->cfg.setup.variant->name, train_id, tc->generations);
    const char *end = code == TRAIN_OK ? "done" : code == TRAIN_INTERRUPTED ? "interrupted" : "failed";
    /* A failure has said why already; its status may not be writable (a full disk). */
    if (!store_run_end(store, train_id, end) && code == TRAIN_OK)
        code = train_fail("%s: train run %lld could not be marked %s: %s", db, (long long)train_id, end,
                          store_error(store));
    if (code == TRAIN_INTERRUPTED)
        fprintf(stderr, "dama: interrupted: run 'dama train --resume' with the same options to continue\n");
    return code;
}
