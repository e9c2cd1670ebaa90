/* The independent judge of the tactics: a plain material minimax over the legal-move
 * interface only (no ordering, table or reductions), shared by tests/test_search.c and the
 * generator tests/tools/find_tactics.c.  Man 1, king 3, from the side to move; a position
 * with a capture pending is never a leaf; a line ends where the rules end the game (game_end,
 * the engine's one judge of that: no legal move loses, -(MM_WIN - ply); one piece each draws,
 * or wins for the king with kvm=win).  Counts the positions it visits in *nodes when nodes is not NULL. */
#ifndef DAMA_MATERIAL_MINIMAX_H
#define DAMA_MATERIAL_MINIMAX_H

#include "bitboard.h"
#include "game.h"
#include "position.h"
#include "variant.h"

#define MM_WIN 1000
#define MM_INF 10000
#define MM_FORCED (MM_WIN - 100) /* |value| above: a forced result */

static inline int material(const Position *p)
{
    int us = p->side, them = !us;
    return popcount(p->men[us]) + 3 * popcount(p->kings[us]) - popcount(p->men[them])
           - 3 * popcount(p->kings[them]);
}

static inline bool one_each(const Position *p)
{
    return popcount(position_pieces(p, WHITE)) == 1 && popcount(position_pieces(p, BLACK)) == 1;
}

/* The end of a line: the end of the game by the rules, or the depth reached with no capture
 * pending (the material).  Otherwise fills list and returns false.  The lines are short and
 * start afresh, so the no-progress counter and the repetitions are 0. */
static inline bool mm_leaf(const Rules *rules, const Position *p, int depth, int ply,
                           MoveList *list, int *value)
{
    turkish_variant.generate(p, rules, list);
    GameEnd end = game_end(&turkish_variant, p, rules, list->count > 0, (DrawCounts){ 0 });
    if (end.result != RESULT_NONE)
        *value = result_for_side(end.result, p->side) * (MM_WIN - ply);
    else if (depth <= 0 && list->moves[0].captured == 0)
        *value = material(p);
    else
        return false;
    return true;
}

static inline int mm(const Rules *rules, const Position *p, int depth, int ply, int alpha, int beta)
{
    const Variant *V = &turkish_variant;
    MoveList list;
    int leaf;
    if (mm_leaf(rules, p, depth, ply, &list, &leaf))
        return leaf;
    int best = -MM_INF;
    for (int i = 0; i < list.count; i++) {
        Position c = *p;
        V->make(&c, &list.moves[i]);
        int v = -mm(rules, &c, depth - 1, ply + 1, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

static inline int mm_plain(const Rules *rules, const Position *p, int depth, int ply)
{
    const Variant *V = &turkish_variant;
    MoveList list;
    int leaf;
    if (mm_leaf(rules, p, depth, ply, &list, &leaf))
        return leaf;
    int best = -MM_INF;
    for (int i = 0; i < list.count; i++) {
        Position c = *p;
        V->make(&c, &list.moves[i]);
        int v = -mm_plain(rules, &c, depth - 1, ply + 1);
        if (v > best)
            best = v;
    }
    return best;
}

#endif
