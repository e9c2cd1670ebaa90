/* The lines a person types in the terminal game, from standard input or a pipe: read in
 * slices so that Ctrl-C and the turn clock are seen at once, trimmed, echoed when the input
 * is no terminal (so the output is a transcript), and their command word. */
#ifndef DAMA_TERMINAL_INPUT_H
#define DAMA_TERMINAL_INPUT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "human_game.h"
#include "line_reader.h"

/* terminal_read_line's answer besides enum LineStatus's. */
enum { LINE_INTERRUPTED = -1 };

/* Milliseconds of the monotonic clock the game's turn clock runs on. */
int64_t terminal_now_ms(void);

/* The next line from in into *line (valid until the next read): a LineStatus, with
 * LINE_TIMEOUT when the turn's time of the person to move runs out first, or
 * LINE_INTERRUPTED as soon as *stop is set (Ctrl-C or SIGTERM). */
int terminal_read_line(LineReader *in, const HumanGame *g, const atomic_bool *stop, char **line);

/* Strips the white space around *line (in place, *line moved past the leading part) and,
 * when echo, prints what was read (control bytes as \xNN).  Returns the length left. */
size_t terminal_line_trim(char **line, bool echo);

/* The lower-cased first word of line into word (len bytes; a longer word is cut). */
void terminal_first_word(const char *line, char *word, size_t len);

#endif
