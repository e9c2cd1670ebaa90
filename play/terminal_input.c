/* The lines a person types; see terminal_input.h. */
#include "terminal_input.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "text_input.h"

int64_t terminal_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int terminal_read_line(LineReader *in, const HumanGame *g, const atomic_bool *stop, char **line)
{
    for (;;) {
        if (atomic_load(stop))
            return LINE_INTERRUPTED;
        int wait = 200; /* a slice: Ctrl-C is seen within it */
        if (g->clock.turn_ms > 0) {
            int64_t left = human_game_time_left(g, terminal_now_ms());
            if (left <= 0)
                return LINE_TIMEOUT;
            if (left < wait)
                wait = (int)left;
        }
        int status = line_reader_next(in, wait, line);
        if (status != LINE_TIMEOUT)
            return status;
    }
}

size_t terminal_line_trim(char **line, bool echo)
{
    char *text = *line;
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        text[--len] = '\0';
    if (echo) { /* the transcript shows what was read */
        char shown[256];
        printf("%s\n", text_quote(shown, sizeof shown, text, len, 200));
    }
    *line = text;
    return len;
}

void terminal_first_word(const char *line, char *word, size_t len)
{
    size_t n = 0;
    while (*line && !isspace((unsigned char)*line) && n + 1 < len)
        word[n++] = (char)tolower((unsigned char)*line++);
    word[n] = '\0';
}
