/* The build's identity.  The Makefile passes DAMA_COMMIT to this file only, so a new commit
 * rebuilds one small object and relinks, not the whole tree. */
#include "version.h"

#ifndef DAMA_VERSION
#define DAMA_VERSION "dev"
#endif
#ifndef DAMA_COMMIT
#define DAMA_COMMIT "unknown"
#endif

const char *dama_version(void) { return DAMA_VERSION; }

const char *dama_commit(void) { return DAMA_COMMIT; }

const char *dama_engine_version(void) { return "dama " DAMA_VERSION " (commit " DAMA_COMMIT ")"; }
