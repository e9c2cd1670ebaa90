/* Turkish draughts: start position, making a move, square names, and the variant table. */
#include "turkish.h"
#include "turkish_board.h"
#include "turkish_eval.h"
#include "turkish_patterns.h"
#include "bitboard.h"
#include "movelist.h"
#include "shipped_weights.h"
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

/* Drawn with White at the bottom: rank 8 is row 0, file a column 0. */
static void turkish_square_cell(int sq, int *row, int *col)
{
    *row = 7 - square_rank(sq);
    *col = square_file(sq);
}

/* Ranks mirrored (rank r -> 9 - r), files kept: the board from Black's side. */
static Bitboard turkish_mirror(Bitboard b) { return __builtin_bswap64(b); }

/* The bench set (bench.h): openings, middlegames, endgames with kings.  Changing it changes
 * the signature; so does any change to search or evaluation. */
static const char *const bench_fens[] = {
    "start",
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,d4:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,d2,e2,g2,h2,a3,c3,d3,f3,h3,c4,e4:Ba6,b6,d6,f6,h6,a7,c7,e7,f7,g7,h7,b5,g5",
    "W:Wb2,c2,f2,g2,a3,d3,e3,h3,c4,f4,b5:Ba7,c7,f7,g7,b6,d6,e6,h6,c5,g5,a4",
    "B:Wa2,c2,e2,h2,b3,d3,g3,e4,f4:Bb7,d7,g7,a6,c6,f6,h6,d5,b4",
    "W:Wc2,d2,f2,b3,g3,e5:Bb7,c6,e6,g6,a5,h4",
    "W:WKa1,d3,f3,g4:Bb6,c6,e7,h5,Kh8",
    "B:WKd1,Ke4,b2,g3:BKa8,c5,f6,h6",
    "W:WKc3,a4,h3:BKf6,Kb8,d5",
    "W:Wd5,e4:Bd7,g6,Ka1",
    "W:WKh1:Bb5,c6,Ka8",
    "B:Wb3,c4,d4,f3,g2:Bb6,c7,e6,f6,g7",
};

/* Black's men step south or sideways: backwards, a man came from the north, east or west. */
static const int black_man_back[] = { NORTH, EAST, WEST };

SHIPPED_WEIGHTS_DECLARE(turkish);

static const char *const reasons[] = { "no-progress", "one-each" }; /* enum TurkishReason */

const Variant turkish_variant = {
    .name = "turkish",
    .title = "Turkish draughts",
    .aliases = "tr",
    .hub_aliases = NULL,
    .hub_default = false,
    .rows = 8,
    .columns = 8,
    .squares = 64,
    .square_cell = turkish_square_cell,
    .labels = LABELS_EDGES,
    .step = step,
    .black_man_back = black_man_back,
    .black_man_backs = (int)(sizeof black_man_back / sizeof black_man_back[0]),
    .max_pieces = 16,
    .board = ~0ULL,
    .promotion_bb = { RANK_8_BB, RANK_1_BB },
    .numbered = false,
    .eval = &turkish_eval_spec,
    .pattern_eval = &turkish_pattern_eval_spec,
    .pdn_gametype = 30,
    .shipped_start = turkish_shipped_start,
    .shipped_end = turkish_shipped_end,
    .reasons = reasons,
    .reason_count = (int)(sizeof reasons / sizeof reasons[0]),
    .bench_fens = bench_fens,
    .bench_count = (int)(sizeof bench_fens / sizeof bench_fens[0]),
    .start = turkish_start,
    .generate = turkish_generate,
    .for_each_path = turkish_for_each_path,
    .count = turkish_count,
    .perft = turkish_perft,
    .capture_pending = turkish_capture_pending,
    .has_quiet_move = turkish_has_quiet_move,
    .generate_known = turkish_generate_known,
    .mirror = turkish_mirror,
    .make = movelist_make,
    .square_name = turkish_square_name,
    .parse_square = turkish_parse_square,
    .rules_default = turkish_rules_default,
    .rules_option = turkish_rules_option,
    .rules_describe = turkish_rules_describe,
    .rules_help = "promotion=man|stop|king, kvm=draw|win, noprogress=N",
    .rules_keys = "promotion, kvm, noprogress",
    .men_irreversible = false, /* men step sideways: only a capture is irreversible */
    .endgame_class = NULL,
    .game_end = turkish_game_end,
};
