/* The error lines of the training loop (train_status.h). */
#include <stdarg.h>
#include <stdio.h>

#include "train_status.h"

static void vreport(const char *fmt, va_list ap)
{
    fputs("dama: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int train_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return TRAIN_FAILED;
}

int train_refuse(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return TRAIN_REFUSED;
}
