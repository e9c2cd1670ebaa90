/* find_tactics: searches random Turkish draughts positions for tactics with one clearly best
 * move, proved by an exhaustive material minimax that shares nothing with the engine's search
 * (only the legal-move interface turkish_variant.generate / make).  Not built by make; build
 * it by hand from the project root after `make`:
 *
 *   cc -std=c11 -D_DEFAULT_SOURCE -O2 -Iengine -o /tmp/find_tactics tests/tools/find_tactics.c \
 *      build/opt/engine/[a-z]*.o -lm -fopenmp
 *
 * Usage:
 *   find_tactics gen SEED COUNT [DEPTH]   random positions (random games from the start and
 *                                         random placements) with one winning move; prints a
 *                                         tactics-file line per find (engine not consulted)
 *   find_tactics check FEN [DEPTH]        the value of every legal move at DEPTH and the line
 *   find_tactics mate FEN [MAXDEPTH]      shortest forced win (plies) of the side to move
 *   find_tactics file PATH                re-verifies every line of a tactics file
 *
 * The minimax: score = material of the side to move (man 1, king 3) minus the opponent's, at a
 * fixed depth in plies; a position whose side to move must capture is never a leaf (captures
 * are forced, so they are read to the end); no legal move = loss, scored -(WIN - ply); one
 * piece each = draw (0), as in the default rules.  Alpha-beta without move ordering gives the
 * same value as plain minimax (mm_plain is kept to cross-check that).  A line is kept when,
 * at DEPTH, DEPTH+1 and DEPTH+2, the same move scores at least one man more than every other
 * move, it wins material against the present count, and no other move does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "move.h"
#include "notation.h"
#include "position.h"
#include "variant.h"

#define MM_WIN 1000
#define MM_INF 10000

static const Variant *V = &turkish_variant;
static Rules R;
static unsigned long long mm_nodes;

static int material(const Position *p)
{
    int us = p->side, them = !us;
    return popcount(p->men[us]) + 3 * popcount(p->kings[us]) - popcount(p->men[them])
           - 3 * popcount(p->kings[them]);
}

static int one_each(const Position *p)
{
    return popcount(position_pieces(p, WHITE)) == 1 && popcount(position_pieces(p, BLACK)) == 1;
}

/* Exact minimax value by alpha-beta (no ordering, no table, no reductions). */
static int mm(const Position *p, int depth, int ply, int alpha, int beta)
{
    mm_nodes++;
    MoveList list;
    V->generate(p, &R, &list);
    if (list.count == 0)
        return -(MM_WIN - ply);
    if (one_each(p))
        return 0;
    if (depth <= 0 && list.moves[0].captured == 0)
        return material(p);
    int best = -MM_INF;
    for (int i = 0; i < list.count; i++) {
        Position c = *p;
        V->make(&c, &list.moves[i]);
        int v = -mm(&c, depth - 1, ply + 1, -beta, -alpha);
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* The same value by plain minimax. */
static int mm_plain(const Position *p, int depth, int ply)
{
    mm_nodes++;
    MoveList list;
    V->generate(p, &R, &list);
    if (list.count == 0)
        return -(MM_WIN - ply);
    if (one_each(p))
        return 0;
    if (depth <= 0 && list.moves[0].captured == 0)
        return material(p);
    int best = -MM_INF;
    for (int i = 0; i < list.count; i++) {
        Position c = *p;
        V->make(&c, &list.moves[i]);
        int v = -mm_plain(&c, depth - 1, ply + 1);
        if (v > best)
            best = v;
    }
    return best;
}

/* Exact value of every root move. */
static void root_values(const Position *p, int depth, MoveList *list, int *val)
{
    V->generate(p, &R, list);
    for (int i = 0; i < list->count; i++) {
        Position c = *p;
        V->make(&c, &list->moves[i]);
        val[i] = -mm(&c, depth - 1, 1, -MM_INF, MM_INF);
    }
}

/* Index of the unique best move with margin >= 1 that wins material while no other does,
 * or -1. */
static int clear_best(const Position *p, int depth, int *best_val, int *second_val)
{
    MoveList list;
    int val[MAX_MOVES];
    root_values(p, depth, &list, val);
    int best = -1;
    for (int i = 0; i < list.count; i++)
        if (best < 0 || val[i] > val[best])
            best = i;
    int second = -MM_INF;
    for (int i = 0; i < list.count; i++)
        if (i != best && val[i] > second)
            second = val[i];
    int now = material(p);
    *best_val = val[best];
    *second_val = second;
    if (val[best] < second + 1 || val[best] < now + 1 || second > now)
        return -1;
    return best;
}

/* The principal line at depth, one move at a time. */
static int principal_line(const Position *p, int depth, Move *line, int max)
{
    Position pos = *p;
    int n = 0;
    for (int d = depth; n < max; d--) {
        MoveList list;
        V->generate(&pos, &R, &list);
        if (list.count == 0 || one_each(&pos) || (d <= 0 && list.moves[0].captured == 0))
            break;
        int best = -MM_INF, bi = 0;
        for (int i = 0; i < list.count; i++) {
            Position c = pos;
            V->make(&c, &list.moves[i]);
            int v = -mm(&c, d - 1, n + 1, -MM_INF, MM_INF);
            if (v > best) {
                best = v;
                bi = i;
            }
        }
        line[n++] = list.moves[bi];
        V->make(&pos, &list.moves[bi]);
    }
    return n;
}

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static Bitboard drop(Bitboard *occ, Bitboard allowed, int n)
{
    Bitboard set = 0;
    while (n > 0 && (allowed & ~*occ)) {
        Bitboard sq = square_bb((int)(rnd() & 63));
        if (sq & allowed & ~*occ) {
            set |= sq;
            *occ |= sq;
            n--;
        }
    }
    return set;
}

static void random_placement(Position *p)
{
    Bitboard occ = 0;
    memset(p, 0, sizeof *p);
    p->men[WHITE] = drop(&occ, ~(RANK_1_BB | RANK_8_BB), 2 + (int)(rnd() % 7));
    p->men[BLACK] = drop(&occ, ~(RANK_1_BB | RANK_8_BB), 2 + (int)(rnd() % 7));
    if (rnd() % 2)
        p->kings[WHITE] = drop(&occ, ~0ULL, 1 + (int)(rnd() % 2));
    if (rnd() % 2)
        p->kings[BLACK] = drop(&occ, ~0ULL, 1 + (int)(rnd() % 2));
    p->side = (int)(rnd() & 1);
}

static bool random_game(Position *p)
{
    V->start(p);
    int plies = 14 + (int)(rnd() % 60);
    for (int i = 0; i < plies; i++) {
        MoveList list;
        V->generate(p, &R, &list);
        if (list.count == 0)
            return false;
        V->make(p, &list.moves[rnd() % (uint64_t)list.count]);
    }
    return true;
}

/* A first guess at the theme from the principal line (the file's themes are checked by hand):
 * "blockade" a win with the loser's pieces still on the board, "wipeout" a win by taking
 * everything, "shot" a quiet move answered by a forced capture and a bigger one back,
 * "promotion" a line in which the side to move crowns a man, else "material". */
static const char *theme_of(const Position *p, const Move *line, int n, int value)
{
    Position q = *p;
    bool promotes = false;
    for (int i = 0; i < n; i++) {
        if (i % 2 == 0 && line[i].promotes)
            promotes = true;
        V->make(&q, &line[i]);
    }
    if (value > MM_WIN - 100)
        return position_pieces(&q, q.side) ? "blockade" : "wipeout";
    if (n >= 3 && line[0].captured == 0 && line[1].captured
        && popcount(line[2].captured) > popcount(line[1].captured))
        return "shot";
    return promotes ? "promotion" : "material";
}

static void print_line(const Position *p, int depth, int best_val, int second_val, int bi,
                       const char *source)
{
    char fen[256], mv[128];
    MoveList list;
    V->generate(p, &R, &list);
    Move line[32];
    int n = principal_line(p, depth, line, 32);
    position_to_fen(p, V, fen, sizeof fen);
    move_to_text(V, &list.moves[bi], mv, sizeof mv);
    printf("%s ; %s ; %s ; proof=%d ; %s value %+d next %+d now %+d pieces %d moves %d pv",
           fen, mv, theme_of(p, line, n, best_val), depth, source, best_val, second_val,
           material(p), popcount(position_occupied(p)), list.count);
    Position q = *p;
    for (int i = 0; i < n; i++) {
        printf(" %s", move_to_text(V, &line[i], mv, sizeof mv));
        V->make(&q, &line[i]);
    }
    printf("\n");
    fflush(stdout);
}

static int gen(uint64_t seed, int count, int depth)
{
    rng_state ^= seed * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < count; i++) {
        Position p;
        if (i % 2) {
            if (!random_game(&p))
                continue;
        } else {
            random_placement(&p);
        }
        MoveList list;
        V->generate(&p, &R, &list);
        if (list.count < 3 || list.moves[0].captured || one_each(&p)
            || popcount(position_occupied(&p)) > 22)
            continue;
        int bv, sv, bi = clear_best(&p, depth, &bv, &sv);
        if (bi < 0)
            continue;
        bool stable = true;
        for (int d = depth + 1; d <= depth + 2 && stable; d++) {
            int bv2, sv2;
            stable = clear_best(&p, d, &bv2, &sv2) == bi;
        }
        if (stable)
            print_line(&p, depth, bv, sv, bi, i % 2 ? "game" : "placed");
    }
    return 0;
}

static int check(const char *fen, int depth)
{
    Position p;
    char err[256], mv[128];
    if (!position_from_fen(&p, V, fen, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    MoveList list;
    int val[MAX_MOVES];
    mm_nodes = 0;
    root_values(&p, depth, &list, val);
    printf("now %+d, nodes %llu\n", material(&p), mm_nodes);
    for (int i = 0; i < list.count; i++)
        printf("  %-20s %+d\n", move_to_text(V, &list.moves[i], mv, sizeof mv), val[i]);
    Move line[32];
    int n = principal_line(&p, depth, line, 32);
    printf("line:");
    for (int i = 0; i < n; i++)
        printf(" %s", move_to_text(V, &line[i], mv, sizeof mv));
    printf("\n");
    if (depth <= 5) {
        int a = mm(&p, depth, 0, -MM_INF, MM_INF), b = mm_plain(&p, depth, 0);
        printf("alpha-beta %d plain %d\n", a, b);
    }
    return 0;
}

static int mate(const char *fen, int maxdepth)
{
    Position p;
    char err[256];
    if (!position_from_fen(&p, V, fen, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    for (int d = 1; d <= maxdepth; d++) {
        int v = mm(&p, d, 0, -MM_INF, MM_INF);
        if (v > MM_WIN - 100) {
            printf("win in %d plies (depth %d)\n", MM_WIN - v, d);
            return 0;
        }
        if (v < -(MM_WIN - 100)) {
            printf("loss in %d plies (depth %d)\n", MM_WIN + v, d);
            return 0;
        }
    }
    printf("no forced result within %d\n", maxdepth);
    return 0;
}

static int file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    char line[1024];
    int bad = 0, n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *fen = strtok(line, ";"), *best = strtok(NULL, ";"), *theme = strtok(NULL, ";"),
             *depths = strtok(NULL, ";");
        if (!fen || !best || !theme || !depths)
            continue;
        while (*best == ' ')
            best++;
        best[strcspn(best, " ")] = '\0';
        int d = 0;
        sscanf(strstr(depths, "proof=") ? strstr(depths, "proof=") + 6 : "0", "%d", &d);
        Position p;
        char err[256];
        Move m;
        if (!position_from_fen(&p, V, fen, err, sizeof err)
            || !move_from_text(V, &p, &R, best, &m, err, sizeof err)) {
            printf("BAD %s: %s\n", fen, err);
            bad++;
            continue;
        }
        int bv, sv, bi = clear_best(&p, d, &bv, &sv);
        MoveList list;
        V->generate(&p, &R, &list);
        n++;
        if (bi < 0 || !move_same(&list.moves[bi], &m)) {
            printf("FAIL %s ; %s (best %+d next %+d)\n", fen, best, bv, sv);
            bad++;
        }
    }
    fclose(f);
    printf("%d lines, %d bad\n", n, bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    R = rules_default();
    if (argc >= 4 && strcmp(argv[1], "gen") == 0)
        return gen(strtoull(argv[2], NULL, 10), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 5);
    if (argc >= 3 && strcmp(argv[1], "check") == 0)
        return check(argv[2], argc > 3 ? atoi(argv[3]) : 5);
    if (argc >= 3 && strcmp(argv[1], "mate") == 0)
        return mate(argv[2], argc > 3 ? atoi(argv[3]) : 12);
    if (argc >= 3 && strcmp(argv[1], "file") == 0)
        return file(argv[2]);
    fprintf(stderr, "usage: find_tactics gen SEED COUNT [DEPTH] | check FEN [DEPTH] | "
                    "mate FEN [MAXDEPTH] | file PATH\n");
    return 2;
}
