/* The database and the weights opened for a command, the error printed when they cannot be. */
#ifndef DAMA_STORE_OPEN_H
#define DAMA_STORE_OPEN_H

#include "store.h"
#include "weights.h"

/* Opens the database for a command, printing the error; NULL on failure. */
Store *cli_open_store(const char *path);
/* The same for a command that only reads: read-only, never created or migrated. */
Store *cli_open_store_readonly(const char *path);

/* The weights of variant v called name (a file, 'best', 'default', 'material'), or fallback
 * when name is NULL (weights_by_name); false after printing the usage error. */
bool cli_weights(Weights *w, const Variant *v, const char *name, const char *fallback);

#endif
