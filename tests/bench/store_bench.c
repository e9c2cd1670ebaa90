/* Batched insert rate of the store: 2000 games of 100 positions, 50 games a transaction.
 * Prints "store insert positions/s X".  Built and run by `make bench`. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "store.h"

int main(void)
{
    char path[64], err[512];
    snprintf(path, sizeof path, "/tmp/dama-store-bench-%d.db", (int)getpid());
    Store *s = store_open(path, err, sizeof err);
    if (!s) {
        fprintf(stderr, "store_bench: %s\n", err);
        return 1;
    }
    int64_t run = store_run_begin(s, "bench", "turkish", NULL, NULL, NULL, 0);
    enum { GAMES = 2000, PLIES = 99, BATCH = 50 };
    StoredPosition *positions = calloc(PLIES + 1, sizeof *positions);
    GameRecord batch[BATCH];
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i <= PLIES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        positions[i].pos = (Position){ .men = { x & 0x00FFFF00ULL, x & 0x00FFFF0000000000ULL }, .side = i & 1 };
        positions[i].score = (int)(x % 200) - 100;
        positions[i].has_score = true;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool ok = run > 0;
    for (int g = 0; ok && g < GAMES; g += BATCH) {
        for (int i = 0; i < BATCH; i++)
            batch[i] = (GameRecord){ .variant = "turkish", .run_id = run, .result = RESULT_DRAW, .reason = "bench",
                                     .plies = PLIES, .moves = "", .seed = (uint64_t)(g + i),
                                     .positions = positions, .npositions = PLIES + 1 };
        ok = store_games_write(s, batch, BATCH);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (ok)
        printf("store insert positions/s %.0f (%d games x %d positions, %d games a transaction)\n",
               GAMES * (PLIES + 1.0) / secs, GAMES, PLIES + 1, BATCH);
    else
        fprintf(stderr, "store_bench: %s\n", store_error(s));
    store_close(s);
    free(positions);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -f %s %s-wal %s-shm", path, path, path);
    if (system(cmd) != 0)
        return 1;
    return ok ? 0 : 1;
}
