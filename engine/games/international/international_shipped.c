/* The shipped pattern weights of International draughts (data/weights/international-pattern.txt) built into
 * the binary for international_variant (shipped_weights.h). */
#include "shipped_weights.h"

SHIPPED_WEIGHTS_EMBED(international);
