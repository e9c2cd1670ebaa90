/* Opening positions for self-play and matches. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "openings.h"
#include "position.h"
#include "variant.h"

bool openings_load(OpeningBook *book, const Variant *v, const char *path, char *err, size_t errlen)
{
    book->positions = NULL;
    book->count = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return false;
    }
    char line[1024];
    int lineno = 0, cap = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *semi = strchr(line, ';');
        if (semi)
            *semi = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, "\r\n");
        p[n] = '\0';
        if (*p == '\0' || *p == '#')
            continue;
        if (book->count == cap) {
            cap = cap ? cap * 2 : 64;
            Position *np = realloc(book->positions, (size_t)cap * sizeof *np);
            if (!np) {
                snprintf(err, errlen, "%s: out of memory", path);
                ok = false;
                break;
            }
            book->positions = np;
        }
        char why[256];
        if (!position_from_fen(&book->positions[book->count], v, p, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            ok = false;
            break;
        }
        book->count++;
    }
    if (ok && ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        ok = false;
    }
    if (ok && book->count == 0) {
        snprintf(err, errlen, "%s: no positions in the file", path);
        ok = false;
    }
    fclose(f);
    if (!ok)
        openings_free(book);
    return ok;
}

void openings_free(OpeningBook *book)
{
    free(book->positions);
    book->positions = NULL;
    book->count = 0;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void opening_random(const Variant *v, const Rules *rules, int plies, uint64_t seed,
                    Searcher *probe, int balance, Position *out)
{
    uint64_t state = seed;
    v->start(out);
    const SearchLimits probe_limits = { .depth = 6, .nodes = 20000 };
    for (int attempt = 0; attempt < 200; attempt++) {
        Position pos;
        v->start(&pos);
        bool alive = true;
        for (int i = 0; i < plies && alive; i++) {
            MoveList list;
            v->generate(&pos, rules, &list);
            if (list.count == 0)
                alive = false;
            else
                v->make(&pos, &list.moves[next_random(&state) % (uint64_t)list.count]);
        }
        if (!alive)
            continue;
        *out = pos;
        if (!probe)
            return;
        searcher_clear(probe);
        probe->noise = 0; /* a previous game's noise would make the filter depend on timing */
        SearchInfo info = search(probe, &pos, NULL, 0, &probe_limits, NULL, NULL);
        if (info.pv_length > 0 && info.score >= -balance && info.score <= balance)
            return;
    }
    /* Nothing balanced found: the last opening drawn stands (still deterministic). */
}
