/* Annotated games: marks by the score lost, the notes and CSV columns they become. */
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "notation.h"
#include "variant.h"

const AnnotateThresholds annotate_thresholds_default = { 50, 100, 200, 500 };

static int clamp(int x, int cap) { return x < -cap ? -cap : x > cap ? cap : x; }

int annotate_loss(const AnnotateThresholds *t, int before, int after)
{
    int loss = clamp(before, t->cap) - clamp(after, t->cap);
    return loss > 0 ? loss : 0;
}

int annotate_mark(const AnnotateThresholds *t, int before, int after, bool best_played, bool only_move)
{
    if (best_played || only_move)
        return MARK_NONE;
    int loss = annotate_loss(t, before, after);
    return loss >= t->blunder ? MARK_BLUNDER : loss >= t->mistake ? MARK_MISTAKE
           : loss >= t->inaccuracy ? MARK_INACCURACY : MARK_NONE;
}

const char *annotate_mark_text(int mark)
{
    static const char *const text[] = { "", "?!", "?", "??" };
    return mark >= MARK_NONE && mark <= MARK_BLUNDER ? text[mark] : "";
}

const char *annotate_mark_nag(int mark)
{
    static const char *const nag[] = { "", "$6", "$2", "$4" };
    return mark >= MARK_NONE && mark <= MARK_BLUNDER ? nag[mark] : "";
}

const char *const annotate_csv_columns[ANNOTATE_CSV_NCOLUMNS] = {
    "game_id", "ply", "move", "mover", "score_before", "score_after", "loss", "mark",
    "best_move", "best_line",
};

void annotate_game_free(AnnotateGame *g)
{
    free(g->id);
    free(g->moves);
    for (int i = 0; i < g->ntags; i++) {
        free(g->tags[i].name);
        free(g->tags[i].value);
    }
    free(g->tags);
    memset(g, 0, sizeof *g);
}

void annotated_moves_free(AnnotatedMove *m, int n)
{
    if (!m)
        return;
    for (int i = 0; i < n; i++)
        free(m[i].line);
    free(m);
}

bool annotate_positions(const Variant *v, const AnnotateGame *games, int ngames, BatchList *out)
{
    for (int g = 0; g < ngames; g++) {
        Position pos = games[g].start;
        for (int ply = 0; ply <= games[g].nmoves; ply++) {
            char id[96];
            snprintf(id, sizeof id, "game%s:ply%d", games[g].id, ply);
            if (!batch_list_add(out, v, &pos, id))
                return false;
            if (ply < games[g].nmoves)
                v->make(&pos, &games[g].moves[ply]);
        }
    }
    return true;
}

/* A line of long-form moves from pos in the short form (malloc'd); a move that does not
 * parse ends it (it cannot happen with the search's own PV). */
static char *short_line(const Variant *v, const Rules *rules, Position pos, const char *line)
{
    size_t cap = strlen(line) + 1, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (const char *p = line; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n == 0)
            break;
        char tok[256], text[256], why[256];
        Move m;
        if (n >= sizeof tok)
            break;
        memcpy(tok, p, n);
        tok[n] = '\0';
        p += n;
        if (!move_from_text(v, &pos, rules, tok, &m, why, sizeof why))
            break;
        move_to_text_in(v, &pos, rules, &m, text, sizeof text);
        size_t k = strlen(text);
        if (len + k + 2 > cap) /* the short form is never longer than the long one */
            break;
        if (len)
            out[len++] = ' ';
        memcpy(out + len, text, k + 1);
        len += k;
        v->make(&pos, &m);
    }
    return out;
}

bool annotate_game(const Variant *v, const Rules *rules, const AnnotateThresholds *t,
                   const AnnotateGame *g, const BatchResult *r, AnnotatedMove **out)
{
    *out = calloc(g->nmoves > 0 ? (size_t)g->nmoves : 1, sizeof **out);
    if (!*out)
        return false;
    Position pos = g->start;
    for (int i = 0; i < g->nmoves; i++) {
        AnnotatedMove *a = &(*out)[i];
        MoveList legal;
        v->generate(&pos, rules, &legal);
        a->ply = i + 1;
        a->mover = pos.side;
        a->only_move = legal.count == 1;
        move_to_text_in(v, &pos, rules, &g->moves[i], a->move, sizeof a->move);
        a->line = short_line(v, rules, pos, r[i].pv ? r[i].pv : "");
        if (!a->line) {
            annotated_moves_free(*out, i);
            *out = NULL;
            return false;
        }
        size_t first = strcspn(a->line, " ");
        if (first < sizeof a->best) {
            memcpy(a->best, a->line, first);
            a->best[first] = '\0';
        }
        a->best_played = strcmp(a->best, a->move) == 0;
        a->before = r[i].score;
        a->after = -r[i + 1].score;
        a->loss = annotate_loss(t, a->before, a->after);
        a->mark = annotate_mark(t, a->before, a->after, a->best_played, a->only_move);
        v->make(&pos, &g->moves[i]);
    }
    return true;
}

void annotate_notes_free(StorePdnNote *notes, int n)
{
    if (!notes)
        return;
    for (int i = 0; i < n; i++)
        free(notes[i].text);
    free(notes);
}

bool annotate_notes(const AnnotatedMove *m, int n, StorePdnNote **out, int *nout)
{
    *nout = 0;
    *out = calloc(n > 0 ? 2 * (size_t)n : 1, sizeof **out);
    if (!*out)
        return false;
    for (int i = 0; i < n; i++) {
        char before[32], after[32];
        score_to_text(m[i].before, before, sizeof before);
        score_to_text(m[i].after, after, sizeof after);
        if (m[i].mark != MARK_NONE) {
            (*out)[*nout] = (StorePdnNote){ m[i].ply, strdup(annotate_mark_nag(m[i].mark)) };
            if (!(*out)[(*nout)++].text)
                goto oom;
        }
        size_t cap = strlen(m[i].line) + sizeof m[i].best + 96;
        char *text = malloc(cap);
        if (!text)
            goto oom;
        if (m[i].mark != MARK_NONE)
            snprintf(text, cap, "{%s -> %s; best %s: %s}", before, after, m[i].best, m[i].line);
        else
            snprintf(text, cap, "{%s -> %s}", before, after);
        (*out)[(*nout)++] = (StorePdnNote){ m[i].ply, text };
    }
    return true;
oom:
    annotate_notes_free(*out, *nout);
    *out = NULL;
    *nout = 0;
    return false;
}
