/* Micro-benchmark of evaluate(): random-ish positions (men on ranks 2-7, a few kings), each
 * evaluated many times.  Prints "eval ns/call X".  Build by hand from the project root:
 * Built and run by `make bench`; by hand:
 *   cc -std=c11 -D_POSIX_C_SOURCE=200809L -O3 -march=native -Iengine \
 *      tests/bench/eval_bench.c engine/evaluate.c engine/weights.c -o /tmp/eval_bench */
#include <stdio.h>
#include <time.h>

#include "bitboard.h"
#include "evaluate.h"
#include "../random_pieces.h"
#include "turkish_eval.h"

#define NPOS 4096
#define ROUNDS 2000

static void random_position(uint64_t *rng, Position *pos)
{
    const Bitboard man_squares = ~(RANK_1_BB | RANK_8_BB);
    Bitboard occupied = 0;
    uint64_t r = next_random(rng);
    int kings = (r & 3) == 0; /* a quarter of the positions hold kings */
    pos->men[WHITE] = drop(rng, &occupied, man_squares, 2 + (int)(r >> 8) % 15);
    pos->men[BLACK] = drop(rng, &occupied, man_squares, 2 + (int)(r >> 16) % 15);
    pos->kings[WHITE] = drop(rng, &occupied, ~0ULL, kings * (int)((r >> 24) % 3));
    pos->kings[BLACK] = drop(rng, &occupied, ~0ULL, kings * (int)((r >> 32) % 3));
    pos->side = (int)(r >> 40) & 1;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    static Position positions[NPOS];
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    for (int i = 0; i < NPOS; i++)
        random_position(&rng, &positions[i]);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);

    long long checksum = 0;
    double start = seconds();
    for (int round = 0; round < ROUNDS; round++)
        for (int i = 0; i < NPOS; i++)
            checksum += evaluate(&positions[i], &w);
    double elapsed = seconds() - start;
    printf("eval ns/call %.1f\n", 1e9 * elapsed / ((double)ROUNDS * NPOS));
    printf("checksum %lld\n", checksum);
    return 0;
}
