/* Boards, squares, pieces and moves as the API writes them: a square is its name and its
 * place on the board as white sees it (row 0 the top row, col 0 the left file). */
#ifndef DAMA_BOARD_JSON_H
#define DAMA_BOARD_JSON_H

#include <jansson.h>

#include "types.h"

/* Squares a row: 8 (Turkish) or 10 (International). */
int board_size(const Variant *v);
/* "Turkish draughts": the game's title for a person. */
const char *game_title(const Variant *v);
/* How squares are labelled on the page: "numbers" (on every square) or "edges" (files
 * and ranks along the board's edges). */
const char *board_labels(const Variant *v);
/* {"name","title","rows","columns","labels","pdn_gametype"}: a game as /api/info lists it. */
json_t *game_json(const Variant *v);
/* {"name":"d3","row":5,"col":3} */
json_t *square_json(const Variant *v, int sq);
/* Every square of the board, row by row from the top, left to right. */
json_t *board_squares_json(const Variant *v);
/* The names of the squares of set, in the same order. */
json_t *square_names_json(const Variant *v, Bitboard set);
/* {"d3":"w", "e5":"B", ...}: w/b a man, W/B a king. */
json_t *pieces_json(const Variant *v, const Position *pos);
/* A move: {"text": its long form (move_to_text, what "moves" and "pv" list too), "from",
 * "to", "path": [from, every landing], "captured": [in the order they are jumped],
 * "crowned": bool}. */
json_t *move_json(const Variant *v, const Move *move);
/* The legal moves of pos (move_json each); *movable gets the squares that have one. */
json_t *legal_moves_json(const Variant *v, const Rules *rules, const Position *pos,
                         Bitboard *movable);

#endif
