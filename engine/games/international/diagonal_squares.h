/* Square text, drawing cells and the start of a diagonal board in international_board.h's layout,
 * for every game compiled on it (International 10x10, Brazilian and Russian 8x8): squares
 * numbered 1..INTL_SQUARES from Black's side as FMJD numbers them, and the coordinates a1..h8
 * (file from White's left, rank from White's side) that Russian and Brazilian players and
 * their PDN files write.  Include after the board's geometry (INTL_ROWS, INTL_COLUMNS). */
#ifndef DAMA_DIAGONAL_SQUARES_H
#define DAMA_DIAGONAL_SQUARES_H

#include <stdbool.h>

#include "international_board.h"
#include "types.h"

/* Square n is in row (n - 1) / INTL_HALF from the top; even rows start on column 1 (b),
 * odd rows on column 0 (a), so a1, White's left corner, is a square on an 8x8 board. */
static inline void diagonal_square_cell(int sq, int *row, int *col)
{
    int n = intl_number_of_bit(sq) - 1;
    *row = n / INTL_HALF;
    *col = 2 * (n % INTL_HALF) + (*row % 2 == 0);
}

/* "32", "7". */
static inline const char *diagonal_number_name(int sq, char *buf)
{
    int n = intl_number_of_bit(sq), i = 0;
    if (n >= 10)
        buf[i++] = (char)('0' + n / 10);
    buf[i++] = (char)('0' + n % 10);
    buf[i] = '\0';
    return buf;
}

#if INTL_ROWS <= 9 /* ranks of one digit */
/* "c3". */
static inline const char *diagonal_coordinate_name(int sq, char *buf)
{
    int row, col;
    diagonal_square_cell(sq, &row, &col);
    buf[0] = (char)('a' + col);
    buf[1] = (char)('0' + INTL_ROWS - row);
    buf[2] = '\0';
    return buf;
}
#endif

/* The start: each side's men on its first men_rows rows (Black from square 1, White up to
 * the last square), White to move. */
static inline void diagonal_start(Position *pos, int men_rows)
{
    pos->men[WHITE] = pos->men[BLACK] = pos->kings[WHITE] = pos->kings[BLACK] = 0;
    for (int n = 1; n <= men_rows * INTL_HALF; n++) {
        pos->men[BLACK] |= square_bb(intl_bit_of_number(n));
        pos->men[WHITE] |= square_bb(intl_bit_of_number(INTL_SQUARES + 1 - n));
    }
    pos->side = WHITE;
}

static inline bool diagonal_is_digit(char c) { return c >= '0' && c <= '9'; }

/* A number 1..INTL_SQUARES (no sign, no leading zero, not followed by a digit); with
 * coordinates also "c3", a dark square (boards of at most 9 rows).  The square's bit and *used, or -1. */
static inline int diagonal_parse_square(const char *text, int *used, bool coordinates)
{
    if (coordinates && text[0] >= 'a' && text[0] < 'a' + INTL_COLUMNS) {
        int col = text[0] - 'a', rank = text[1] - '0';
        if (rank < 1 || rank > INTL_ROWS || diagonal_is_digit(text[2]))
            return -1;
        int row = INTL_ROWS - rank;
        if ((row + col) % 2 == 0)
            return -1; /* a light square */
        *used = 2;
        return intl_bit_of_number(row * INTL_HALF + col / 2 + 1);
    }
    if (text[0] < '1' || text[0] > '9')
        return -1;
    int n = 0, len = 0;
    while (diagonal_is_digit(text[len]) && len < 3)
        n = n * 10 + (text[len++] - '0');
    if (n > INTL_SQUARES || diagonal_is_digit(text[len]))
        return -1;
    *used = len;
    return intl_bit_of_number(n);
}

#endif
