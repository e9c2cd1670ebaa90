/* What both batch-input targets check of a list read from any text. */
#ifndef DAMA_FUZZ_BATCH_COMMON_H
#define DAMA_FUZZ_BATCH_COMMON_H

#include "batch.h"
#include "fuzz_util.h"
#include "position.h"
#include "variant.h"

/* A list whose bad lines are reported into memory, to be checked. */
typedef struct FuzzList {
    BatchList l;
    char *report;
    size_t report_len;
    FILE *errors;
} FuzzList;

static inline void fuzz_list_init(FuzzList *fl)
{
    fl->report = NULL;
    fl->errors = open_memstream(&fl->report, &fl->report_len);
    FUZZ_CHECK(fl->errors, "open_memstream");
    batch_list_init(&fl->l, fl->errors, false);
}

/* Every item holds a canonical FEN of its position and an id; a failure names the input;
 * every bad line is reported on one line "fuzz:LINE: reason". */
static inline void fuzz_list_check_free(FuzzList *fl, int code, const char *err)
{
    const BatchList *l = &fl->l;
    FUZZ_CHECK(code == 0 || code == 2, "reader returned %d (%s)", code, err);
    FUZZ_CHECK(code == 0 || l->bad > 0 || (strncmp(err, "fuzz:", 5) == 0 && fuzz_one_line(err)),
               "unexplained failure: '%s'", err);
    fclose(fl->errors);
    int lines = 0;
    for (const char *p = fl->report; p && *p; p = strchr(p, '\n') + 1) {
        FUZZ_CHECK(strncmp(p, "fuzz:", 5) == 0 && strchr(p, '\n'), "bad report line: '%s'", p);
        lines++;
    }
    FUZZ_CHECK(lines == l->bad, "%d bad lines, %d report lines:\n%s", l->bad, lines, fl->report);
    free(fl->report);
    for (int i = 0; i < l->count; i++) {
        Position back;
        char why[256];
        FUZZ_CHECK(l->items[i].id && l->items[i].id[0], "item %d has no id", i);
        FUZZ_CHECK(position_from_fen(&back, &turkish_variant, l->items[i].fen, why, sizeof why),
                   "item %d: '%s': %s", i, l->items[i].fen, why);
        FUZZ_CHECK(position_equal(&back, &l->items[i].pos), "item %d: FEN and position differ", i);
    }
    batch_list_free(&fl->l);
}

#endif
