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
 *   find_tactics race SEED COUNT [DEPTH]  as gen, from men-only promotion races
 *   find_tactics end SEED COUNT [DEPTH]   small endgames that exactly one move wins outright
 *                                         (the opponent left without a move) within DEPTH,
 *                                         and no other move within DEPTH + 2
 *   find_tactics block SEED COUNT [DEPTH] the same from a corner skeleton made for blockades;
 *                                         with ONLY_BLOCKADE set in the environment, only wins
 *                                         that end with the loser's pieces blocked, not taken
 *   find_tactics stable FEN MOVE DMIN DMAX whether MOVE stays the clear best (or the only
 *                                         winning move) at every depth DMIN..DMAX
 *   find_tactics check FEN [DEPTH]        the value of every legal move at DEPTH and the line
 *   find_tactics mate FEN [MAXDEPTH]      shortest forced win (plies) of the side to move
 *   find_tactics file PATH                re-verifies every line of a tactics file
 *
 * The minimax: score = material of the side to move (man 1, king 3) minus the opponent's, at a
 * fixed depth in plies; a position whose side to move must capture is never a leaf (captures
 * are forced, so they are read to the end); no legal move = loss, scored -(WIN - ply); one
 * piece each = draw (0), as in the default rules.  Alpha-beta without move ordering gives the
 * same value as plain minimax (mm_plain is kept to cross-check that).  gen and race keep a
 * position when, at DEPTH, DEPTH+1 and DEPTH+2, the same move scores at least one man more
 * than every other move, it wins material against the present count, and no other move does;
 * end and block keep one when exactly one move forces a win within DEPTH and DEPTH + 2.
 * `stable` and `file` apply the rule of tests/test_search.c (clearly_best below). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "move.h"
#include "notation.h"
#include "position.h"
#include "variant.h"
#include "../material_minimax.h"

static const Variant *V = &turkish_variant;
static Rules R;

static void root_values(const Position *p, int depth, MoveList *list, int *val)
{
    V->generate(p, &R, list);
    for (int i = 0; i < list->count; i++) {
        Position c = *p;
        V->make(&c, &list->moves[i]);
        val[i] = -mm(&R, &c, depth - 1, 1, -MM_INF, MM_INF);
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
            int v = -mm(&R, &c, d - 1, n + 1, -MM_INF, MM_INF);
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
    int promo = -1;
    for (int i = 0; i < n; i++) {
        printf(" %s", move_to_text(V, &line[i], mv, sizeof mv));
        if (promo < 0 && i % 2 == 0 && line[i].promotes)
            promo = i;
    }
    printf(" promo@%d\n", promo);
    fflush(stdout);
}

/* Promotion races: men only, 1-3 a side, all of them past the middle (White's on ranks 5-7,
 * Black's on ranks 2-4), sometimes one defender of each colour behind. */
static void random_race(Position *p)
{
    Bitboard occ = 0;
    memset(p, 0, sizeof *p);
    p->men[WHITE] = drop(&occ, 0x00FFFFFF00000000ULL, 1 + (int)(rnd() % 3));
    p->men[BLACK] = drop(&occ, 0x00000000FFFFFF00ULL, 1 + (int)(rnd() % 3));
    if (rnd() % 2)
        p->men[WHITE] |= drop(&occ, 0x00000000FFFFFF00ULL, 1);
    if (rnd() % 2)
        p->men[BLACK] |= drop(&occ, 0x00FFFFFF00000000ULL, 1);
    p->side = (int)(rnd() & 1);
}

static int gen(uint64_t seed, int count, int depth, bool race)
{
    rng_state ^= seed * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < count; i++) {
        Position p;
        if (race) {
            random_race(&p);
        } else if (i % 2) {
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
            print_line(&p, depth, bv, sv, bi, race ? "race" : i % 2 ? "game" : "placed");
    }
    return 0;
}

/* Endgames: few pieces, a forced win (the opponent left without a legal move) that exactly
 * one move reaches within depth, and that no other move reaches within depth + 2. */
static void random_endgame(Position *p)
{
    Bitboard occ = 0;
    memset(p, 0, sizeof *p);
    int us = (int)(rnd() & 1), them = !us;
    p->kings[us] = drop(&occ, ~0ULL, (int)(rnd() % 3));
    p->men[us] = drop(&occ, ~(RANK_1_BB | RANK_8_BB), (int)(rnd() % 3) + (p->kings[us] ? 0 : 1));
    p->men[them] = drop(&occ, ~(RANK_1_BB | RANK_8_BB), 1 + (int)(rnd() % 4));
    p->kings[them] = drop(&occ, ~0ULL, rnd() % 4 == 0);
    p->side = us;
}

/* Blockade hunting: a corner skeleton (Black men a2 a3 against White men b2 c2 b3 c3, which
 * a White king on a1 locks), a White king somewhere, a few extra men; mirrored at random to
 * the h-file and to the other colour. */
static Bitboard mirror_files(Bitboard b)
{
    Bitboard out = 0;
    while (b) {
        int sq = pop_lsb(&b);
        out |= square_bb(make_square(7 - square_file(sq), square_rank(sq)));
    }
    return out;
}

static void random_blockade(Position *p)
{
    memset(p, 0, sizeof *p);
    p->men[BLACK] = square_bb(8) | square_bb(16);
    p->men[WHITE] = square_bb(9) | square_bb(10) | square_bb(17) | square_bb(18);
    if (rnd() % 2)
        p->men[WHITE] &= ~square_bb(rnd() % 2 ? 10 : 18);
    Bitboard occ = position_occupied(p);
    Bitboard men_ok = ~(RANK_1_BB | RANK_8_BB);
    p->kings[WHITE] = drop(&occ, ~square_bb(0), 1);
    p->men[BLACK] |= drop(&occ, men_ok, (int)(rnd() % 3));
    p->men[WHITE] |= drop(&occ, men_ok, (int)(rnd() % 2));
    p->side = WHITE;
    if (rnd() % 2)
        for (int c = 0; c < 2; c++) {
            p->men[c] = mirror_files(p->men[c]);
            p->kings[c] = mirror_files(p->kings[c]);
        }
    if (rnd() % 2) {
        Position q;
        position_flip(&turkish_variant, p, &q);
        *p = q;
    }
}

static int wins_at(const Position *p, int depth, MoveList *list, int *val)
{
    root_values(p, depth, list, val);
    int n = 0;
    for (int i = 0; i < list->count; i++)
        n += val[i] > MM_WIN - 100;
    return n;
}

static int gen_end(uint64_t seed, int count, int depth, bool blockade)
{
    rng_state ^= seed * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < count; i++) {
        Position p;
        if (blockade)
            random_blockade(&p);
        else
            random_endgame(&p);
        MoveList list;
        int val[MAX_MOVES];
        V->generate(&p, &R, &list);
        if (list.count < 3 || list.moves[0].captured || one_each(&p))
            continue;
        if (wins_at(&p, depth, &list, val) != 1)
            continue;
        int bi = 0;
        for (int j = 0; j < list.count; j++)
            if (val[j] > val[bi])
                bi = j;
        int bv = val[bi], sv = -MM_INF;
        for (int j = 0; j < list.count; j++)
            if (j != bi && val[j] > sv)
                sv = val[j];
        int val2[MAX_MOVES];
        MoveList list2;
        if (wins_at(&p, depth + 2, &list2, val2) != 1)
            continue;
        if (blockade) {
            Move line[32];
            int n = principal_line(&p, depth, line, 32);
            if (getenv("ONLY_BLOCKADE") && strcmp(theme_of(&p, line, n, bv), "blockade") != 0)
                continue;
        }
        print_line(&p, depth, bv, sv, bi, "endgame");
    }
    return 0;
}

/* The rule a file line must pass at depth: move scores at least one man more than every other
 * move, wins material against the present count while no other move does; or move forces a
 * win within depth and no other move does. */
static bool clearly_best(const Position *p, const Move *m, int depth, int *best_val, int *next_val)
{
    MoveList list;
    int val[MAX_MOVES];
    root_values(p, depth, &list, val);
    int bi = -1, second = -MM_INF;
    for (int i = 0; i < list.count; i++)
        if (move_same(&list.moves[i], m))
            bi = i;
    if (bi < 0)
        return false;
    for (int i = 0; i < list.count; i++)
        if (i != bi && val[i] > second)
            second = val[i];
    *best_val = val[bi];
    *next_val = second;
    if (val[bi] > MM_WIN - 100)
        return second <= MM_WIN - 100;
    return val[bi] >= second + 1 && val[bi] >= material(p) + 1 && second <= material(p);
}

/* For each depth from dmin to dmax: whether move is still clearly best (see clearly_best). */
static int stable(const char *fen, const char *text, int dmin, int dmax)
{
    Position p;
    Move m;
    char err[256];
    if (!position_from_fen(&p, V, fen, err, sizeof err)
        || !move_from_text(V, &p, &R, text, &m, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int ok = 1;
    for (int d = dmin; d <= dmax; d++) {
        int bv, nv;
        bool good = clearly_best(&p, &m, d, &bv, &nv);
        printf("depth %d: %+d next %+d %s\n", d, bv, nv, good ? "ok" : "NOT CLEAR");
        fflush(stdout);
        ok &= good;
    }
    return !ok;
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
    root_values(&p, depth, &list, val);
    printf("now %+d\n", material(&p));
    for (int i = 0; i < list.count; i++)
        printf("  %-20s %+d\n", move_to_text(V, &list.moves[i], mv, sizeof mv), val[i]);
    Move line[32];
    int n = principal_line(&p, depth, line, 32);
    printf("line:");
    for (int i = 0; i < n; i++)
        printf(" %s", move_to_text(V, &line[i], mv, sizeof mv));
    printf("\n");
    if (depth <= 5) {
        int a = mm(&R, &p, depth, 0, -MM_INF, MM_INF), b = mm_plain(&R, &p, depth, 0);
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
        int v = mm(&R, &p, d, 0, -MM_INF, MM_INF);
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
        int bv, sv;
        n++;
        if (!clearly_best(&p, &m, d, &bv, &sv)) {
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
    R = rules_default(&turkish_variant);
    if (argc >= 4 && strcmp(argv[1], "gen") == 0)
        return gen(strtoull(argv[2], NULL, 10), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 5, false);
    if (argc >= 4 && strcmp(argv[1], "race") == 0)
        return gen(strtoull(argv[2], NULL, 10), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 7, true);
    if (argc >= 4 && strcmp(argv[1], "end") == 0)
        return gen_end(strtoull(argv[2], NULL, 10), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 7, false);
    if (argc >= 4 && strcmp(argv[1], "block") == 0)
        return gen_end(strtoull(argv[2], NULL, 10), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 5, true);
    if (argc >= 6 && strcmp(argv[1], "stable") == 0)
        return stable(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
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
