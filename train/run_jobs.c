/* Self-play and matches from their settings to their stored runs (run_jobs.h). */
#include <stdio.h>
#include <string.h>

#include "run_jobs.h"
#include "train_status.h"
#include "weights_store.h"

static Store *open_store(const char *path)
{
    char err[512];
    Store *s = store_open(path, err, sizeof err);
    if (!s)
        train_fail("%s", err);
    return s;
}

int selfplay_job(RunSettings *rs, const Weights *weights, const char *weights_note, RunResume resume)
{
    Store *store = open_store(rs->db_path);
    if (!store)
        return TRAIN_FAILED;
    int code = TRAIN_OK;
    int64_t weights_id = weights_store_save(store, weights, 0, 0, weights_note);
    char params[1024];
    run_settings_describe(rs, params, sizeof params);
    size_t n = strlen(params);
    n += (size_t)snprintf(params + n, sizeof params - n, " weights=%lld", (long long)weights_id);
    if (rs->cfg.shards && n < sizeof params)
        snprintf(params + n, sizeof params - n, " shard=%d/%d", rs->cfg.shard, rs->cfg.shards);
    if (weights_id < 0)
        code = train_fail("%s: %s", rs->db_path, store_error(store));
    else
        code = selfplay_step(store, rs, weights, weights_id, params, resume, NULL);
    store_close(store);
    return code;
}

void match_side_names(const char *const given[2], const char *const paths[2], const EngineConfig engines[2],
                      const char *const commands[2], char names[2][MATCH_SIDE_NAME_MAX + 8])
{
    for (int i = 0; i < 2; i++) {
        const char *name = given[i] ? given[i] : commands[i] ? engines[i].name : paths[i] ? paths[i] : "default";
        snprintf(names[i], MATCH_SIDE_NAME_MAX + 1, "%.*s", MATCH_SIDE_NAME_MAX, name);
    }
    if (strcmp(names[0], names[1]) == 0)
        for (int i = 0; i < 2; i++)
            strcat(names[i], i ? " (B)" : " (A)");
}

int match_job(RunSettings *rs, const SprtConfig *sprt, const Weights w[2], const char *const notes[2],
              RunResume resume)
{
    Store *store = open_store(rs->db_path);
    if (!store)
        return TRAIN_FAILED;
    int code;
    int64_t ids[2];
    for (int i = 0; i < 2; i++) /* an engine has no weights: 0, stored as NULL */
        ids[i] = rs->cfg.engine[i] ? 0 : i && ids[0] < 0 ? -1 : weights_store_save(store, &w[i], 0, 0, notes[i]);
    if (ids[0] < 0 || ids[1] < 0) {
        code = train_fail("%s: %s", rs->db_path, store_error(store));
    } else {
        char params[1024];
        match_params(rs, sprt, ids, params, sizeof params);
        MatchOutcome outcome;
        code = match_step(store, rs, sprt, &w[0], ids[0], &w[1], ids[1], params, resume, &outcome);
    }
    store_close(store);
    return code;
}
