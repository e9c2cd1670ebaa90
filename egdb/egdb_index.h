/* Endgame database positions as numbers.  A position is stored with the side to move as
 * WHITE (position_flip turns a BLACK-to-move position into it), so a class names the
 * material of the side to move and of the other side: men and kings each.  Within a class
 * a position's index is the rank of each group's square set (combinatorial number system):
 * the side to move's men, the other side's men, then the kings among the squares the men
 * left free. */
#ifndef DAMA_EGDB_INDEX_H
#define DAMA_EGDB_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "types.h"

#define EGDB_MAX_PIECES 6

/* Material of the side to move ([0]) and of the other side ([1]). */
typedef struct EgdbClass {
    uint8_t men[2];
    uint8_t kings[2];
} EgdbClass;

/* Numbers one class of one variant.  Men of the side to move lie on men_squares[0]
 * (every square but its crowning row), the other side's on men_squares[1]; the two men
 * groups are ranked independently, so an index whose men share a square is no position
 * (egdb_unindex says so). */
typedef struct EgdbIndexer {
    const Variant *variant;
    EgdbClass cls;
    Bitboard board;
    Bitboard men_squares[2];
    uint64_t group_size[4]; /* own men, other men, own kings, other kings */
    uint64_t size;          /* indices of the class: the product of group_size */
} EgdbIndexer;

static inline int egdb_class_pieces(EgdbClass c) { return c.men[0] + c.men[1] + c.kings[0] + c.kings[1]; }
static inline bool egdb_class_equal(EgdbClass a, EgdbClass b)
{
    return a.men[0] == b.men[0] && a.men[1] == b.men[1] && a.kings[0] == b.kings[0] && a.kings[1] == b.kings[1];
}
/* The class with the sides exchanged: where a quiet move of this class leads. */
static inline EgdbClass egdb_class_mirror(EgdbClass c)
{
    return (EgdbClass){ { c.men[1], c.men[0] }, { c.kings[1], c.kings[0] } };
}
/* "1001": own men, own kings, other men, other kings (file names, messages). */
void egdb_class_name(EgdbClass c, char *buf, size_t len);

/* Every class of `pieces` pieces with at least one piece a side: visit(ctx, cls). */
void egdb_for_each_class(int pieces, void (*visit)(void *ctx, EgdbClass cls), void *ctx);

/* pos with WHITE to move: pos itself, or its flip (position.h) when BLACK is to move. */
void egdb_normalize(const Variant *v, const Position *pos, Position *out);
/* The class of a normalized position. */
EgdbClass egdb_class_of(const Position *normalized);

/* C(n, k) for n <= 64, k <= EGDB_MAX_PIECES (0 when k > n). */
uint64_t egdb_binomial(int n, int k);

void egdb_indexer_init(EgdbIndexer *ix, const Variant *v, EgdbClass cls);
/* The index of a normalized position of ix's class (men off their crowning rows). */
uint64_t egdb_index(const EgdbIndexer *ix, const Position *normalized);
/* The position of an index below ix->size (WHITE to move); false when its men collide. */
bool egdb_unindex(const EgdbIndexer *ix, uint64_t index, Position *out);

#endif
