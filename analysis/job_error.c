/* The error of a job of analysis/ (job_error.h). */
#include <stdarg.h>
#include <stdio.h>

#include "job_error.h"

int job_fail(int code, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return code;
}
