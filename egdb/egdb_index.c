/* Positions of an endgame class to indices and back (egdb_index.h). */
#include <pthread.h>
#include <stdio.h>

#include "bitboard.h"
#include "egdb_index.h"
#include "position.h"
#include "variant.h"

void egdb_class_name(EgdbClass c, char *buf, size_t len)
{
    snprintf(buf, len, "%u%u%u%u", c.men[0], c.kings[0], c.men[1], c.kings[1]);
}

void egdb_normalize(const Variant *v, const Position *pos, Position *out)
{
    if (pos->side == WHITE)
        *out = *pos;
    else
        position_flip(v, pos, out);
}

EgdbClass egdb_class_of(const Position *p)
{
    return (EgdbClass){ { (uint8_t)popcount(p->men[WHITE]), (uint8_t)popcount(p->men[BLACK]) },
                        { (uint8_t)popcount(p->kings[WHITE]), (uint8_t)popcount(p->kings[BLACK]) } };
}

uint64_t egdb_binomial(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i; /* exact: r * (n-k+i) is C(n-k+i, i) * i */
    return r;
}

/* C(n, k) of the hot paths, from a table filled once. */
static uint64_t binomial_table[65][EGDB_MAX_PIECES + 1];
static pthread_once_t binomial_once = PTHREAD_ONCE_INIT;

static void binomial_fill(void)
{
    for (int n = 0; n <= 64; n++)
        for (int k = 0; k <= EGDB_MAX_PIECES; k++)
            binomial_table[n][k] = egdb_binomial(n, k);
}

static inline uint64_t binomial(int n, int k) { return binomial_table[n][k]; }

void egdb_indexer_init(EgdbIndexer *ix, const Variant *v, EgdbClass cls)
{
    pthread_once(&binomial_once, binomial_fill);
    ix->variant = v;
    ix->cls = cls;
    ix->board = v->board;
    ix->men_squares[0] = v->board & ~v->promotion_bb[WHITE];
    ix->men_squares[1] = v->board & ~v->promotion_bb[BLACK];
    int free_for_kings = popcount(v->board) - cls.men[0] - cls.men[1];
    ix->group_size[0] = egdb_binomial(popcount(ix->men_squares[0]), cls.men[0]);
    ix->group_size[1] = egdb_binomial(popcount(ix->men_squares[1]), cls.men[1]);
    ix->group_size[2] = egdb_binomial(free_for_kings, cls.kings[0]);
    ix->group_size[3] = egdb_binomial(free_for_kings - cls.kings[0], cls.kings[1]);
    ix->size = ix->group_size[0] * ix->group_size[1] * ix->group_size[2] * ix->group_size[3];
}

/* Rank of the set pieces among the squares of allowed: the i-th smallest square, at place
 * r among allowed, adds C(r, i + 1). */
static uint64_t rank_set(Bitboard pieces, Bitboard allowed)
{
    uint64_t rank = 0;
    for (int i = 1; pieces; i++) {
        int sq = pop_lsb(&pieces);
        rank += binomial(popcount(allowed & (square_bb(sq) - 1)), i);
    }
    return rank;
}

/* The square at place r (0 = lowest) among allowed. */
static int select_square(Bitboard allowed, int r)
{
    while (r-- > 0)
        allowed &= allowed - 1;
    return lsb(allowed);
}

/* The k squares of allowed with the given rank (the inverse of rank_set). */
static Bitboard unrank_set(uint64_t rank, int k, Bitboard allowed)
{
    Bitboard set = 0;
    int n = popcount(allowed);
    for (int i = k; i >= 1; i--) {
        int r = i - 1;
        while (r + 1 < n && binomial(r + 1, i) <= rank)
            r++;
        rank -= binomial(r, i);
        set |= square_bb(select_square(allowed, r));
        n = r;
    }
    return set;
}

uint64_t egdb_index(const EgdbIndexer *ix, const Position *p)
{
    Bitboard men = p->men[WHITE] | p->men[BLACK];
    Bitboard king_squares = ix->board & ~men;
    uint64_t i = rank_set(p->men[WHITE], ix->men_squares[0]);
    i = i * ix->group_size[1] + rank_set(p->men[BLACK], ix->men_squares[1]);
    i = i * ix->group_size[2] + rank_set(p->kings[WHITE], king_squares);
    return i * ix->group_size[3] + rank_set(p->kings[BLACK], king_squares & ~p->kings[WHITE]);
}

bool egdb_unindex(const EgdbIndexer *ix, uint64_t index, Position *out)
{
    uint64_t r[4];
    for (int g = 3; g >= 0; g--) {
        r[g] = index % ix->group_size[g];
        index /= ix->group_size[g];
    }
    out->side = WHITE;
    out->men[WHITE] = unrank_set(r[0], ix->cls.men[0], ix->men_squares[0]);
    out->men[BLACK] = unrank_set(r[1], ix->cls.men[1], ix->men_squares[1]);
    if (out->men[WHITE] & out->men[BLACK])
        return false;
    Bitboard king_squares = ix->board & ~(out->men[WHITE] | out->men[BLACK]);
    out->kings[WHITE] = unrank_set(r[2], ix->cls.kings[0], king_squares);
    out->kings[BLACK] = unrank_set(r[3], ix->cls.kings[1], king_squares & ~out->kings[WHITE]);
    return true;
}

/* Every class of `pieces` pieces with at least one piece a side: visit(ctx, cls). */
void egdb_for_each_class(int pieces, void (*visit)(void *ctx, EgdbClass cls), void *ctx)
{
    for (int m0 = 0; m0 <= pieces; m0++)
        for (int k0 = 0; m0 + k0 <= pieces; k0++)
            for (int m1 = 0; m0 + k0 + m1 <= pieces; m1++) {
                int k1 = pieces - m0 - k0 - m1;
                if (m0 + k0 > 0 && m1 + k1 > 0)
                    visit(ctx, (EgdbClass){ { (uint8_t)m0, (uint8_t)m1 }, { (uint8_t)k0, (uint8_t)k1 } });
            }
}
