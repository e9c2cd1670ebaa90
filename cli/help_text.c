/* Help text with the games of the registry written in (help_text.h). */
#include <stdio.h>
#include <string.h>

#include "annotate_job.h"
#include "bench.h"
#include "help_text.h"
#include "serve.h"
#include "hub_text.h"
#include "variant.h"

/* A growing line of text (one help line, expanded). */
typedef struct Text {
    char buf[2048];
    size_t len;
} Text;

static void put(Text *t, const char *s, size_t n)
{
    if (n > sizeof t->buf - 1 - t->len)
        n = sizeof t->buf - 1 - t->len;
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static void puts_text(Text *t, const char *s) { put(t, s, strlen(s)); }

/* "turkish (default) or international (short tr, intl)". */
static void put_games(Text *t)
{
    int n = 0;
    while (variant_at(n))
        n++;
    for (int i = 0; i < n; i++) {
        puts_text(t, i == 0 ? "" : i == n - 1 ? " or " : ", ");
        puts_text(t, variant_at(i)->name);
        if (i == 0)
            puts_text(t, " (default)");
    }
    const char *sep = " (short ";
    for (int i = 0; i < n; i++)
        for (const char *a = variant_at(i)->aliases; a && *a;) { /* space-separated */
            size_t len = strcspn(a, " ");
            if (len) {
                puts_text(t, sep);
                put(t, a, len);
                sep = ", ";
            }
            a += len + (a[len] == ' ');
        }
    if (strcmp(sep, ", ") == 0)
        puts_text(t, ")");
}

/* "Turkish: promotion=man|stop|king, ...; International: ...": each game's first word of
 * its title and its rules_help. */
static void put_rules(Text *t)
{
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        puts_text(t, i ? "; " : "");
        put(t, v->title, strcspn(v->title, " "));
        puts_text(t, ": ");
        puts_text(t, v->rules_help);
    }
}

/* "30 Turkish, 20 International": each game's PDN GameType and the first word of its
 * title. */
static void put_gametypes(Text *t)
{
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        char number[16];
        snprintf(number, sizeof number, "%s%d ", i ? ", " : "", v->pdn_gametype);
        puts_text(t, number);
        put(t, v->title, strcspn(v->title, " "));
    }
}

/* "Turkish, International and Russian draughts": the first words of the titles. */
static void put_titles(Text *t)
{
    int n = 0;
    while (variant_at(n))
        n++;
    for (int i = 0; i < n; i++) {
        puts_text(t, i == 0 ? "" : i == n - 1 ? " and " : ", ");
        put(t, variant_at(i)->title, strcspn(variant_at(i)->title, " "));
    }
    puts_text(t, " draughts");
}

#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x) /* a number macro as a string literal */

/* The placeholders: the first six from the registry, the others fixed values. */
static const struct {
    const char *name, *text; /* text NULL: from the registry */
} placeholders[] = {
    { "{GAMES}", NULL }, { "{GAME_NAMES}", NULL }, { "{RULES}", NULL }, { "{HUB_GAMES}", NULL },
    { "{GAMETYPES}", NULL }, { "{TITLES}", NULL },
    { "{BENCH_DEPTH}", TEXT_OF(BENCH_DEPTH) },
    { "{BENCH_HASH_MB}", TEXT_OF(BENCH_HASH_MB) },
    { "{BENCH_SIGNATURE_DEPTH}", TEXT_OF(BENCH_SIGNATURE_DEPTH) },
    { "{ANNOTATE_DEPTH}", TEXT_OF(ANNOTATE_DEFAULT_DEPTH) },
    { "{DYGRAPHS_DIR}", SERVE_DYGRAPHS_DIR },
};

/* The line (without its newline) with the placeholders expanded; true when it held one,
 * *first its column. */
static bool expand(const char *line, size_t len, Text *t, size_t *first)
{
    const size_t count = sizeof placeholders / sizeof placeholders[0];
    bool any = false;
    t->len = 0;
    t->buf[0] = '\0';
    for (size_t i = 0; i < len;) {
        size_t k = 0;
        while (k < count && (len - i < strlen(placeholders[k].name)
                             || memcmp(line + i, placeholders[k].name, strlen(placeholders[k].name)) != 0))
            k++;
        if (k == count) {
            put(t, line + i++, 1);
            continue;
        }
        if (!any)
            *first = t->len;
        char games[256];
        if (placeholders[k].text)
            puts_text(t, placeholders[k].text);
        else if (k == 0)
            put_games(t);
        else if (k == 1)
            puts_text(t, variant_names("|", games, sizeof games));
        else if (k == 2)
            put_rules(t);
        else if (k == 3)
            puts_text(t, hub_game_list(games, sizeof games));
        else if (k == 4)
            put_gametypes(t);
        else
            put_titles(t);
        i += strlen(placeholders[k].name);
        any = true;
    }
    return any;
}

/* The column where an option line's description starts: after the option and a run of
 * two blanks ("  --rules OPTIONS  comma ..." -> 19), else where the placeholder was;
 * 0 for prose (a line that starts with no blank). */
static size_t description_column(const char *s, size_t first)
{
    size_t i = strspn(s, " ");
    if (i == 0)
        return 0;
    const char *gap = strstr(s + i, "  ");
    return gap ? (size_t)(gap - s) + strspn(gap, " ") : first;
}

/* Writes the line wrapped at HELP_COLUMNS, breaking at blanks. */
static void print_wrapped(const char *s, size_t first, FILE *out)
{
    size_t indent = description_column(s, first), col = 0, start = 0, n = strlen(s);
    while (n - start > HELP_COLUMNS - col) {
        size_t room = HELP_COLUMNS - col, cut = start + room;
        while (cut > start && s[cut] != ' ')
            cut--;
        if (cut == start)
            break; /* one word longer than the room: written whole */
        fprintf(out, "%.*s\n%*s", (int)(cut - start), s + start, (int)indent, "");
        col = indent;
        start = cut + 1;
    }
    fprintf(out, "%s\n", s + start);
}

void help_text_print(const char *help, FILE *out)
{
    for (const char *line = help; *line;) {
        size_t len = strcspn(line, "\n");
        Text t;
        size_t first = 0;
        /* a line that is "{FILE}" alone: the shared text cli/help/file.txt (lower case) */
        char file[32];
        if (line[0] == '{' && len > 2 && len < sizeof file && line[len - 1] == '}') {
            for (size_t i = 1; i + 1 < len; i++)
                file[i - 1] = (char)(line[i] >= 'A' && line[i] <= 'Z' ? line[i] - 'A' + 'a' : line[i]);
            file[len - 2] = '\0';
            if (help_file(file)) {
                help_text_print(help_file(file), out);
                line += len + (line[len] == '\n');
                continue;
            }
        }
        if (expand(line, len, &t, &first))
            print_wrapped(t.buf, first, out);
        else
            fprintf(out, "%.*s%s", (int)len, line, line[len] == '\n' ? "\n" : "");
        line += len + (line[len] == '\n');
    }
}
