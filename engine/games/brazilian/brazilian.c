/* Brazilian draughts: start position, square text (numbers and a1..h8) and the variant
 * table.  Rules and generator are International's on 8x8 (brazilian.h). */
#include "brazilian_board.h"
#include "diagonal_squares.h"
#include "brazilian.h"
#include "movelist.h"
#include "shipped_weights.h"
#include "variant.h"

/* Black's men on squares 1..12 (its three rows), White's on 21..32. */
static void brazilian_start(Position *pos) { diagonal_start(pos, 3); }

/* Numbers 1..32 and the coordinates a1..h8 (diagonal_squares.h). */
static int brazilian_parse_square(const char *text, int *used)
{
    return diagonal_parse_square(text, used, true);
}

/* The bench set (bench.h): the start, then positions of two self-play games of the first
 * training run (docs/experiments.md) from the opening through the middlegame to endgames
 * with kings.  Changing it changes the signature. */
static const char *const bench_fens[] = {
    "start",
    "W:W17,20,21,23,27,28,29,30,31,32:B2,3,4,5,7,8,9,11,12,14",
    "W:W21,23,25,27,28,30,31,32:B2,3,4,5,9,12,14,15",
    "W:W13,17,20,21,23,25,31,32:B1,2,5,6,8,10,14,15",
    "W:W12,21,25,27,30,31,32:B2,4,5,8,9,14",
    "W:W21,23,28,30,31:B2,4,5,K8",
    "W:W16,21,23,26,31:B4,6,14,K15",
    "W:W12,19,21,24,26:B4,10,K15,18",
    "W:W14,17,K20,32:B1,5,12,28,K29",
    "W:W12,19,20,26:B4,10,K31",
    "W:WK3,16,20:B4,15,K27",
    "W:WK13,32:B1,5,16,28",
    "W:WK18,32:B13,25,28",
};

/* Black's men step down-left or down-right: backwards, a man came from up-left or
 * up-right. */
static const int black_man_back[] = { UP_LEFT, UP_RIGHT };

SHIPPED_WEIGHTS_DECLARE(brazilian);

/* lidraughts', Scan's and the Hub GUIs' name of the game. */
static const char *const hub_aliases[] = { "brazilian", NULL };

/* International's reasons, in their order: game_end is International's (enum
 * InternationalReason). */
static const char *const reasons[] = { "king-moves", "endgame" };

const Variant brazilian_variant = {
    .name = "brazilian",
    .title = "Brazilian draughts",
    .aliases = "br",
    .hub_aliases = hub_aliases,
    .hub_default = false,
    .rows = INTL_ROWS,
    .columns = INTL_COLUMNS,
    .squares = INTL_SQUARES,
    .square_cell = diagonal_square_cell,
    .labels = LABELS_NUMBERS,
    .step = intl_step,
    .black_man_back = black_man_back,
    .black_man_backs = (int)(sizeof black_man_back / sizeof black_man_back[0]),
    .max_pieces = 12,
    .board = INTL_BOARD_BB,
    .promotion_bb = { INTL_ROW_TOP_BB, INTL_ROW_BOTTOM_BB },
    .numbered = true,
    .eval = &brazilian_eval_spec,
    .pattern_eval = &brazilian_pattern_eval_spec,
    .pdn_gametype = 26,
    .pdn_square_name = diagonal_coordinate_name, /* PDN GameType 26: "26,W,8,8,A0,0" */
    .shipped_start = brazilian_shipped_start,
    .shipped_end = brazilian_shipped_end,
    .reasons = reasons,
    .reason_count = (int)(sizeof reasons / sizeof reasons[0]),
    .bench_fens = bench_fens,
    .bench_count = (int)(sizeof bench_fens / sizeof bench_fens[0]),
    .start = brazilian_start,
    .generate = brazilian_generate,
    .for_each_path = brazilian_for_each_path,
    .count = brazilian_count,
    .perft = brazilian_perft,
    .capture_pending = brazilian_capture_pending,
    .has_quiet_move = brazilian_has_quiet_move,
    .generate_known = brazilian_generate_known,
    .mirror = intl_half_turn,
    .make = movelist_make,
    .square_name = diagonal_number_name,
    .parse_square = brazilian_parse_square,
    .rules_default = brazilian_rules_default,
    .rules_option = brazilian_rules_option,
    .rules_describe = brazilian_rules_describe,
    .rules_help = "majority=on|off, kingmoves=N, endgame16=N, endgame5=N (N: moves each)",
    .rules_keys = "majority, kingmoves, endgame16, endgame5",
    .men_irreversible = true, /* men only move forward */
    .endgame_class = brazilian_endgame_class,
    .game_end = brazilian_game_end,
};
