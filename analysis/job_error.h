/* The error of a job of analysis/ (batch, annotate, export, PDN export): the message goes to
 * the caller's buffer, which the command line prints, and the code comes back. */
#ifndef DAMA_JOB_ERROR_H
#define DAMA_JOB_ERROR_H

#include <stddef.h>

/* Writes the message into err (errlen bytes) and returns code. */
int job_fail(int code, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
