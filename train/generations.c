/* One generation of a training run and the matches of the run (generations.h).  Each step
 * first asks the journal whether it is done: a resumed run redoes nothing it finished. */
#include <stdio.h>
#include <string.h>

#include "generations.h"
#include "interrupt.h"
#include "journal.h"
#include "match_elo.h"
#include "selfplay_step.h"
#include "train_status.h"
#include "tune_step.h"

/* Seeds: generation g's self-play and match, and the final match (g = 0), never overlap
 * while a run has fewer than 1000003 games per step. */
static uint64_t step_seed(const TrainConfig *tc, int gen, bool match)
{
    return tc->run->cfg.seed + (uint64_t)gen * 1000003u + (match ? 500000u : 0u);
}

bool train_load_weights(Store *store, const TrainConfig *tc, int64_t id, Weights *w)
{
    char err[512];
    bool ok = weights_store_load(store, tc->run->cfg.setup.variant, id, w, err, sizeof err);
    if (!ok)
        train_fail("%s", err);
    return ok;
}

int train_match(Store *store, TrainConfig *tc, int64_t train_id, int gen, int games,
                const SprtConfig *sprt, const Weights *a, int64_t a_id, const Weights *b,
                int64_t b_id, MatchOutcome *mo)
{
    RunSettings rs = *tc->run;
    rs.cfg.games = games;
    rs.cfg.seed = step_seed(tc, gen, true);
    rs.cfg.setup.noise = tc->match_noise;
    char params[1024];
    int64_t ids[2] = { a_id, b_id };
    match_params(&rs, sprt, ids, params, sizeof params);
    if (gen > 0)
        params_append(params, sizeof params, " train_run=%lld generation=%d", (long long)train_id, gen);
    else
        params_append(params, sizeof params, " train_run=%lld final", (long long)train_id);
    return match_step(store, &rs, sprt, a, a_id, b, b_id, params, RESUME_IF_SAME, mo);
}

/* Stored as a plain match run tagged gauntlet=1 (the journal's steps cannot name it),
 * continued like any train match when an interrupted run left it unfinished. */
int train_gauntlet(Store *store, TrainConfig *tc, int64_t train_id, int gen, int64_t weights_id)
{
    Weights w;
    if (!train_load_weights(store, tc, weights_id, &w))
        return TRAIN_FAILED;
    RunSettings rs = *tc->run;
    rs.cfg.games = tc->gauntlet_games;
    rs.cfg.seed = step_seed(tc, gen, true) + 250000u;
    rs.cfg.setup.noise = tc->match_noise;
    rs.cfg.engine[1] = &tc->gauntlet_engine;
    SprtConfig none = { .enabled = false, .alpha = 0.05, .beta = 0.05 };
    char params[1024];
    int64_t ids[2] = { weights_id, 0 };
    match_params(&rs, &none, ids, params, sizeof params);
    params_append(params, sizeof params, " train_run=%lld generation=%d gauntlet=1", (long long)train_id, gen);
    printf("generation %d: gauntlet of weights %lld against %s\n", gen, (long long)weights_id,
           tc->gauntlet_engine.name);
    fflush(stdout);
    MatchOutcome mo;
    int code = match_step(store, &rs, &none, &w, weights_id, &w, 0, params, RESUME_IF_SAME, &mo);
    weights_free(&w);
    if (code == TRAIN_OK) {
        char elo[96];
        match_elo_text(&mo.elo, elo, sizeof elo);
        printf("generation %d: gauntlet: weights %lld against %s: %s over %d games (match run %lld)\n",
               gen, (long long)weights_id, tc->gauntlet_engine.name, elo, mo.games, (long long)mo.run_id);
        fflush(stdout);
    }
    return code;
}

/* What the steps of one generation share. */
typedef struct Generation {
    Store *store;
    TrainConfig *tc;
    int64_t train_id;
    int gen;
    int64_t best_id;     /* the best weights the generation starts from */
    const Weights *best; /* and they, loaded */
} Generation;

/* Step 1. Self-play with the best weights; an interrupted one plays its missing games. */
static int step_selfplay(const Generation *g)
{
    TrainStep ts;
    int found = store_train_step_get(g->store, g->train_id, g->gen, "selfplay", &ts);
    if (found != 0)
        return found < 0 ? train_fail("%s", store_error(g->store)) : TRAIN_OK;
    RunSettings rs = *g->tc->run;
    rs.cfg.seed = step_seed(g->tc, g->gen, false); /* new games each generation */
    char params[1024];
    run_settings_describe(&rs, params, sizeof params);
    params_append(params, sizeof params, " weights=%lld train_run=%lld generation=%d",
                  (long long)g->best_id, (long long)g->train_id, g->gen);
    int64_t run_id;
    int code = selfplay_step(g->store, &rs, g->best, g->best_id, params, RESUME_IF_SAME, &run_id);
    if (code != TRAIN_OK || !journal_put(g->store, g->train_id, g->gen, "selfplay", run_id, g->best_id, 0, NULL))
        return code != TRAIN_OK ? code : TRAIN_FAILED;
    return TRAIN_OK;
}

/* Step 2. Tune a candidate on the self-play of the last `window` generations. */
static int step_tune(const Generation *g, int64_t *candidate_id)
{
    TrainStep ts;
    int found = store_train_step_get(g->store, g->train_id, g->gen, "tune", &ts);
    if (found < 0)
        return train_fail("%s", store_error(g->store));
    *candidate_id = found ? ts.ref_id : 0;
    if (found)
        return TRAIN_OK;
    const TrainConfig *tc = g->tc;
    int64_t runs[64];
    int nruns = 0;
    for (int k = g->gen; k >= 1 && k > g->gen - tc->window && nruns < 64; k--) {
        TrainStep sp;
        if (store_train_step_get(g->store, g->train_id, k, "selfplay", &sp) == 1)
            runs[nruns++] = sp.ref_id;
    }
    TuneConfig cfg;
    tune_default_config(&cfg, g->best->spec);
    cfg.start = *g->best; /* borrowed */
    cfg.run_ids = runs;
    cfg.nruns = nruns;
    cfg.threads = tc->run->cfg.threads;
    cfg.epochs = tc->epochs;
    cfg.lambda = tc->lambda;
    if (tc->lr_given)
        cfg.learning_rate = tc->learning_rate;
    if (tc->reg_given)
        cfg.reg = tc->reg;
    /* the epochs are a line drawn over: a terminal's, not a log's */
    bool show_epochs = tc->run->cfg.progress && !tc->run->cfg.progress_lines;
    int code = tune_step(g->store, &cfg, g->best_id, g->gen, NULL, show_epochs, interrupt_flag(), candidate_id);
    if (code != TRAIN_OK ||
        !journal_put(g->store, g->train_id, g->gen, "tune", *candidate_id, g->best_id, *candidate_id, NULL))
        return code != TRAIN_OK ? code : TRAIN_FAILED;
    return TRAIN_OK;
}

/* Step 3. Candidate (A) against the best (B), stopped by the SPRT; verdict gets the
 * journal's outcome (accept-H1, accept-H0, continue, or unchanged: no candidate). */
static int step_match(const Generation *g, int64_t candidate_id, char verdict[16])
{
    TrainStep ts;
    int found = store_train_step_get(g->store, g->train_id, g->gen, "match", &ts);
    if (found < 0)
        return train_fail("%s", store_error(g->store));
    if (found) {
        snprintf(verdict, 16, "%s", ts.outcome);
        return TRAIN_OK;
    }
    if (candidate_id == g->best_id) {
        /* The fit found nothing better than where it started: nothing to test. */
        printf("generation %d: the tuned weights equal the best weights; no match\n", g->gen);
        snprintf(verdict, 16, "unchanged");
        return journal_put(g->store, g->train_id, g->gen, "match", 0, g->best_id, candidate_id, verdict)
               ? TRAIN_OK : TRAIN_FAILED;
    }
    Weights candidate;
    if (!train_load_weights(g->store, g->tc, candidate_id, &candidate))
        return TRAIN_FAILED;
    MatchOutcome mo;
    int code = train_match(g->store, g->tc, g->train_id, g->gen, g->tc->match_games, &g->tc->sprt,
                           &candidate, candidate_id, g->best, g->best_id, &mo);
    weights_free(&candidate);
    snprintf(verdict, 16, "%s", mo.verdict == SPRT_ACCEPT_H1 ? "accept-H1"
                                : mo.verdict == SPRT_ACCEPT_H0 ? "accept-H0" : "continue");
    if (code != TRAIN_OK ||
        !journal_put(g->store, g->train_id, g->gen, "match", mo.run_id, g->best_id, candidate_id, verdict))
        return code != TRAIN_OK ? code : TRAIN_FAILED;
    return TRAIN_OK;
}

/* Step 4. Promote only on evidence; a promoted candidate meets the gauntlet first, so
 * that a run interrupted in it plays it again (its missing games) on resume. */
static int step_decide(const Generation *g, int64_t candidate_id, const char *verdict, int64_t *best_id)
{
    bool promote = strcmp(verdict, "accept-H1") == 0;
    if (promote && g->tc->gauntlet) {
        int code = train_gauntlet(g->store, g->tc, g->train_id, g->gen, candidate_id);
        if (code != TRAIN_OK)
            return code;
    }
    if (!journal_put(g->store, g->train_id, g->gen, "decision", 0, g->best_id, candidate_id,
                     promote ? "promoted" : "rejected"))
        return TRAIN_FAILED;
    if (candidate_id == g->best_id) /* said above: no candidate, nothing rejected */
        printf("generation %d: the best weights stay %lld\n", g->gen, (long long)g->best_id);
    else
        printf("generation %d: candidate %lld %s (best was %lld)\n", g->gen, (long long)candidate_id,
               promote ? "promoted" : "rejected", (long long)g->best_id);
    fflush(stdout);
    if (promote)
        *best_id = candidate_id;
    return TRAIN_OK;
}

int train_generation(Store *store, TrainConfig *tc, int64_t train_id, int gen, int64_t *best_id)
{
    Weights best;
    if (!train_load_weights(store, tc, *best_id, &best))
        return TRAIN_FAILED;
    Generation g = { store, tc, train_id, gen, *best_id, &best };
    int64_t candidate_id = 0;
    char verdict[16] = "";
    int code = step_selfplay(&g);
    if (code == TRAIN_OK)
        code = step_tune(&g, &candidate_id);
    if (code == TRAIN_OK)
        code = step_match(&g, candidate_id, verdict);
    if (code == TRAIN_OK)
        code = step_decide(&g, candidate_id, verdict, best_id);
    weights_free(&best);
    return code;
}
