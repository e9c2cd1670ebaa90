/* Legal move generation for International draughts (FMJD 10x10; docs: the rules in
 * shared/rules/international.md, summed up in international.h).
 *
 * Captures are found by a depth-first search per piece.  Unlike Turkish, the captured
 * pieces stay on the board until the move ends: during the search they still block lines
 * and cannot be jumped again (they are in occ and leave the set of jumpable enemies).  Only
 * the sequences that capture the most pieces are kept (majority rule; a king counts as one;
 * with majority=off every complete sequence is a move).
 * Paths with the same (from, to, captured) are merged into one move that remembers how many
 * paths reach it.  A man that passes the crowning row during a capture stays a man; only a
 * move that ends there crowns. */
#include "international.h"
#include "international_board.h"
#include "movelist.h"
#include "position.h"
#include "variant.h"

/* State of one capture search.  occ holds every piece except the moving one (so its start
 * square can be crossed again); captured pieces stay in occ, and leave jumpable. */
typedef struct CaptureSearch {
    Bitboard occ, jumpable;
    int color;
    bool man;          /* the moving piece is a man */
    Move cur;          /* the path being built */
    CaptureSink out;   /* where complete sequences go */
} CaptureSearch;

static void record(CaptureSearch *cs, int to, int depth)
{
    Move *m = &cs->cur;
    m->to = (uint8_t)to;
    m->njumps = (uint8_t)depth;
    m->promotes = cs->man && (square_bb(to) & intl_promotion_bb(cs->color)) != 0;
    capture_sink_take(&cs->out, m);
}

/* Takes victim, lands on t, and goes on from there. */
static void jump(CaptureSearch *cs, int victim, int t, int depth);

static void king_jumps(CaptureSearch *cs, int sq, int depth)
{
    bool jumped = false;
    for (int dir = 0; dir < 4; dir++) {
        int v = intl_step(sq, dir);
        while (v >= 0 && !(cs->occ & square_bb(v)))
            v = intl_step(v, dir);
        if (v < 0 || !(cs->jumpable & square_bb(v)))
            continue;
        for (int t = intl_step(v, dir); t >= 0 && !(cs->occ & square_bb(t)); t = intl_step(t, dir)) {
            jumped = true;
            jump(cs, v, t, depth);
        }
    }
    if (!jumped && depth > 0)
        record(cs, sq, depth);
}

static void man_jumps(CaptureSearch *cs, int sq, int depth)
{
    bool jumped = false;
    for (int dir = 0; dir < 4; dir++) {
        int v = intl_step(sq, dir);
        if (v < 0 || !(cs->jumpable & square_bb(v)))
            continue;
        int t = intl_step(v, dir);
        if (t < 0 || (cs->occ & square_bb(t)))
            continue;
        jumped = true;
        jump(cs, v, t, depth);
    }
    if (!jumped && depth > 0)
        record(cs, sq, depth);
}

static void jump(CaptureSearch *cs, int victim, int t, int depth)
{
    Bitboard vb = square_bb(victim);
    cs->jumpable ^= vb;
    cs->cur.captured |= vb;
    cs->cur.path[depth] = (uint8_t)t;
    if (cs->man)
        man_jumps(cs, t, depth + 1);
    else
        king_jumps(cs, t, depth + 1);
    cs->jumpable ^= vb;
    cs->cur.captured ^= vb;
}

/* Men with a jump right now, in any of the four directions. */
static Bitboard men_that_jump(Bitboard men, Bitboard enemy, Bitboard empty)
{
    Bitboard jumpers = 0;
    for (int dir = 0; dir < 4; dir++) {
        int back = 3 - dir; /* the opposite direction */
        jumpers |= intl_shift(intl_shift(empty, back) & enemy, back) & men;
    }
    return jumpers;
}

static void search_captures(const Position *pos, CaptureSearch *cs)
{
    int us = pos->side;
    Bitboard all = position_occupied(pos);
    Bitboard enemy = position_pieces(pos, !us);
    cs->color = us;
    for (int k = 0; k < 2; k++) {
        Bitboard pieces = k == 0 ? men_that_jump(pos->men[us], enemy, ~all & INTL_BOARD_BB) : pos->kings[us];
        cs->man = k == 0;
        while (pieces) {
            int from = pop_lsb(&pieces);
            cs->occ = all ^ square_bb(from);
            cs->jumpable = enemy;
            cs->cur.from = (uint8_t)from;
            cs->cur.captured = 0;
            if (cs->man)
                man_jumps(cs, from, 0);
            else
                king_jumps(cs, from, 0);
        }
    }
}

bool international_capture_pending(const Position *pos)
{
    int us = pos->side;
    Bitboard empty = ~position_occupied(pos) & INTL_BOARD_BB;
    Bitboard enemy = position_pieces(pos, !us);
    if (men_that_jump(pos->men[us], enemy, empty))
        return true;
    Bitboard kings = pos->kings[us];
    if (kings)
        for (int dir = 0; dir < 4; dir++) {
            Bitboard reach = kings | intl_slide(kings, empty, dir);
            if (intl_shift(intl_shift(reach, dir) & enemy, dir) & empty)
                return true;
        }
    return false;
}

/* Quiet moves never overflow the list: as in Turkish, at most 4 quiet moves reach each
 * empty square (one per direction), at most 4 * 50 = 200 in all. */
_Static_assert(4 * INTL_SQUARES <= MAX_MOVES, "a quiet move list must fit in a MoveList");

static int forward(int color, int i) { return color == WHITE ? UP_LEFT + i : DOWN_LEFT + i; }

static void generate_quiet(const Position *pos, MoveList *list)
{
    int us = pos->side;
    Bitboard empty = ~position_occupied(pos) & INTL_BOARD_BB;
    for (int i = 0; i < 2; i++) {
        int dir = forward(us, i);
        for (Bitboard to = intl_shift(pos->men[us], dir) & empty; to;) {
            int t = pop_lsb(&to);
            movelist_add_quiet(list, t - intl_step_delta[dir], t, square_bb(t) & intl_promotion_bb(us));
        }
    }
    for (Bitboard kings = pos->kings[us]; kings;) {
        int from = pop_lsb(&kings);
        for (int dir = 0; dir < 4; dir++)
            for (int t = intl_step(from, dir); t >= 0 && (empty & square_bb(t)); t = intl_step(t, dir))
                movelist_add_quiet(list, from, t, false);
    }
}

void international_generate(const Position *pos, const Rules *rules, MoveList *list)
{
    list->count = 0;
    if (international_capture_pending(pos)) {
        CaptureSearch cs = { .out = { .pos = pos, .variant = &international_variant, .list = list,
                                      .any_length = !rules->majority } };
        search_captures(pos, &cs);
    } else {
        generate_quiet(pos, list);
    }
}

void international_for_each_path(const Position *pos, const Rules *rules,
                                 void (*visit)(void *ctx, const Move *move), void *ctx)
{
    MoveList list;
    international_generate(pos, rules, &list);
    if (movelist_visit_quiet(&list, visit, ctx))
        return;
    CaptureSearch cs = { .out = { .pos = pos, .variant = &international_variant, .visit = visit,
                                  .ctx = ctx, .want = list.moves[0].njumps,
                                  .any_length = !rules->majority } };
    search_captures(pos, &cs);
}

uint64_t international_count(const Position *pos, const Rules *rules, bool count_paths)
{
    if (international_capture_pending(pos)) {
        MoveList list;
        international_generate(pos, rules, &list);
        return movelist_total(&list, count_paths);
    }
    /* No capture: count quiet moves with popcounts, no list. */
    int us = pos->side;
    Bitboard empty = ~position_occupied(pos) & INTL_BOARD_BB;
    uint64_t n = 0;
    for (int i = 0; i < 2; i++)
        n += (uint64_t)popcount(intl_shift(pos->men[us], forward(us, i)) & empty);
    Bitboard kings = pos->kings[us];
    if (kings)
        for (int dir = 0; dir < 4; dir++)
            n += (uint64_t)popcount(intl_slide(kings, empty, dir));
    return n;
}
