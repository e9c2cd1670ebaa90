/* Building and checking endgame classes (egdb_build.h).
 *
 * Positions are rated forward, with the move generator: the rules' end of the game, then
 * WIN if a move leads to a LOSS, LOSS if every move leads to a WIN.  The first pass rates
 * every position; a later pass only those a quiet move leads from into a position decided
 * in the pass before (egdb_unmove.c lists candidates, a superset: no unmaking of captures
 * or promotions is needed, as those lead out of the class into classes solved before).  A
 * pass that decides nothing ends the class; what is still undecided is a draw (no forced
 * win exists from it).  The check (egdb_verify_class) re-rates every position and so also
 * catches a predecessor the candidates would have missed.
 *
 * A pass is split among threads by ranges of indices (OpenMP).  The files do not depend on
 * the thread count: every value decided is the position's true value (a WIN needs a child
 * that is a LOSS, a LOSS every child a WIN, and decided values never change), and a value a
 * thread decides after another read it as undecided only puts that reader off to the next
 * pass, where the pending mark the decision set makes it rated again.  So a class ends
 * with exactly the positions that have a forced result decided, whatever the order. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <omp.h>

#include "bitboard.h"
#include "egdb_build.h"
#include "egdb_file.h"
#include "egdb_unmove.h"
#include "game.h"
#include "position.h"
#include "variant.h"

/* The classes being solved: read from here, not from db, while the build runs. */
typedef struct Group {
    EgdbTable *tables[2];
    int count;
} Group;

static int successor_value(Egdb *db, const Group *group, const Position *child)
{
    Position p;
    egdb_normalize(egdb_variant(db), child, &p);
    EgdbClass cls = egdb_class_of(&p);
    if (cls.men[0] + cls.kings[0] == 0)
        return EGDB_LOSS; /* the move took the last piece */
    const EgdbTable *t = NULL;
    for (int i = 0; group && i < group->count && !t; i++)
        if (egdb_class_equal(group->tables[i]->ix.cls, cls))
            t = group->tables[i];
    if (t) /* being solved: other threads write it */
        return egdb_table_get_shared(t, egdb_index(&t->ix, &p));
    t = egdb_table(db, cls);
    return t ? egdb_table_get(t, egdb_index(&t->ix, &p)) : EGDB_UNKNOWN;
}

static int rate(Egdb *db, const Group *group, const Position *p, MoveList *list)
{
    const Variant *v = egdb_variant(db);
    v->generate(p, egdb_rules(db), list);
    GameEnd end = game_end(v, p, egdb_rules(db), list->count > 0, (DrawCounts){ 0, 0, 0 });
    if (end.result != RESULT_NONE) {
        int r = result_for_side(end.result, p->side);
        return r > 0 ? EGDB_WIN : r < 0 ? EGDB_LOSS : EGDB_DRAW;
    }
    bool all_lost = true; /* every move leads to the opponent's win */
    for (int i = 0; i < list->count; i++) {
        Position child = *p;
        v->make(&child, &list->moves[i]);
        int value = successor_value(db, group, &child);
        if (value == EGDB_UNKNOWN)
            return EGDB_UNKNOWN;
        if (value == EGDB_LOSS)
            return EGDB_WIN;
        if (value != EGDB_WIN)
            all_lost = false;
    }
    return all_lost ? EGDB_LOSS : EGDB_DRAW;
}

int egdb_rate(Egdb *db, const Position *normalized, MoveList *list)
{
    return rate(db, NULL, normalized, list);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct Build {
    Egdb *db;
    const EgdbBuildOptions *opt;
    int threads;
    double start;
    uint64_t total, done, built; /* positions: all classes, classes finished, built here */
    double built_seconds;
    char *err;
    size_t errlen;
    int status;
} Build;

typedef struct ClassList {
    EgdbClass items[512];
    int count;
    bool kings_only;   /* collect only the classes without men */
} ClassList;

static void collect_class(void *vctx, EgdbClass cls)
{
    ClassList *l = vctx;
    if (l->kings_only && cls.men[0] + cls.men[1] > 0)
        return;
    if (l->count < (int)(sizeof l->items / sizeof l->items[0]))
        l->items[l->count++] = cls;
}

static void progress(Build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void progress(Build *b, const char *fmt, ...)
{
    if (!b->opt->progress)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(b->opt->progress, fmt, ap);
    va_end(ap);
    double elapsed = now_seconds() - b->start;
    uint64_t left = b->total - b->done;
    /* Time per position so far, over what is left: bigger classes cost more a position,
     * so this is a lower bound. */
    if (b->built > 0)
        fprintf(b->opt->progress, "; %.0f%% done, %.1f s, ETA %.0f s\n",
                100.0 * (double)b->done / (double)b->total, elapsed,
                b->built_seconds / (double)b->built * (double)left);
    else
        fprintf(b->opt->progress, "; %.0f%% done, %.1f s\n", 100.0 * (double)b->done / (double)b->total,
                elapsed);
    fflush(b->opt->progress);
}

static bool stopped(const Build *b)
{
    return b->opt->stop && atomic_load(b->opt->stop);
}

/* Positions to rate in the next pass: one bit a position of each table of the group. */
typedef struct Pending {
    Group *group;
    uint64_t *bits[2];
    const Variant *variant;
} Pending;

static void mark_pending(void *vctx, const Position *pred)
{
    Pending *pend = vctx;
    Position p;
    egdb_normalize(pend->variant, pred, &p);
    EgdbClass cls = egdb_class_of(&p);
    for (int t = 0; t < pend->group->count; t++) {
        const EgdbIndexer *ix = &pend->group->tables[t]->ix;
        if (egdb_class_equal(ix->cls, cls)) {
            if ((p.men[WHITE] & ~ix->men_squares[0]) || (p.men[BLACK] & ~ix->men_squares[1]))
                return;
            uint64_t i = egdb_index(ix, &p), bit = 1ULL << (i & 63);
            uint64_t *word = &pend->bits[t][i >> 6];
            /* Other threads mark the same words: an atomic OR, skipped when already set. */
            if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit))
                __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
            return;
        }
    }
}

/* The first failure of a build: its message and status (later ones, from other threads,
 * are dropped). */
static void fail(Build *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(Build *b, const char *fmt, ...)
{
#pragma omp critical(egdb_build_fail)
    if (b->status == EGDB_BUILD_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(b->err, b->errlen, fmt, ap);
        va_end(ap);
        b->status = EGDB_BUILD_FAILED;
    }
}

/* Rates position i of table t of the group; a decided value is stored and the positions
 * that may move into it are marked for the next pass.  False when a successor's class is
 * missing (b->err says which). */
static bool rate_one(Build *b, Group *g, int t, uint64_t i, const Position *p, Pending *next,
                     MoveList *list, bool *decided)
{
    EgdbTable *table = g->tables[t];
    int value = rate(b->db, g, p, list);
    if (value == EGDB_UNKNOWN) {
        char name[8];
        egdb_class_name(table->ix.cls, name, sizeof name);
        fail(b, "%s class %s: a successor's class is unavailable", egdb_variant(b->db)->name, name);
        return false;
    }
    *decided = value != EGDB_DRAW;
    if (*decided) {
        egdb_table_set_shared(table, i, value);
        egdb_for_each_unmove(egdb_variant(b->db), p, mark_pending, next);
    }
    return true;
}

/* Indices a task of a pass: a multiple of 64, so a task starts on a pending word; small
 * enough that the threads stay evenly loaded when the pending positions bunch up. */
enum { PASS_CHUNK = 4096 };
/* Positions to rate below which a pass runs on one thread: waking the team and waiting at
 * its barrier would cost more (the last passes of a class rate a handful each). */
enum { PARALLEL_MIN = 16384 };

/* The end of task c of a pass over size indices. */
static uint64_t chunk_end(uint64_t c, uint64_t size)
{
    return (c + 1) * PASS_CHUNK < size ? (c + 1) * PASS_CHUNK : size;
}

static uint64_t pending_count(const uint64_t *bits, uint64_t size)
{
    uint64_t n = 0;
    for (uint64_t w = 0; w < (size + 63) / 64; w++)
        n += (uint64_t)popcount(bits[w]);
    return n;
}

typedef struct PassCount {
    uint64_t rated, decided;
} PassCount;

/* One pass over table t of the group: every index (pass 0) or the pending ones of now,
 * split among the threads by chunks.  False on a stop or a failure. */
static bool pass_table(Build *b, Group *g, int t, int pass, const Pending *now, Pending *next,
                       PassCount *count)
{
    EgdbTable *table = g->tables[t];
    const uint64_t size = table->ix.size, chunks = (size + PASS_CHUNK - 1) / PASS_CHUNK;
    const uint64_t *pending = now->bits[t];
    const uint64_t work = pass == 0 ? size : pending_count(pending, size);
    atomic_bool quit = false; /* a stop or a failure seen by any thread: the rest is skipped */
    uint64_t rated = 0, decided = 0;
#pragma omp parallel num_threads(b->threads) if (work >= PARALLEL_MIN) reduction(+ : rated, decided)
    {
        MoveList *list = malloc(sizeof *list); /* each thread's own */
        if (!list) {
            fail(b, "out of memory");
            atomic_store(&quit, true);
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; c++) {
            if (atomic_load_explicit(&quit, memory_order_relaxed))
                continue;
            if (stopped(b)) {
                atomic_store(&quit, true);
                continue;
            }
            uint64_t end = chunk_end(c, size);
            for (uint64_t i = c * PASS_CHUNK; i < end; i++) {
                if (pass > 0) {
                    uint64_t word = pending[i >> 6] >> (i & 63);
                    if (word == 0) { /* skip to the next word */
                        i |= 63;
                        continue;
                    }
                    if (!(word & 1))
                        continue;
                }
                if (egdb_table_get_shared(table, i) != EGDB_DRAW)
                    continue;
                Position p;
                if (!egdb_unindex(&table->ix, i, &p)) {
                    egdb_table_set_shared(table, i, EGDB_NONE);
                    continue;
                }
                bool now_decided = false;
                if (!rate_one(b, g, t, i, &p, next, list, &now_decided)) {
                    atomic_store(&quit, true);
                    break;
                }
                rated++;
                decided += now_decided;
            }
        }
        free(list);
    }
    count->rated += rated;
    count->decided += decided;
    return !atomic_load(&quit);
}

/* Pass 1 rates every position of the group; each later pass rates only the undecided
 * positions that a quiet move leads from into a position decided in the pass before (found
 * by egdb_for_each_unmove), until a pass decides nothing.  Values decided in a pass may be
 * read by other positions of the same pass. */
static bool solve_group(Build *b, Group *g, const char *label)
{
    const Variant *v = egdb_variant(b->db);
    Pending now = { g, { NULL, NULL }, v }, next = now;
    bool ok = true;
    for (int t = 0; t < g->count && ok; t++) {
        uint64_t words = (g->tables[t]->ix.size + 63) / 64;
        now.bits[t] = calloc(words ? words : 1, sizeof(uint64_t));
        next.bits[t] = calloc(words ? words : 1, sizeof(uint64_t));
        if (!now.bits[t] || !next.bits[t]) {
            fail(b, "%s %s: out of memory", v->name, label);
            ok = false;
        }
    }
    double last_report = now_seconds();
    uint64_t decided_total = 0;
    for (int pass = 0; ok; pass++) {
        PassCount count = { 0, 0 };
        for (int t = 0; t < g->count && ok; t++)
            ok = pass_table(b, g, t, pass, &now, &next, &count);
        decided_total += count.decided;
        /* next becomes now; the old now, cleared, collects the pass after. */
        for (int t = 0; t < g->count && ok; t++) {
            uint64_t *swap = now.bits[t];
            now.bits[t] = next.bits[t];
            next.bits[t] = swap;
            memset(next.bits[t], 0, (g->tables[t]->ix.size + 63) / 64 * sizeof(uint64_t));
        }
        if (count.decided == 0)
            break;
        if (now_seconds() - last_report >= 1.0) {
            progress(b, "egdb: %s %s: pass %d rated %llu, decided %llu so far", v->name, label,
                     pass + 1, (unsigned long long)count.rated, (unsigned long long)decided_total);
            last_report = now_seconds();
        }
    }
    for (int t = 0; t < g->count; t++) {
        free(now.bits[t]);
        free(next.bits[t]);
    }
    return ok;
}

/* Solves (or loads) one class and its mirror. */
static bool build_pair(Build *b, EgdbClass cls)
{
    Egdb *db = b->db;
    const Variant *v = egdb_variant(db);
    EgdbClass mirror = egdb_class_mirror(cls);
    EgdbClass members[2] = { cls, mirror };
    int count = egdb_class_equal(cls, mirror) ? 1 : 2;
    char label[32], names[2][8];
    egdb_class_name(cls, names[0], sizeof names[0]);
    egdb_class_name(mirror, names[1], sizeof names[1]);
    snprintf(label, sizeof label, count == 1 ? "%s" : "%s+%s", names[0], names[1]);

    EgdbTable tables[2] = { 0 };
    uint64_t size = 0;
    bool on_disk = true;
    for (int i = 0; i < count; i++) {
        char path[4200];
        egdb_file_path_for(db, members[i], path, sizeof path);
        egdb_indexer_init(&tables[i].ix, v, members[i]);
        size += tables[i].ix.size;
        if (access(path, F_OK) != 0 || !egdb_table(db, members[i]))
            on_disk = false;
    }
    if (on_disk) { /* resumed: both valid on disk (and loaded for the classes to come) */
        b->done += size;
        progress(b, "egdb: %s %s: on disk, %llu positions", v->name, label, (unsigned long long)size);
        return true;
    }
    Group g = { .count = count };
    for (int i = 0; i < count; i++) {
        if (!egdb_table_alloc(&tables[i], v, members[i])) {
            snprintf(b->err, b->errlen, "%s class %s: out of memory", v->name, names[i]);
            b->status = EGDB_BUILD_FAILED;
            egdb_table_free(&tables[0]);
            return false;
        }
        g.tables[i] = &tables[i];
    }
    double start = now_seconds();
    bool ok = solve_group(b, &g, label);
    for (int i = 0; ok && i < count; i++) {
        char path[4200];
        egdb_file_path_for(db, members[i], path, sizeof path);
        if (!egdb_file_write(path, &tables[i], egdb_rules_text(db), b->err, b->errlen)) {
            b->status = EGDB_BUILD_FAILED;
            ok = false;
        }
    }
    if (!ok) {
        for (int i = 0; i < count; i++)
            egdb_table_free(&tables[i]);
        if (b->status == EGDB_BUILD_OK)
            b->status = EGDB_BUILD_INTERRUPTED;
        return false;
    }
    for (int i = 0; i < count; i++)
        egdb_adopt(db, &tables[i]);
    b->done += size;
    b->built += size;
    b->built_seconds += now_seconds() - start;
    progress(b, "egdb: %s %s: built, %llu positions in %.2f s", v->name, label,
             (unsigned long long)size, now_seconds() - start);
    return true;
}

/* Temporary files of a killed build (name.egdb.tmp.PID): never read, removed here. */
static void remove_stale_temporaries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strstr(e->d_name, ".egdb.tmp.")) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
}

int egdb_build(Egdb *db, const EgdbBuildOptions *opt, char *err, size_t errlen)
{
    const Variant *v = egdb_variant(db);
    if (mkdir(egdb_dir(db), 0755) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create: %s", egdb_dir(db), strerror(errno));
        return EGDB_BUILD_FAILED;
    }
    remove_stale_temporaries(egdb_dir(db));
    Build b = { .db = db, .opt = opt, .threads = opt->threads > 0 ? opt->threads : omp_get_max_threads(),
                .start = now_seconds(), .err = err, .errlen = errlen };
    for (int n = 2; n <= opt->pieces; n++) {
        ClassList l = { .count = 0, .kings_only = opt->kings_only };
        egdb_for_each_class(n, collect_class, &l);
        for (int i = 0; i < l.count; i++) {
            EgdbIndexer ix;
            egdb_indexer_init(&ix, v, l.items[i]);
            b.total += ix.size;
        }
    }
    bool ok = true;
    for (int n = 2; ok && n <= opt->pieces; n++) {
        ClassList l = { .count = 0, .kings_only = opt->kings_only };
        egdb_for_each_class(n, collect_class, &l);
        for (int men = 0; ok && men <= n; men++)
            for (int i = 0; ok && i < l.count; i++) {
                EgdbClass c = l.items[i], m = egdb_class_mirror(c);
                char cn[8], mn[8];
                egdb_class_name(c, cn, sizeof cn);
                egdb_class_name(m, mn, sizeof mn);
                if (c.men[0] + c.men[1] == men && strcmp(cn, mn) <= 0)
                    ok = build_pair(&b, c);
            }
    }
    if (ok)
        progress(&b, "egdb: %s up to %d pieces complete", v->name, opt->pieces);
    return ok ? EGDB_BUILD_OK : b.status;
}

/* The check splits a class among threads by chunks, as a pass does; every count is a sum
 * and the first inconsistent index a minimum, so the report is the same on any team. */
bool egdb_verify_class(Egdb *db, EgdbClass cls, int threads, EgdbVerifyReport *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    const EgdbTable *t = egdb_table(db, cls);
    char name[8];
    egdb_class_name(cls, name, sizeof name);
    if (!t) {
        snprintf(err, errlen, "%s class %s: unavailable", egdb_variant(db)->name, name);
        return false;
    }
    const uint64_t size = t->ix.size, chunks = (size + PASS_CHUNK - 1) / PASS_CHUNK;
    uint64_t positions = 0, win = 0, draw = 0, loss = 0, inconsistent = 0, first_bad = UINT64_MAX;
    atomic_int failure = 0; /* 1: a successor's class unavailable, 2: out of memory */
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads()) if (size >= PARALLEL_MIN) \
    reduction(+ : positions, win, draw, loss, inconsistent) reduction(min : first_bad)
    {
        MoveList *list = malloc(sizeof *list); /* each thread's own */
        if (!list)
            atomic_store(&failure, 2);
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; c++) {
            if (atomic_load_explicit(&failure, memory_order_relaxed))
                continue;
            uint64_t end = chunk_end(c, size);
            for (uint64_t i = c * PASS_CHUNK; i < end; i++) {
                Position p;
                int stored = egdb_table_get(t, i);
                bool bad;
                if (!egdb_unindex(&t->ix, i, &p)) {
                    bad = stored != EGDB_NONE;
                } else {
                    positions++;
                    int value = rate(db, NULL, &p, list);
                    if (value == EGDB_UNKNOWN) {
                        atomic_store(&failure, 1);
                        break;
                    }
                    win += stored == EGDB_WIN;
                    draw += stored == EGDB_DRAW;
                    loss += stored == EGDB_LOSS;
                    bad = stored == EGDB_NONE || value != stored;
                }
                if (bad) {
                    inconsistent++;
                    first_bad = i < first_bad ? i : first_bad;
                }
            }
        }
        free(list);
    }
    *r = (EgdbVerifyReport){ .positions = positions, .count = { [EGDB_DRAW] = draw, [EGDB_WIN] = win, [EGDB_LOSS] = loss },
                             .inconsistent = inconsistent, .first_bad = inconsistent ? first_bad : 0 };
    if (failure == 1)
        snprintf(err, errlen, "%s class %s: a successor's class is unavailable", egdb_variant(db)->name, name);
    else if (failure == 2)
        snprintf(err, errlen, "out of memory");
    return failure == 0;
}
