/* PDN output: tags and move text of one game. */
#include <string.h>
#include <strings.h>

#include "notation.h"
#include "pdn_read.h"
#include "pdn_write.h"
#include "position.h"
#include "variant.h"

/* Move text lines stay within this many columns (a longer token has a line of its own). */
#define PDN_LINE_WIDTH 79

const char *const pdn_roster_tags[PDN_ROSTER_COUNT] = { "Event", "Site", "Date", "Round", "White", "Black" };

static void write_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fputs("\"]\n", f);
}

/* Tags the writer makes itself, or writes in the roster's place. */
static bool tag_is_derived(const char *name)
{
    static const char *const derived[] = { "Result", "GameType", "FEN", "SetUp" };
    for (size_t i = 0; i < sizeof derived / sizeof *derived; i++)
        if (strcasecmp(name, derived[i]) == 0)
            return true;
    for (int i = 0; i < PDN_ROSTER_COUNT; i++)
        if (strcasecmp(name, pdn_roster_tags[i]) == 0)
            return true;
    return false;
}

static const char *tag_value(const PdnGameOut *g, const char *name, const char *otherwise)
{
    const char *value = otherwise;
    for (int i = 0; i < g->ntags; i++)
        if (strcasecmp(g->tags[i].name, name) == 0)
            value = g->tags[i].value;
    return value;
}

/* The variant as its PDN GameType writes squares (Variant.pdn_square_name): a copy with
 * those names, as move text and FEN are written from it; the game itself where it has
 * none. */
static Variant pdn_notation(const Variant *v)
{
    Variant notation = *v;
    if (v->pdn_square_name) {
        notation.square_name = v->pdn_square_name;
        notation.numbered = false;
    }
    return notation;
}

static void write_tags(FILE *f, const PdnGameOut *g)
{
    for (int i = 0; i < PDN_ROSTER_COUNT; i++) {
        const char *name = pdn_roster_tags[i];
        write_tag(f, name, tag_value(g, name, strcmp(name, "Date") == 0 ? "????.??.??" : "?"));
    }
    write_tag(f, "Result", pdn_result_text(g->result));
    char number[16], fen[1024];
    snprintf(number, sizeof number, "%d", g->variant->pdn_gametype);
    write_tag(f, "GameType", number);
    if (g->setup) {
        Variant notation = pdn_notation(g->variant);
        position_to_fen(g->start, &notation, fen, sizeof fen);
        write_tag(f, "FEN", fen);
    }
    for (int i = 0; i < g->ntags; i++)
        if (!tag_is_derived(g->tags[i].name))
            write_tag(f, g->tags[i].name, g->tags[i].value);
}

/* The move text as tokens laid out in lines. */
typedef struct Line {
    FILE *f;
    int column;
} Line;

static void put_token(Line *l, const char *text, bool glued)
{
    size_t n = strlen(text), first = strcspn(text, "\n");
    if (!glued && l->column > 0) {
        bool wrap = (size_t)l->column + 1 + first > PDN_LINE_WIDTH;
        fputc(wrap ? '\n' : ' ', l->f);
        l->column = wrap ? 0 : l->column + 1;
    }
    fputs(text, l->f);
    const char *nl = strrchr(text, '\n');
    l->column = nl ? (int)(n - (size_t)(nl + 1 - text)) : l->column + (int)n;
}

static bool is_mark(const char *text) { return text[0] == '!' || text[0] == '?'; }

bool pdn_write_game(FILE *f, const PdnGameOut *g, char *err, size_t errlen)
{
    write_tags(f, g);
    fputc('\n', f);
    const Variant *v = g->variant, notation = pdn_notation(v);
    Position pos = *g->start;
    Line line = { f, 0 };
    int note = 0, number = 1, ply = 0;
    bool after_note = false;
    const char *p = g->moves ? g->moves : "";
    for (;;) {
        for (; note < g->nnotes && g->notes[note].ply <= ply; note++) {
            bool glue = ply > 0 && !after_note && is_mark(g->notes[note].text);
            put_token(&line, g->notes[note].text, glue);
            after_note = after_note || (!glue && g->notes[note].text[0] != '$');
        }
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char tok[256];
        size_t n = strcspn(p, " ");
        if (n >= sizeof tok) {
            snprintf(err, errlen, "stored move %d is longer than %zu characters", ply + 1, sizeof tok - 1);
            return false;
        }
        memcpy(tok, p, n);
        tok[n] = '\0';
        p += n;
        Move m;
        char why[512], text[256], num[32];
        if (!move_from_text(v, &pos, g->rules, tok, &m, why, sizeof why)) {
            snprintf(err, errlen, "stored move %d '%s' is not legal: %s", ply + 1, tok, why);
            return false;
        }
        /* the number and its move stay on one line */
        num[0] = '\0';
        if (pos.side == WHITE || ply == 0 || after_note)
            snprintf(num, sizeof num, pos.side == WHITE ? "%d. " : "%d... ", number);
        size_t used = strlen(num);
        memcpy(text, num, used + 1);
        move_to_text_in(&notation, &pos, g->rules, &m, text + used, sizeof text - used);
        put_token(&line, text, false);
        if (pos.side == BLACK)
            number++;
        v->make(&pos, &m);
        ply++;
        after_note = false;
    }
    put_token(&line, pdn_result_text(g->result), false);
    fputs("\n\n", f);
    return true;
}
