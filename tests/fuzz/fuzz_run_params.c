/* run_params_remap (the ids of a run's params text, rewritten by `dama db merge`) on any
 * text: mapping every id to itself, or mapping none, gives the text back; every id becomes
 * at most 19 digits, in the room merge gives (19 bytes an input byte); and mapping every id
 * to INT64_MAX and then those to 7 is the same as mapping every id to 7 at once (but for
 * ids written with leading zeros, which an id that stays keeps). */
#include "fuzz_util.h"
#include "run_params.h"

/* The maps: by what they give for id (ctx and kind are not used). */
#define ID_MAP(name, result) \
    static int64_t name(void *ctx, ParamsIdKind kind, int64_t id) \
    { \
        (void)ctx; \
        (void)kind; \
        (void)id; \
        return result; \
    }
ID_MAP(same, id)
ID_MAP(none, PARAMS_ID_UNMAPPED)
ID_MAP(largest, INT64_MAX)
ID_MAP(seven, 7)
ID_MAP(largest_to_seven, id == INT64_MAX ? 7 : PARAMS_ID_UNMAPPED)

/* A number written with a leading zero ("=007", ",01"): kept as written when its id stays,
 * so mapping in two steps may spell it otherwise than at once. */
static bool leading_zero(const char *s)
{
    for (const char *p = s; (p = strchr(p, '0')); p++)
        if (p > s && (p[-1] == '=' || p[-1] == ',') && p[1] >= '0' && p[1] <= '9')
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = fuzz_string(data, size);
    size_t len = strlen(in), room = 19 * len + 1;
    char *out = malloc(room), *twice = malloc(room), *once = malloc(room);
    if (!out || !twice || !once)
        abort();
    /* an id too long for int64 refuses the text whatever the map: then every map refuses */
    bool ok = run_params_remap(in, same, NULL, out, len + 1);
    if (ok) {
        FUZZ_CHECK(strcmp(out, in) == 0, "ids mapped to themselves changed '%s' into '%s'", in, out);
        FUZZ_CHECK(run_params_remap(in, none, NULL, out, len + 1) && strcmp(out, in) == 0,
                   "no id mapped changed '%s'", in);
        FUZZ_CHECK(run_params_remap(in, largest, NULL, out, room), "no room for '%s' with 19-digit ids", in);
        FUZZ_CHECK(run_params_remap(out, largest_to_seven, NULL, twice, room), "'%s' refused", out);
        FUZZ_CHECK(run_params_remap(in, seven, NULL, once, room), "'%s' refused mapping to 7", in);
        FUZZ_CHECK(leading_zero(in) || strcmp(twice, once) == 0, "'%s': in two steps '%s', at once '%s'", in, twice,
                   once);
    } else {
        FUZZ_CHECK(!run_params_remap(in, largest, NULL, out, room), "'%s' refused for one map only", in);
    }
    free(in);
    free(out);
    free(twice);
    free(once);
    return 0;
}
