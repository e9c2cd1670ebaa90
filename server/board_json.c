/* Squares, pieces and moves as JSON (board_json.h). */
#include <stdlib.h>
#include <string.h>

#include "board_json.h"
#include "human_game.h"
#include "notation.h"
#include "variant.h"

#define MAX_SIZE 10

/* Where each square of a variant is, as a person sees the board (human_game.h). */
typedef struct Geometry {
    int size;
    int row[64], col[64];      /* -1 for bits that are no square */
    int at[MAX_SIZE][MAX_SIZE];/* the square at (row, col); -1 for none */
} Geometry;

int board_size(const Variant *v) { return human_board_size(v); }

/* The game's own title (Variant.title). */
const char *game_title(const Variant *v) { return v->title; }

/* As the game labels its board (Variant.labels): a number on every square, or files and
 * ranks on the edges. */
const char *board_labels(const Variant *v) { return v->labels == LABELS_NUMBERS ? "numbers" : "edges"; }

json_t *game_json(const Variant *v)
{
    return json_pack("{s:s,s:s,s:i,s:i,s:s,s:i}", "name", v->name, "title", game_title(v),
                     "rows", v->rows, "columns", v->columns, "labels", board_labels(v),
                     "pdn_gametype", v->pdn_gametype);
}

static void geometry(const Variant *v, Geometry *g)
{
    g->size = board_size(v);
    for (int sq = 0; sq < 64; sq++)
        g->row[sq] = g->col[sq] = -1;
    for (int r = 0; r < MAX_SIZE; r++)
        for (int c = 0; c < MAX_SIZE; c++) {
            int sq = g->at[r][c] = human_board_square(v, r, c);
            if (sq >= 0 && sq < 64) {
                g->row[sq] = r;
                g->col[sq] = c;
            }
        }
}

static json_t *name_json(const Variant *v, int sq)
{
    char name[8];
    return json_string(v->square_name(sq, name));
}

json_t *square_json(const Variant *v, int sq)
{
    Geometry g;
    geometry(v, &g);
    return json_pack("{s:o,s:i,s:i}", "name", name_json(v, sq), "row", g.row[sq], "col",
                     g.col[sq]);
}

/* The squares of set in board order (row by row from the top). */
static json_t *squares_in_order(const Variant *v, Bitboard set, bool placed)
{
    Geometry g;
    geometry(v, &g);
    json_t *a = json_array();
    for (int r = 0; r < g.size; r++)
        for (int c = 0; c < g.size; c++) {
            int sq = g.at[r][c];
            if (sq < 0 || !((set >> sq) & 1))
                continue;
            json_array_append_new(a, placed ? json_pack("{s:o,s:i,s:i}", "name", name_json(v, sq),
                                                        "row", r, "col", c)
                                            : name_json(v, sq));
        }
    return a;
}

json_t *board_squares_json(const Variant *v) { return squares_in_order(v, v->board, true); }

json_t *square_names_json(const Variant *v, Bitboard set) { return squares_in_order(v, set, false); }

json_t *pieces_json(const Variant *v, const Position *pos)
{
    static const char codes[2][2] = { { 'w', 'W' }, { 'b', 'B' } };
    json_t *o = json_object();
    for (int sq = 0; sq < 64; sq++)
        for (int color = WHITE; color <= BLACK; color++) {
            int king = (int)((pos->kings[color] >> sq) & 1);
            if (!king && !((pos->men[color] >> sq) & 1))
                continue;
            char name[8], code[2] = { codes[color][king], '\0' };
            json_object_set_new(o, v->square_name(sq, name), json_string(code));
        }
    return o;
}

static int sign(int x) { return (x > 0) - (x < 0); }

/* The captured pieces in the order they are jumped: those on each hop's line. */
static json_t *captured_in_order(const Variant *v, const Move *m)
{
    Geometry g;
    geometry(v, &g);
    json_t *a = json_array();
    Bitboard left = m->captured;
    int at = m->from;
    for (int j = 0; j < m->njumps && left; j++) {
        int to = m->path[j];
        int dr = sign(g.row[to] - g.row[at]), dc = sign(g.col[to] - g.col[at]);
        for (int r = g.row[at] + dr, c = g.col[at] + dc; (r != g.row[to] || c != g.col[to])
             && r >= 0 && r < g.size && c >= 0 && c < g.size; r += dr, c += dc) {
            int sq = g.at[r][c];
            if (sq >= 0 && ((left >> sq) & 1)) {
                json_array_append_new(a, name_json(v, sq));
                left &= ~((Bitboard)1 << sq);
            }
        }
        at = to;
    }
    for (int sq = 0; sq < 64; sq++) /* none should be left: a safety net, not an order */
        if ((left >> sq) & 1)
            json_array_append_new(a, name_json(v, sq));
    return a;
}

json_t *move_json(const Variant *v, const Move *m)
{
    char text[256];
    move_to_text(v, m, text, sizeof text);
    json_t *path = json_array();
    json_array_append_new(path, name_json(v, m->from));
    if (m->njumps == 0)
        json_array_append_new(path, name_json(v, m->to));
    for (int j = 0; j < m->njumps; j++)
        json_array_append_new(path, name_json(v, m->path[j]));
    return json_pack("{s:s,s:o,s:o,s:o,s:o,s:b}", "text", text, "from", name_json(v, m->from),
                     "to", name_json(v, m->to), "path", path, "captured",
                     captured_in_order(v, m), "crowned", m->promotes != 0);
}

json_t *legal_moves_json(const Variant *v, const Rules *rules, const Position *pos,
                         Bitboard *movable)
{
    MoveList *list = malloc(sizeof *list); /* 12 KB: off a connection thread's stack */
    json_t *a = json_array();
    *movable = 0;
    if (!list)
        return a;
    v->generate(pos, rules, list);
    for (int i = 0; i < list->count; i++) {
        json_array_append_new(a, move_json(v, &list->moves[i]));
        *movable |= (Bitboard)1 << list->moves[i].from;
    }
    free(list);
    return a;
}
