/* The database opened for a command, the error printed when it cannot be. */
#ifndef DAMA_STORE_OPEN_H
#define DAMA_STORE_OPEN_H

#include "store.h"

/* Opens the database for a command, printing the error; NULL on failure. */
Store *cli_open_store(const char *path);
/* The same for a command that only reads: read-only, never created or migrated. */
Store *cli_open_store_readonly(const char *path);

#endif
