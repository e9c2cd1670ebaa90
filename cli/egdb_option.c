/* Opening the databases of `--egdb DIR` (egdb_option.h). */
#include <stdio.h>

#include "egdb_option.h"
#include "variant.h"

Egdb *cli_egdb_open(const char *dir, const Variant *v, const Rules *rules)
{
    Egdb *db = egdb_open(v, rules, dir);
    if (!db) {
        fprintf(stderr, "dama: endgame database %s: out of memory; not used\n", dir);
        return NULL;
    }
    if (egdb_max_pieces(db) == 0) {
        fprintf(stderr, "dama: endgame database %s: no %s database files there ('dama egdb build "
                "--variant %s --dir %s' makes them); not used\n", dir, v->name, v->name, dir);
        egdb_close(db);
        return NULL;
    }
    return db;
}

void cli_egdb_open_each(const char *dir, Egdb **by_variant, int n)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        by_variant[i] = NULL;
        const Variant *v = variant_at(i);
        if (!v)
            continue;
        Rules rules = rules_default(v);
        Egdb *db = egdb_open(v, &rules, dir);
        if (db && egdb_max_pieces(db) > 0) {
            by_variant[i] = db;
            found++;
        } else {
            egdb_close(db);
        }
    }
    if (!found)
        fprintf(stderr, "dama: endgame database %s: no database files there ('dama egdb build' makes "
                "them); not used\n", dir);
}
