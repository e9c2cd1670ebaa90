/* An annotation from its games to its PDN, CSV and stored run (annotate_job.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "annotate.h"
#include "annotate_input.h"
#include "annotate_job.h"
#include "job_error.h"
#include "bench.h"
#include "csv_writer.h"
#include "notation.h"
#include "pdn_write.h"
#include "weights_store.h"

static const char *db_of(const AnnotateJob *job) { return job->db ? job->db : "dama.db"; }

/* Reads the games: an exit code. */
static int read_games(const AnnotateJob *job, AnnotateGames *gs, char *err, size_t errlen)
{
    if (job->in)
        return annotate_read_pdn_file(gs, job->variant, &job->rules, job->in, job->stop, err, errlen);
    const char *db = db_of(job);
    if (access(db, F_OK) != 0)
        return job_fail(1, err, errlen, "%s: no such database", db);
    Store *s = store_open_readonly(db, err, errlen);
    if (!s)
        return 1;
    int code = job->game ? annotate_add_stored(gs, s, job->variant, &job->rules, job->game, err, errlen)
                         : annotate_add_run(gs, s, job->variant, &job->rules, job->run, err, errlen);
    store_close(s);
    return code;
}

/* The outputs of a job, open. */
typedef struct Outputs {
    FILE *pdn;
    bool own_pdn;
    CsvWriter w;
    bool csv;
    int marks[4];
} Outputs;

/* The moves in the long form, as pdn_write_game reads them (malloc'd; NULL: out of memory). */
static char *long_moves(const Variant *v, const AnnotateGame *g)
{
    char *moves = malloc((size_t)g->nmoves * 128 + 1);
    size_t len = 0;
    if (!moves)
        return NULL;
    moves[0] = '\0';
    for (int k = 0; k < g->nmoves; k++) {
        char text[128];
        move_to_text(v, &g->moves[k], text, sizeof text);
        len += (size_t)sprintf(moves + len, "%s%s", k ? " " : "", text);
    }
    return moves;
}

static void csv_rows(Outputs *o, const AnnotateGame *g, const AnnotatedMove *m)
{
    for (int k = 0; k < g->nmoves && o->csv; k++) {
        CsvWriter *w = &o->w;
        csv_text(w, g->id);
        csv_int(w, m[k].ply);
        csv_text(w, m[k].move);
        csv_text(w, m[k].mover == WHITE ? "white" : "black");
        csv_int(w, m[k].before);
        csv_int(w, m[k].after);
        csv_int(w, m[k].loss);
        csv_text(w, annotate_mark_text(m[k].mark));
        csv_text(w, m[k].best);
        csv_text(w, m[k].line);
        csv_end_row(w);
    }
}

/* Game g annotated from its results into the outputs: an exit code. */
static int write_game(const AnnotateJob *job, Outputs *o, const AnnotateGame *g, const BatchResult *results,
                      char *err, size_t errlen)
{
    const Variant *v = job->variant;
    AnnotatedMove *m = NULL;
    StorePdnNote *notes = NULL;
    int nnotes = 0;
    if (!annotate_game(v, &job->rules, &annotate_thresholds_default, g, results, &m)
        || !annotate_notes(m, g->nmoves, &notes, &nnotes)) {
        annotated_moves_free(m, g->nmoves);
        return job_fail(1, err, errlen, "out of memory");
    }
    int code = 0;
    char *moves = long_moves(v, g);
    PdnGameOut out = { v, &job->rules, &g->start, g->setup, moves, g->result, g->tags, g->ntags, notes, nnotes };
    char why[512];
    if (!moves)
        code = job_fail(1, err, errlen, "out of memory");
    else if (!pdn_write_game(o->pdn, &out, why, sizeof why))
        code = job_fail(1, err, errlen, "game %s: %s", g->id, why);
    csv_rows(o, g, m);
    for (int k = 0; k < g->nmoves; k++)
        o->marks[m[k].mark]++;
    free(moves);
    annotate_notes_free(notes, nnotes);
    annotated_moves_free(m, g->nmoves);
    return code;
}

static int open_outputs(const AnnotateJob *job, FILE *out, Outputs *o, char *err, size_t errlen)
{
    *o = (Outputs){ .pdn = out, .csv = job->csv != NULL };
    if (job->out && strcmp(job->out, "-") != 0) {
        if (!(o->pdn = fopen(job->out, "w")))
            return job_fail(1, err, errlen, "%s: cannot write: %s", job->out, strerror(errno));
        o->own_pdn = true;
    }
    if (o->csv && !csv_writer_open(&o->w, job->csv, err, errlen)) {
        if (o->own_pdn)
            fclose(o->pdn);
        return 1;
    }
    if (o->csv)
        csv_header(&o->w, annotate_csv_columns, ANNOTATE_CSV_NCOLUMNS);
    return 0;
}

/* The PDN and the CSV of every game, then the summary on log: an exit code. */
static int write_outputs(const AnnotateJob *job, const AnnotateGames *gs, const BatchResult *results,
                         FILE *out, FILE *log, char *err, size_t errlen)
{
    Outputs o;
    int code = open_outputs(job, out, &o, err, errlen), offset = 0;
    if (code)
        return code;
    for (int i = 0; i < gs->n && code == 0; i++) {
        code = write_game(job, &o, &gs->games[i], results + offset, err, errlen);
        offset += gs->games[i].nmoves + 1;
    }
    if (o.csv && code == 0 && !csv_writer_commit(&o.w, err, errlen))
        code = 1;
    else if (o.csv && code != 0)
        csv_writer_abort(&o.w);
    if (fflush(o.pdn) != 0 || (o.own_pdn && fclose(o.pdn) != 0))
        code = code ? code : job_fail(1, err, errlen, "%s: cannot write: %s", job->out ? job->out : "stdout",
                                  strerror(errno));
    if (code == 0)
        fprintf(log, "annotated %d game%s: %d ?!, %d ?, %d ??\n", gs->n, gs->n == 1 ? "" : "s",
                o.marks[MARK_INACCURACY], o.marks[MARK_MISTAKE], o.marks[MARK_BLUNDER]);
    return code;
}

/* A stored game's annotation is its positions' analysis: one run of kind 'analysis', what
 * the replay page reads back (`dama serve`).  A database that cannot be written is said on
 * log and left as it is. */
static int store_results(const AnnotateJob *job, const BatchList *list, const BatchResult *results,
                         time_t started, FILE *log, char *err, size_t errlen)
{
    const char *db = db_of(job);
    char why[512];
    if (!store_path_writable(db, why, sizeof why)) {
        fprintf(log, "dama: %s: the annotation will not be stored: cannot write the database: %s\n", db, why);
        return 0;
    }
    Store *s = store_open(db, err, errlen);
    if (!s)
        return 1;
    char params[1024], signature[64];
    snprintf(params, sizeof params, "annotate source=%s:%lld depth=%d nodes=%llu movetime=%d weights=%s",
             job->game ? "game" : "run", (long long)(job->game ? job->game : job->run), job->limits.depth,
             (unsigned long long)job->limits.nodes, job->limits.movetime_ms,
             job->weights_name ? job->weights_name : "best");
    if (!bench_signature(job->variant, signature, sizeof signature, err, errlen)) {
        store_close(s);
        return 1;
    }
    int64_t weights_id = weights_store_save(s, job->weights, 0, 0, job->weights_name ? job->weights_name
                                                                                       : "built-in best weights");
    int64_t run = weights_id < 0 ? -1
                  : batch_store(s, job->variant, list, results, params, job->engine_version, signature,
                                weights_id, (int64_t)started);
    int code = run < 0 ? job_fail(1, err, errlen, "%s: %s", db, store_error(s)) : 0;
    store_close(s);
    return code;
}

/* The games' positions searched, then written and stored: an exit code. */
static int annotate_games(const AnnotateJob *job, const AnnotateGames *gs, FILE *out, FILE *log, char *err,
                          size_t errlen)
{
    time_t started = time(NULL);
    BatchList list;
    batch_list_init(&list, log, true);
    if (!annotate_positions(job->variant, gs->games, gs->n, &list)) {
        batch_list_free(&list);
        return job_fail(1, err, errlen, "out of memory");
    }
    BatchConfig cfg = {
        .variant = job->variant,
        .rules = job->rules,
        .weights = job->weights,
        .limits = job->limits,
        .threads = job->threads,
        .hash_mb = (size_t)job->hash_mb,
        .progress = job->progress,
        .stop = job->stop,
        .egdb = job->egdb,
    };
    BatchResult *results = NULL;
    bool interrupted = false;
    int code = 0;
    if (!batch_run(&cfg, &list, &results, &interrupted, err, errlen))
        code = 1;
    else if (interrupted)
        code = job_fail(130, err, errlen, "interrupted: nothing written");
    if (code == 0)
        code = write_outputs(job, gs, results, out, log, err, errlen);
    if (code == 0 && !job->in)
        code = store_results(job, &list, results, started, log, err, errlen);
    batch_results_free(results, list.count);
    batch_list_free(&list);
    return code;
}

int annotate_job_run(const AnnotateJob *job, FILE *out, FILE *log, char *err, size_t errlen)
{
    AnnotateGames gs = { 0 };
    err[0] = '\0';
    int code = read_games(job, &gs, err, errlen);
    if (code == 0)
        code = annotate_games(job, &gs, out, log, err, errlen);
    annotate_games_free(&gs);
    return code;
}
