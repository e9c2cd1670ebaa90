/* The DamExchange protocol (DXP) messages, as text (docs/dxp.md has the protocol).  Pure:
 * no socket here; dxp/ (the follower, dxp_player.c) carries the text over TCP, each
 * message followed by one NUL byte.
 *
 * A message is 1 to 127 printable ASCII characters; its first says its kind, the rest are
 * fields of fixed width (numbers with leading zeros, names padded with blanks):
 *   C text                                  chat
 *   R version(2) name(32) colour(1) minutes(3) moves(3) start(1) [side(1) squares(50)]
 *                                           game request (initiator)
 *   A name(32) code(1)                      game accept (follower)
 *   M seconds(4) from(2) to(2) count(2) captured(2 each)   move
 *   E reason(1) stop(1)                     game end, and its acknowledgement
 *   B move(3) colour(1)                     back request
 *   K code(1)                               back accept
 * Colours are 'W' and 'Z' (zwart, black); squares are International's 1..50. */
#ifndef DAMA_DXP_TEXT_H
#define DAMA_DXP_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

#define DXP_TEXT_MAX 127     /* characters of a message, without its NUL */
#define DXP_NAME_LEN 32      /* the width of a program's name */
#define DXP_MAX_CAPTURED 20  /* the most captured squares a move message carries ("00" to "20") */
#define DXP_SQUARES 50

typedef struct DxpMessage {
    char type;               /* 'C', 'R', 'A', 'M', 'E', 'B' or 'K' */
    /* R: the initiator's name; A: the follower's (blanks trimmed) */
    char name[DXP_NAME_LEN + 1];
    /* R */
    int version;             /* 1 */
    char color;              /* R: the follower's colour; B: the side to move; 'W' or 'Z' */
    int minutes;             /* thinking time of each side for the whole game, 0..999 */
    int moves;               /* moves of the game, 0..999 (0: no limit) */
    char start;              /* 'A': the start position; 'B': position follows */
    char position[DXP_SQUARES + 2]; /* with 'B': side to move 'W'/'Z' then 50 squares of
                                       e (empty), w, z (men), W, Z (kings) */
    /* A: '0' accepted, '1' wrong version, '2' not this game, '3' no game at all;
     * K: '0' accepted, '1' refused */
    char code;
    /* M */
    int seconds;             /* time the move took, 0..9999 */
    int from, to;            /* 1..50 */
    int ncaptured;
    int captured[DXP_MAX_CAPTURED];
    /* E: reason '0' none, '1' I give up, '2' draw, '3' I win; stop '0' another game may
     * follow, '1' no more games */
    char reason, stop;
    /* C */
    char text[DXP_TEXT_MAX];
    /* B */
    int move_number;         /* 1..999 */
} DxpMessage;

/* Writes m as message text into buf (with its NUL; DXP_TEXT_MAX + 1 bytes are enough);
 * returns the length without the NUL, or 0 when a field is out of range or buf too small. */
size_t dxp_encode(const DxpMessage *m, char *buf, size_t len);
/* Reads a message (the text before its NUL).  Every field is checked: its width, its digits,
 * its range, the whole length; false with a one-line reason in err. */
bool dxp_decode(const char *text, DxpMessage *m, char *err, size_t errlen);

/* Replaces in place every character outside printable ASCII with '?': a peer's name or
 * chat goes to a terminal without its control characters. */
void dxp_printable(char *text);

/* The 51 characters of a position (side to move, 50 squares), International only. */
void dxp_position_to_text(const Position *pos, char buf[DXP_SQUARES + 2]);
bool dxp_position_from_text(const char *text, Position *pos, char *err, size_t errlen);
/* Is pos the International start position with White to move (GAMEREQ start 'A')? */
bool dxp_is_start_position(const Position *pos);

/* The move message of move (seconds clamped to 0..9999). */
void dxp_move_message(const Move *move, int seconds, DxpMessage *m);
/* The legal move of pos that the move message m names: from, to and the captured squares
 * (in any order).  A capture listed without its captured squares is accepted when only one
 * legal move fits.  False with a reason in err: illegal or ambiguous. */
bool dxp_move_from_message(const DxpMessage *m, const Position *pos, const Rules *rules, Move *move,
                           char *err, size_t errlen);

#endif
