/* The self-play step (dama selfplay, and each generation's games): the same weights on
 * both sides, every game stored in the step's run, the totals printed. */
#include <stdio.h>
#include <stdlib.h>

#include "interrupt.h"
#include "merge.h"
#include "selfplay_step.h"
#include "train_status.h"

int selfplay_step(Store *store, RunSettings *rs, const Weights *weights, int64_t weights_id,
                  const char *params, RunResume resume, int64_t *run_id_out)
{
    RunnerConfig *c = &rs->cfg;
    RunRecord run;
    int code = run_record_open(store, rs->db_path, "selfplay", params, weights_id, c, resume, &run);
    if (code != TRAIN_OK)
        return code;
    /* The run's identity leaves out the shard: every shard of a run names the same run. */
    char *identity = run_settings_identity(rs);
    bool oom = !identity, identified = !oom && store_run_identify(store, run.id, identity, c->shard, c->shards);
    free(identity);
    if (!identified) {
        run_record_close(store, rs->db_path, &run, "failed", false);
        return train_fail("%s: %s", rs->db_path, oom ? "out of memory" : store_error(store));
    }
    c->weights[0] = c->weights[1] = weights;
    c->weights_id[0] = c->weights_id[1] = weights_id;
    c->store = store;
    c->run_id = run.id;
    c->stored = run.stored;
    c->stop = interrupt_flag();
    c->label = "selfplay";
    c->on_pair = NULL;
    c->describe = NULL;
    RunnerTotals t;
    bool ok = runner_play(c, &t);
    c->stored = NULL;
    int64_t run_id = run.id;
    bool ended = run_record_close(store, rs->db_path, &run,
                                  !ok ? "failed" : t.interrupted ? "interrupted" : "done", ok);
    /* What is stored, not what was played: a batch lost to a failed write is not counted. */
    printf("selfplay run %lld games %d white %d draws %d black %d mars %d positions %lld "
           "time %.1f games/s %.2f db %.1f%%",
           (long long)run_id, t.games, t.white_wins, t.draws, t.black_wins, t.mars, t.positions,
           t.seconds, t.seconds > 0 ? t.games / t.seconds : 0.0,
           t.seconds > 0 ? 100.0 * t.db_seconds / t.seconds : 0.0);
    if (t.resumed)
        printf(" resumed %d stored", t.resumed);
    if (c->shards)
        printf(" shard %d/%d", c->shard, c->shards);
    printf("\n");
    fflush(stdout);
    if (run_id_out)
        *run_id_out = run_id;
    if (!ok)
        return train_fail("%s: %s (%d games of run %lld are stored; --resume continues it)",
                                 rs->db_path, t.error, t.resumed + t.games, (long long)run_id);
    if (!ended)
        return TRAIN_FAILED;
    if (t.interrupted) {
        fprintf(stderr, "dama: interrupted: %d games of run %lld are stored in %s; the same "
                "command with --resume continues it\n", t.resumed + t.games, (long long)run_id,
                rs->db_path);
        return TRAIN_INTERRUPTED;
    }
    return TRAIN_OK;
}
