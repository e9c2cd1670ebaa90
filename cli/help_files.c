/* The help texts, cli/help/NAME.txt, built into the binary (help_text.h: help_file). */
#include <string.h>

#include "help_text.h"

/* Builds cli/help/NAME.txt in as dama_help_NAME, a string ended by a NUL, with the
 * assembler's .incbin (as the shipped weights are, engine/shipped_weights.h).  The
 * compiler runs in the project's root, where the path starts; the Makefile makes this
 * object depend on the files. */
#define HELP_FILE(name)                                                                       \
    __asm__(".section .rodata\n"                                                              \
            ".globl dama_help_" #name "\ndama_help_" #name ":\n"                               \
            ".incbin \"cli/help/" #name ".txt\"\n"                                             \
            ".byte 0\n"                                                                       \
            ".previous\n");                                                                   \
    extern const char dama_help_##name[]

HELP_FILE(analyze);
HELP_FILE(annotate);
HELP_FILE(bench);
HELP_FILE(book);
HELP_FILE(db);
HELP_FILE(dxp);
HELP_FILE(egdb);
HELP_FILE(elo);
HELP_FILE(export);
HELP_FILE(help);
HELP_FILE(hub);
HELP_FILE(match);
HELP_FILE(moves);
HELP_FILE(outside_engines);
HELP_FILE(pdn);
HELP_FILE(perft);
HELP_FILE(play);
HELP_FILE(position);
HELP_FILE(run_options);
HELP_FILE(selfplay);
HELP_FILE(serve);
HELP_FILE(train);
HELP_FILE(tune);
HELP_FILE(version);
HELP_FILE(weights);

static const struct {
    const char *name, *text;
} files[] = {
    { "analyze", dama_help_analyze },
    { "annotate", dama_help_annotate },
    { "bench", dama_help_bench },
    { "book", dama_help_book },
    { "db", dama_help_db },
    { "dxp", dama_help_dxp },
    { "egdb", dama_help_egdb },
    { "elo", dama_help_elo },
    { "export", dama_help_export },
    { "help", dama_help_help },
    { "hub", dama_help_hub },
    { "match", dama_help_match },
    { "moves", dama_help_moves },
    { "outside_engines", dama_help_outside_engines },
    { "pdn", dama_help_pdn },
    { "perft", dama_help_perft },
    { "play", dama_help_play },
    { "position", dama_help_position },
    { "run_options", dama_help_run_options },
    { "selfplay", dama_help_selfplay },
    { "serve", dama_help_serve },
    { "train", dama_help_train },
    { "tune", dama_help_tune },
    { "version", dama_help_version },
    { "weights", dama_help_weights },
};

const char *help_file(const char *name)
{
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (strcmp(files[i].name, name) == 0)
            return files[i].text;
    return NULL;
}
