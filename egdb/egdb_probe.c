/* Loading classes on demand and probing them (egdb_probe.h). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bitboard.h"
#include "egdb_file.h"
#include "egdb_probe.h"
#include "position.h"
#include "variant.h"

#define CLASS_SLOTS ((EGDB_MAX_PIECES + 1) * (EGDB_MAX_PIECES + 1) * (EGDB_MAX_PIECES + 1) * (EGDB_MAX_PIECES + 1))

enum SlotState { SLOT_UNTRIED = 0, SLOT_LOADED, SLOT_UNUSABLE };

typedef struct Slot {
    atomic_int state; /* enum SlotState: set last, once table is complete */
    EgdbTable table;
} Slot;

struct Egdb {
    const Variant *variant;
    Rules rules;
    char rules_text[128];
    char *dir;
    int max_pieces;
    bool quiet;
    pthread_mutex_t load_lock; /* one loader at a time; probes of loaded classes take none */
    Slot slots[CLASS_SLOTS];
};

static int slot_of(EgdbClass c)
{
    const int n = EGDB_MAX_PIECES + 1;
    return ((c.men[0] * n + c.kings[0]) * n + c.men[1]) * n + c.kings[1];
}

typedef struct PresenceScan {
    const Egdb *db;
    bool found;
} PresenceScan;

static void note_present(void *vctx, EgdbClass cls)
{
    PresenceScan *scan = vctx;
    char path[4200];
    egdb_file_path(scan->db->dir, scan->db->variant, cls, path, sizeof path);
    if (access(path, F_OK) == 0)
        scan->found = true;
}

Egdb *egdb_open(const Variant *v, const Rules *rules, const char *dir)
{
    Egdb *db = calloc(1, sizeof *db);
    if (!db || !(db->dir = strdup(dir))) {
        free(db);
        return NULL;
    }
    db->variant = v;
    db->rules = *rules;
    v->rules_describe(rules, db->rules_text, sizeof db->rules_text);
    pthread_mutex_init(&db->load_lock, NULL);
    for (int n = 2; n <= EGDB_MAX_PIECES; n++) {
        PresenceScan scan = { db, false };
        egdb_for_each_class(n, note_present, &scan);
        if (scan.found)
            db->max_pieces = n;
    }
    return db;
}

void egdb_close(Egdb *db)
{
    if (!db)
        return;
    for (int i = 0; i < CLASS_SLOTS; i++)
        egdb_table_free(&db->slots[i].table);
    pthread_mutex_destroy(&db->load_lock);
    free(db->dir);
    free(db);
}

int egdb_max_pieces(const Egdb *db) { return db->max_pieces; }
void egdb_set_quiet(Egdb *db, bool quiet) { db->quiet = quiet; }
const char *egdb_rules_text(const Egdb *db) { return db->rules_text; }
const Variant *egdb_variant(const Egdb *db) { return db->variant; }
const Rules *egdb_rules(const Egdb *db) { return &db->rules; }
const char *egdb_dir(const Egdb *db) { return db->dir; }

void egdb_file_path_for(const Egdb *db, EgdbClass cls, char *buf, size_t len)
{
    egdb_file_path(db->dir, db->variant, cls, buf, len);
}

const EgdbTable *egdb_table(Egdb *db, EgdbClass cls)
{
    if (egdb_class_pieces(cls) > EGDB_MAX_PIECES)
        return NULL;
    Slot *s = &db->slots[slot_of(cls)];
    int state = atomic_load_explicit(&s->state, memory_order_acquire);
    if (state == SLOT_UNTRIED) {
        pthread_mutex_lock(&db->load_lock);
        state = atomic_load_explicit(&s->state, memory_order_acquire);
        if (state == SLOT_UNTRIED) {
            char path[4200], err[4400];
            egdb_file_path(db->dir, db->variant, cls, path, sizeof path);
            state = egdb_file_read(path, db->variant, cls, db->rules_text, &s->table, err, sizeof err)
                        ? SLOT_LOADED : SLOT_UNUSABLE;
            if (state == SLOT_UNUSABLE && !db->quiet)
                fprintf(stderr, "dama: endgame database %s; not used\n", err);
            atomic_store_explicit(&s->state, state, memory_order_release);
        }
        pthread_mutex_unlock(&db->load_lock);
    }
    return state == SLOT_LOADED ? &s->table : NULL;
}

void egdb_adopt(Egdb *db, EgdbTable *t)
{
    Slot *s = &db->slots[slot_of(t->ix.cls)];
    egdb_table_free(&s->table);
    s->table = *t;
    t->bits = NULL;
    atomic_store_explicit(&s->state, SLOT_LOADED, memory_order_release);
    if (egdb_class_pieces(t->ix.cls) > db->max_pieces)
        db->max_pieces = egdb_class_pieces(t->ix.cls);
}

int egdb_probe(Egdb *db, const Position *pos)
{
    if (popcount(position_occupied(pos)) > db->max_pieces)
        return EGDB_UNKNOWN;
    Position p;
    egdb_normalize(db->variant, pos, &p);
    EgdbClass cls = egdb_class_of(&p);
    if (cls.men[0] + cls.kings[0] == 0)
        return EGDB_LOSS; /* nothing left to move */
    if (cls.men[1] + cls.kings[1] == 0)
        return EGDB_UNKNOWN; /* a game over before this position: no class holds it */
    const EgdbTable *t = egdb_table(db, cls);
    if (!t || (p.men[WHITE] & ~t->ix.men_squares[0]) || (p.men[BLACK] & ~t->ix.men_squares[1]))
        return EGDB_UNKNOWN;
    int value = egdb_table_get(t, egdb_index(&t->ix, &p));
    return value == EGDB_NONE ? EGDB_UNKNOWN : value;
}
