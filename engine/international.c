/* International draughts: start position, making a move, square names 1..50, and the
 * variant table. */
#include "international.h"
#include "international_board.h"
#include "movelist.h"
#include "variant.h"

/* Squares 1..20 (Black) and 31..50 (White) in the layout of international_board.h. */
#define INTL_BLACK_START_BB (0x00000000001FFFFFULL & ~(1ULL << 10))
#define INTL_WHITE_START_BB (INTL_BOARD_BB & ~((1ULL << 33) - 1))

void international_start(Position *pos)
{
    pos->men[WHITE] = INTL_WHITE_START_BB;
    pos->men[BLACK] = INTL_BLACK_START_BB;
    pos->kings[WHITE] = pos->kings[BLACK] = 0;
    pos->side = WHITE;
}

void international_make(Position *pos, const Move *move) { movelist_make(pos, move); }

const char *international_square_name(int sq, char *buf)
{
    int n = intl_number_of_bit(sq), i = 0; /* 1..50 */
    if (n >= 10)
        buf[i++] = (char)('0' + n / 10);
    buf[i++] = (char)('0' + n % 10);
    buf[i] = '\0';
    return buf;
}

int international_parse_square(const char *text, int *used)
{
    if (text[0] < '1' || text[0] > '9')
        return -1; /* no sign, no leading zero */
    int n = 0, len = 0;
    while (text[len] >= '0' && text[len] <= '9' && len < 3)
        n = n * 10 + (text[len++] - '0');
    if (n > INTL_SQUARES || (text[len] >= '0' && text[len] <= '9'))
        return -1;
    *used = len;
    return intl_bit_of_number(n);
}

const Variant international_variant = {
    .name = "international",
    .max_pieces = 20,
    .promotion_rank = { -1, -1 },
    .board = INTL_BOARD_BB,
    .promotion_bb = { INTL_ROW_TOP_BB, INTL_ROW_BOTTOM_BB },
    .numbered = true,
    .evaluated = false,
    .start = international_start,
    .generate = international_generate,
    .for_each_path = international_for_each_path,
    .count = international_count,
    .perft = international_perft,
    .capture_pending = international_capture_pending,
    .make = international_make,
    .square_name = international_square_name,
    .parse_square = international_parse_square,
    .rules_default = international_rules_default,
    .rules_option = international_rules_option,
    .rules_help = "majority=on|off, kingmoves=N, endgame16=N, endgame5=N (N: moves each)",
    .rules_keys = "majority, kingmoves, endgame16, endgame5",
    .men_irreversible = true, /* men only move forward */
    .endgame_class = international_endgame_class,
    .game_end = international_game_end,
};
