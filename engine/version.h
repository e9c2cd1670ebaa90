/* The build's identity: the version, the git commit it was built from, and the engine
 * string stored with every run. */
#ifndef DAMA_VERSION_H
#define DAMA_VERSION_H

/* "dev" unless the build sets DAMA_VERSION. */
const char *dama_version(void);
/* `git rev-parse --short HEAD` at build time, or "unknown" outside a git checkout. */
const char *dama_commit(void);
/* "dama VERSION (commit C)": what run records name as the engine. */
const char *dama_engine_version(void);

#endif
