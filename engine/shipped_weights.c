/* data/weights/VARIANT-pattern.txt built in with the assembler's .incbin (gcc and clang):
 * the Makefile makes this object depend on the files, and the compiler runs in the
 * project's root, where the paths below start. */
#include <stdbool.h>
#include <string.h>

#include "shipped_weights.h"

#define EMBED(symbol, path)                                                                   \
    __asm__(".section .rodata\n"                                                              \
            ".balign 16\n"                                                                    \
            ".globl " #symbol "_start\n" #symbol "_start:\n"                                  \
            ".incbin \"" path "\"\n"                                                          \
            ".globl " #symbol "_end\n" #symbol "_end:\n"                                      \
            ".previous\n");                                                                   \
    extern const unsigned char symbol##_start[], symbol##_end[]

EMBED(dama_shipped_turkish, "data/weights/turkish-pattern.txt");
EMBED(dama_shipped_international, "data/weights/international-pattern.txt");

bool shipped_weights(const char *variant, const unsigned char **data, size_t *len)
{
    if (strcmp(variant, "turkish") == 0) {
        *data = dama_shipped_turkish_start;
        *len = (size_t)(dama_shipped_turkish_end - dama_shipped_turkish_start);
    } else if (strcmp(variant, "international") == 0) {
        *data = dama_shipped_international_start;
        *len = (size_t)(dama_shipped_international_end - dama_shipped_international_start);
    } else {
        return false;
    }
    return true;
}
