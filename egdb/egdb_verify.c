/* The class files of a directory checked one by one (egdb_verify.h). */
#include "egdb_verify.h"
#include "variant.h"

typedef struct VerifyRun {
    Egdb *db;
    FILE *out;
    int threads;
    EgdbVerifyTotals *totals;
} VerifyRun;

static void verify_one(void *vctx, EgdbClass cls)
{
    VerifyRun *run = vctx;
    char path[4200], name[8], err[4400];
    egdb_file_path_for(run->db, cls, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return; /* classes not built are no failure; the build names what it wrote */
    fclose(f);
    egdb_class_name(cls, name, sizeof name);
    EgdbVerifyReport r;
    run->totals->classes++;
    if (!egdb_verify_class(run->db, cls, run->threads, &r, err, sizeof err)) {
        run->totals->failures++;
        fprintf(run->out, "%s %s FAILED %s\n", egdb_variant(run->db)->name, name, err);
    } else {
        if (r.inconsistent)
            run->totals->failures++;
        fprintf(run->out, "%s %s %s positions %llu win %llu draw %llu loss %llu inconsistent %llu\n",
                egdb_variant(run->db)->name, name, r.inconsistent ? "FAILED" : "ok",
                (unsigned long long)r.positions, (unsigned long long)r.count[EGDB_WIN],
                (unsigned long long)r.count[EGDB_DRAW], (unsigned long long)r.count[EGDB_LOSS],
                (unsigned long long)r.inconsistent);
    }
    fflush(run->out);
}

bool egdb_verify_dir(const Variant *only, const Rules *rules, const char *dir, int max_pieces, int threads,
                     FILE *out, EgdbVerifyTotals *totals)
{
    *totals = (EgdbVerifyTotals){ 0, 0 };
    for (int vi = 0; variant_at(vi); vi++) {
        const Variant *v = variant_at(vi);
        if (only && v != only)
            continue;
        Rules r = only ? *rules : rules_default(v);
        Egdb *db = egdb_open(v, &r, dir);
        if (!db)
            return false;
        VerifyRun run = { db, out, threads, totals };
        for (int n = 2; n <= max_pieces; n++)
            egdb_for_each_class(n, verify_one, &run);
        egdb_close(db);
    }
    return true;
}
