/* The shipped weights of a game by name, from the registry: each game's folder builds its
 * file in (shipped_weights.h) and its Variant points at the bytes. */
#include <stdbool.h>

#include "shipped_weights.h"
#include "variant.h"

bool shipped_weights(const char *variant, const unsigned char **data, size_t *len)
{
    const Variant *v = variant_by_name(variant);
    if (!v || !v->shipped_start)
        return false;
    *data = v->shipped_start;
    *len = (size_t)(v->shipped_end - v->shipped_start);
    return true;
}
