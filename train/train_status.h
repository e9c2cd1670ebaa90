/* How a step of the training loop ends: a status whose values are the process's exit
 * codes (so a command returns it as it is), and the one error line that says why. */
#ifndef DAMA_TRAIN_STATUS_H
#define DAMA_TRAIN_STATUS_H

enum TrainStatus {
    TRAIN_OK = 0,
    TRAIN_FAILED = 1,       /* the database, a file or memory failed */
    TRAIN_REFUSED = 2,      /* what was asked does not fit what is stored (a resume) */
    TRAIN_INTERRUPTED = 130 /* Ctrl-C or SIGTERM: the finished work is kept */
};

/* Prints "dama: <message>" on stderr and returns TRAIN_FAILED. */
int train_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "dama: <message>" on stderr and returns TRAIN_REFUSED. */
int train_refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
