/* Turkish draughts: start position, making a move, square names, and the variant table. */
#include "turkish.h"
#include "bitboard.h"
#include "movelist.h"
#include "variant.h"

#define RANK_2_BB 0x000000000000FF00ULL
#define RANK_3_BB 0x0000000000FF0000ULL
#define RANK_6_BB 0x0000FF0000000000ULL
#define RANK_7_BB 0x00FF000000000000ULL

void turkish_start(Position *pos)
{
    pos->men[WHITE] = RANK_2_BB | RANK_3_BB;
    pos->men[BLACK] = RANK_6_BB | RANK_7_BB;
    pos->kings[WHITE] = pos->kings[BLACK] = 0;
    pos->side = WHITE;
}

void turkish_make(Position *pos, const Move *move) { movelist_make(pos, move); }

const char *turkish_square_name(int sq, char *buf)
{
    buf[0] = (char)('a' + square_file(sq));
    buf[1] = (char)('1' + square_rank(sq));
    buf[2] = '\0';
    return buf;
}

int turkish_parse_square(const char *text, int *used)
{
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
        return -1;
    if (text[2] >= '0' && text[2] <= '9')
        return -1; /* "a10" is no square of this board */
    *used = 2;
    return make_square(text[0] - 'a', text[1] - '1');
}

const Variant turkish_variant = {
    .name = "turkish",
    .max_pieces = 16,
    .promotion_rank = { 7, 0 },
    .board = ~0ULL,
    .promotion_bb = { RANK_8_BB, RANK_1_BB },
    .numbered = false,
    .evaluated = true,
    .start = turkish_start,
    .generate = turkish_generate,
    .for_each_path = turkish_for_each_path,
    .count = turkish_count,
    .capture_pending = turkish_capture_pending,
    .make = turkish_make,
    .square_name = turkish_square_name,
    .parse_square = turkish_parse_square,
    .rules_default = turkish_rules_default,
    .rules_option = turkish_rules_option,
    .rules_help = "promotion=man|stop|king, kvm=draw|win, noprogress=N",
    .rules_keys = "promotion, kvm, noprogress",
    .men_irreversible = false, /* men step sideways: only a capture is irreversible */
    .endgame_class = NULL,
    .game_end = turkish_game_end,
};
