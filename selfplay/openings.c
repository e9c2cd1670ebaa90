/* Opening positions for self-play and matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "openings.h"
#include "position.h"
#include "text_input.h"
#include "variant.h"

/* Adds one FEN line (comment and blanks already cut) to the book; false with the reason. */
static bool add_opening(OpeningBook *book, int *cap, const Variant *v, const Rules *rules,
                        const char *fen, char *why, size_t whylen)
{
    if (book->count == *cap) {
        int ncap = *cap ? *cap * 2 : 64;
        Position *np = realloc(book->positions, (size_t)ncap * sizeof *np);
        if (!np)
            return snprintf(why, whylen, "out of memory"), false;
        book->positions = np;
        *cap = ncap;
    }
    Position *pos = &book->positions[book->count];
    if (!position_from_fen(pos, v, fen, why, whylen))
        return false;
    /* A game must be playable from it: the same judge as play decides. */
    MoveList list;
    v->generate(pos, rules, &list);
    GameEnd end = game_end(v, pos, rules, list.count > 0, (DrawCounts){ 0 });
    if (end.result != RESULT_NONE) {
        char text[64];
        snprintf(why, whylen, "the game is already over there: %s", game_end_text(end, text, sizeof text));
        return false;
    }
    book->count++;
    return true;
}

bool openings_load(OpeningBook *book, const Variant *v, const Rules *rules, const char *path,
                   const atomic_bool *stop, char *err, size_t errlen)
{
    book->positions = NULL;
    book->count = 0;
    char *buf;
    size_t len;
    const TextLimit limit = { "an openings file", OPENINGS_FILE_MAX, stop };
    if (!text_file_read(path, &limit, &buf, &len, err, errlen))
        return false;
    const char *text = buf;
    bool ok = text_prepare(path, &text, &len, err, errlen);
    int cap = 0;
    long lineno = 0;
    for (const char *p = text, *end = text + len; ok && p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        /* a file at the size limit takes a few seconds to check: a stop is seen at once */
        if (++lineno % 4096 == 0 && stop && atomic_load(stop)) {
            snprintf(err, errlen, "%s: interrupted while reading", path);
            ok = false;
            break;
        }
        /* The FEN: up to a ';' comment, without surrounding blanks (a CRLF's '\r' too). */
        const char *q = memchr(p, ';', (size_t)(eol - p));
        const char *e = q ? q : eol;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        if (e > p && *p != '#') {
            char *fen = strndup(p, (size_t)(e - p)), why[256];
            if (!fen) {
                snprintf(err, errlen, "%s: out of memory", path);
                ok = false;
            } else if (!add_opening(book, &cap, v, rules, fen, why, sizeof why)) {
                snprintf(err, errlen, "%s:%ld: %s", path, lineno, why);
                ok = false;
            }
            free(fen);
        }
        p = eol < end ? eol + 1 : eol;
    }
    if (ok && book->count == 0) {
        snprintf(err, errlen, "%s: no positions in the file", path);
        ok = false;
    }
    free(buf);
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
