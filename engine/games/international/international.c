/* International draughts: start position, making a move, square names 1..50, and the
 * variant table. */
#include "international.h"
#include "international_board.h"
#include "diagonal_squares.h"
#include "international_eval.h"
#include "international_patterns.h"
#include "movelist.h"
#include "shipped_weights.h"
#include "variant.h"

/* Squares 1..20 (Black) and 31..50 (White). */
void international_start(Position *pos) { diagonal_start(pos, 4); }

static int international_parse_square(const char *text, int *used)
{
    return diagonal_parse_square(text, used, false);
}

/* The bench set (bench.h): the start, then positions of early self-play games with the
 * hand-set weights, from the opening through the middlegame to endgames with kings.
 * Changing it changes the signature; so does any change to search or evaluation. */
static const char *const bench_fens[] = {
    "start",
    "W:W27,30,35,37,38,39,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,12,13,14,16,17,20",
    "W:W25,26,30,31,32,33,35,36,38,41,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,13,14,15,16,17,18,19,20,22,24",
    "W:W26,27,29,31,32,33,35,36,37,38,39,42,43,44,45,50:B2,6,7,8,9,10,12,13,14,16,17,21,23,25",
    "W:W25,26,27,28,30,31,32,33,34,35,47,48,49:B3,7,11,12,13,14,16,17,18,19,20,23,24",
    "W:W31,35,37,41,44,45,46,47,48,49,50:B1,2,3,4,5,7,8,10,12,16,17,32",
    "W:W24,28,32,39,40,46,47,48,50:B1,2,3,4,10,11,13,15,17,37",
    "W:W19,29,31,40,41,47,48,50:B1,4,11,15,18,21,22,25",
    "W:W12,22,30,36,38,39,42,45,50:B2,10,13,23,29",
    "W:WK5,16,26,35,42,48:B7,10,11,18,23,39",
    "B:W10,26,47,48,50:B22,27,34",
    "W:W12,26:BK25,44",
    "W:W6,K17:BK1,K32",
};

/* Black's men step down-left or down-right: backwards, a man came from up-left or
 * up-right. */
static const int black_man_back[] = { UP_LEFT, UP_RIGHT };

SHIPPED_WEIGHTS_DECLARE(international);

/* Scan's and the Hub GUI's name of the game; lidraughts'. */
static const char *const hub_aliases[] = { "normal", "standard", NULL };

static const char *const reasons[] = { "king-moves", "endgame" }; /* enum InternationalReason */

const Variant international_variant = {
    .name = "international",
    .title = "International draughts",
    .aliases = "intl",
    .hub_aliases = hub_aliases,
    .hub_default = true, /* the Hub protocol's own game */
    .rows = INTL_ROWS,
    .columns = INTL_COLUMNS,
    .squares = INTL_SQUARES,
    .square_cell = diagonal_square_cell,
    .labels = LABELS_NUMBERS,
    .step = intl_step,
    .black_man_back = black_man_back,
    .black_man_backs = (int)(sizeof black_man_back / sizeof black_man_back[0]),
    .max_pieces = 20,
    .board = INTL_BOARD_BB,
    .promotion_bb = { INTL_ROW_TOP_BB, INTL_ROW_BOTTOM_BB },
    .numbered = true,
    .eval = &international_eval_spec,
    .pattern_eval = &international_pattern_eval_spec,
    .pdn_gametype = 20,
    .shipped_start = international_shipped_start,
    .shipped_end = international_shipped_end,
    .reasons = reasons,
    .reason_count = (int)(sizeof reasons / sizeof reasons[0]),
    .bench_fens = bench_fens,
    .bench_count = (int)(sizeof bench_fens / sizeof bench_fens[0]),
    .start = international_start,
    .generate = international_generate,
    .for_each_path = international_for_each_path,
    .count = international_count,
    .perft = international_perft,
    .capture_pending = international_capture_pending,
    .has_quiet_move = international_has_quiet_move,
    .generate_known = international_generate_known,
    .mirror = intl_half_turn,
    .make = movelist_make,
    .square_name = diagonal_number_name,
    .parse_square = international_parse_square,
    .rules_default = international_rules_default,
    .rules_option = international_rules_option,
    .rules_describe = international_rules_describe,
    .rules_help = "majority=on|off, kingmoves=N, endgame16=N, endgame5=N (N: moves each)",
    .rules_keys = "majority, kingmoves, endgame16, endgame5",
    .men_irreversible = true, /* men only move forward */
    .endgame_class = international_endgame_class,
    .game_end = international_game_end,
};
