/* The name of the diagonal game a file of this folder is compiled for.  International's
 * generator (international_movegen.c) and rules (international_rules.c) are written once
 * for every game with International's rules on another board: a game's folder defines
 * DIAGONAL_GAME (and its board, international_board.h) before including them, and their
 * functions become GAME_generate, GAME_rules_default, ..., its Variant GAME_variant.
 * Without it they are International's. */
#ifndef DAMA_DIAGONAL_GAME_H
#define DAMA_DIAGONAL_GAME_H

#ifndef DIAGONAL_GAME
#define DIAGONAL_GAME international
#endif
#define DIAGONAL_PASTE(game, name) game##_##name
#define DIAGONAL_NAME(game, name) DIAGONAL_PASTE(game, name)
#define DIAGONAL_FN(name) DIAGONAL_NAME(DIAGONAL_GAME, name)
#define DIAGONAL_VARIANT DIAGONAL_FN(variant)

#endif
