/* The Hub engine's output (hub_state.h): every line through one lock, flushed at once, so
 * the search thread's info and done lines never mix with the command loop's answers. */
#include <stdarg.h>
#include <stdio.h>

#include "hub_state.h"

/* Sends one line; out of memory while building it sends what there is. */
void hub_send_line(Hub *h, const HubWriter *w)
{
    pthread_mutex_lock(&h->lock);
    printf("%s\n", hub_writer_text(w));
    fflush(stdout);
    pthread_mutex_unlock(&h->lock);
}

void hub_send_error(Hub *h, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    HubWriter w = { 0 };
    hub_writer_start(&w, "error");
    hub_writer_arg(&w, "message", message);
    hub_send_line(h, &w);
    hub_writer_free(&w);
}

void hub_send_word(Hub *h, const char *word)
{
    HubWriter w = { 0 };
    hub_writer_start(&w, word);
    hub_send_line(h, &w);
    hub_writer_free(&w);
}
