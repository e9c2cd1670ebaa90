#include "api_json.h"
#include "server.h"
#define STUB(name) void name(Server *srv, const HttpRequest *req, const RouteArgs *args, HttpReply *reply) \
    { (void)srv, (void)req, (void)args; reply_error(reply, 501, "not yet"); }
STUB(route_game_new) STUB(route_game_get) STUB(route_game_move) STUB(route_game_engine) STUB(route_game_resign) STUB(route_game_pdn)
