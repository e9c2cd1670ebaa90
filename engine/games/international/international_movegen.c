/* Legal move generation for International draughts (FMJD 10x10; docs: the rules in
 * docs/rules-international.md, summed up in international.h).
 *
 * Captures are found by a depth-first search per piece.  Unlike Turkish, the captured
 * pieces stay on the board until the move ends: during the search they still block lines
 * and cannot be jumped again (they stay off the landing squares and leave the set of
 * jumpable enemies).  Only the sequences that capture the most pieces are kept (majority
 * rule; a king counts as one; with majority=off every complete sequence is a move).
 * Paths with the same (from, to, captured) are merged into one move that remembers how many
 * paths reach it.  A man that passes the crowning row during a capture stays a man; only a
 * move that ends there crowns.
 *
 * Speed: every step is a fixed shift of a bitboard (international_board.h), so the search
 * works on one-bit bitboards with no table and no bounds check, and the loops over the four
 * directions unroll into straight code.
 *
 * The board is International's 10x10 unless the file that includes this one says other:
 * a diagonal game with International's rules on another board (Brazilian, 8x8) compiles
 * this file again with its INTL_ROWS and INTL_COLUMNS, its DIAGONAL_GAME name (the
 * functions become NAME_generate, ... and NAME_variant is the game) defined first;
 * tests/test_diagonal_8x8.c does so.
 *
 * Switches for a game with other capture rules (International defines none of them, and
 * compiles to the same code without them):
 *   DIAGONAL_CROWN_IN_CAPTURE  a man that lands on its crowning row during a capture is
 *                              crowned at once and goes on capturing as a king (Russian);
 *                              a king must then also land where it can go on capturing
 *                              whenever one of its landing squares allows it;
 *   DIAGONAL_MAJORITY(rules)   whether the longest capture is compulsory (International:
 *                              its majority option; a game without the rule: false). */
#ifndef DIAGONAL_MAJORITY
#define DIAGONAL_MAJORITY(rules) (international_rules(rules).majority)
#endif
#include "diagonal_game.h"
#include "international.h"
#include "international_board.h"
#include "movelist.h"
#include "perft.h"
#include "position.h"
#include "variant.h"

/* The game compiled: its functions are DIAGONAL_FN(generate), ..., its Variant
 * DIAGONAL_VARIANT (diagonal_game.h). */
extern const Variant DIAGONAL_VARIANT;
bool DIAGONAL_FN(capture_pending)(const Position *pos);
void DIAGONAL_FN(generate)(const Position *pos, const Rules *rules, MoveList *list);
void DIAGONAL_FN(for_each_path)(const Position *pos, const Rules *rules,
                                void (*visit)(void *ctx, const Move *move), void *ctx);
uint64_t DIAGONAL_FN(count)(const Position *pos, const Rules *rules, bool count_paths);
bool DIAGONAL_FN(has_quiet_move)(const Position *pos);
void DIAGONAL_FN(generate_known)(const Position *pos, const Rules *rules, bool capture, MoveList *list);
uint64_t DIAGONAL_FN(perft)(const Position *pos, const Rules *rules, int depth, const PerftOptions *opt);

/* For the few helpers that every generator and counter calls once a position: inlined
 * into each caller, the compiler keeps their bitboards in registers. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* State of one capture search.  land holds the squares a jump may end on: the empty ones
 * and the moving piece's start (it may be crossed again); the captured pieces stay off it
 * until the move ends, and leave jumpable. */
typedef struct CaptureSearch {
    Bitboard land, jumpable;
    Bitboard crown;    /* where the moving piece is crowned (nowhere for a king) */
#ifdef DIAGONAL_CROWN_IN_CAPTURE
    Bitboard crowned;  /* where a man was crowned on the path being built, or 0 */
#endif
    Move cur;          /* the path being built */
    CaptureSink out;   /* where complete sequences go */
} CaptureSearch;

static void record(CaptureSearch *cs, Bitboard at, int depth)
{
    Move *m = &cs->cur;
    m->to = (uint8_t)lsb(at);
    m->njumps = (uint8_t)depth;
    m->promotes = (at & cs->crown) != 0;
#ifdef DIAGONAL_CROWN_IN_CAPTURE
    m->promotes |= cs->crowned != 0;
#endif
    capture_sink_take(&cs->out, m);
}

static void man_jumps(CaptureSearch *cs, Bitboard at, int depth);
#ifdef DIAGONAL_CROWN_IN_CAPTURE
static inline bool kings_can_jump(Bitboard kings, Bitboard enemy, Bitboard empty);
#endif
static void king_jumps(CaptureSearch *cs, Bitboard at, int depth);

/* Takes the piece on victim, lands on to, and goes on from there. */
static inline void jump(CaptureSearch *cs, Bitboard victim, Bitboard to, int depth, bool man)
{
    cs->jumpable ^= victim;
    cs->cur.captured ^= victim;
    cs->cur.path[depth] = (uint8_t)lsb(to);
#ifdef DIAGONAL_CROWN_IN_CAPTURE
    Bitboard crowned_before = cs->crowned;
    if (man && (to & cs->crown)) { /* crowned here: goes on as a king */
        cs->crowned = to;
        man = false;
    }
#endif
    if (man)
        man_jumps(cs, to, depth + 1);
    else
        king_jumps(cs, to, depth + 1);
#ifdef DIAGONAL_CROWN_IN_CAPTURE
    cs->crowned = crowned_before;
#endif
    cs->jumpable ^= victim;
    cs->cur.captured ^= victim;
}

/* The man on at jumps in dir if it can; true when it did. */
static inline bool man_jump_dir(CaptureSearch *cs, Bitboard at, int depth, int dir)
{
    Bitboard victim = intl_step_onto(at, dir, cs->jumpable);
    Bitboard to = intl_step_onto(victim, dir, cs->land);
    if (!to)
        return false;
    jump(cs, victim, to, depth, true);
    return true;
}

static void man_jumps(CaptureSearch *cs, Bitboard at, int depth)
{
    bool jumped = false;
    for (int dir = 0; dir < 4; dir++)
        jumped |= man_jump_dir(cs, at, depth, dir);
    if (!jumped && depth > 0)
        record(cs, at, depth);
}

/* The king on at slides in dir to the first piece; if it is jumpable with room behind it,
 * every landing square behind it is a way on.  True when there was one. */
static inline bool king_jump_dir(CaptureSearch *cs, Bitboard at, int depth, int dir)
{
    Bitboard v = intl_shift(at, dir);
    while (v & cs->land)
        v = intl_shift(v, dir);
    Bitboard to = intl_step_onto(v & cs->jumpable, dir, cs->land);
    if (!to)
        return false;
#ifdef DIAGONAL_CROWN_IN_CAPTURE
    /* The capture goes on where it can: when some landing square has a further jump, the
     * king lands on one of those.  (With the majority rule this follows from it.) */
    Bitboard going_on = 0;
    cs->jumpable ^= v;
    for (Bitboard t = to; t; t = intl_step_onto(t, dir, cs->land))
        if (kings_can_jump(t, cs->jumpable, cs->land))
            going_on |= t;
    cs->jumpable ^= v;
    for (; to; to = intl_step_onto(to, dir, cs->land))
        if (!going_on || (to & going_on))
            jump(cs, v, to, depth, false);
    return true;
#else
    for (; to; to = intl_step_onto(to, dir, cs->land))
        jump(cs, v, to, depth, false);
    return true;
#endif
}

static void king_jumps(CaptureSearch *cs, Bitboard at, int depth)
{
    bool jumped = false;
    for (int dir = 0; dir < 4; dir++)
        jumped |= king_jump_dir(cs, at, depth, dir);
    if (!jumped && depth > 0)
        record(cs, at, depth);
}

/* True when one of the kings has a jump: a slide through empty squares in some direction
 * reaches an enemy with an empty square behind it. */
static inline bool kings_can_jump(Bitboard kings, Bitboard enemy, Bitboard empty)
{
    for (int dir = 0; dir < 4; dir++) {
        Bitboard reach = kings | intl_slide(kings, empty, dir);
        if (intl_step_onto(intl_step_onto(reach, dir, enemy), dir, empty))
            return true;
    }
    return false;
}

/* The pieces of pieces that can jump in dir right now: an enemy next to them, an empty
 * square behind it. */
ALWAYS_INLINE Bitboard jumping_in(int dir, Bitboard pieces, Bitboard enemy, Bitboard empty)
{
    int back = 3 - dir; /* the opposite direction */
    return intl_step_onto(intl_step_onto(empty, back, enemy), back, pieces);
}

/* The board seen by the side to move. */
typedef struct Sides {
    Bitboard men, kings, enemy, empty;
} Sides;

/* The board as side sees it.  With side a constant (perft's last ply) every field is
 * one load. */
ALWAYS_INLINE Sides sides_as(const Position *pos, int side)
{
    Sides s = { pos->men[side], pos->kings[side], pos->men[!side] | pos->kings[!side], 0 };
    s.empty = ~(s.men | s.kings | s.enemy) & INTL_BOARD_BB;
    return s;
}

/* The same with a branch on the side (in perft it goes the same way at every node of a
 * ply) rather than loads at an index, which wait for the side to be read. */
ALWAYS_INLINE Sides sides_of(const Position *pos)
{
    return pos->side == WHITE ? sides_as(pos, WHITE) : sides_as(pos, BLACK);
}

/* How a position's captures are found.  jumps[dir] gets the men with a jump in dir; the
 * result is NO_CAPTURE, SINGLE_JUMPS when every capture is a single jump by a man (each
 * jumping man and direction is then one move, with one path, found with no search),
 * MEN_SEARCH when only men can jump, some more than once, or SEARCH (kings too). */
enum CaptureKind { NO_CAPTURE, SINGLE_JUMPS, MEN_SEARCH, SEARCH };

ALWAYS_INLINE enum CaptureKind find_jumps(const Sides *s, Bitboard jumps[4])
{
    Bitboard any = 0, landings = 0;
    for (int dir = 0; dir < 4; dir++) {
        jumps[dir] = jumping_in(dir, s->men, s->enemy, s->empty);
        any |= jumps[dir];
        landings |= intl_step_onto(intl_step_onto(jumps[dir], dir, s->enemy), dir, s->empty);
    }
    if (s->kings)
        return any || kings_can_jump(s->kings, s->enemy, s->empty) ? SEARCH : NO_CAPTURE;
    /* A man that landed goes on if a jump starts from its landing square.  The piece it
     * took is still in enemy, but jumping it back would land on the start square, which
     * is not in empty: so this test is exact. */
    Bitboard on = 0;
    for (int dir = 0; dir < 4; dir++)
        on |= jumping_in(dir, landings, s->enemy, s->empty);
#ifdef DIAGONAL_CROWN_IN_CAPTURE
    /* a man crowned by its jump may go on as a king: the search finds out */
    on |= landings & (INTL_ROW_TOP_BB | INTL_ROW_BOTTOM_BB);
#endif
    return !any ? NO_CAPTURE : on ? MEN_SEARCH : SINGLE_JUMPS;
}

/* ---- counting the captures of men without listing them ----
 * Paths with the same (from, to, captured) are one move, but for a man that takes at most
 * three pieces no two paths are: its jumps are unit steps on the grid of its landing
 * squares, each over the piece at its midpoint.  Two different paths between the same
 * squares taking the same pieces would either (a) make the same jumps in another order,
 * so those jumps hold a cycle, and the grid's shortest has 4 steps; or (b) take some piece
 * along the other diagonal: the jumps made by one path only then form cycles (each square
 * is entered as often as it is left) built of pairs of jumps that cross over one piece.
 * With three captures each that is at most 6 jumps, so one cycle of 4 or 6 steps (a
 * square or a 1x2 rectangle), and no two of its steps cross.  The ring of the 32x32
 * vector shows that four captures can be one move by two paths. */

/* The length of the longest captures (high 32 bits) and how many paths reach it (low). */
typedef uint64_t Longest;
#define LONGEST_JUMP ((Longest)1 << 32)

static inline Longest longer(Longest a, Longest b)
{
    if ((a ^ b) >> 32)
        return a > b ? a : b;
    return a + (uint32_t)b;
}

/* The longest ways on of a man on at that may take jumpable and land on land (one of no
 * capture when it cannot jump). */
static Longest man_longest(Bitboard at, Bitboard jumpable, Bitboard land)
{
    Longest best = 1;
    for (int dir = 0; dir < 4; dir++) {
        Bitboard victim = intl_step_onto(at, dir, jumpable);
        Bitboard to = intl_step_onto(victim, dir, land);
        if (to)
            best = longer(best, LONGEST_JUMP + man_longest(to, jumpable ^ victim, land));
    }
    return best;
}

/* The longest captures of the men in jumps[] (MEN_SEARCH). */
static Longest men_longest(const Sides *s, const Bitboard jumps[4])
{
    Longest best = 0;
    for (Bitboard men = jumps[0] | jumps[1] | jumps[2] | jumps[3]; men; men &= men - 1) {
        Bitboard from = men & -men;
        best = longer(best, man_longest(from, s->enemy, s->empty | from));
    }
    return best;
}

/* Moves found with no search (quiet moves, single jumps) are handed one by one to
 * visit(ctx, from, to, captured, promotes, man) (man: the moving piece is a man).  The
 * loops that find them are inlined with their visitor: filling a list and making every
 * leaf in perft are the same loops. */
typedef void MoveVisit(void *ctx, int from, int to, Bitboard captured, bool promotes, bool man);

/* The single jumps in jumps[] (SINGLE_JUMPS: there is no other capture), in the search's
 * order (by man, then direction): the list's order is the search's move order. */
ALWAYS_INLINE void visit_single_jumps(const Bitboard jumps[4], Bitboard crown, MoveVisit *visit,
                                      void *ctx)
{
    for (Bitboard men = jumps[0] | jumps[1] | jumps[2] | jumps[3]; men; men &= men - 1) {
        int from = lsb(men);
        for (int dir = 0; dir < 4; dir++)
            if (jumps[dir] & men & -men) {
                int to = from + 2 * intl_step_delta[dir];
                visit(ctx, from, to, square_bb(from + intl_step_delta[dir]), (square_bb(to) & crown) != 0,
                      true);
            }
    }
}

/* MoveVisit that appends a single jump to a list. */
ALWAYS_INLINE void put_single_jump(void *ctx, int from, int to, Bitboard captured, bool promotes,
                                   bool man)
{
    (void)man;
    MoveList *list = ctx;
    int n = list->count++;
    Move *m = &list->moves[n];
    m->captured = captured;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->njumps = 1;
    m->promotes = promotes;
    m->path[0] = (uint8_t)to;
    list->npaths[n] = 1;
}

/* The capture search of every piece that can jump (the men in jumps[], every king) into
 * out.  The path being built is not cleared first: each jump writes its own square. */
static void search_captures(const Position *pos, const Sides *s, const Bitboard jumps[4],
                            CaptureSink out)
{
    CaptureSearch cs;
    cs.out = out;
    cs.jumpable = s->enemy;
    cs.crown = intl_promotion_bb(pos->side);
#ifdef DIAGONAL_CROWN_IN_CAPTURE
    cs.crowned = 0;
#endif
    for (Bitboard men = jumps[0] | jumps[1] | jumps[2] | jumps[3]; men; men &= men - 1) {
        Bitboard from = men & -men;
        cs.land = s->empty | from;
        cs.cur.from = (uint8_t)lsb(from);
        cs.cur.captured = 0;
        man_jumps(&cs, from, 0);
    }
    cs.crown = 0;
    for (Bitboard kings = s->kings; kings; kings &= kings - 1) {
        Bitboard from = kings & -kings;
        cs.land = s->empty | from;
        cs.cur.from = (uint8_t)lsb(from);
        cs.cur.captured = 0;
        king_jumps(&cs, from, 0);
    }
}

bool DIAGONAL_FN(capture_pending)(const Position *pos)
{
    Sides s = sides_of(pos);
    Bitboard jumps[4];
    return find_jumps(&s, jumps) != NO_CAPTURE;
}

/* Quiet moves never overflow the list: as in Turkish, at most 4 quiet moves reach each
 * empty square (one per direction), at most 4 * 50 = 200 in all. */
_Static_assert(4 * INTL_SQUARES <= MAX_MOVES, "a quiet move list must fit in a MoveList");


/* The quiet moves of a position with no capture. */
ALWAYS_INLINE void men_steps(Bitboard men, Bitboard empty, Bitboard crown, int dir,
                             MoveVisit *visit, void *ctx)
{
    for (Bitboard to = intl_step_onto(men, dir, empty); to; to &= to - 1) {
        int t = lsb(to);
        visit(ctx, t - intl_step_delta[dir], t, 0, (to & -to & crown) != 0, true);
    }
}

ALWAYS_INLINE void visit_quiet(int side, const Sides *s, MoveVisit *visit, void *ctx)
{
    if (side == WHITE) {
        men_steps(s->men, s->empty, INTL_ROW_TOP_BB, UP_LEFT, visit, ctx);
        men_steps(s->men, s->empty, INTL_ROW_TOP_BB, UP_RIGHT, visit, ctx);
    } else {
        men_steps(s->men, s->empty, INTL_ROW_BOTTOM_BB, DOWN_LEFT, visit, ctx);
        men_steps(s->men, s->empty, INTL_ROW_BOTTOM_BB, DOWN_RIGHT, visit, ctx);
    }
    for (Bitboard kings = s->kings; kings; kings &= kings - 1) {
        Bitboard king = kings & -kings;
        int from = lsb(king);
        for (int dir = 0; dir < 4; dir++) /* outwards from the king: the search's order */
            for (Bitboard to = intl_step_onto(king, dir, s->empty); to; to = intl_step_onto(to, dir, s->empty))
                visit(ctx, from, lsb(to), 0, false, false);
    }
}

/* MoveVisit that appends a quiet move to a list. */
ALWAYS_INLINE void put_quiet(void *ctx, int from, int to, Bitboard captured, bool promotes, bool man)
{
    (void)captured;
    (void)man;
    MoveList *list = ctx;
    int n = list->count++;
    move_set_quiet(&list->moves[n], from, to, promotes);
    list->npaths[n] = 1;
}

/* The moves of pos into list, its captures already looked for (find_jumps). */
static void generate_found(const Position *pos, const Rules *rules, const Sides *s,
                           const Bitboard jumps[4], enum CaptureKind kind, MoveList *list)
{
    list->count = 0;
    if (kind == NO_CAPTURE)
        visit_quiet(pos->side, s, put_quiet, list);
    else if (kind == SINGLE_JUMPS)
        visit_single_jumps(jumps, intl_promotion_bb(pos->side), put_single_jump, list);
    else
        search_captures(pos, s, jumps,
                        (CaptureSink){ .pos = pos, .variant = &DIAGONAL_VARIANT, .list = list,
                                       .any_length = !DIAGONAL_MAJORITY(rules) });
}

static void generate(const Position *pos, const Rules *rules, MoveList *list)
{
    Sides s = sides_of(pos);
    Bitboard jumps[4];
    generate_found(pos, rules, &s, jumps, find_jumps(&s, jumps), list);
}

void DIAGONAL_FN(generate)(const Position *pos, const Rules *rules, MoveList *list)
{
    generate(pos, rules, list);
}

void DIAGONAL_FN(generate_known)(const Position *pos, const Rules *rules, bool capture, MoveList *list)
{
    if (capture) { /* the kind of capture is still to be found */
        generate(pos, rules, list);
        return;
    }
    Sides s = sides_of(pos);
    list->count = 0;
    visit_quiet(pos->side, &s, put_quiet, list);
}

/* A man steps forward, a king's every move starts with a step: some piece has an empty
 * square next to it in one of its directions. */
bool DIAGONAL_FN(has_quiet_move)(const Position *pos)
{
    Sides s = sides_of(pos);
    Bitboard forward = pos->side == WHITE ? intl_shift(s.men | s.kings, UP_LEFT) | intl_shift(s.men | s.kings, UP_RIGHT)
                                          : intl_shift(s.men | s.kings, DOWN_LEFT) | intl_shift(s.men | s.kings, DOWN_RIGHT);
    Bitboard back = pos->side == WHITE ? intl_shift(s.kings, DOWN_LEFT) | intl_shift(s.kings, DOWN_RIGHT)
                                       : intl_shift(s.kings, UP_LEFT) | intl_shift(s.kings, UP_RIGHT);
    return ((forward | back) & s.empty) != 0;
}

void DIAGONAL_FN(for_each_path)(const Position *pos, const Rules *rules,
                                 void (*visit)(void *ctx, const Move *move), void *ctx)
{
    MoveList list;
    generate(pos, rules, &list);
    if (movelist_visit_quiet(&list, visit, ctx))
        return;
    Sides s = sides_of(pos);
    Bitboard jumps[4];
    find_jumps(&s, jumps);
    search_captures(pos, &s, jumps,
                    (CaptureSink){ .pos = pos, .variant = &DIAGONAL_VARIANT, .visit = visit,
                                   .ctx = ctx, .want = list.moves[0].njumps,
                                   .any_length = !DIAGONAL_MAJORITY(rules) });
}

/* Moves of a position with no capture, counted with popcounts. */
static inline uint64_t count_quiet(int side, const Sides *s)
{
    uint64_t n = side == WHITE
        ? (uint64_t)(popcount(intl_step_onto(s->men, UP_LEFT, s->empty)) + popcount(intl_step_onto(s->men, UP_RIGHT, s->empty)))
        : (uint64_t)(popcount(intl_step_onto(s->men, DOWN_LEFT, s->empty)) + popcount(intl_step_onto(s->men, DOWN_RIGHT, s->empty)));
    if (s->kings)
        for (int dir = 0; dir < 4; dir++)
            n += (uint64_t)popcount(intl_slide(s->kings, s->empty, dir));
    return n;
}

/* The moves (or paths) of pos counted from its list: kings, or men's captures of four
 * pieces or more, where two paths may be one move.  Out of line: the common cases inline
 * better without its list. */
static __attribute__((noinline)) uint64_t count_listed(const Position *pos, const Rules *rules,
                                                       bool count_paths)
{
    MoveList list;
    generate(pos, rules, &list);
    return movelist_total(&list, count_paths);
}

/* The moves of pos (side to move: side), or their paths. */
ALWAYS_INLINE uint64_t count_as(const Position *pos, int side, const Rules *rules, bool count_paths)
{
    Sides s = sides_as(pos, side);
    Bitboard jumps[4];
    enum CaptureKind kind = find_jumps(&s, jumps);
    if (kind < MEN_SEARCH) {
        /* No capture, or single jumps (one path a move): both counted, one chosen, as
         * which it is cannot be guessed. */
        uint64_t jumps_n = (uint64_t)(popcount(jumps[0]) + popcount(jumps[1]) + popcount(jumps[2])
                                      + popcount(jumps[3]));
        uint64_t quiet_n = count_quiet(side, &s);
        return jumps_n ? jumps_n : quiet_n;
    }
    if (kind == MEN_SEARCH && DIAGONAL_MAJORITY(rules)) {
        Longest best = men_longest(&s, jumps);
        if (count_paths || best >> 32 < 4)
            return (uint32_t)best;
    }
    return count_listed(pos, rules, count_paths);
}

uint64_t DIAGONAL_FN(count)(const Position *pos, const Rules *rules, bool count_paths)
{
    return count_as(pos, pos->side, rules, count_paths);
}

/* ---- perft ----
 * Here, not in perft.c, so that the generator, make-move and the last ply's count are
 * inlined into the loop: through the variant's function pointers each leaf paid for a
 * call or two, more than its own work. */

/* The moves of list, each counted as its paths when opt->count_paths. */
ALWAYS_INLINE uint64_t weighted(const MoveList *list, int i, uint64_t n, const PerftOptions *opt)
{
    return opt->count_paths ? n * list->npaths[i] : n;
}

/* MoveVisits of perft's last plies, for the moves found with no search (one path each),
 * one for each side to move so that it is a constant.  make_leaf_of_* (every leaf made):
 * makes the move, looks at the leaf (a board with pieces on it) and counts it.
 * count_child_of_* (bulk): makes the move and counts the child's moves. */
typedef struct PerftVisit {
    const Position *pos;
    const Rules *rules;
    bool count_paths;
    uint64_t weight; /* what a leaf or a counted move adds: its move's paths, or 1 */
    uint64_t nodes;
} PerftVisit;

/* The child after a move found with no search; side: pos->side, a constant. */
ALWAYS_INLINE Position play(const PerftVisit *pv, int side, int from, int to, Bitboard captured,
                            bool promotes, bool man)
{
    Position child;
    movelist_play_known(&child, pv->pos, side, square_bb(from), square_bb(to), captured, promotes, man);
    return child;
}

/* make_leaf's sides: the side to move known as a constant. */
ALWAYS_INLINE void make_leaf_as(void *ctx, int side, int from, int to, Bitboard captured,
                                bool promotes, bool man)
{
    PerftVisit *pv = ctx;
    Position leaf = play(pv, side, from, to, captured, promotes, man);
    pv->nodes += pv->weight * (position_occupied(&leaf) != 0);
}

ALWAYS_INLINE void make_leaf_of_white(void *ctx, int from, int to, Bitboard captured, bool promotes,
                                      bool man)
{
    make_leaf_as(ctx, WHITE, from, to, captured, promotes, man);
}

ALWAYS_INLINE void make_leaf_of_black(void *ctx, int from, int to, Bitboard captured, bool promotes,
                                      bool man)
{
    make_leaf_as(ctx, BLACK, from, to, captured, promotes, man);
}

ALWAYS_INLINE void count_child_of_white(void *ctx, int from, int to, Bitboard captured, bool promotes,
                                        bool man)
{
    PerftVisit *pv = ctx;
    Position child = play(pv, WHITE, from, to, captured, promotes, man);
    pv->nodes += pv->weight * count_as(&child, BLACK, pv->rules, pv->count_paths);
}

ALWAYS_INLINE void count_child_of_black(void *ctx, int from, int to, Bitboard captured, bool promotes,
                                        bool man)
{
    PerftVisit *pv = ctx;
    Position child = play(pv, BLACK, from, to, captured, promotes, man);
    pv->nodes += pv->weight * count_as(&child, WHITE, pv->rules, pv->count_paths);
}

/* The last plies' moves found with no search, each handed to visit as it is found: no list
 * is written and read back. */
ALWAYS_INLINE void visit_found(const Position *pos, const Sides *s, const Bitboard jumps[4],
                               enum CaptureKind kind, MoveVisit *visit, PerftVisit *pv)
{
    if (kind == NO_CAPTURE)
        visit_quiet(pos->side, s, visit, pv);
    else
        visit_single_jumps(jumps, intl_promotion_bb(pos->side), visit, pv);
}

/* The last plies: the moves found with no search made by a visitor as they are found, the
 * others from the list (each weighs its paths when they are counted).  Two visitors, one a
 * side to move, called by name: a function chosen at run time would not inline. */
ALWAYS_INLINE uint64_t perft_last(const Position *pos, const Rules *rules, const PerftOptions *opt,
                                  MoveVisit *of_white, MoveVisit *of_black)
{
    Sides s = sides_of(pos);
    Bitboard jumps[4];
    enum CaptureKind kind = find_jumps(&s, jumps);
    bool white = pos->side == WHITE;
    PerftVisit pv = { pos, rules, opt->count_paths, 1, 0 };
    if (kind < MEN_SEARCH) {
        if (white)
            visit_found(pos, &s, jumps, kind, of_white, &pv);
        else
            visit_found(pos, &s, jumps, kind, of_black, &pv);
        return pv.nodes;
    }
    MoveList list;
    generate_found(pos, rules, &s, jumps, kind, &list);
    for (int i = 0; i < list.count; i++) {
        const Move *m = &list.moves[i];
        bool man = ((s.men & square_bb(m->from)) != 0);
        pv.weight = opt->count_paths ? list.npaths[i] : 1;
        if (white)
            of_white(&pv, m->from, m->to, m->captured, m->promotes, man);
        else
            of_black(&pv, m->from, m->to, m->captured, m->promotes, man);
    }
    return pv.nodes;
}

/* Depth 1, every leaf made. */
static uint64_t perft_leaves(const Position *pos, const Rules *rules, const PerftOptions *opt)
{
    return perft_last(pos, rules, opt, make_leaf_of_white, make_leaf_of_black);
}

/* Depth 2, the last ply counted. */
static uint64_t perft_counted(const Position *pos, const Rules *rules, const PerftOptions *opt)
{
    return perft_last(pos, rules, opt, count_child_of_white, count_child_of_black);
}

static uint64_t perft_below(const Position *pos, const Rules *rules, int depth,
                            const PerftOptions *opt)
{
    if (depth == 1)
        return perft_leaves(pos, rules, opt);
    if (depth == 2 && opt->bulk)
        return perft_counted(pos, rules, opt);
    MoveList list;
    generate(pos, rules, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        Position child;
        movelist_play(&child, pos, &list.moves[i]);
        nodes += weighted(&list, i, perft_below(&child, rules, depth - 1, opt), opt);
    }
    return nodes;
}

uint64_t DIAGONAL_FN(perft)(const Position *pos, const Rules *rules, int depth,
                             const PerftOptions *opt)
{
    if (depth <= 0)
        return 1;
    if (depth == 1 && opt->bulk)
        return DIAGONAL_FN(count)(pos, rules, opt->count_paths);
    return perft_below(pos, rules, depth, opt);
}
