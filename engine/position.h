/* Position text (PDN FEN style), Zobrist keys and small position utilities. */
#ifndef DAMA_POSITION_H
#define DAMA_POSITION_H

#include <stddef.h>
#include "types.h"

/* Parses "W:Wa2,a3,Kd4:Ba6,Ke8" (sections in any order) or "start"; on numbered boards
 * (International) "W:W31-50:B1-20" with ranges and K prefixes, "W:W31,K45:BK1-5".  A trailing
 * dot is accepted.  On error returns
 * false and writes a one-line reason naming the offending text into err. */
bool position_from_fen(Position *pos, const Variant *v, const char *text, char *err, size_t errlen);
/* Canonical text: side, then white and black pieces sorted by square, kings prefixed K,
 * every square on its own (no ranges): "W:W31,32,K45:B1,2". */
void position_to_fen(const Position *pos, const Variant *v, char *buf, size_t len);

static inline Bitboard position_occupied(const Position *pos)
{
    return pos->men[0] | pos->men[1] | pos->kings[0] | pos->kings[1];
}
static inline Bitboard position_pieces(const Position *pos, int color)
{
    return pos->men[color] | pos->kings[color];
}
bool position_equal(const Position *a, const Position *b);

/* The same position of variant v with colours exchanged and the board seen from the other
 * side (v->mirror), the other side to move: evaluation from the side to move is the same. */
void position_flip(const Variant *v, const Position *pos, Position *out);

/* Zobrist keys from a fixed mixing function (its values tabled at compile time: no state). */
enum { KEY_WHITE_MAN, KEY_WHITE_KING, KEY_BLACK_MAN, KEY_BLACK_KING };
uint64_t zobrist_piece(int kind, int sq);
uint64_t zobrist_side(void);
/* The piece keys are a table computed at compile time from the mixing function: true when
 * they equal it (the tests ask). */
bool zobrist_table_matches(void);
uint64_t position_key(const Position *pos);
/* Key of the position after move (incremental); pos is the position before it. */
uint64_t key_after_move(const Position *pos, uint64_t key, const Move *move);

#endif
