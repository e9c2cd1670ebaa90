/* The server's state per variant (server.h): which slot of its arrays a variant has and
 * the weights it plays with.  Below the router and the routes, which all ask it. */
#include "server.h"
#include "variant.h"

int server_variant_index(const Variant *v)
{
    for (int i = 0; i < SERVER_MAX_VARIANTS && variant_at(i); i++)
        if (variant_at(i) == v)
            return i;
    return -1;
}

const Weights *server_weights(const Server *srv, const Variant *v)
{
    int i = server_variant_index(v);
    return i >= 0 ? srv->weights[i] : NULL;
}
