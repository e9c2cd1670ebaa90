/* The legal moves of a position as sorted text (move_texts.h). */
#include <stdlib.h>
#include <string.h>

#include "move_texts.h"
#include "notation.h"
#include "variant.h"

/* What collect_text needs: every path in long form, or every move as a player writes it
 * (then pos and rules are set). */
typedef struct Collector {
    MoveTexts *t;
    const Variant *v;
    const Position *pos;
    const Rules *rules;
} Collector;

static void collect_text(void *vctx, const Move *m)
{
    Collector *c = vctx;
    MoveTexts *tl = c->t;
    if (tl->count == tl->cap) {
        int cap = tl->cap ? tl->cap * 2 : 64;
        void *p = realloc(tl->items, (size_t)cap * sizeof tl->items[0]);
        if (!p)
            return;
        tl->items = p;
        tl->cap = cap;
    }
    char *text = tl->items[tl->count++];
    if (c->pos)
        move_to_text_in(c->v, c->pos, c->rules, m, text, sizeof tl->items[0]);
    else
        move_to_text(c->v, m, text, sizeof tl->items[0]);
}

static int compare_text(const void *a, const void *b) { return strcmp(a, b); }

MoveTexts legal_move_texts(const Variant *v, const Position *pos, const Rules *rules, bool paths)
{
    MoveTexts tl = { 0 };
    Collector c = { .t = &tl, .v = v };
    if (paths) {
        v->for_each_path(pos, rules, collect_text, &c);
    } else {
        c.pos = pos;
        c.rules = rules;
        MoveList list;
        v->generate(pos, rules, &list);
        for (int i = 0; i < list.count; i++)
            collect_text(&c, &list.moves[i]);
    }
    if (tl.count > 0)
        qsort(tl.items, (size_t)tl.count, sizeof tl.items[0], compare_text);
    return tl;
}

void move_texts_free(MoveTexts *t)
{
    free(t->items);
    *t = (MoveTexts){ 0 };
}
