/* `dama selfplay` and `dama match` as one call each, once their options are read: the
 * database opened, the weights stored, the run's params written, the step played
 * (selfplay_step.h, match_step.h).  A script or the server may call them. */
#ifndef DAMA_RUN_JOBS_H
#define DAMA_RUN_JOBS_H

#include "match_step.h"
#include "selfplay_step.h"

/* Self-play of weights (stored with weights_note) by rs, in rs->db_path; the params name
 * the weights' id and, when rs->cfg.shards is set, the shard.  A TrainStatus, the error
 * line printed. */
int selfplay_job(RunSettings *rs, const Weights *weights, const char *weights_note, RunResume resume);

/* Longest name of a side (bytes): short enough for a PDN tag. */
#define MATCH_SIDE_NAME_MAX 100

/* The sides' names: given (--name-a, --name-b), else an engine's own (its `id name=` and
 * version), else the weights as named (default, best, a file); two equal names become
 * "NAME (A)" and "NAME (B)", so the games always tell the sides apart.  engines[i] is read
 * only for a side with commands[i]. */
void match_side_names(const char *const given[2], const char *const paths[2], const EngineConfig engines[2],
                      const char *const commands[2], char names[2][MATCH_SIDE_NAME_MAX + 8]);

/* A match of w[0] (A) against w[1] (B) by rs, in rs->db_path: a side with rs->cfg.engine
 * set is that outside engine (its weights not stored), the other's weights stored with
 * notes[i].  A TrainStatus, the error line printed. */
int match_job(RunSettings *rs, const SprtConfig *sprt, const Weights w[2], const char *const notes[2],
              RunResume resume);

#endif
