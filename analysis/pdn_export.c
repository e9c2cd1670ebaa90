/* The store's games as one PDN file (pdn_export.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "csv_writer.h"
#include "pdn_export.h"
#include "job_error.h"
#include "pdn_write.h"
#include "position.h"
#include "variant.h"

static bool stopped(const PdnExport *job) { return job->stop && atomic_load(job->stop); }

/* The tags dama writes for a game it played (an imported game keeps the tags it had). */
typedef struct MadeTags {
    StorePdnTag tags[12];
    char text[12][128]; /* a side's name: up to 100 bytes and " (A)" */
    int n;
} MadeTags;

static void made_tag(MadeTags *t, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void made_tag(MadeTags *t, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->text[t->n], sizeof t->text[t->n], fmt, ap);
    va_end(ap);
    t->tags[t->n] = (StorePdnTag){ (char *)name, t->text[t->n] };
    t->n++;
}

/* White and Black: the players' names stored with the game (a match's sides) come first;
 * in a game a person played (dama play, dama serve) the side without weights is theirs. */
static void made_sides(MadeTags *t, const GameRecord *r, const StoredPdn *p)
{
    bool play = strcmp(p->run_kind, "play") == 0;
    const char *stored[2] = { NULL, NULL };
    for (int i = 0; i < p->ntags; i++)
        for (int side = 0; side < 2; side++)
            if (!stored[side] && strcasecmp(p->tags[i].name, side ? "Black" : "White") == 0)
                stored[side] = p->tags[i].value;
    made_tag(t, "White", "%s", stored[0] ? stored[0] : play && r->white_weights_id <= 0 ? "human" : "dama");
    made_tag(t, "Black", "%s", stored[1] ? stored[1] : play && r->black_weights_id <= 0 ? "human" : "dama");
}

static void make_tags(MadeTags *t, const StoredGame *g, const StoredPdn *p)
{
    const GameRecord *r = &g->rec;
    time_t when = (time_t)g->created_at;
    struct tm tm;
    t->n = 0;
    made_tag(t, "Event", "dama %s run %lld", p->run_kind, (long long)r->run_id);
    made_tag(t, "Site", "%s", p->run_host ? p->run_host : "?");
    if (gmtime_r(&when, &tm))
        made_tag(t, "Date", "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    if (r->has_index)
        made_tag(t, "Round", "%d", r->game_index + 1);
    made_sides(t, r, p);
    made_tag(t, "DamaRun", "%lld", (long long)r->run_id);
    if (r->has_index)
        made_tag(t, "DamaGameIndex", "%d", r->game_index);
    made_tag(t, "DamaSeed", "%llu", (unsigned long long)r->seed);
    if (r->white_weights_id > 0)
        made_tag(t, "DamaWhiteWeights", "%lld %s", (long long)r->white_weights_id, p->white_weights_hash);
    if (r->black_weights_id > 0)
        made_tag(t, "DamaBlackWeights", "%lld %s", (long long)r->black_weights_id, p->black_weights_hash);
    if (r->reason)
        made_tag(t, "DamaReason", "%s", r->reason);
}

/* One game as PDN into f: an exit code. */
static int export_game(const PdnExport *job, int64_t id, FILE *f, char *err, size_t errlen)
{
    const Variant *v = job->variant;
    StoredGame g;
    StoredPdn p;
    if (!store_game_read(job->store, id, &g))
        return job_fail(1, err, errlen, "%s: %s", job->db_path, store_error(job->store));
    if (!store_pdn_read(job->store, id, &p)) {
        store_game_free(&g);
        return job_fail(1, err, errlen, "%s: %s", job->db_path, store_error(job->store));
    }
    Position start;
    char why[256];
    int code = 0;
    if (p.opening_fen) {
        if (!position_from_fen(&start, v, p.opening_fen, why, sizeof why))
            code = job_fail(1, err, errlen, "%s: game %lld: its opening: %s", job->db_path, (long long)id, why);
    } else if (g.rec.npositions > 0) {
        start = g.positions[0].pos;
    } else {
        v->start(&start);
    }
    Position initial;
    v->start(&initial);
    MadeTags made;
    if (!p.imported)
        make_tags(&made, &g, &p);
    PdnGameOut out = {
        .variant = v, .rules = job->rules, .start = &start, .setup = !position_equal(&start, &initial),
        .moves = g.rec.moves, .result = g.rec.result,
        .tags = p.imported ? p.tags : made.tags, .ntags = p.imported ? p.ntags : made.n,
        .notes = p.notes, .nnotes = p.nnotes,
    };
    if (code == 0 && !pdn_write_game(f, &out, why, sizeof why))
        code = job_fail(1, err, errlen, "%s: game %lld: %s", job->db_path, (long long)id, why);
    store_pdn_free(&p);
    store_game_free(&g);
    return code;
}

/* The one game to export, checked against the variant: an exit code. */
static int export_one_id(const PdnExport *job, int64_t **ids, int64_t *n, char *err, size_t errlen)
{
    const char *db = job->db_path;
    int64_t id = job->game_id;
    int found = store_has_id(job->store, "games", id);
    if (found < 0)
        return job_fail(1, err, errlen, "%s: %s", db, store_error(job->store));
    if (!found)
        return job_fail(2, err, errlen, "no game %lld in %s", (long long)id, db);
    StoredGame g;
    if (!store_game_read(job->store, id, &g))
        return job_fail(1, err, errlen, "%s: %s", db, store_error(job->store));
    char variant[32];
    snprintf(variant, sizeof variant, "%s", g.rec.variant);
    store_game_free(&g);
    if (strcmp(variant, job->variant->name) != 0)
        return job_fail(2, err, errlen, "%s: game %lld is a %s game, not %s (give --variant %s)", db,
                    (long long)id, variant, job->variant->name, variant);
    if (!(*ids = malloc(sizeof **ids)))
        return job_fail(1, err, errlen, "out of memory");
    (*ids)[0] = id;
    *n = 1;
    return 0;
}

/* The games to export, checked against the variant: an exit code. */
static int export_ids(const PdnExport *job, int64_t **ids, int64_t *n, char *err, size_t errlen)
{
    *ids = NULL;
    *n = 0;
    if (job->game_id > 0)
        return export_one_id(job, ids, n, err, errlen);
    const char *db = job->db_path;
    if (job->run_id > 0) {
        char variant[32] = "";
        int found = store_run_info(job->store, job->run_id, NULL, 0, NULL, 0, NULL, variant, sizeof variant);
        if (found < 0)
            return job_fail(1, err, errlen, "%s: %s", db, store_error(job->store));
        if (!found)
            return job_fail(2, err, errlen, "no run %lld in %s", (long long)job->run_id, db);
        if (strcmp(variant, job->variant->name) != 0)
            return job_fail(2, err, errlen, "%s: run %lld plays %s, not %s (give --variant %s)", db,
                        (long long)job->run_id, variant, job->variant->name, variant);
    }
    if ((*n = store_pdn_game_ids(job->store, job->variant->name, job->run_id, ids)) < 0)
        return job_fail(1, err, errlen, "%s: %s", db, store_error(job->store));
    return 0;
}

/* text as the file, through a temporary name renamed when complete: an exit code. */
static int write_file(const PdnExport *job, const char *text, size_t len, char *err, size_t errlen)
{
    CsvWriter w;
    if (!csv_writer_open(&w, job->out, err, errlen))
        return 1;
    csv_raw(&w, text, len);
    if (stopped(job)) {
        csv_writer_abort(&w);
        return job_fail(130, err, errlen, "interrupted: %s not written", job->out ? job->out : "the PDN");
    }
    return csv_writer_commit(&w, err, errlen) ? 0 : 1;
}

/* Every game into a memory stream first, so a failure leaves no half-written file. */
static int export_all(const PdnExport *job, const int64_t *ids, int64_t n, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return job_fail(1, err, errlen, "out of memory");
    int code = 0;
    for (int64_t i = 0; i < n && code == 0; i++) {
        code = export_game(job, ids[i], f, err, errlen);
        if (code == 0 && stopped(job))
            code = job_fail(130, err, errlen, "interrupted: %s not written", job->out ? job->out : "the PDN");
    }
    if (fclose(f) != 0 && code == 0)
        code = job_fail(1, err, errlen, "out of memory");
    if (code == 0)
        code = write_file(job, text, len, err, errlen);
    free(text);
    return code;
}

int pdn_export_run(const PdnExport *job, int64_t *ngames, char *err, size_t errlen)
{
    err[0] = '\0';
    int code = 0;
    if (!store_snapshot_begin(job->store))
        code = job_fail(1, err, errlen, "%s: %s", job->db_path, store_error(job->store));
    int64_t *ids = NULL, n = 0;
    if (code == 0)
        code = export_ids(job, &ids, &n, err, errlen);
    if (code == 0)
        code = export_all(job, ids, n, err, errlen);
    free(ids);
    store_snapshot_end(job->store);
    *ngames = n;
    return code;
}
