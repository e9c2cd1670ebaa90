/* The shipped pattern weights of Brazilian draughts (data/weights/brazilian-pattern.txt)
 * built into the binary for brazilian_variant (shipped_weights.h). */
#include "shipped_weights.h"

SHIPPED_WEIGHTS_EMBED(brazilian);
