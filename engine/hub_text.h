/* The Hub protocol's text for positions and moves (version 2, as Hub 2 and Scan 3 write it;
 * `dama hub --help` sums the protocol up), for any variant.  Text only, so it lives in engine/, below hub/:
 * the Hub engine and its client (hub/) and the DXP codec (dxp_text.c) share it.
 *
 * Position: the side to move ('W' or 'B'), then one character a square in the Hub order:
 * 'w' white man, 'b' black man, 'W' white king, 'B' black king, 'e' empty.
 *   International: squares 1..50 (50 characters):
 *     Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww   (the start)
 *   Turkish (dama's extension): all 64 squares row by row from the top as White sees the
 *   board: a8, b8, ..., h8, a7, ..., h1.
 *
 * Move: quiet "from-to" ("32-28", "d3-d4"); a capture "from x to x every captured square",
 * no landing square in between ("28x19x23", "d3xd7xd4xd6").  The captured squares are written
 * in ascending square order (International: by number; Turkish: a1, b1, ..., h8) and read in
 * any order.  A move is identified by (from, to, captured set), as in dama. */
#ifndef DAMA_HUB_TEXT_H
#define DAMA_HUB_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "types.h"

/* Longest position text, with its NUL: the side and 64 squares. */
#define HUB_POSITION_MAX 66
/* Longest move text, with its NUL: two squares and MAX_JUMPS captured ones of at most 3
 * characters, each after a separator. */
#define HUB_MOVE_MAX ((MAX_JUMPS + 2) * 4 + 1)

/* The number of squares of v's Hub position text (50 or 64). */
int hub_square_count(const Variant *v);
/* The square (bit index) of character i + 1 of the position text, i in 0..count-1. */
int hub_square_at(const Variant *v, int i);

/* Writes pos as Hub text into buf (at least HUB_POSITION_MAX bytes); returns buf. */
char *hub_position_to_text(const Variant *v, const Position *pos, char *buf, size_t len);
/* Reads Hub position text (exactly the side and hub_square_count characters) into pos.
 * Refuses a wrong length, an unknown character and a man on the row where it would have been
 * crowned; false with a one-line reason in err. */
bool hub_position_from_text(const Variant *v, const char *text, Position *pos, char *err,
                            size_t errlen);

/* Writes move as Hub text into buf (at least HUB_MOVE_MAX bytes); returns buf.  Needs no
 * position: the move carries its captured set. */
char *hub_move_to_text(const Variant *v, const Move *move, char *buf, size_t len);
/* Finds the legal move of pos that text names: from and to, and when it is a capture the
 * captured squares it lists (in any order).  A capture written with fewer captured squares
 * (even none: "28x19") is accepted when exactly one legal move fits.  False with a reason in
 * err: malformed, illegal, or ambiguous. */
bool hub_move_from_text(const Variant *v, const Position *pos, const Rules *rules, const char *text,
                        Move *move, char *err, size_t errlen);

/* The variant a Hub GUI or engine names with `set-param name=variant`: dama's own names and
 * short names, and those of the field: "normal" (Scan and the Hub GUI) and "standard"
 * (lidraughts, pydraughts) are International.  NULL with a one-line reason in err for a
 * draughts game dama does not play (Scan's killer, bt, frisian, losing; pydraughts' others)
 * and for a name it does not know. */
const Variant *hub_variant_by_name(const char *name, char *err, size_t errlen);
/* "turkish, international (also called normal or standard)": the registry's games with the
 * names Hub GUIs give them, for messages and help; returns buf. */
char *hub_game_list(char *buf, size_t len);
/* "international normal standard turkish": the values of the Hub variant parameter, the
 * protocol's own game first (Variant.hub_default), each game followed by its Hub names, so
 * that a GUI looking for its name among them finds it (the games with an evaluation, which
 * `dama hub` plays); returns buf. */
char *hub_variant_values(char *buf, size_t len);

/* Scores in men, on Scan's scale, so that Hub GUIs and Scan-based tools (pydraughts) tell a
 * result from an evaluation: an evaluation is shown within +-HUB_SCORE_EVAL_MAX (89.99 men);
 * a forced win in n plies is 100 - n/100 (99.95: a win in 5 plies), a loss in n plies
 * -(100 - n/100), as Scan 3.1 prints them (10000 - n hundredths).  score is the search's
 * (hundredths of a man from the side to move; SCORE_WIN - n for a win in n plies). */
#define HUB_SCORE_EVAL_MAX 8999
#define HUB_SCORE_WIN 10000
/* The Hub text of score ("-0.35", "99.95") into buf (at least 16 bytes); returns buf. */
char *hub_score_to_text(int score, char *buf, size_t len);
/* An engine's Hub score (an info line's score=: men, a sign, any number of decimals, the
 * value rounded to the nearest hundredth) into *score, the inverse of hub_score_to_text: an
 * evaluation as it is, a forced result on Scan's scale as the search's SCORE_WIN - n.
 * False, *score untouched, for any other text or beyond 100 men either way. */
bool hub_score_from_text(const char *text, int *score);

#endif
