/* Quiet moves backwards in every game, along its own lines (Variant.step, black_man_back). */
#include "bitboard.h"
#include "egdb_unmove.h"
#include "position.h"
#include "variant.h"

void egdb_for_each_unmove(const Variant *v, const Position *pos,
                          void (*visit)(void *ctx, const Position *pred), void *ctx)
{
    Bitboard empty = v->board & ~position_occupied(pos);
    /* Backwards, a Black man at `to` came from one of the game's black_man_back steps. */
    for (Bitboard men = pos->men[BLACK]; men;) {
        int to = pop_lsb(&men);
        for (int k = 0; k < v->black_man_backs; k++) {
            int from = v->step(to, v->black_man_back[k]);
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
            for (int from = v->step(to, dir); from >= 0 && (empty & square_bb(from));
                 from = v->step(from, dir)) {
                Position pred = *pos;
                pred.kings[BLACK] ^= square_bb(from) | square_bb(to);
                pred.side = BLACK;
                visit(ctx, &pred);
            }
    }
}
