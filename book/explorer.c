/* The opening explorer (explorer.h): the store's rows grouped by move. */
#include <stdio.h>
#include <stdlib.h>

#include "explorer.h"
#include "variant.h"

typedef struct Samples {
    MoveSample *items;
    int n, cap;
    bool out_of_memory;
} Samples;

static int on_next(void *ctx, int64_t game_id, const Position *next, int score, bool has_score, int result)
{
    Samples *s = ctx;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 256;
        MoveSample *grown = cap > 0 ? realloc(s->items, (size_t)cap * sizeof *grown) : NULL;
        if (!grown) {
            s->out_of_memory = true;
            return 1;
        }
        s->items = grown;
        s->cap = cap;
    }
    s->items[s->n++] = (MoveSample){ *next, game_id, result, score, has_score };
    return 0;
}

bool explorer_query(Store *s, const Variant *v, const Rules *rules, const Position *pos, Explorer *out,
                    char *err, size_t errlen)
{
    *out = (Explorer){ 0 };
    Samples samples = { 0 };
    if (!store_next_positions(s, v->name, pos, on_next, &samples)) {
        snprintf(err, errlen, "%s", store_error(s));
        free(samples.items);
        return false;
    }
    int64_t *ids = samples.n ? malloc((size_t)samples.n * sizeof *ids) : NULL;
    out->moves = malloc(MAX_MOVES * sizeof *out->moves);
    bool ok = !samples.out_of_memory && out->moves && (ids || samples.n == 0);
    if (ok) {
        for (int i = 0; i < samples.n; i++) ids[i] = samples.items[i].game_id;
        out->games = move_stats_distinct_games(ids, samples.n);
        out->nmoves = move_stats_collect(v, rules, pos, samples.items, samples.n, out->moves, MAX_MOVES,
                                         &out->unmatched);
        ok = out->nmoves >= 0;
    }
    free(ids);
    free(samples.items);
    if (!ok) {
        explorer_free(out);
        snprintf(err, errlen, "out of memory while exploring the position");
    }
    return ok;
}

void explorer_free(Explorer *e)
{
    free(e->moves);
    *e = (Explorer){ 0 };
}
