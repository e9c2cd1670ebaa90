/* The bench set and its run (see bench.h). */
#include "bench.h"
#include "position.h"
#include "variant.h"

/* The bench set: openings, middlegames, endgames with kings.  Changing it changes the
 * signature; so does any change to search or evaluation. */
const char *const bench_positions[] = {
    "start",
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,d2,e2,g2,h2,a3,c3,d3,f3,h3,c4,e4:Ba6,b6,d6,f6,h6,a7,c7,e7,f7,g7,h7,b5,g5",
    "W:Wb2,c2,f2,g2,a3,d3,e3,h3,c4,f4,b5:Ba7,c7,f7,g7,b6,d6,e6,h6,c5,g5,a4",
    "B:Wa2,c2,e2,h2,b3,d3,g3,e4,f4:Bb7,d7,g7,a6,c6,f6,h6,d5,b4",
    "W:Wc2,d2,f2,b3,g3,e5:Bb7,c6,e6,g6,a5,h4",
    "W:WKa1,d3,f3,g4:Bb6,c6,e7,h5,Kh8",
    "B:WKd1,Ke4,b2,g3:BKa8,c5,f6,h6",
    "W:WKc3,a4,h3:BKf6,Kb8,d5",
    "W:Wd5,e4:Bd7,g6,Ka1",
    "W:WKh1:Bb5,c6,Ka8",
    "B:Wb3,c4,d4,f3,g2:Bb6,c7,e6,f6,g7",
};

const int bench_position_count = (int)(sizeof bench_positions / sizeof bench_positions[0]);

uint64_t bench_run(Searcher *s, int depth, double *seconds,
                   void (*per_position)(void *ctx, int index, const Position *pos, const SearchInfo *info),
                   void *ctx)
{
    SearchLimits limits = { .depth = depth };
    uint64_t nodes = 0;
    *seconds = 0;
    for (int i = 0; i < bench_position_count; i++) {
        Position pos;
        char err[256];
        if (!position_from_fen(&pos, s->variant, bench_positions[i], err, sizeof err))
            continue; /* the set is fixed and tested: every entry reads */
        searcher_clear(s);
        SearchInfo info = search(s, &pos, NULL, 0, &limits, NULL, NULL);
        nodes += info.nodes;
        *seconds += info.seconds;
        if (per_position)
            per_position(ctx, i, &pos, &info);
    }
    return nodes;
}
