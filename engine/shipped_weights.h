/* The best weights of each variant, shipped in data/weights/VARIANT-pattern.txt and built
 * into the binary, so `--weights best` (the default of the commands that play: analyze and
 * hub) needs no file at run time.  The files are the weights files as `dama tune` wrote
 * them; their provenance is in data/weights/README.md. */
#ifndef DAMA_SHIPPED_WEIGHTS_H
#define DAMA_SHIPPED_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>

/* The shipped file of the variant called name ("turkish", "international"): its bytes and
 * length; false for a variant without one. */
bool shipped_weights(const char *variant, const unsigned char **data, size_t *len);

#endif
