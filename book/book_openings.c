/* Balanced start positions from an opening book (book_openings.h). */
#include <stdio.h>
#include <stdlib.h>

#include "book_openings.h"
#include "position.h"
#include "variant.h"

int book_balanced(const Book *b, int ply, int margin, Position **out)
{
    *out = NULL;
    int n = 0;
    for (int i = 0; i < b->npositions; i++) {
        const BookPosition *p = &b->positions[i];
        int best = b->moves[p->first].score; /* the book lists the best first */
        if (p->ply != ply || best > margin || best < -margin) continue;
        if (!*out && !(*out = malloc((size_t)b->npositions * sizeof **out))) return -1;
        (*out)[n++] = p->pos;
    }
    return n;
}

bool book_openings_load(OpeningBook *ob, const Variant *v, const char *path, int ply, const atomic_bool *stop,
                        char *err, size_t errlen)
{
    *ob = (OpeningBook){ 0 };
    Book b;
    if (!book_read(&b, path, stop, err, errlen)) return false;
    bool ok = false;
    if (b.variant != v) {
        snprintf(err, errlen, "%s: a book of %s, not %s", path, b.variant->name, v->name);
    } else {
        int n = book_balanced(&b, ply, b.margin, &ob->positions);
        if (n < 0)
            snprintf(err, errlen, "%s: out of memory", path);
        else if (n == 0)
            snprintf(err, errlen, "%s: no position at ply %d within the book's margin of %d", path, ply, b.margin);
        else
            ob->count = n, ok = true;
    }
    book_free(&b);
    if (!ok) openings_free(ob);
    return ok;
}

int book_balanced_write(const Book *b, int ply, int margin, FILE *out)
{
    Position *found;
    int n = book_balanced(b, ply, margin, &found);
    for (int i = 0; i < n; i++) {
        const BookPosition *p = book_find(b, &found[i]);
        char fen[512];
        position_to_fen(&p->pos, b->variant, fen, sizeof fen);
        fprintf(out, "%s ; ply %d games %d score %d\n", fen, p->ply, p->games, b->moves[p->first].score);
    }
    free(found);
    return n;
}
