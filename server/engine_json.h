/* What an engine search found, as the API writes it (/api/analyze; a game's engine move). */
#ifndef DAMA_ENGINE_JSON_H
#define DAMA_ENGINE_JSON_H

#include <jansson.h>

#include "search.h"
#include "types.h"

/* {"move": text or null (no legal move), "eval": centi-men from the side to move,
 *  "eval_white": the same from white's view, "score": "35" | "win7" | "loss4",
 *  "pv": [long forms], "depth": D, "nodes": N} */
json_t *engine_result_json(const Variant *v, const Position *pos, const SearchInfo *info);

#endif
