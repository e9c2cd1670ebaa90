/* The games dama plays, in one list: a new game is its folder under engine/games/, its
 * data (data/weights/GAME-pattern.txt) and one line in DAMA_GAMES below.  Turkish, the
 * default, comes first. */
#include "variant.h"

#define DAMA_GAMES(GAME)                                                                      \
    GAME(turkish)                                                                             \
    GAME(international)                                                                       \
    GAME(brazilian)                                                                           \
    GAME(russian)

/* Each game's folder defines NAME_variant (its GAME.c). */
#define DECLARE_GAME(name) extern const Variant name##_variant;
DAMA_GAMES(DECLARE_GAME)

#define LIST_GAME(name) &name##_variant,
static const Variant *const games[] = { DAMA_GAMES(LIST_GAME) };

const Variant *variant_at(int i)
{
    return i >= 0 && i < (int)(sizeof games / sizeof games[0]) ? games[i] : NULL;
}
