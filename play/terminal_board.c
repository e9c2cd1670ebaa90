/* The board drawn for the terminal; see terminal_board.h. */
#include "terminal_board.h"

#include <stdio.h>

#include "bitboard.h"
#include "position.h"
#include "variant.h"

/* A piece's glyph: white ○ (king ◎), black ● (king ◉); w W b B with --ascii. */
static const char *piece_glyph(const Position *pos, int sq, bool ascii)
{
    Bitboard b = (Bitboard)1 << sq;
    if (pos->men[WHITE] & b) return ascii ? "w" : "\u25cb";
    if (pos->kings[WHITE] & b) return ascii ? "W" : "\u25ce";
    if (pos->men[BLACK] & b) return ascii ? "b" : "\u25cf";
    if (pos->kings[BLACK] & b) return ascii ? "B" : "\u25c9";
    return NULL;
}

/* Coordinates, as the game labels its board (Variant.labels): letters under the board and
 * digits beside it (Turkish), or the first and last square number of each row beside it
 * (International). */
static void print_files(const Variant *v, bool flipped)
{
    if (v->labels == LABELS_NUMBERS)
        return;
    int size = human_board_size(v);
    fputs("    ", stdout);
    for (int c = 0; c < size; c++)
        printf(" %c ", 'a' + (flipped ? size - 1 - c : c));
    putchar('\n');
}

static void row_label(const Variant *v, int row, bool last, bool flipped, char *buf, size_t len)
{
    int size = human_board_size(v);
    if (v->labels == LABELS_EDGES) {
        snprintf(buf, len, "%d", size - row);
        return;
    }
    /* The row's dark squares in reading order from the side it is read from. */
    char name[8] = "";
    for (int i = 0; i < size; i++) {
        int col = (last != flipped) ? size - 1 - i : i;
        int sq = human_board_square(v, row, col);
        if (sq >= 0) {
            v->square_name(sq, name);
            break;
        }
    }
    snprintf(buf, len, "%s", name);
}

void terminal_board_draw(const HumanGame *g, bool flipped, bool ascii)
{
    const Variant *v = g->variant;
    const Position *pos = human_game_position(g);
    int size = human_board_size(v), plies = human_game_plies(g);
    const Move *last = plies > 0 ? &g->plies[plies - 1].move : NULL;
    putchar('\n');
    print_files(v, flipped);
    for (int r = 0; r < size; r++) {
        int row = flipped ? size - 1 - r : r;
        char left[8], right[8];
        row_label(v, row, false, flipped, left, sizeof left);
        row_label(v, row, true, flipped, right, sizeof right);
        printf("%3s ", left);
        for (int c = 0; c < size; c++) {
            int col = flipped ? size - 1 - c : c;
            int sq = human_board_square(v, row, col);
            const char *glyph = sq < 0 ? " " : piece_glyph(pos, sq, ascii);
            if (!glyph)
                glyph = ascii ? "." : "\u00b7";
            bool marked = last && sq >= 0 && (sq == last->from || sq == last->to);
            printf("%c%s%c", marked ? '[' : ' ', glyph, marked ? ']' : ' ');
        }
        printf(" %s\n", right);
    }
    print_files(v, flipped);
    if (last)
        printf("last move: %s\n", g->plies[plies - 1].text);
}
