/* The bench signatures the search and evaluation are pinned to (tests/test_search.c checks
 * them; other tests expect them where a run records the search that played).  When the
 * search or the evaluation changes on purpose, update them in the same commit (and say
 * so): any other change of them is a bug. */
#ifndef DAMA_TEST_PINNED_BENCH_H
#define DAMA_TEST_PINNED_BENCH_H

#define PINNED_SIGNATURE "bench depth 6: 48297"
/* International's own bench set and evaluation (engine/games/international/international.c) */
#define PINNED_SIGNATURE_INTERNATIONAL "bench depth 6: 29719"
/* Brazilian's (engine/games/brazilian/brazilian.c; tests/test_brazilian.c checks it) */
#define PINNED_SIGNATURE_BRAZILIAN "bench depth 6: 21994"
/* The same bench with the shipped pattern weights (`dama bench --weights best`): what the
 * commands that play search with, so a change of the pattern evaluation's value shows. */
#define PINNED_SIGNATURE_BEST "bench depth 6: 42980"
#define PINNED_SIGNATURE_INTERNATIONAL_BEST "bench depth 6: 26417"
#define PINNED_SIGNATURE_BRAZILIAN_BEST "bench depth 6: 21062"
/* Russian's own bench set (engine/games/russian/russian.c), hand-set and shipped weights
 * (tests/test_russian.c checks them) */
#define PINNED_SIGNATURE_RUSSIAN "bench depth 6: 15193"
#define PINNED_SIGNATURE_RUSSIAN_BEST "bench depth 6: 13575"

#endif
