/* Perft: the move generator's test and benchmark. */
#ifndef DAMA_PERFT_H
#define DAMA_PERFT_H

#include "types.h"

typedef struct PerftOptions {
    bool count_paths; /* count every capture path (kish, pydraughts) instead of every move */
    bool bulk;        /* count the last ply's moves without making them */
} PerftOptions;

/* Leaves at exactly depth plies below pos. */
uint64_t perft(const Variant *v, const Position *pos, const Rules *rules, int depth,
               const PerftOptions *opt);

/* Perft divided by the first move: report(ctx, move, leaves) for each legal move of pos in
 * generated order (with count_paths the leaves of all its paths); returns the total.  At
 * depth 0 there is nothing to divide: the total is perft's. */
uint64_t perft_divide(const Variant *v, const Position *pos, const Rules *rules, int depth,
                      const PerftOptions *opt,
                      void (*report)(void *ctx, const Move *move, uint64_t leaves), void *ctx);

#endif
