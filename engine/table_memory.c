/* Memory for a transposition table.
 *
 * Every probe of the table lands on a random page, so with 4 KB pages nearly every probe
 * also needs a TLB entry of its own: `perf record` put a quarter of the International
 * bench's time on the two loads that touch the table.  Aligned to 2 MB and advised as huge
 * pages (Linux's transparent huge pages, "madvise" mode by default), a 64 MB table needs 32
 * TLB entries instead of 16 384.  Where the advice is not available or refused, the memory
 * is ordinary.  The search is the same node for node either way; its speed rose 14-18 %
 * (`dama analyze` to depth 15-18 from the start, both games; 12-16 alternating runs each,
 * docs/experiments.md).  The loads still take most of the search's samples: what is left
 * is the memory's latency. */
#include "table_memory.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define CACHE_LINE ((size_t)64)

void *table_memory_new(size_t bytes)
{
    size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : CACHE_LINE;
    size_t rounded = (bytes + align - 1) / align * align; /* aligned_alloc wants a multiple */
    void *p = aligned_alloc(align, rounded ? rounded : align);
    if (!p)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (align == HUGE_PAGE)
        madvise(p, rounded, MADV_HUGEPAGE); /* advice: a refusal changes nothing but speed */
#endif
    /* Zeroed (aligned_alloc does not), which also maps every page now: fresh pages are mapped
     * on first write, and for a 64 MB table in 4 KB pages those faults took some 55 ms, paid
     * by the first move's clock when a GUI sends new-game and go at once (scripts/hub-timing). */
    memset(p, 0, bytes);
    return p;
}
