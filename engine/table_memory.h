/* Memory for a transposition table: zeroed, mapped now, and on huge pages where the system
 * offers them. */
#ifndef DAMA_TABLE_MEMORY_H
#define DAMA_TABLE_MEMORY_H

#include <stddef.h>

/* bytes of zeroed memory, every page mapped; NULL when out of memory.  Freed with free(). */
void *table_memory_new(size_t bytes);

#endif
