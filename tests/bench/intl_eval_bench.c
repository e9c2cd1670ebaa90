/* Micro-benchmark of the International features(): the positions of the vector file and
 * the positions of random games from the start, each measured many times.  Prints
 * "intl features ns/call X" per set.  Built and run by `make bench` (from the project
 * root: it reads tests/vectors/international/positions.txt). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "international_eval.h"
#include "position.h"
#include "variant.h"
#include "../random_pieces.h"

#define MAX_POS 4096
#define CALLS 20000000L
#define VECTORS "tests/vectors/international/positions.txt"

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The FENs of the vector file (before each ';'); returns how many. */
static int read_vectors(Position *out)
{
    FILE *f = fopen(VECTORS, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open (run from the project root)\n", VECTORS);
        return 0;
    }
    char line[1024], err[256];
    int n = 0;
    while (n < MAX_POS && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (line[0] == '#' || !semi)
            continue;
        *semi = '\0';
        if (position_from_fen(&out[n], &international_variant, line, err, sizeof err))
            n++;
    }
    fclose(f);
    return n;
}

/* Positions along random games from the start: every stage from 40 men to kings. */
static int random_games(Position *out)
{
    static MoveList list;
    Rules rules = rules_default(&international_variant);
    uint64_t rng = 0x2545F4914F6CDD1DULL;
    int n = 0;
    while (n < MAX_POS) {
        Position pos;
        international_variant.start(&pos);
        for (int ply = 0; ply < 150 && n < MAX_POS; ply++) {
            out[n++] = pos;
            international_variant.generate(&pos, &rules, &list);
            if (list.count == 0)
                break;
            international_variant.make(&pos, &list.moves[next_random(&rng) % (uint64_t)list.count]);
        }
    }
    return n;
}

static void measure(const char *label, const Position *positions, int n)
{
    if (n == 0)
        return;
    int32_t v[EVAL_MAX_FEATURES + 1];
    long long checksum = 0;
    long rounds = CALLS / n, nfeatures = international_eval_spec.nfeatures;
    double start = seconds();
    for (long r = 0; r < rounds; r++)
        for (int i = 0; i < n; i++)
            checksum += international_eval_spec.features(&positions[i], v) + v[r % nfeatures];
    double elapsed = seconds() - start;
    printf("intl features ns/call %.1f (%s, %d positions, checksum %lld)\n",
           1e9 * elapsed / ((double)rounds * n), label, n, checksum);
}

int main(void)
{
    static Position positions[MAX_POS];
    measure("vector positions", positions, read_vectors(positions));
    measure("random games", positions, random_games(positions));
    return 0;
}
