/* Legal move generation for Turkish draughts (rules/turkish.md in docs).
 *
 * Captures are found by a depth-first search per piece that removes each captured piece at
 * once (Turkish rule), forbids a king's 180-degree turn between two jumps, and keeps only the
 * sequences of maximum length over all pieces.  Paths with the same (from, to, captured) are
 * merged into one move that remembers how many paths reach it. */
#include "movelist.h"
#include "perft.h"
#include "turkish.h"
#include "turkish_board.h"
#include "position.h"
#include "variant.h"

/* State of one capture search.  occ holds every piece except the moving one and those
 * already captured, so captured squares and the start square can be crossed again. */
typedef struct CaptureSearch {
    int promotion;     /* enum Promotion of the rules in force */
    Bitboard occ, enemy;
    int color;
    bool man;          /* the moving piece started as a man */
    bool crowned;      /* promotion=king: the man became a king during this capture */
    Move cur;          /* the path being built */
    CaptureSink out;   /* where complete sequences go, unless count_paths */
    bool count_paths;  /* only count the longest sequences (perft's last ply): no list */
    int best;          /* count_paths: the most captures of a sequence so far ... */
    uint64_t paths;    /* ... and how many sequences take that many */
} CaptureSearch;

static void record(CaptureSearch *cs, int to, int depth)
{
    Move *m = &cs->cur;
    m->to = (uint8_t)to;
    m->njumps = (uint8_t)depth;
    m->promotes = cs->man && (cs->crowned || (square_bb(to) & promotion_rank_bb(cs->color)));
    if (cs->count_paths) {
        if (depth > cs->best) {
            cs->best = depth;
            cs->paths = 0;
        }
        cs->paths += depth == cs->best;
        return;
    }
    capture_sink_take(&cs->out, m);
}

static void king_jumps(CaptureSearch *cs, int sq, int lastdir, int depth);

/* Whether a king on sq has a jump in dir: the nearest piece on the line is an enemy and
 * the square just beyond it is empty. */
static inline __attribute__((always_inline)) bool king_has_jump(const CaptureSearch *cs, int sq, int dir)
{
    Bitboard blockers = ray(sq, dir) & cs->occ;
    if (!blockers)
        return false;
    Bitboard victim = square_bb(nearest(blockers, dir));
    return (cs->enemy & victim) && (shift(victim, dir) & ~cs->occ);
}

/* Whether a king that landed on sq after a jump in lastdir can jump again (never back). */
static inline __attribute__((always_inline)) bool king_jumps_on(const CaptureSearch *cs, int sq, int lastdir)
{
    return (lastdir != SOUTH && king_has_jump(cs, sq, NORTH)) || (lastdir != WEST && king_has_jump(cs, sq, EAST))
        || (lastdir != NORTH && king_has_jump(cs, sq, SOUTH)) || (lastdir != EAST && king_has_jump(cs, sq, WEST));
}

/* The king's jumps from sq in one direction: the nearest piece on the line must be an
 * enemy with at least one empty square beyond it; each such square is a landing, outward
 * from the victim.  True when there was a jump. */
static inline __attribute__((always_inline)) bool king_jumps_toward(CaptureSearch *cs, int sq,
                                                                    int dir, int depth)
{
    Bitboard blockers = ray(sq, dir) & cs->occ;
    if (!blockers)
        return false;
    int v = nearest(blockers, dir);
    Bitboard victim = square_bb(v);
    if (!(cs->enemy & victim))
        return false;
    Bitboard beyond = ray(v, dir);
    Bitboard landings = ray_until(beyond, beyond & cs->occ, dir);
    if (!landings)
        return false;
    cs->occ ^= victim;
    cs->enemy ^= victim;
    cs->cur.captured |= victim;
    do {
        int t = pop_nearest(&landings, dir);
        cs->cur.path[depth] = (uint8_t)t;
        /* Tested here, first by the lines alone: most landings end the move, no call. */
        Bitboard across = dir == NORTH || dir == SOUTH ? RANK_1_BB << (t & 56) : FILE_A_BB << (t & 7);
        if ((cs->enemy & (across | ray(t, dir))) && king_jumps_on(cs, t, dir))
            king_jumps(cs, t, dir, depth + 1);
        else
            record(cs, t, depth + 1);
    } while (landings);
    cs->occ ^= victim;
    cs->enemy ^= victim;
    cs->cur.captured ^= victim;
    return true;
}

/* lastdir: the direction of the jump that landed on sq, or -1 before the first; its
 * opposite is never taken (no 180-degree turn between two jumps). */
static void king_jumps(CaptureSearch *cs, int sq, int lastdir, int depth)
{
    bool jumped = false;
    if (lastdir != SOUTH)
        jumped |= king_jumps_toward(cs, sq, NORTH, depth);
    if (lastdir != WEST)
        jumped |= king_jumps_toward(cs, sq, EAST, depth);
    if (lastdir != NORTH)
        jumped |= king_jumps_toward(cs, sq, SOUTH, depth);
    if (lastdir != EAST)
        jumped |= king_jumps_toward(cs, sq, WEST, depth);
    if (!jumped && depth > 0)
        record(cs, sq, depth);
}

static void man_jumps(CaptureSearch *cs, int sq, int depth)
{
    static const int side_dirs[2] = { EAST, WEST };
    bool jumped = false;
    for (int i = 0; i < 3; i++) {
        int dir = i < 2 ? side_dirs[i] : forward_dir(cs->color);
        int v = step(sq, dir);
        if (v < 0 || !(cs->enemy & square_bb(v)))
            continue;
        int t = step(v, dir);
        if (t < 0 || (cs->occ & square_bb(t)))
            continue;
        Bitboard victim = square_bb(v);
        cs->occ ^= victim;
        cs->enemy ^= victim;
        cs->cur.captured |= victim;
        cs->cur.path[depth] = (uint8_t)t;
        jumped = true;
        bool crowning = square_bb(t) & promotion_rank_bb(cs->color);
        if (crowning && cs->promotion == PROMOTE_STOP) {
            record(cs, t, depth + 1);
        } else if (crowning && cs->promotion == PROMOTE_KING) {
            cs->crowned = true;
            king_jumps(cs, t, dir, depth + 1);
            cs->crowned = false;
        } else {
            /* official rule: on the last rank it goes on as a man (sideways only) */
            man_jumps(cs, t, depth + 1);
        }
        cs->occ ^= victim;
        cs->enemy ^= victim;
        cs->cur.captured ^= victim;
    }
    if (!jumped && depth > 0)
        record(cs, sq, depth);
}

/* Men that have a jump right now: an enemy beside them (forward or sideways) and an empty
 * square beyond.  Only these start a capture search. */
static inline Bitboard men_that_jump(Bitboard men, Bitboard enemy, Bitboard empty, int color)
{
    int dirs[3] = { forward_dir(color), EAST, WEST };
    Bitboard jumpers = 0;
    for (int i = 0; i < 3; i++) {
        int back = opposite(dirs[i]);
        jumpers |= shift(shift(empty, back) & enemy, back) & men;
    }
    return jumpers;
}

/* Runs the capture search from every piece of the side to move that can capture. */
static void search_captures(const Position *pos, CaptureSearch *cs)
{
    int us = pos->side;
    Bitboard all = position_occupied(pos);
    cs->enemy = pos->men[!us] | pos->kings[!us];
    cs->color = us;
    cs->crowned = false;
    for (int k = 0; k < 2; k++) {
        Bitboard pieces = k == 0 ? men_that_jump(pos->men[us], cs->enemy, ~all, us) : pos->kings[us];
        cs->man = k == 0;
        while (pieces) {
            int from = pop_lsb(&pieces);
            cs->occ = all ^ square_bb(from);
            cs->cur.from = (uint8_t)from;
            cs->cur.captured = 0;
            if (cs->man)
                man_jumps(cs, from, 0);
            else
                king_jumps(cs, from, -1, 0);
        }
    }
}

bool turkish_capture_pending(const Position *pos)
{
    int us = pos->side;
    Bitboard empty = ~position_occupied(pos);
    Bitboard enemy = pos->men[!us] | pos->kings[!us];
    Bitboard men = pos->men[us], kings = pos->kings[us];
    if (men_that_jump(men, enemy, empty, us))
        return true;
    if (kings) {
        for (int dir = 0; dir < 4; dir++) {
            Bitboard reach = kings | slide(kings, empty, dir);
            if (shift(shift(reach, dir) & enemy, dir) & empty)
                return true;
        }
    }
    return false;
}

/* Quiet moves never overflow the list: a quiet move is (from, to, direction), and for a given
 * empty square and direction the mover is the nearest piece behind it, so there are at most
 * 4 per empty square: 4 * (64 - n) for n pieces of the side to move.  A king has at most 14
 * moves and a man 3, so at most 14 * n.  min(14n, 4(64 - n)) is largest at n = 14 or 15:
 * 196, whatever the other side has. */
#define MAX_QUIET_MOVES 196
_Static_assert(MAX_QUIET_MOVES <= MAX_MOVES, "a quiet move list must fit in a MoveList");

static inline void generate_quiet(const Position *pos, MoveList *list)
{
    int us = pos->side;
    Bitboard empty = ~position_occupied(pos);
    static const int delta[4] = { 8, 1, -8, -1 };
    int dirs[3] = { forward_dir(us), EAST, WEST };
    for (int i = 0; i < 3; i++) {
        Bitboard to = shift(pos->men[us], dirs[i]) & empty;
        while (to) {
            int t = pop_lsb(&to);
            movelist_add_quiet(list, t - delta[dirs[i]], t, square_bb(t) & promotion_rank_bb(us));
        }
    }
    Bitboard kings = pos->kings[us], occ = ~empty;
    while (kings) {
        int from = pop_lsb(&kings);
        for (int dir = 0; dir < 4; dir++) {
            Bitboard r = ray(from, dir);
            for (Bitboard to = ray_until(r, r & occ, dir); to;)
                movelist_add_quiet(list, from, pop_nearest(&to, dir), false);
        }
    }
}

/* turkish_generate, inlined into perft. */
static inline void generate(const Position *pos, const Rules *rules, MoveList *list)
{
    list->count = 0;
    if (turkish_capture_pending(pos)) {
        CaptureSearch cs = { .promotion = turkish_rules(rules).promotion,
                             .out = { .pos = pos, .variant = &turkish_variant, .list = list } };
        search_captures(pos, &cs);
    } else {
        generate_quiet(pos, list);
    }
}

void turkish_generate(const Position *pos, const Rules *rules, MoveList *list) { generate(pos, rules, list); }

void turkish_generate_known(const Position *pos, const Rules *rules, bool capture, MoveList *list)
{
    list->count = 0;
    if (capture) {
        CaptureSearch cs = { .promotion = turkish_rules(rules).promotion,
                             .out = { .pos = pos, .variant = &turkish_variant, .list = list } };
        search_captures(pos, &cs);
    } else {
        generate_quiet(pos, list);
    }
}

/* A man steps forward or sideways, a king's every move starts with a step: some piece has
 * an empty square next to it in one of its directions. */
bool turkish_has_quiet_move(const Position *pos)
{
    int us = pos->side;
    Bitboard men = pos->men[us], kings = pos->kings[us], pieces = men | kings;
    Bitboard steps = shift(pieces, forward_dir(us)) | shift(kings, opposite(forward_dir(us)))
                   | shift(pieces, EAST) | shift(pieces, WEST);
    return (steps & ~position_occupied(pos)) != 0;
}

void turkish_for_each_path(const Position *pos, const Rules *rules,
                           void (*visit)(void *ctx, const Move *move), void *ctx)
{
    MoveList list;
    turkish_generate(pos, rules, &list);
    if (movelist_visit_quiet(&list, visit, ctx))
        return;
    CaptureSearch cs = { .promotion = turkish_rules(rules).promotion,
                         .out = { .pos = pos, .variant = &turkish_variant, .visit = visit, .ctx = ctx,
                                  .want = list.moves[0].njumps } };
    search_captures(pos, &cs);
}

/* quiet_count's answer for a side that has a capture, whose moves it does not count. */
#define HAS_CAPTURE UINT64_MAX

/* The quiet moves of the side of color (its men and kings; its enemy's pieces; the empty
 * squares), counted with popcounts, no list: or HAS_CAPTURE.  The parts come as values so
 * that perft's last ply keeps a child in registers: a child stored whole and read back
 * field by field made each read wait for the store. */
static inline uint64_t quiet_count(int color, Bitboard men, Bitboard kings, Bitboard enemy, Bitboard empty)
{
    if (men_that_jump(men, enemy, empty, color))
        return HAS_CAPTURE;
    uint64_t n = (uint64_t)popcount(shift(men, forward_dir(color)) & empty)
               + (uint64_t)popcount(shift(men, EAST) & empty)
               + (uint64_t)popcount(shift(men, WEST) & empty);
    while (kings) {
        int k = pop_lsb(&kings);
        Bitboard reach = 0; /* a king's four lines never share a square: one popcount */
        for (int dir = 0; dir < 4; dir++) {
            Bitboard r = ray(k, dir), blockers = r & ~empty;
            reach |= ray_until(r, blockers, dir);
            if (blockers) {
                Bitboard victim = square_bb(nearest(blockers, dir));
                if ((enemy & victim) && (shift(victim, dir) & empty))
                    return HAS_CAPTURE;
            }
        }
        n += (uint64_t)popcount(reach);
    }
    return n;
}

/* The moves of a position with a capture: the longest paths counted without a list, or the
 * moves they make merged in one. */
static uint64_t count_captures(const Position *pos, const Rules *rules, bool count_paths)
{
    if (count_paths) {
        CaptureSearch cs = { .promotion = turkish_rules(rules).promotion, .count_paths = true };
        search_captures(pos, &cs);
        return cs.paths;
    }
    MoveList list;
    generate(pos, rules, &list);
    return (uint64_t)list.count;
}

static inline uint64_t count(const Position *pos, const Rules *rules, bool count_paths)
{
    int us = pos->side;
    uint64_t n = quiet_count(us, pos->men[us], pos->kings[us], position_pieces(pos, !us),
                             ~position_occupied(pos));
    return n != HAS_CAPTURE ? n : count_captures(pos, rules, count_paths);
}

uint64_t turkish_count(const Position *pos, const Rules *rules, bool count_paths)
{
    return count(pos, rules, count_paths);
}

/* ---- perft ----
 * Here, not in perft.c, so that the generator, make-move and the last ply's count are
 * inlined into the loop rather than called through the variant's function pointers. */

/* The child after a quiet move of the side to move: a man's step (crowned on the last
 * rank) or a king's slide. */
static inline Position play_quiet(const Position *pos, Bitboard from, Bitboard to, bool man)
{
    Position child;
    bool promotes = man && (to & promotion_rank_bb(pos->side));
    movelist_play_known(&child, pos, pos->side, from, to, 0, promotes, man);
    return child;
}

/* The parts of pos that quiet_count reads for the reply to a quiet move, before the move
 * (which only toggles two squares of enemy and empty). */
typedef struct Reply {
    int side;
    Bitboard men, kings, enemy, empty;
} Reply;

/* count of the child after a quiet move from reply's parts, kept in registers: read from
 * pos at each move, they would be read again after every call the compiler cannot see
 * through. */
static inline uint64_t count_after_quiet(const Position *pos, Reply reply, const Rules *rules, bool count_paths,
                                         Bitboard from, Bitboard to, bool man)
{
    Bitboard moved = from | to;
    uint64_t n = quiet_count(reply.side, reply.men, reply.kings, reply.enemy ^ moved, reply.empty ^ moved);
    if (n != HAS_CAPTURE)
        return n;
    Position child = play_quiet(pos, from, to, man);
    return count_captures(&child, rules, count_paths);
}

/* Depth 2 with the last ply counted: the quiet moves are made as they are found, with no
 * list written and read back. */
static uint64_t perft_counted(const Position *pos, const Rules *rules, bool count_paths)
{
    uint64_t nodes = 0;
    if (turkish_capture_pending(pos)) {
        MoveList list;
        generate(pos, rules, &list);
        for (int i = 0; i < list.count; i++) {
            Position child;
            movelist_play(&child, pos, &list.moves[i]);
            uint64_t n = count(&child, rules, count_paths);
            nodes += count_paths ? n * list.npaths[i] : n;
        }
        return nodes;
    }
    int us = pos->side;
    Bitboard empty = ~position_occupied(pos), men = pos->men[us], kings = pos->kings[us];
    Reply reply = { !us, pos->men[!us], pos->kings[!us], men | kings, empty };
    static const int delta[4] = { 8, 1, -8, -1 };
    int dirs[3] = { forward_dir(us), EAST, WEST };
    for (int i = 0; i < 3; i++) {
        for (Bitboard to = shift(men, dirs[i]) & empty; to;) {
            int t = pop_lsb(&to);
            nodes += count_after_quiet(pos, reply, rules, count_paths, square_bb(t - delta[dirs[i]]),
                                       square_bb(t), true);
        }
    }
    while (kings) {
        int from = pop_lsb(&kings);
        for (int dir = 0; dir < 4; dir++) {
            Bitboard r = ray(from, dir);
            for (Bitboard to = ray_until(r, r & ~empty, dir); to;)
                nodes += count_after_quiet(pos, reply, rules, count_paths, square_bb(from),
                                           square_bb(pop_lsb(&to)), false);
        }
    }
    return nodes;
}

static uint64_t perft_below(const Position *pos, const Rules *rules, int depth, const PerftOptions *opt)
{
    if (depth == 2 && opt->bulk)
        return perft_counted(pos, rules, opt->count_paths);
    MoveList list;
    generate(pos, rules, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        Position child;
        movelist_play(&child, pos, &list.moves[i]);
        uint64_t n;
        if (depth == 1) /* a leaf is made, and looked at so that making it is not skipped */
            n = position_occupied(&child) != 0;
        else
            n = perft_below(&child, rules, depth - 1, opt);
        nodes += opt->count_paths ? n * list.npaths[i] : n;
    }
    return nodes;
}

uint64_t turkish_perft(const Position *pos, const Rules *rules, int depth, const PerftOptions *opt)
{
    if (depth <= 0)
        return 1;
    if (depth == 1 && opt->bulk)
        return count(pos, rules, opt->count_paths);
    return perft_below(pos, rules, depth, opt);
}
