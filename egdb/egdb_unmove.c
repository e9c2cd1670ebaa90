/* Quiet moves backwards in both games (egdb_unmove.h). */
#include "bitboard.h"
#include "egdb_unmove.h"
#include "international_board.h"
#include "position.h"
#include "turkish_board.h"
#include "variant.h"

/* The square one step from sq in direction dir (0..3) of v's board, or -1. */
static int board_step(const Variant *v, int sq, int dir)
{
    return v == &international_variant ? intl_step(sq, dir) : step(sq, dir);
}

void egdb_for_each_unmove(const Variant *v, const Position *pos,
                          void (*visit)(void *ctx, const Position *pred), void *ctx)
{
    Bitboard empty = v->board & ~position_occupied(pos);
    /* Black's men step south (Turkish: or sideways); International: down-left or
     * down-right.  Backwards, a man at `to` came from one of these. */
    static const int turkish_man_from[] = { NORTH, EAST, WEST };
    static const int intl_man_from[] = { UP_LEFT, UP_RIGHT };
    bool intl = v == &international_variant;
    const int *man_from = intl ? intl_man_from : turkish_man_from;
    int nman_from = intl ? 2 : 3;
    for (Bitboard men = pos->men[BLACK]; men;) {
        int to = pop_lsb(&men);
        for (int k = 0; k < nman_from; k++) {
            int from = board_step(v, to, man_from[k]);
            if (from >= 0 && (empty & square_bb(from))) {
                Position pred = *pos;
                pred.men[BLACK] ^= square_bb(from) | square_bb(to);
                pred.side = BLACK;
                visit(ctx, &pred);
            }
        }
    }
    /* Kings slide both ways along the same lines: backwards is forwards. */
    for (Bitboard kings = pos->kings[BLACK]; kings;) {
        int to = pop_lsb(&kings);
        for (int dir = 0; dir < 4; dir++)
            for (int from = board_step(v, to, dir); from >= 0 && (empty & square_bb(from));
                 from = board_step(v, from, dir)) {
                Position pred = *pos;
                pred.kings[BLACK] ^= square_bb(from) | square_bb(to);
                pred.side = BLACK;
                visit(ctx, &pred);
            }
    }
}
