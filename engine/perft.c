/* Perft counts the leaves of the legal-move tree. */
#include "perft.h"
#include "variant.h"

/* The generic loop, over the variant's generate, make and count. */
static uint64_t perft_generic(const Variant *v, const Position *pos, const Rules *rules, int depth,
                              const PerftOptions *opt)
{
    if (depth <= 0)
        return 1;
    if (depth == 1 && opt->bulk)
        return v->count(pos, rules, opt->count_paths);
    MoveList list;
    v->generate(pos, rules, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        Position child = *pos;
        v->make(&child, &list.moves[i]);
        /* A leaf is made, and counted without a call that would return 1. */
        uint64_t n = depth == 1 ? 1 : perft_generic(v, &child, rules, depth - 1, opt);
        nodes += opt->count_paths ? n * list.npaths[i] : n;
    }
    return nodes;
}

uint64_t perft(const Variant *v, const Position *pos, const Rules *rules, int depth,
               const PerftOptions *opt)
{
    return v->perft ? v->perft(pos, rules, depth, opt) : perft_generic(v, pos, rules, depth, opt);
}

uint64_t perft_divide(const Variant *v, const Position *pos, const Rules *rules, int depth,
                      const PerftOptions *opt,
                      void (*report)(void *ctx, const Move *move, uint64_t leaves), void *ctx)
{
    if (depth <= 0)
        return perft(v, pos, rules, depth, opt);
    MoveList list;
    v->generate(pos, rules, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        Position child = *pos;
        v->make(&child, &list.moves[i]);
        uint64_t n = perft(v, &child, rules, depth - 1, opt);
        if (opt->count_paths)
            n *= list.npaths[i];
        report(ctx, &list.moves[i], n);
        nodes += n;
    }
    return nodes;
}
