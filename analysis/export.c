/* CSV export: store/export.c streams the rows of a named query; each WHAT here turns them
 * into CSV columns (most as they come, some with computed columns). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv_writer.h"
#include "export.h"
#include "game.h"
#include "position.h"
#include "search.h"
#include "texel.h"
#include "variant.h"
#include "weights.h"

const char *const export_names[] = {
    "runs", "games", "positions", "summary", "openings", "calibration", "tuning", "tune_runs",
    "matches", "weights", "analyses", NULL,
};

bool export_known(const char *what)
{
    for (int i = 0; export_names[i]; i++)
        if (strcmp(export_names[i], what) == 0)
            return true;
    return false;
}

size_t export_fen(const Position *pos, const Variant *v, char *buf)
{
    char *p = buf;
    *p++ = pos->side == WHITE ? 'W' : 'B';
    for (int c = 0; c < 2; c++) {
        *p++ = ':';
        *p++ = c == WHITE ? 'W' : 'B';
        bool first = true;
        for (Bitboard b = position_pieces(pos, c); b; b &= b - 1) {
            int sq = __builtin_ctzll(b);
            if (!first)
                *p++ = ',';
            first = false;
            if ((pos->kings[c] >> sq) & 1)
                *p++ = 'K';
            char name[8];
            for (const char *q = v->square_name(sq, name); *q;)
                *p++ = *q++;
        }
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* Calibration: one bucket of scores [low, low + width). */
typedef struct Bucket {
    int64_t positions, wins, draws, losses;
    double score_sum, expected_sum;
} Bucket;

typedef struct Exporter {
    CsvWriter w;
    const ExportOptions *o;
    const Variant *v;
    int64_t rows;
    Bucket *buckets;     /* calibration */
    int nbuckets, first_bucket;
} Exporter;

typedef struct ExportSpec {
    const char *name;
    /* NULL: the query's column names */
    void (*header)(Exporter *e, int n, const char *const *names);
    /* NULL: every cell as it comes */
    void (*row)(Exporter *e, int n, const StoreCell *c);
    /* after the last row (calibration writes its buckets) */
    void (*finish)(Exporter *e);
} ExportSpec;

static void write_cell(CsvWriter *w, const StoreCell *c)
{
    switch (c->type) {
    case STORE_CELL_INT: csv_int(w, c->i); break;
    case STORE_CELL_REAL: csv_real(w, c->r); break;
    case STORE_CELL_TEXT: csv_text_len(w, c->text, (size_t)c->len); break;
    default: csv_empty(w); break;
    }
}

static int64_t cell_int(const StoreCell *c)
{
    return c->type == STORE_CELL_INT ? c->i : c->type == STORE_CELL_REAL ? (int64_t)c->r : 0;
}

/* ---- positions ---- */

static void positions_header(Exporter *e, int n, const char *const *names)
{
    static const char *const cols[] = { "game_id", "ply", "fen", "white_men", "white_kings",
                                        "black_men", "black_kings", "side", "score",
                                        "capture_pending", "result", "stm_result", "stm_points",
                                        "variant" };
    (void)n, (void)names;
    csv_header(&e->w, cols, (int)(sizeof cols / sizeof cols[0]));
}

/* A bitboard as the int64 with the same bits (what SQLite stores): one integer dtype for
 * every row, where the unsigned value would need two above 2^63. */
static int64_t bits_as_int64(uint64_t b)
{
    int64_t i;
    memcpy(&i, &b, sizeof i);
    return i;
}

static bool stop_requested(const Exporter *e) { return e->o->stop && atomic_load(e->o->stop); }

/* Rows come from store_export_positions (decoded columns), not the generic walk. */
static int positions_row(void *ctx, const StorePositionRow *r)
{
    Exporter *e = ctx;
    CsvWriter *w = &e->w;
    const Position *pos = &r->pos;
    char fen[256];
    size_t len = export_fen(pos, e->v, fen);
    csv_int(w, r->game_id);
    csv_int(w, r->ply);
    csv_text_len(w, fen, len);
    csv_int(w, bits_as_int64(pos->men[WHITE]));
    csv_int(w, bits_as_int64(pos->kings[WHITE]));
    csv_int(w, bits_as_int64(pos->men[BLACK]));
    csv_int(w, bits_as_int64(pos->kings[BLACK]));
    csv_raw(w, pos->side == WHITE ? "white" : "black", 5);
    if (r->has_score)
        csv_int(w, r->score);
    else
        csv_empty(w);
    csv_raw(w, r->capture_pending ? "1" : "0", 1);
    /* the game's result as games.csv has it (White's view), then from the side to move:
     * stm_result and stm_points, the target a tuner fits (empty for an unfinished game) */
    bool draw = r->result == RESULT_DRAW, white_won = r->result == RESULT_WHITE_WINS;
    const char *result = r->result == RESULT_NONE ? "unfinished" : draw ? "draw" : white_won ? "white" : "black";
    const char *stm = r->result == RESULT_NONE ? "," : draw ? "draw,0.5" : white_won == (pos->side == WHITE) ? "win,1" : "loss,0";
    csv_raw(w, result, strlen(result));
    csv_raw(w, stm, strlen(stm));
    csv_text(w, e->v->name);  /* the filter's: every row is of that variant */
    csv_end_row(w);
    e->rows++;
    return w->error != 0 || stop_requested(e);
}

/* ---- summary: win rates, mean and standard deviation of the game length ---- */

enum { SUM_RUN, SUM_KIND, SUM_STATUS, SUM_GAMES, SUM_WHITE, SUM_DRAWS, SUM_BLACK, SUM_WMARS,
       SUM_BMARS, SUM_DREP, SUM_DNOPROG, SUM_DONE, SUM_DCAP, SUM_DOTHER, SUM_MIN, SUM_MAX,
       SUM_PLIES, SUM_PLIES2, SUM_VARIANT, SUM_NCOLS };

static void summary_header(Exporter *e, int n, const char *const *names)
{
    const char *cols[SUM_NCOLS + 2];
    int k = 0;
    for (int i = 0; i < n && i < SUM_PLIES; i++) {
        cols[k++] = names[i];
        if (i == SUM_BLACK) {
            cols[k++] = "white_score";
            cols[k++] = "black_score";
        }
    }
    cols[k++] = "mean_plies";
    cols[k++] = "stddev_plies";
    if (n > SUM_VARIANT)
        cols[k++] = names[SUM_VARIANT];
    csv_header(&e->w, cols, k);
}

static void summary_row(Exporter *e, int n, const StoreCell *c)
{
    CsvWriter *w = &e->w;
    double games = (double)cell_int(&c[SUM_GAMES]);
    for (int i = 0; i < n && i < SUM_PLIES; i++) {
        write_cell(w, &c[i]);
        if (i == SUM_BLACK) {
            double white = (double)cell_int(&c[SUM_WHITE]), draws = (double)cell_int(&c[SUM_DRAWS]);
            double black = (double)cell_int(&c[SUM_BLACK]);
            csv_real(w, games > 0 ? (white + 0.5 * draws) / games : NAN);
            csv_real(w, games > 0 ? (black + 0.5 * draws) / games : NAN);
        }
    }
    double sum = (double)cell_int(&c[SUM_PLIES]), sumsq = (double)cell_int(&c[SUM_PLIES2]);
    double mean = games > 0 ? sum / games : NAN;
    double var = games > 1 ? (sumsq - sum * sum / games) / (games - 1) : 0.0;
    csv_real(w, mean);
    csv_real(w, games > 0 ? sqrt(var > 0 ? var : 0) : NAN);
    if (n > SUM_VARIANT)
        write_cell(w, &c[SUM_VARIANT]);
    csv_end_row(w);
}

/* ---- calibration ---- */

static void calibration_header(Exporter *e, int n, const char *const *names)
{
    /* scores, wins and losses of the side to move */
    static const char *const cols[] = { "bucket_low", "bucket_high", "positions", "mean_score",
                                        "expected", "observed", "stm_wins", "draws", "stm_losses" };
    (void)n, (void)names;
    csv_header(&e->w, cols, (int)(sizeof cols / sizeof cols[0]));
}

static int floor_div(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static void calibration_row(Exporter *e, int n, const StoreCell *c)
{
    (void)n;
    if (c[1].type != STORE_CELL_INT || !e->buckets)
        return;
    int score = (int)c[1].i;
    if (score > SCORE_WIN_BOUND || score < -SCORE_WIN_BOUND)
        return; /* a forced result, not an evaluation */
    int idx = floor_div(score, e->o->bucket) - e->first_bucket;
    if (idx < 0 || idx >= e->nbuckets)
        return;
    Bucket *b = &e->buckets[idx];
    int side = c[0].i == BLACK ? BLACK : WHITE;
    char r = c[2].type == STORE_CELL_TEXT && c[2].len > 0 ? c[2].text[0] : '?';
    if (r == 'd')
        b->draws++;
    else if ((r == 'w' && side == WHITE) || (r == 'b' && side == BLACK))
        b->wins++;
    else if (r == 'w' || r == 'b')
        b->losses++;
    else
        return;
    b->positions++;
    b->score_sum += score;
    b->expected_sum += texel_sigmoid(e->o->k, score);
}

static void calibration_finish(Exporter *e)
{
    CsvWriter *w = &e->w;
    for (int i = 0; i < e->nbuckets; i++) {
        const Bucket *b = &e->buckets[i];
        if (!b->positions)
            continue;
        int64_t low = (int64_t)(i + e->first_bucket) * e->o->bucket;
        double np = (double)b->positions;
        csv_int(w, low);
        csv_int(w, low + e->o->bucket);
        csv_int(w, b->positions);
        csv_real(w, b->score_sum / np);
        csv_real(w, b->expected_sum / np);
        csv_real(w, ((double)b->wins + 0.5 * (double)b->draws) / np);
        csv_int(w, b->wins);
        csv_int(w, b->draws);
        csv_int(w, b->losses);
        csv_end_row(w);
        e->rows++;
    }
}

/* ---- weights: one column per linear weight name (a pattern set's table is no column) ---- */

enum { WCOL_TEXT = 8 };

static void weights_header(Exporter *e, int n, const char *const *names)
{
    const EvalSpec *spec = e->o->variant->eval;
    const char *cols[WCOL_TEXT + EVAL_MAX_WEIGHTS];
    int k = 0;
    for (int i = 0; i < n && i < WCOL_TEXT; i++)
        cols[k++] = names[i];
    for (int i = 0; i < weights_count(spec); i++)
        cols[k++] = weight_name(spec, i);
    csv_header(&e->w, cols, k);
}

static void weights_row(Exporter *e, int n, const StoreCell *c)
{
    CsvWriter *w = &e->w;
    for (int i = 0; i < n && i < WCOL_TEXT; i++)
        write_cell(w, &c[i]);
    const EvalSpec *spec = e->o->variant->eval;
    Weights wt;
    char source[64], err[512];
    snprintf(source, sizeof source, "weights %lld", (long long)cell_int(&c[0]));
    bool ok = n > WCOL_TEXT && c[WCOL_TEXT].type == STORE_CELL_TEXT &&
              weights_parse_linear_values(&wt, spec, c[WCOL_TEXT].text, strlen(c[WCOL_TEXT].text), source, err,
                                          sizeof err);
    if (!ok && e->o->warnings)
        fprintf(e->o->warnings, "dama: export weights: %s: the stored text does not parse with "
                "this build; its weight columns are left empty\n", source);
    for (int i = 0; i < weights_count(spec); i++) {
        if (ok)
            csv_int(w, wt.w[i]);
        else
            csv_empty(w);
    }
    if (ok)
        weights_free(&wt);
    csv_end_row(w);
}

/* ---- analyses: the score also as text (win7, loss4) ---- */

enum { ACOL_SCORE = 5 };

static void analyses_header(Exporter *e, int n, const char *const *names)
{
    const char *cols[32];
    int k = 0;
    for (int i = 0; i < n && k < 31; i++) {
        cols[k++] = names[i];
        if (i == ACOL_SCORE)
            cols[k++] = "score_text";
    }
    csv_header(&e->w, cols, k);
}

static void analyses_row(Exporter *e, int n, const StoreCell *c)
{
    CsvWriter *w = &e->w;
    for (int i = 0; i < n; i++) {
        write_cell(w, &c[i]);
        if (i == ACOL_SCORE) {
            char text[32];
            if (c[i].type == STORE_CELL_INT)
                csv_text(w, score_to_text((int)c[i].i, text, sizeof text));
            else
                csv_empty(w);
        }
    }
    csv_end_row(w);
}

static const ExportSpec specs[] = {
    { "runs", NULL, NULL, NULL },
    { "games", NULL, NULL, NULL },
    { "positions", positions_header, NULL, NULL },
    { "summary", summary_header, summary_row, NULL },
    { "openings", NULL, NULL, NULL },
    { "calibration", calibration_header, calibration_row, calibration_finish },
    { "tuning", NULL, NULL, NULL },
    { "tune_runs", NULL, NULL, NULL },
    { "matches", NULL, NULL, NULL },
    { "weights", weights_header, weights_row, NULL },
    { "analyses", analyses_header, analyses_row, NULL },
};

typedef struct WalkCtx {
    Exporter *e;
    const ExportSpec *spec;
} WalkCtx;

static int on_header(void *ctx, int n, const char *const *names)
{
    WalkCtx *wc = ctx;
    if (wc->spec->header)
        wc->spec->header(wc->e, n, names);
    else
        csv_header(&wc->e->w, names, n);
    return wc->e->w.error != 0;
}

static int on_row(void *ctx, int n, const StoreCell *cells)
{
    WalkCtx *wc = ctx;
    Exporter *e = wc->e;
    if (wc->spec->row) {
        wc->spec->row(e, n, cells);
    } else {
        for (int i = 0; i < n; i++)
            write_cell(&e->w, &cells[i]);
        csv_end_row(&e->w);
    }
    if (!wc->spec->finish)
        e->rows++;
    return e->w.error != 0 || stop_requested(e); /* a full disk stops the walk; commit reports it */
}

bool export_write(Store *s, const char *what, const ExportOptions *o, const char *path,
                  int64_t *rows, char *err, size_t errlen)
{
    const ExportSpec *spec = NULL;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (strcmp(specs[i].name, what) == 0)
            spec = &specs[i];
    if (!spec) {
        snprintf(err, errlen, "unknown export '%s'", what);
        return false;
    }
    ExportOptions opts = *o;
    if (opts.k <= 0)
        opts.k = EXPORT_DEFAULT_K;
    if (opts.bucket <= 0)
        opts.bucket = EXPORT_DEFAULT_BUCKET;
    if (!opts.variant) {
        snprintf(err, errlen, "export %s: no variant", what);
        return false;
    }
    Exporter e = { .o = &opts, .v = opts.variant };
    if (spec->finish) { /* calibration: every bucket that a non-forced score can fall in */
        e.first_bucket = floor_div(-SCORE_WIN_BOUND, opts.bucket);
        e.nbuckets = floor_div(SCORE_WIN_BOUND, opts.bucket) - e.first_bucket + 1;
        if (!(e.buckets = calloc((size_t)e.nbuckets, sizeof *e.buckets))) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
    }
    if (!csv_writer_open(&e.w, path, err, errlen)) {
        free(e.buckets);
        return false;
    }
    WalkCtx wc = { &e, spec };
    bool ok;
    if (spec->header == positions_header) { /* the fast path: a million rows a second */
        positions_header(&e, 0, NULL);
        ok = store_export_positions(s, opts.variant->name, opts.run_id, positions_row, &e);
    } else {
        ok = store_export_rows_ex(s, spec->name, opts.variant->name, opts.run_id, opts.include_unfinished, on_header, on_row, &wc);
    }
    if (!ok || stop_requested(&e)) {
        snprintf(err, errlen, "%s", ok ? "interrupted" : store_error(s));
        csv_writer_abort(&e.w);
        free(e.buckets);
        return false;
    }
    if (spec->finish && !e.w.error)
        spec->finish(&e);
    free(e.buckets);
    if (!csv_writer_commit(&e.w, err, errlen))
        return false;
    if (rows)
        *rows = e.rows;
    return true;
}
