/* Values of one endgame class, counted by what theory says decides them: whether a capture
 * is pending and (International) whether the other side holds the long diagonal 46-5.
 * scripts/egdb-check builds it against build/opt:
 *   cc -O2 -Iengine -Iegdb tests/tools/egdb_stats.c (the objects of build/opt/engine and
 *      build/opt/egdb) -lz -fopenmp
 *   egdb_stats VARIANT DIR CLASS     e.g. egdb_stats international /tmp/egdb 0301 */
#include <stdio.h>
#include <string.h>

#include "bitboard.h"
#include "egdb_probe.h"
#include "international_board.h"
#include "position.h"
#include "variant.h"

int main(int argc, char **argv)
{
    const Variant *v = argc == 4 ? variant_by_name(argv[1]) : NULL;
    if (!v || strlen(argv[3]) != 4) {
        fprintf(stderr, "usage: egdb_stats VARIANT DIR CLASS (e.g. international /tmp/egdb 0301)\n");
        return 2;
    }
    const char *c = argv[3];
    EgdbClass cls = { { (uint8_t)(c[0] - '0'), (uint8_t)(c[2] - '0') }, { (uint8_t)(c[1] - '0'), (uint8_t)(c[3] - '0') } };
    Rules rules = rules_default(v);
    Egdb *db = egdb_open(v, &rules, argv[2]);
    const EgdbTable *t = db ? egdb_table(db, cls) : NULL;
    if (!t) {
        fprintf(stderr, "egdb_stats: class %s of %s not readable in %s\n", c, v->name, argv[2]);
        egdb_close(db);
        return 1;
    }
    Bitboard diagonal = 0;
    static const int long_diagonal[] = { 46, 41, 37, 32, 28, 23, 19, 14, 10, 5 };
    if (v == &international_variant)
        for (size_t i = 0; i < sizeof long_diagonal / sizeof long_diagonal[0]; i++)
            diagonal |= square_bb(intl_bit_of_number(long_diagonal[i]));
    uint64_t count[2][2][4] = { { { 0 } } };
    for (uint64_t i = 0; i < t->ix.size; i++) {
        Position p;
        if (!egdb_unindex(&t->ix, i, &p))
            continue;
        int on_diagonal = (position_pieces(&p, BLACK) & diagonal) != 0;
        count[on_diagonal][v->capture_pending(&p)][egdb_table_get(t, i)]++;
    }
    for (int d = 0; d < (diagonal ? 2 : 1); d++)
        for (int k = 0; k < 2; k++)
            printf("%s %s%s capture-pending=%s: win %llu draw %llu loss %llu\n", v->name, c,
                   diagonal ? (d ? " other-side-on-long-diagonal=yes" : " other-side-on-long-diagonal=no") : "",
                   k ? "yes" : "no", (unsigned long long)count[d][k][EGDB_WIN],
                   (unsigned long long)count[d][k][EGDB_DRAW], (unsigned long long)count[d][k][EGDB_LOSS]);
    egdb_close(db);
    return 0;
}
