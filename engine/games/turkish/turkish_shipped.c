/* The shipped pattern weights of Turkish draughts (data/weights/turkish-pattern.txt) built into
 * the binary for turkish_variant (shipped_weights.h). */
#include "shipped_weights.h"

SHIPPED_WEIGHTS_EMBED(turkish);
