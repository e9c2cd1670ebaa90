/* Allocation of a class's table (egdb_table.h). */
#include <stdlib.h>

#include "egdb_table.h"

bool egdb_table_alloc(EgdbTable *t, const Variant *v, EgdbClass cls)
{
    egdb_indexer_init(&t->ix, v, cls);
    t->nbytes = (t->ix.size + 3) / 4;
    t->bits = calloc(t->nbytes ? t->nbytes : 1, 1);
    return t->bits != NULL;
}

void egdb_table_free(EgdbTable *t)
{
    free(t->bits);
    t->bits = NULL;
}

const char *egdb_value_name(int value)
{
    static const char *const names[] = { "draw", "win", "loss", "none" };
    return names[value & 3];
}
