/* The line syntax of the Hub protocol (version 2), both ways, for the engine (hub_engine.c)
 * and for a client driving another engine (engine_player.c).  A line is a command word and
 * arguments separated by spaces or tabs:
 *     pos pos=Wbbbb...www moves="32-28 19-23"   level infinite   error message="no move"
 * An argument is name=value, name="value with spaces" or a bare flag (name alone).  A
 * quoted value runs to the next double quote: there is no escape, so a value never holds a
 * '"' (the writer turns one into '\'').  A line ending in "\r\n" is read as "\n". */
#ifndef DAMA_HUB_LINE_H
#define DAMA_HUB_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define HUB_MAX_ARGS 32
/* The longest line either side reads: a `pos` with a long game's moves is a few KiB. */
#define HUB_LINE_MAX 65536

typedef struct HubArg {
    const char *name;
    const char *value; /* NULL for a bare flag */
} HubArg;

typedef struct HubLine {
    char *text;          /* the line's own copy, cut in place (malloc'd) */
    const char *command; /* "" for a blank line */
    int nargs;
    HubArg args[HUB_MAX_ARGS];
} HubLine;

/* Reads one line (without or with its "\n").  False with a one-line reason in err when it is
 * malformed: an unterminated quote, an argument without a name (=x), a quote inside a
 * name, text straight after a closing quote, more than HUB_MAX_ARGS arguments, a
 * command word with '=' or '"', or more than HUB_LINE_MAX bytes; line is then empty.  Free with hub_line_free either way. */
bool hub_line_parse(HubLine *line, const char *text, char *err, size_t errlen);
void hub_line_free(HubLine *line);
/* The value of argument name (the first one given): NULL when absent or a bare flag. */
const char *hub_line_value(const HubLine *line, const char *name);
/* Whether argument name is there, as a flag or with a value. */
bool hub_line_has(const HubLine *line, const char *name);

/* Builds one line to send; grows as needed.  On out of memory the text is cut short and
 * failed is set (the caller may still send what there is). */
typedef struct HubWriter {
    char *buf;
    size_t len, cap;
    bool failed;
} HubWriter;
void hub_writer_start(HubWriter *w, const char *command);
/* name=value, quoted when the value is empty or holds a space, a tab, '=' or '"'. */
void hub_writer_arg(HubWriter *w, const char *name, const char *value);
void hub_writer_argf(HubWriter *w, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void hub_writer_flag(HubWriter *w, const char *name);
/* The line so far, without "\n" ("" after out of memory at the start). */
const char *hub_writer_text(const HubWriter *w);
void hub_writer_free(HubWriter *w);

#endif
