/* The best weights of each game, shipped in data/weights/GAME-pattern.txt and built into
 * the binary, so `--weights best` (the default of the commands that play: analyze and
 * hub) needs no file at run time.  The files are the weights files as `dama tune` wrote
 * them; their provenance is in data/weights/README.md.  Each game's folder builds its own
 * file in (GAME_shipped.c: SHIPPED_WEIGHTS_EMBED) and points its Variant at it. */
#ifndef DAMA_SHIPPED_WEIGHTS_H
#define DAMA_SHIPPED_WEIGHTS_H

#include <stdbool.h>
#include <stddef.h>

/* The shipped file of the variant called name ("turkish", "international"): its bytes and
 * length; false for a variant without one. */
bool shipped_weights(const char *variant, const unsigned char **data, size_t *len);

/* Builds data/weights/GAME-pattern.txt in as GAME_shipped_start .. GAME_shipped_end with
 * the assembler's .incbin (gcc and clang).  The compiler runs in the project's root, where
 * the path starts; the Makefile makes every GAME_shipped.o depend on the files. */
#define SHIPPED_WEIGHTS_EMBED(game)                                                           \
    __asm__(".section .rodata\n"                                                              \
            ".balign 16\n"                                                                    \
            ".globl " #game "_shipped_start\n" #game "_shipped_start:\n"                      \
            ".incbin \"data/weights/" #game "-pattern.txt\"\n"                                \
            ".globl " #game "_shipped_end\n" #game "_shipped_end:\n"                          \
            ".previous\n");                                                                   \
    SHIPPED_WEIGHTS_DECLARE(game)
/* The symbols of a game's built-in file, for its Variant (shipped_start, shipped_end). */
#define SHIPPED_WEIGHTS_DECLARE(game)                                                         \
    extern const unsigned char game##_shipped_start[], game##_shipped_end[]

#endif
