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

#endif
