/* The training journal (journal.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "match_elo.h"
#include "train_status.h"

bool journal_put(Store *store, int64_t train_id, int gen, const char *step, int64_t ref,
                 int64_t best, int64_t candidate, const char *outcome)
{
    TrainStep ts = { .ref_id = ref, .best_weights_id = best, .candidate_weights_id = candidate };
    snprintf(ts.outcome, sizeof ts.outcome, "%s", outcome ? outcome : "");
    if (store_train_step_put(store, train_id, gen, step, &ts))
        return true;
    train_fail("%s", store_error(store));
    return false;
}

int journal_resume_point(Store *store, int64_t train_id, int64_t start_id, int64_t *best_id)
{
    *best_id = start_id;
    for (int gen = 1;; gen++) {
        TrainStep ts;
        int found = store_train_step_get(store, train_id, gen, "decision", &ts);
        if (found <= 0)
            return found < 0 ? -1 : gen;
        if (strcmp(ts.outcome, "promoted") == 0)
            *best_id = ts.candidate_weights_id;
    }
}

/* One stored match row, read back for the summary. */
typedef struct MatchRow {
    int cols[6];              /* games, elo, elo_low, elo_high, llr, verdict */
    double value[5];
    char verdict[16];
    bool found;
} MatchRow;

static const char *const match_row_names[6] = { "games", "elo", "elo_low", "elo_high", "llr", "verdict" };

static int match_row_header(void *ctx, int ncols, const char *const *names)
{
    MatchRow *mr = ctx;
    for (int k = 0; k < 6; k++) {
        mr->cols[k] = -1;
        for (int i = 0; i < ncols; i++)
            if (strcmp(names[i], match_row_names[k]) == 0)
                mr->cols[k] = i;
        if (mr->cols[k] < 0)
            return 1;
    }
    return 0;
}

static int match_row(void *ctx, int ncols, const StoreCell *cells)
{
    MatchRow *mr = ctx;
    (void)ncols;
    for (int k = 0; k < 5; k++) {
        const StoreCell *c = &cells[mr->cols[k]];
        mr->value[k] = c->type == STORE_CELL_INT ? (double)c->i : c->type == STORE_CELL_REAL ? c->r : NAN;
    }
    const StoreCell *v = &cells[mr->cols[5]];
    snprintf(mr->verdict, sizeof mr->verdict, "%s", v->type == STORE_CELL_TEXT ? v->text : "");
    mr->found = true;
    return 0; /* the last row of the run wins: a resumed match may have written two */
}

/* Each generation's fit, read back for the summary: its data size and wall time. */
typedef struct FitRow {
    int64_t positions, seconds; /* -1: not recorded */
} FitRow;
typedef struct FitRows {
    FitRow *rows;
    int count;
} FitRows;

/* The columns of store/browse.c's "generations" query that the summary reads. */
enum { GENERATIONS_COL_GENERATION = 0, GENERATIONS_COL_POSITIONS = 10, GENERATIONS_COL_FIT_SECONDS = 11 };

static int fit_row(void *ctx, int ncols, const StoreCell *cells)
{
    FitRows *fits = ctx;
    if (ncols <= GENERATIONS_COL_FIT_SECONDS || cells[GENERATIONS_COL_GENERATION].type != STORE_CELL_INT)
        return 0;
    int64_t gen = cells[GENERATIONS_COL_GENERATION].i;
    if (gen < 1 || gen > fits->count)
        return 0;
    const StoreCell *p = &cells[GENERATIONS_COL_POSITIONS], *t = &cells[GENERATIONS_COL_FIT_SECONDS];
    fits->rows[gen - 1] = (FitRow){ p->type == STORE_CELL_INT ? p->i : -1, t->type == STORE_CELL_INT ? t->i : -1 };
    return 0;
}

/* One generation's line: its decision, its match's Elo and its fit's data size and time. */
static int print_generation(Store *store, const char *variant, int64_t train_id, int gen, const FitRow *fit)
{
    TrainStep match, decision;
    if (store_train_step_get(store, train_id, gen, "match", &match) != 1 ||
        store_train_step_get(store, train_id, gen, "decision", &decision) != 1)
        return train_fail("train run %lld: generation %d is not in the journal: %s",
                          (long long)train_id, gen, store_error(store));
    MatchRow mr = { .found = false };
    if (match.ref_id > 0 && !store_export_rows(store, "matches", variant, match.ref_id, match_row_header,
                                               match_row, &mr))
        return train_fail("%s", store_error(store));
    char fitted[96] = "";
    if (fit->positions >= 0)
        snprintf(fitted, sizeof fitted, "; fitted on %lld positions in %lld s", (long long)fit->positions,
                 (long long)(fit->seconds >= 0 ? fit->seconds : 0));
    if (mr.found) {
        /* A match of too few pairs stored no estimate (NULL: NaN here). */
        EloEstimate e = match_elo_from_stored(mr.value[0], mr.value[1], mr.value[2], mr.value[3]);
        char elo[96];
        match_elo_text(&e, elo, sizeof elo);
        printf("  generation %d: %s: %s llr %.2f over %.0f games (%s)%s\n", gen, decision.outcome, elo,
               mr.value[4], mr.value[0], mr.verdict, fitted);
    } else
        printf("  generation %d: %s: %s%s\n", gen, decision.outcome,
               strcmp(match.outcome, "unchanged") == 0 ? "the tuned weights equal the best; no match"
                                                       : "no match recorded",
               fitted);
    return TRAIN_OK;
}

int journal_print_summary(Store *store, const char *variant, int64_t train_id, int generations)
{
    FitRows fits = { calloc(generations > 0 ? (size_t)generations : 1, sizeof(FitRow)), generations };
    if (!fits.rows)
        return train_fail("out of memory");
    for (int gen = 0; gen < generations; gen++)
        fits.rows[gen] = (FitRow){ -1, -1 };
    StoreCell id = { .type = STORE_CELL_INT, .i = train_id };
    if (!store_browse_rows(store, "generations", &id, 1, fit_row, &fits)) {
        free(fits.rows);
        return train_fail("%s", store_error(store));
    }
    printf("summary of train run %lld:\n", (long long)train_id);
    int code = TRAIN_OK;
    for (int gen = 1; gen <= generations && code == TRAIN_OK; gen++)
        code = print_generation(store, variant, train_id, gen, &fits.rows[gen - 1]);
    free(fits.rows);
    return code;
}
