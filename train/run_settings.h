/* The settings of a run of games (self-play, match, a training run's steps) once read:
 * the runner's configuration, where the openings come from, how outside engines are run,
 * and the text that records them in the run's params. */
#ifndef DAMA_RUN_SETTINGS_H
#define DAMA_RUN_SETTINGS_H

#include "runner.h"

typedef struct RunSettings {
    const char *db_path;       /* the database, named in messages */
    RunnerConfig cfg;
    const char *openings_path; /* the openings file or book as given; NULL: random openings */
    OpeningBook book;          /* its positions (cfg.book points here once loaded) */
    int engine_margin_ms, engine_timeout_ms;   /* EngineConfig's, for every outside engine */
    const char *engine_params[ENGINE_MAX_PARAMS]; /* --engine-param, "[a:|b:]NAME=VALUE" */
    int nengine_params;
} RunSettings;

/* "games=N nodes=K ..." for the run record: every setting that changes the games (a clock
 * only when there is one, so that the params of earlier runs stay the same). */
void run_settings_describe(const RunSettings *rs, char *buf, size_t len);
/* What names a self-play run the same on every machine (store_run_identify): the settings
 * as run_settings_describe has them, but an openings file by its positions rather than by
 * its path.  malloc'd; NULL when memory runs out. */
char *run_settings_identity(const RunSettings *rs);
/* The openings of rs's games: the balanced positions at book_ply of the opening book at
 * book_path (when given; rs->openings_path then names it), else the openings file
 * rs->openings_path, else none (random openings).  cfg.book points to them once loaded.
 * false with err saying why. */
bool run_settings_load_openings(RunSettings *rs, const char *book_path, int book_ply, const atomic_bool *stop,
                                char *err, size_t errlen);
/* Opens the endgame databases once the rules are known: those of dir for both sides'
 * searches and the games' adjudication (egdb[0]), and those of side_dir[i] for side i's
 * search only (egdb[1 + i]); the caller closes the three.  One that cannot be used is
 * reported and left out (egdb_open_checked). */
void run_settings_open_egdb(RunSettings *rs, const char *dir, const char *const side_dir[2], Egdb *egdb[3]);
/* Makes the outside engine out (run_settings_engine's, its command the program to start
 * first or "") a DXP side (dxp/dxp_player.c) at address, named "dxp:ADDRESS". */
void run_settings_dxp_engine(EngineConfig *out, const char *address);
/* The side an --engine-param is for: 0 for "a:NAME=VALUE", 1 for "b:...", -1 for both. */
int run_settings_param_side(const char *param);
/* The outside engine of side (0: A, 1: B) run by command with rs's engine options (the
 * --engine-param for both sides and those for its own) and variant, and the rule options
 * rules_text[0..nrules) joined as one list. */
void run_settings_engine(const RunSettings *rs, int side, const char *command, const char *const *rules_text,
                         int nrules, EngineConfig *out);
/* The index of the first --engine-param naming a side (a: or b:) that is not an outside
 * engine (outside[side] false); -1 when there is none. */
int run_settings_misplaced_param(const RunSettings *rs, const bool outside[2]);

/* fmt's text at the end of the params text in buf (len bytes), as much as fits. */
void params_append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
