/* The incremental evaluation (evaluate.h, EvalInc) against evaluate() from scratch along
 * random games: at every position each legal move's child gets its state from the parent's,
 * and its value must be the one evaluate() reads from the board; the game then goes on
 * from a random child with the state so updated, so an error that a later move would hide
 * is still seen where it happened, and one that accumulates is seen too. */
#ifndef DAMA_TEST_EVAL_INC_WALK_H
#define DAMA_TEST_EVAL_INC_WALK_H

#include "evaluate.h"
#include "movelist.h"
#include "random_pieces.h"
#include "variant.h"

/* Pattern weights uniform in [-range, range] over w's linear ones: wide enough that any
 * wrong window state moves the score, narrow enough that no score reaches EVAL_LIMIT. */
static inline void eval_inc_random_patterns(Weights *w, uint64_t *rng, int range)
{
    for (int i = 2 * w->spec->nfeatures; i < w->count; i++)
        w->w[i] = (int32_t)(next_random(rng) % (uint64_t)(2 * range + 1)) - range;
}

/* Children checked along games random games of v from the start (at most plies each);
 * *mismatches gets how many differed from evaluate(). */
static inline long eval_inc_walk(const Variant *v, const Weights *w, uint64_t rng, int games,
                                 int plies, long *mismatches)
{
    static MoveList list;
    Rules rules = rules_default(v);
    long checked = 0;
    *mismatches = 0;
    for (int g = 0; g < games; g++) {
        Position pos;
        v->start(&pos);
        EvalInc inc;
        eval_inc_init(&inc, &pos, w);
        for (int ply = 0; ply < plies; ply++) {
            *mismatches += evaluate_inc(&inc, &pos, w) != evaluate(&pos, w);
            v->generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            EvalInc chosen_inc = inc;
            Position chosen = pos;
            int pick = (int)(next_random(&rng) % (uint64_t)list.count);
            for (int i = 0; i < list.count; i++) {
                Position child = pos;
                v->make(&child, &list.moves[i]);
                EvalInc child_inc;
                eval_inc_child(&child_inc, &inc, &pos, &child, w);
                *mismatches += evaluate_inc(&child_inc, &child, w) != evaluate(&child, w);
                checked++;
                if (i == pick) {
                    chosen = child;
                    chosen_inc = child_inc;
                }
            }
            pos = chosen;
            inc = chosen_inc;
        }
    }
    return checked;
}

#endif
