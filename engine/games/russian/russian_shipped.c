/* The shipped pattern weights of Russian draughts (data/weights/russian-pattern.txt) built
 * into the binary for russian_variant (shipped_weights.h). */
#include "shipped_weights.h"

SHIPPED_WEIGHTS_EMBED(russian);
