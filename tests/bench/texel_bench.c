/* Texel gradient throughput on a synthetic dataset shaped like a real evaluation:
 * 1.5 M positions, 40 terms each over 1024 weights.  Prints positions per second per core
 * for one full-batch gradient with 1 and 2 threads (best of 3, after a warm-up). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "dataset.h"
#include "texel.h"

enum { POSITIONS = 1500000, TERMS = 40, WEIGHTS = 1024, RUNS = 3 };

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(void)
{
    Dataset *ds = dataset_new(WEIGHTS, 1);
    double *w = malloc(WEIGHTS * sizeof *w), *grad = malloc(WEIGHTS * sizeof *grad);
    if (!ds || !w || !grad || !dataset_reserve(ds, POSITIONS, (size_t)POSITIONS * TERMS)) {
        fprintf(stderr, "texel_bench: out of memory\n");
        return 1;
    }
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (int j = 0; j < WEIGHTS; j++)
        w[j] = (double)(rnd(&s) % 201) - 100.0;
    for (int i = 0; i < POSITIONS; i++) {
        int32_t idx[TERMS], coef[TERMS];
        for (int j = 0; j < TERMS; j++) {
            idx[j] = (int32_t)(rnd(&s) % WEIGHTS);
            coef[j] = (int32_t)(rnd(&s) % 8) - 4;
            coef[j] += coef[j] >= 0; /* nonzero, so every position keeps 40 terms */
        }
        float label = (float)(rnd(&s) % 3) * 0.5f;
        if (!dataset_add(ds, i / 80, label, idx, coef, TERMS)) {
            fprintf(stderr, "texel_bench: dataset_add failed\n");
            return 1;
        }
    }

    const double K = 0.005;
    for (int threads = 1; threads <= 2; threads++) {
        texel_gradient(ds, w, K, grad, threads); /* warm-up: page in the terms */
        double best = 1e30;
        for (int r = 0; r < RUNS; r++) {
            double t0 = omp_get_wtime();
            texel_gradient(ds, w, K, grad, threads);
            double dt = omp_get_wtime() - t0;
            best = dt < best ? dt : best;
        }
        printf("texel gradient positions/s per core: %.0f (threads %d)\n",
               POSITIONS / best / threads, threads);
    }
    dataset_free(ds);
    free(w);
    free(grad);
    return 0;
}
