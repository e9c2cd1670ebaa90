/* Batch analysis, its work: searching the positions in parallel, writing the results. */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "csv_writer.h"
#include "egdb_search.h"
#include "notation.h"
#include "position.h"
#include "variant.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The PV as text (malloc'd). */
static char *pv_text(const Variant *v, const SearchInfo *info)
{
    size_t cap = (size_t)info->pv_length * 64 + 1, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (int i = 0; i < info->pv_length; i++) {
        char text[128];
        move_to_text(v, &info->pv[i], text, sizeof text);
        size_t n = strlen(text);
        if (len + n + 2 > cap)
            break;
        if (i)
            out[len++] = ' ';
        memcpy(out + len, text, n + 1);
        len += n;
    }
    return out;
}

/* Fills a position's result from its search; false when out of memory for the PV's text. */
static bool result_from(const Variant *v, const SearchInfo *info, BatchResult *r)
{
    if (info->pv_length > 0)
        move_to_text(v, &info->pv[0], r->best, sizeof r->best);
    r->pv = pv_text(v, info);
    if (!r->pv)
        return false;
    r->score = info->score;
    r->depth = info->depth;
    r->nodes = info->nodes;
    r->time_ms = llround(info->seconds * 1000.0);
    r->done = true;
    return true;
}

/* Counts a finished position and shows the count, at most every 0.2 s and at the last. */
static void report_progress(int *done, int n, double *last_report)
{
#pragma omp critical(dama_batch_progress)
    {
        (*done)++;
        double t = now_seconds();
        if (t - *last_report >= 0.2 || *done == n) {
            *last_report = t;
            fprintf(stderr, "\ranalyze %d/%d positions", *done, n);
            fflush(stderr);
        }
    }
}

bool batch_run(const BatchConfig *cfg, const BatchList *l, BatchResult **out, bool *interrupted,
               char *err, size_t errlen)
{
    *interrupted = false;
    *out = NULL;
    int n = l->count;
    BatchResult *res = calloc(n > 0 ? (size_t)n : 1, sizeof *res);
    if (!res) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    int threads = cfg->threads > 0 ? cfg->threads : omp_get_max_threads();
    if (threads > n)
        threads = n > 0 ? n : 1;
    int failed = 0, done = 0, stopped = 0;
    double last_report = 0;
    const SearchLimits limits = cfg->limits;
#pragma omp parallel num_threads(threads)
    {
        Searcher *s = searcher_new(cfg->variant, &cfg->rules, cfg->weights, cfg->hash_mb);
        if (!s) {
#pragma omp atomic write
            failed = 1;
        } else {
            s->stop_request = cfg->stop;
            egdb_search_attach(s, cfg->egdb);
        }
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < n; i++) {
            int give_up;
#pragma omp atomic read
            give_up = failed;
            if (give_up || !s)
                continue;
            if (cfg->stop && atomic_load(cfg->stop)) {
#pragma omp atomic write
                stopped = 1;
                continue;
            }
            searcher_clear(s);
            SearchInfo info = search(s, &l->items[i].pos, NULL, 0, &limits, NULL, NULL);
            if (info.interrupted) {
#pragma omp atomic write
                stopped = 1;
                continue; /* the position in flight is dropped, finished ones are kept */
            }
            if (!result_from(cfg->variant, &info, &res[i])) {
#pragma omp atomic write
                failed = 2;
                continue;
            }
            if (cfg->progress)
                report_progress(&done, n, &last_report);
        }
        searcher_free(s);
    }
    if (cfg->progress && n > 0)
        fputc('\n', stderr);
    if (failed) {
        snprintf(err, errlen, failed == 1 ? "out of memory for a %zu MB hash table per thread"
                                          : "out of memory", cfg->hash_mb);
        batch_results_free(res, n);
        return false;
    }
    *interrupted = stopped != 0;
    *out = res;
    return true;
}

void batch_results_free(BatchResult *r, int n)
{
    if (!r)
        return;
    for (int i = 0; i < n; i++)
        free(r[i].pv);
    free(r);
}

/* ---- output ---- */

/* The names of analyses.csv (docs/csv.md): score is the number, score_text its text. */
const char *const batch_csv_columns[BATCH_CSV_NCOLUMNS] = {
    "item_id", "fen", "best_move", "score", "score_text", "depth", "nodes", "time_ms", "pv",
};

bool batch_write_csv(const BatchList *l, const BatchResult *r, const char *path, char *err,
                     size_t errlen)
{
    CsvWriter w;
    if (!csv_writer_open(&w, path, err, errlen))
        return false;
    csv_header(&w, batch_csv_columns, BATCH_CSV_NCOLUMNS);
    for (int i = 0; i < l->count; i++) {
        if (!r[i].done)
            continue;
        char score[32];
        csv_text(&w, l->items[i].id);
        csv_text(&w, l->items[i].fen);
        csv_text(&w, r[i].best);
        csv_int(&w, r[i].score);
        csv_text(&w, score_to_text(r[i].score, score, sizeof score));
        csv_int(&w, r[i].depth);
        csv_uint(&w, r[i].nodes);
        csv_int(&w, r[i].time_ms);
        csv_text(&w, r[i].pv);
        csv_end_row(&w);
    }
    return csv_writer_commit(&w, err, errlen);
}

int64_t batch_store(Store *s, const Variant *v, const BatchList *l, const BatchResult *r, const char *params,
                    const char *engine_version, const char *bench_signature, int64_t weights_id,
                    int64_t started_at)
{
    AnalysisRecord *rows = calloc(l->count > 0 ? (size_t)l->count : 1, sizeof *rows);
    if (!rows)
        return -1;
    int n = 0;
    for (int i = 0; i < l->count; i++) {
        if (!r[i].done)
            continue;
        rows[n++] = (AnalysisRecord){
            .item_id = l->items[i].id,
            .fen = l->items[i].fen,
            .best_move = r[i].best[0] ? r[i].best : NULL,
            .pv = r[i].pv,
            .score = r[i].score,
            .depth = r[i].depth,
            .nodes = (int64_t)r[i].nodes,
            .time_ms = r[i].time_ms,
        };
    }
    int64_t id = store_analyses_put(s, v->name, params, engine_version, bench_signature, weights_id,
                                    started_at, rows, n);
    free(rows);
    return id;
}
