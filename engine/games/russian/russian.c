/* Russian draughts (shashki): start position, square names (a1..h8 as Russian players and
 * PDN files write them; the numbers 1..32 are read too), and the variant table. */
#include "russian.h"
#include "international_board.h"
#include "diagonal_squares.h"
#include "movelist.h"
#include "russian_eval.h"
#include "russian_patterns.h"
#include "shipped_weights.h"
#include "variant.h"

_Static_assert(INTL_SQUARES == 32, "Russian draughts is played on the 32 dark squares of 8x8");

/* Black's men on squares 1..12 (rows 8, 7, 6), White's on 21..32 (rows 3, 2, 1). */
static void russian_start(Position *pos) { diagonal_start(pos, 3); }

/* "c3" (a dark square: a1 is dark), or a number 1..32 (diagonal_squares.h). */
static int russian_parse_square(const char *text, int *used)
{
    return diagonal_parse_square(text, used, true);
}

/* The bench set (bench.h): the start, then positions of the first self-play games of the
 * training from material-only weights (docs/experiments.md), from the opening through the middlegame to endgames with kings.
 * Changing it changes the signature; so does any change to search or evaluation. */
static const char *const bench_fens[] = {
    "start",
    "W:Wd4,f4,h4,a3,e3,g3,d2,h2,a1,e1:Bb8,f8,c7,g7,b6,d6,f6,h6,g5,b4",
    "W:Wh4,a3,c3,d2,c1,e1,g1:Bb8,h8,c7,b6,f6,h6,c5",
    "W:Wb4,d4,c3,g3,b2,a1,g1:Bb8,d8,a7,b6,d6,h6",
    "W:Wd4,f4,a3,c3,d2,a1:Bb8,a7,f6,h6,c5",
    "W:Wd4,a3,e3,d2,h2,e1:Bc7,b6,d6,c5,g5",
    "W:Wb4,h4,g3,b2:Bd6,h6,d4",
    "W:Wc5,a3,b2:Bh6,f4",
    "W:WKb8,Kh8,c5,h2,a1:Bf8,g5,f4",
    "W:Wd6,Kd4,c3:Bh6,Kh4",
    "W:WKd6,c3,h2:Bb4",
    "B:WKa3,Kc1,Ke1:BKd4",
};

/* Black's men step down-left or down-right: backwards, a man came from up-left or
 * up-right. */
static const int black_man_back[] = { UP_LEFT, UP_RIGHT };

SHIPPED_WEIGHTS_DECLARE(russian);

static const char *const reasons[] = { "king-moves", "endgame" }; /* enum RussianReason */

const Variant russian_variant = {
    .name = "russian",
    .title = "Russian draughts",
    .aliases = "ru shashki",
    .hub_aliases = NULL, /* Hub GUIs and pydraughts call it "russian" too */
    .rows = INTL_ROWS,
    .columns = INTL_COLUMNS,
    .squares = INTL_SQUARES,
    .square_cell = diagonal_square_cell,
    .labels = LABELS_EDGES,
    .step = intl_step,
    .black_man_back = black_man_back,
    .black_man_backs = (int)(sizeof black_man_back / sizeof black_man_back[0]),
    .max_pieces = 12,
    .board = INTL_BOARD_BB,
    .promotion_bb = { INTL_ROW_TOP_BB, INTL_ROW_BOTTOM_BB },
    .numbered = false,
    .eval = &russian_eval_spec,
    .pattern_eval = &russian_pattern_eval_spec,
    .pdn_gametype = 25,
    .shipped_start = russian_shipped_start,
    .shipped_end = russian_shipped_end,
    .reasons = reasons,
    .reason_count = (int)(sizeof reasons / sizeof reasons[0]),
    .bench_fens = bench_fens,
    .bench_count = (int)(sizeof bench_fens / sizeof bench_fens[0]),
    .start = russian_start,
    .generate = russian_generate,
    .for_each_path = russian_for_each_path,
    .count = russian_count,
    .perft = russian_perft,
    .capture_pending = russian_capture_pending,
    .has_quiet_move = russian_has_quiet_move,
    .generate_known = russian_generate_known,
    .mirror = russian_half_turn,
    .make = movelist_make,
    .square_name = diagonal_coordinate_name,
    .parse_square = russian_parse_square,
    .rules_default = russian_rules_default,
    .rules_option = russian_rules_option,
    .rules_describe = russian_rules_describe,
    .rules_help = "kingmoves=N, threekings=N, mainroad=N, endgame3=N, endgame5=N, endgame7=N "
                  "(N: moves each, 0 = off)",
    .rules_keys = "kingmoves, threekings, mainroad, endgame3, endgame5, endgame7",
    .men_irreversible = true, /* men only move forward */
    .endgame_class = russian_endgame_class,
    .game_end = russian_game_end,
};
