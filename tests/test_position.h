/* A position from FEN for the tests: a FEN that does not read fails the test with the FEN
 * and the reason (cmocka is included by each test before this header). */
#ifndef DAMA_TEST_POSITION_H
#define DAMA_TEST_POSITION_H

#include "position.h"
#include "variant.h"

static inline Position test_position(const Variant *v, const char *fen)
{
    Position pos;
    char err[256];
    if (!position_from_fen(&pos, v, fen, err, sizeof err))
        fail_msg("%s: %s", fen, err);
    return pos;
}

#endif
