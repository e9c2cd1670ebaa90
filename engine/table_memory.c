/* Memory for a transposition table.
 *
 * Every probe of the table lands on a random page, so with 4 KB pages nearly every probe
 * also misses the TLB, and the page walk stalls even a prefetch: `perf record` put a quarter
 * of the International bench's time on the two loads that touch the table.  Aligned to 2 MB
 * and advised as huge pages (Linux's transparent huge pages, "madvise" mode by default), a
 * 64 MB table needs 32 TLB entries instead of 16 384.  Where the advice is not available or
 * refused, the memory is ordinary.  The search is the same node for node either way; its
 * speed rose 14-18 % (`dama analyze` to depth 15-18 from the start, both games; 12-16
 * alternating runs each, docs/experiments.md). */
#include "table_memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE (2u * 1024 * 1024)

/* Writes one byte a page so that the pages are mapped now: fresh pages are mapped on first
 * write, and for a 64 MB table those 16 384 faults took some 55 ms, paid by the first
 * new-game, that is by the first move's clock when a GUI sends new-game and go at once
 * (scripts/hub-timing).  volatile: the compiler may not drop these stores of zeros. */
static void touch_pages(void *p, size_t bytes)
{
    volatile unsigned char *b = p;
    for (size_t i = 0; i < bytes; i += 4096)
        b[i] = 0;
}

void *table_memory_new(size_t bytes)
{
    void *p;
    if (bytes >= HUGE_PAGE) {
        size_t rounded = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        p = aligned_alloc(HUGE_PAGE, rounded);
        if (!p)
            return NULL;
#ifdef MADV_HUGEPAGE
        madvise(p, rounded, MADV_HUGEPAGE); /* advice: a refusal changes nothing but speed */
#endif
        memset(p, 0, bytes); /* aligned_alloc, unlike calloc, does not zero */
    } else {
        p = calloc(1, bytes);
        if (!p)
            return NULL;
        touch_pages(p, bytes);
    }
    return p;
}
