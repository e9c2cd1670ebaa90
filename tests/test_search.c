/* The search against an exhaustive material minimax written here over the legal-move interface
 * only (turkish_variant.generate / make), which shares nothing with the engine's search:
 *   - every line of data/positions/turkish-tactics.txt is re-proved exhaustively, then the
 *     engine must find its move at the line's depth;
 *   - searches with a node limit are reproducible (fresh searcher, searcher_clear);
 *   - with 2000 nodes a move the engine never loses to a random mover;
 *   - the move the engine picks is legal and takes the most pieces, when captures of
 *     different lengths exist (lengths counted by an enumerator written here);
 *   - forced wins are scored SCORE_WIN - n with n the shortest win found exhaustively, and a
 *     claimed win or loss always exists.
 * Run from the project root (reads the tactics file). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench.h"
#include "bitboard.h"
#include "game.h"
#include "move.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "material_minimax.h"
#include "random_pieces.h"
#include "pinned_bench.h"
#include "test_util.h"
#include "turkish_eval.h"
#include "variant.h"
#include "weights.h"
#include "shipped_weights.h"
#include "eval_inc_walk.h"
#include "international.h"
#include "turkish.h"

#define TACTICS_FILE "data/positions/turkish-tactics.txt"
#define TT_MB 16

static const Variant *V = &turkish_variant;

/* ---- the exhaustive material minimax ----
 * Score: men 1, kings 3, from the side to move, at a fixed depth in plies.  A position whose
 * side to move must capture is never a leaf (the capture is forced, so it is read to the
 * end).  No legal move loses: -(MM_WIN - ply).  One piece each is a draw (the default
 * kvm=draw).  Alpha-beta with no ordering, table or reduction returns exactly the minimax
 * value; test_minimax_alphabeta_exact checks it against plain minimax. */

/* The rule every tactics line passes at its proof depth: the move scores at least one man
 * more than every other legal move, wins material against the present count, and no other
 * move does; or it forces a win within the depth and no other move does. */
static bool clearly_best(const Rules *rules, const Position *p, const Move *m, int depth,
                         int *best_val, int *next_val)
{
    MoveList list;
    V->generate(p, rules, &list);
    int mine = -MM_INF, next = -MM_INF;
    bool found = false;
    for (int i = 0; i < list.count; i++) {
        Position c = *p;
        V->make(&c, &list.moves[i]);
        int v = -mm(rules, &c, depth - 1, 1, -MM_INF, MM_INF);
        if (move_same(&list.moves[i], m)) {
            mine = v;
            found = true;
        } else if (v > next) {
            next = v;
        }
    }
    *best_val = mine;
    *next_val = next;
    if (!found)
        return false;
    if (mine > MM_FORCED)
        return next <= MM_FORCED;
    return mine >= next + 1 && mine >= material(p) + 1 && next <= material(p);
}

/* Shortest forced result by iterative deepening: plies to a win (> 0), to a loss (< 0), or 0
 * when none within max_depth. */
static int shortest_result(const Rules *rules, const Position *p, int max_depth)
{
    for (int d = 1; d <= max_depth; d++) {
        int v = mm(rules, p, d, 0, -MM_INF, MM_INF);
        if (v > MM_FORCED)
            return MM_WIN - v;
        if (v < -MM_FORCED)
            return -(MM_WIN + v);
    }
    return 0;
}

/* ---- helpers ---- */

static void parse_fen(const char *fen, Position *pos)
{
    char err[256];
    if (!position_from_fen(pos, V, fen, err, sizeof err)) {
        print_error("bad FEN %s: %s\n", fen, err);
        fail();
    }
}

static SearchInfo search_depth(Searcher *s, const Position *pos, int depth)
{
    SearchLimits limits = { .depth = depth };
    searcher_clear(s);
    return search(s, pos, NULL, 0, &limits, NULL, NULL);
}

static Searcher *new_searcher(const Rules *rules, const Weights *w)
{
    Searcher *s = searcher_new(V, rules, w, TT_MB);
    assert_non_null(s);
    return s;
}

/* ---- (a) the tactics file ---- */

typedef struct Tactic {
    char fen[200];
    char best[64];
    char theme[32];
    int proof, engine;
    int line;
} Tactic;

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* Reads the file; returns the number of lines (every data line must parse). */
static int read_tactics(Tactic *out, int max)
{
    char *text = test_read_file(TACTICS_FILE);
    assert_non_null(text);
    int n = 0, lineno = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        char *t = trim(line);
        if (*t == '\0' || *t == '#')
            continue;
        char *field[5];
        int nf = 0;
        for (char *p = t; nf < 5;) {
            char *semi = nf < 4 ? strchr(p, ';') : NULL;
            if (semi)
                *semi = '\0';
            field[nf++] = trim(p);
            if (!semi)
                break;
            p = semi + 1;
        }
        if (nf != 5 || strchr(field[4], ';')) {
            print_error("%s:%d: expected 5 fields separated by ';'\n", TACTICS_FILE, lineno);
            fail();
        }
        assert_true(n < max);
        Tactic *tc = &out[n++];
        assert_true(strlen(field[0]) < sizeof tc->fen && strlen(field[1]) < sizeof tc->best
                    && strlen(field[2]) < sizeof tc->theme);
        strcpy(tc->fen, field[0]);
        strcpy(tc->best, field[1]);
        strcpy(tc->theme, field[2]);
        tc->line = lineno;
        if (sscanf(field[3], "proof=%d engine=%d", &tc->proof, &tc->engine) != 2 || tc->proof < 1
            || tc->proof > 12 || tc->engine < 1 || tc->engine > 10) {
            print_error("%s:%d: bad depths '%s'\n", TACTICS_FILE, lineno, field[3]);
            fail();
        }
        if (strcmp(tc->theme, "shot") != 0 && strcmp(tc->theme, "promotion") != 0
            && strcmp(tc->theme, "endgame") != 0) {
            print_error("%s:%d: unknown theme '%s'\n", TACTICS_FILE, lineno, tc->theme);
            fail();
        }
    }
    free(text);
    return n;
}

#define MAX_TACTICS 200

static void test_tactics_file(void **state)
{
    (void)state;
    static Tactic tactics[MAX_TACTICS];
    int n = read_tactics(tactics, MAX_TACTICS);
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Searcher *s = new_searcher(&rules, &w);
    int shots = 0, promotions = 0, endgames = 0, failures = 0;
    /* Every line is re-proved one (sanitizer build) or two plies deeper than its proof depth too. */
    int extra = test_sanitized() ? 1 : 2;
    for (int i = 0; i < n; i++) {
        const Tactic *tc = &tactics[i];
        Position pos;
        parse_fen(tc->fen, &pos);
        Move best;
        char err[256];
        if (!move_from_text(V, &pos, &rules, tc->best, &best, err, sizeof err)) {
            print_error("%s:%d: %s\n", TACTICS_FILE, tc->line, err);
            fail();
        }
        /* Not a trivial position: a choice of moves, and a quiet first move. */
        MoveList list;
        V->generate(&pos, &rules, &list);
        assert_true(list.count >= 2);
        assert_int_equal(best.njumps, 0);
        assert_false(V->capture_pending(&pos));
        if (strcmp(tc->theme, "shot") == 0) {
            /* a sacrifice: after it the opponent must capture */
            Position after = pos;
            V->make(&after, &best);
            assert_true(V->capture_pending(&after));
            shots++;
        } else if (strcmp(tc->theme, "promotion") == 0) {
            promotions++;
        } else {
            endgames++;
        }

        /* The expectation, proved again from scratch. */
        for (int d = tc->proof; d <= tc->proof + extra; d++) {
            int bv, nv;
            if (!clearly_best(&rules, &pos, &best, d, &bv, &nv)) {
                print_error("%s:%d: %s ; %s is not clearly best at depth %d (%+d, next %+d, "
                            "material now %+d)\n",
                            TACTICS_FILE, tc->line, tc->fen, tc->best, d, bv, nv, material(&pos));
                failures++;
            }
        }

        /* The engine finds it. */
        SearchInfo info = search_depth(s, &pos, tc->engine);
        assert_true(info.pv_length >= 1);
        if (!move_same(&info.pv[0], &best)) {
            char got[128], sc[32];
            print_error("%s:%d: %s ; expected %s, engine played %s (score %s, depth %d)\n",
                        TACTICS_FILE, tc->line, tc->fen, tc->best,
                        move_to_text(V, &info.pv[0], got, sizeof got),
                        score_to_text(info.score, sc, sizeof sc), info.depth);
            failures++;
        }
        /* A won endgame is seen as won. */
        if (strcmp(tc->theme, "endgame") == 0 && info.score <= SCORE_WIN_BOUND) {
            char sc[32];
            print_error("%s:%d: %s ; engine score %s, expected a forced win\n", TACTICS_FILE,
                        tc->line, tc->fen, score_to_text(info.score, sc, sizeof sc));
            failures++;
        }
    }
    searcher_free(s);
    print_message("tactics: %d lines (%d shot, %d promotion, %d endgame)\n", n, shots,
                  promotions, endgames);
    assert_int_equal(failures, 0);
    assert_true(n >= 30);
    assert_true(shots >= 15);
    assert_true(promotions >= 1 && endgames >= 1);
}

/* Alpha-beta above is exact: the same root value as plain minimax on every tactics line. */
static void test_minimax_alphabeta_exact(void **state)
{
    (void)state;
    static Tactic tactics[MAX_TACTICS];
    int n = read_tactics(tactics, MAX_TACTICS);
    Rules rules = rules_default(&turkish_variant);
    int depth = test_sanitized() ? 2 : 3;
    for (int i = 0; i < n; i++) {
        Position pos;
        parse_fen(tactics[i].fen, &pos);
        assert_int_equal(mm(&rules, &pos, depth, 0, -MM_INF, MM_INF), mm_plain(&rules, &pos, depth, 0));
    }
}

/* ---- (b) determinism ---- */

static long minor_faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

/* The table's pages are the allocation's cost, paid when the searcher is made (the Hub's
 * init, before 'ready'), not by the first new-game: a GUI sends new-game and go at once,
 * and the first touch of 64 MB of fresh pages took some 55 ms of the first move's clock
 * (16 384 page faults; measured with scripts/hub-timing, 2026-12-03). */
static void test_table_pages_faulted_when_made(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Searcher *s = searcher_new(V, &rules, &w, 64);
    assert_non_null(s);
    long before = minor_faults();
    searcher_clear(s);
    long faults = minor_faults() - before;
    searcher_free(s);
    /* 64 MB is 16 384 pages of 4 KB: a table not yet touched faults on (nearly) every one */
    assert_true(faults < 1000);
}

static void test_node_limit_determinism(void **state)
{
    (void)state;
    const char *fens[] = {
        "start",
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3:Ba6,b6,c6,d6,e6,f6,g6,a7,b7,c7,d7,e7,f7,g7,h7,h5",
        "B:Wb2,f2,h2,a3,d3,e3,f3,g3,h3,g4:Bf5,h5,a6,c6,d6,h6,a7,b7,c7,e7,f7,h7",
        "W:Wa2,d2,e2,f2,g2,h2,e3,f3,g3,h3,Kd5,a6:Bg5,h5,c6,e6,f6,g6,h6,e7,f7,Kb8",
        "W:WKb3,a5,Ka6,d6:Bf2,h3,f7",
    };
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    SearchLimits limits = { .nodes = test_sanitized() ? 20000 : 50000 };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Position pos;
        parse_fen(fens[i], &pos);
        SearchInfo r[3];
        Searcher *a = new_searcher(&rules, &w), *b = new_searcher(&rules, &w);
        r[0] = search(a, &pos, NULL, 0, &limits, NULL, NULL);
        r[1] = search(b, &pos, NULL, 0, &limits, NULL, NULL);
        searcher_clear(a);
        r[2] = search(a, &pos, NULL, 0, &limits, NULL, NULL);
        for (int k = 1; k < 3; k++) {
            assert_true(move_same(&r[k].pv[0], &r[0].pv[0]));
            assert_int_equal(r[k].score, r[0].score);
            assert_int_equal(r[k].nodes, r[0].nodes);
            assert_int_equal(r[k].depth, r[0].depth);
            assert_int_equal(r[k].pv_length, r[0].pv_length);
            for (int j = 0; j < r[0].pv_length; j++)
                assert_true(move_same(&r[k].pv[j], &r[0].pv[j]));
        }
        /* the limit is honoured: the budget is checked at every node but the root */
        assert_true(r[0].depth >= 1);
        assert_true(r[0].nodes <= limits.nodes + 1);
        searcher_free(a);
        searcher_free(b);
    }
}

/* ---- (c) against a random mover ---- */

/* Plays one game; returns the result (enum Result) and the plies played. */
static int play_vs_random(Searcher *s, int engine_color, int opening_plies, uint64_t seed,
                          int *plies)
{
    Rules rules = rules_default(&turkish_variant);
    Position start;
    V->start(&start);
    Game game;
    game_init(&game, V, &rules, &start);
    uint64_t rng = seed;
    searcher_clear(s);
    SearchLimits limits = { .nodes = 2000 };
    int result = RESULT_NONE, reason;
    while ((result = game_result(&game, &reason)) == RESULT_NONE && game.ply < 300) {
        MoveList list;
        V->generate(&game.pos, &rules, &list);
        Move m;
        if (game.ply < opening_plies || game.pos.side != engine_color) {
            m = list.moves[next_random(&rng) % (uint64_t)list.count];
        } else {
            /* history: the positions since the last capture, before this one */
            int nh = game.since_capture < game.ply ? game.since_capture : game.ply;
            SearchInfo info = search(s, &game.pos, &game.keys[game.ply - nh], nh, &limits, NULL, NULL);
            assert_true(info.pv_length >= 1);
            m = info.pv[0];
            bool legal = false;
            for (int i = 0; i < list.count; i++)
                legal |= move_same(&list.moves[i], &m);
            assert_true(legal);
        }
        assert_true(game_play(&game, &m));
    }
    *plies = game.ply;
    return result == RESULT_NONE ? RESULT_DRAW : result; /* the move cap is a draw */
}

static void test_never_loses_to_random(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Searcher *s = new_searcher(&rules, &w);
    int games = test_sanitized() ? 8 : 20;
    int wins = 0, draws = 0, losses = 0, total_plies = 0;
    for (int g = 0; g < games; g++) {
        int color = g % 2 == 0 ? WHITE : BLACK;
        /* two games a colour from the start, the rest after 2-8 random plies (the sanitizer build
         * plays 8 games, the others 20) */
        int opening = g < 4 ? 0 : 2 + 2 * ((g / 2) % 4);
        int plies;
        int result = play_vs_random(s, color, opening, 0x9E3779B97F4A7C15ULL * (uint64_t)(g + 1), &plies);
        total_plies += plies;
        if (result == RESULT_DRAW)
            draws++;
        else if ((result == RESULT_WHITE_WINS) == (color == WHITE))
            wins++;
        else {
            losses++;
            print_error("game %d: the engine (%s) lost to the random mover\n", g,
                        color == WHITE ? "white" : "black");
        }
    }
    searcher_free(s);
    print_message("engine (2000 nodes/move) vs random mover: %d games, %d wins, %d draws, "
                  "%d losses, %.1f plies a game\n",
                  games, wins, draws, losses, (double)total_plies / games);
    assert_int_equal(losses, 0);
}

/* ---- (d) maximum capture ---- */

/* Independent enumerator of complete capture sequences (official rules: captured pieces leave
 * at once, men capture forward and sideways and go on as men on the last rank, kings fly and
 * never turn 180 degrees between jumps).  Calls seq->visit for every complete sequence from
 * sq with its length, end square and captured set. */
static const int DF[4] = { 0, 0, 1, -1 }, DR[4] = { 1, -1, 0, 0 }; /* up, down, right, left */

static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

typedef struct Sequences {
    int from;
    void (*visit)(struct Sequences *seq, int n, int to, Bitboard taken);
    int lo, hi;          /* capture_lengths: the shortest and longest lengths */
    int count, longest;  /* distinct_captures: the distinct (from, to, taken) of the longest */
    int paths;           /* ... and how many sequences reach them */
    struct { int from, to; Bitboard taken; } *moves;
    int capacity;
} Sequences;

static void capture_sequences(Sequences *seq, Bitboard empty, Bitboard enemy, Bitboard taken,
                              int sq, bool king, int color, int last_dir, int n)
{
    bool more = false;
    for (int d = 0; d < 4; d++) {
        if (!king && d == (color == WHITE ? 1 : 0))
            continue; /* men never capture backward */
        if (king && last_dir >= 0 && DF[d] == -DF[last_dir] && DR[d] == -DR[last_dir])
            continue; /* no 180-degree turn */
        int f = square_file(sq) + DF[d], r = square_rank(sq) + DR[d];
        if (king)
            while (on_board(f, r) && (empty & square_bb(make_square(f, r)))) {
                f += DF[d];
                r += DR[d];
            }
        if (!on_board(f, r) || !(enemy & square_bb(make_square(f, r))))
            continue;
        int victim = make_square(f, r);
        f += DF[d];
        r += DR[d];
        while (on_board(f, r) && (empty & square_bb(make_square(f, r)))) {
            int to = make_square(f, r);
            more = true;
            /* the victim leaves at once; the capturer's square moves */
            Bitboard e2 = (empty | square_bb(victim) | square_bb(sq)) & ~square_bb(to);
            capture_sequences(seq, e2, enemy & ~square_bb(victim), taken | square_bb(victim), to,
                              king, color, d, n + 1);
            if (!king)
                break; /* a man lands right behind */
            f += DF[d];
            r += DR[d];
        }
    }
    if (!more && n > 0)
        seq->visit(seq, n, sq, taken);
}

static void each_capture_sequence(const Position *p, Sequences *seq)
{
    int us = p->side;
    Bitboard empty = ~position_occupied(p), enemy = position_pieces(p, !us);
    for (Bitboard b = position_pieces(p, us); b;) {
        int sq = pop_lsb(&b);
        seq->from = sq;
        capture_sequences(seq, empty, enemy, 0, sq, (p->kings[us] >> sq) & 1, us, -1, 0);
    }
}

static void widen_lengths(Sequences *seq, int n, int to, Bitboard taken)
{
    (void)to, (void)taken;
    if (n < seq->lo)
        seq->lo = n;
    if (n > seq->hi)
        seq->hi = n;
}

static void position_capture_lengths(const Position *p, int *lo, int *hi)
{
    Sequences seq = { .visit = widen_lengths, .lo = 1000, .hi = 0 };
    each_capture_sequence(p, &seq);
    *lo = seq.lo;
    *hi = seq.hi;
}

/* Keeps the distinct (from, to, taken) of the longest sequences (a linear search: the test
 * positions have a few hundred). */
static void collect_longest(Sequences *seq, int n, int to, Bitboard taken)
{
    if (n < seq->longest)
        return;
    if (n > seq->longest) {
        seq->longest = n;
        seq->count = seq->paths = 0;
    }
    seq->paths++;
    for (int i = 0; i < seq->count; i++)
        if (seq->moves[i].from == seq->from && seq->moves[i].to == to && seq->moves[i].taken == taken)
            return;
    assert_true(seq->count < seq->capacity);
    seq->moves[seq->count].from = seq->from;
    seq->moves[seq->count].to = to;
    seq->moves[seq->count++].taken = taken;
}

static int distinct_captures(const Position *p, int *paths)
{
    Sequences seq = { .visit = collect_longest, .capacity = 4096 };
    seq.moves = malloc((size_t)seq.capacity * sizeof *seq.moves);
    assert_non_null(seq.moves);
    each_capture_sequence(p, &seq);
    free(seq.moves);
    *paths = seq.paths;
    return seq.count;
}

static void random_dense_position(uint64_t *rng, Position *p)
{
    Bitboard occ = 0;
    memset(p, 0, sizeof *p);
    uint64_t r = next_random(rng);
    Bitboard men_ok = ~(RANK_1_BB | RANK_8_BB);
    p->men[WHITE] = drop(rng, &occ, men_ok, 3 + (int)(r % 10));
    p->men[BLACK] = drop(rng, &occ, men_ok, 3 + (int)((r >> 8) % 10));
    p->kings[WHITE] = drop(rng, &occ, ~0ULL, (r >> 16) % 2 ? 0 : 1 + (int)((r >> 20) % 2));
    p->kings[BLACK] = drop(rng, &occ, ~0ULL, (r >> 24) % 2 ? 0 : 1 + (int)((r >> 28) % 2));
    p->side = (int)(r >> 32) & 1;
}

static void test_engine_takes_maximum(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Searcher *s = new_searcher(&rules, &w);
    uint64_t rng = 0xC0FFEE1234567ULL;
    int wanted = test_sanitized() ? 100 : 300, found = 0, tries = 0;
    while (found < wanted) {
        assert_true(++tries < 1000000);
        Position pos;
        random_dense_position(&rng, &pos);
        int lo, hi;
        position_capture_lengths(&pos, &lo, &hi);
        if (hi == 0 || lo == hi)
            continue; /* want captures of different lengths */
        found++;
        MoveList list;
        V->generate(&pos, &rules, &list);
        /* the generator keeps exactly the longest */
        assert_true(list.count >= 1);
        for (int i = 0; i < list.count; i++) {
            assert_int_equal(list.moves[i].njumps, hi);
            assert_int_equal(popcount(list.moves[i].captured), hi);
        }
        SearchInfo info = search_depth(s, &pos, 4);
        assert_true(info.pv_length >= 1);
        bool legal = false;
        for (int i = 0; i < list.count; i++)
            legal |= move_same(&list.moves[i], &info.pv[0]);
        if (!legal || popcount(info.pv[0].captured) != hi) {
            char fen[256], mv[128];
            position_to_fen(&pos, V, fen, sizeof fen);
            print_error("%s: engine played %s, captures of %d..%d exist\n", fen,
                        move_to_text(V, &info.pv[0], mv, sizeof mv), lo, hi);
            fail();
        }
    }
    searcher_free(s);
    print_message("maximum capture: %d positions with captures of different lengths (%d tried)\n",
                  found, tries);
}

/* ---- (e) fastest wins ---- */

/* Small positions solved exhaustively: the engine's score is exactly SCORE_WIN - n (or the
 * loss), n the shortest forced result. */
static void test_win_scores_shortest(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int plies; /* > 0 win, < 0 loss, for the side to move: checked exhaustively below */
    } cases[] = {
        { "W:Wf2,g2,h3,Kd1:Bh2", 1 },       /* Kd1-h1 locks the lone man on h2 */
        { "W:Wb2,c2,b3,c3,Ke1:Ba2,a3", 1 }, /* Ke1-a1 locks both men in the corner */
        { "W:Wf3,d5,Ke6,Kd8:Bf2,b7", 5 },
        { "W:We3,a4:Bd5", 7 },              /* two men against one */
        { "B:Wa3:Ba5,c6,g6", 7 },
        { "W:Wa2,g2,a3:Bc3", 9 },
        { "B:We4,a4:Bd5", -6 },             /* the one above after e3-e4 */
        { "B:Wb2,g2,a3:Bc3", -8 },          /* the one above after a2-b2 */
    };
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Searcher *s = new_searcher(&rules, &w);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos;
        parse_fen(cases[i].fen, &pos);
        int n = shortest_result(&rules, &pos, 12);
        if (n != cases[i].plies) {
            print_error("%s: shortest forced result %d plies, the table says %d\n", cases[i].fen,
                        n, cases[i].plies);
            fail();
        }
        int len = n > 0 ? n : -n;
        SearchInfo info = search_depth(s, &pos, len + 3);
        char text[32], want[32];
        score_to_text(info.score, text, sizeof text);
        snprintf(want, sizeof want, "%s%d", n > 0 ? "win" : "loss", len);
        if (strcmp(text, want) != 0) {
            print_error("%s: engine score %s, shortest forced result %s\n", cases[i].fen, text, want);
            fail();
        }
        assert_int_equal(info.score, n > 0 ? SCORE_WIN - n : -(SCORE_WIN - len));
        /* and the move played starts a shortest win */
        if (n > 0) {
            Position after = pos;
            V->make(&after, &info.pv[0]);
            MoveList replies;
            V->generate(&after, &rules, &replies);
            if (n == 1)
                assert_int_equal(replies.count, 0);
            else
                assert_int_equal(shortest_result(&rules, &after, len), -(n - 1));
        }
    }
    searcher_free(s);
}

/* Random small positions: a win or loss the engine claims exists, and at exactly the
 * distance it claims (the shortest: the exhaustive value at that depth is the win itself).
 * Late move reductions once hid faster wins; they are off once a win is in hand. */
static void test_claimed_results_exist(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Searcher *s = new_searcher(&rules, &w);
    uint64_t rng = 0x5EED5EED12345ULL;
    int wanted = test_sanitized() ? 40 : 120, claims = 0, exact = 0, tries = 0;
    while (claims < wanted) {
        assert_true(++tries < 100000);
        Position pos;
        Bitboard occ = 0;
        memset(&pos, 0, sizeof pos);
        Bitboard men_ok = ~(RANK_1_BB | RANK_8_BB);
        pos.kings[WHITE] = drop(&rng, &occ, ~0ULL, (int)(next_random(&rng) % 2));
        pos.men[WHITE] = drop(&rng, &occ, men_ok, 1 + (int)(next_random(&rng) % 2));
        pos.kings[BLACK] = drop(&rng, &occ, ~0ULL, (int)(next_random(&rng) % 4 == 0));
        pos.men[BLACK] = drop(&rng, &occ, men_ok, 1 + (int)(next_random(&rng) % 2));
        pos.side = (int)(next_random(&rng) & 1);
        /* only games in progress: a finished one (one piece each) has no result to claim */
        if (game_end(V, &pos, &rules, V->count(&pos, &rules, false) > 0, (DrawCounts){ 0 }).result != RESULT_NONE)
            continue;
        SearchInfo info = search_depth(s, &pos, 8);
        if (info.score >= -SCORE_WIN_BOUND && info.score <= SCORE_WIN_BOUND)
            continue;
        claims++;
        bool win = info.score > 0;
        int len = win ? SCORE_WIN - info.score : SCORE_WIN + info.score;
        assert_true(len >= 0 && len <= 20);
        int v = mm(&rules, &pos, len, 0, -MM_INF, MM_INF);
        char fen[256], sc[32];
        position_to_fen(&pos, V, fen, sizeof fen);
        if (win ? v < MM_WIN - len : v > -(MM_WIN - len)) {
            print_error("%s: engine claims %s, exhaustive value at depth %d is %d\n", fen,
                        score_to_text(info.score, sc, sizeof sc), len, v);
            fail();
        }
        bool at_distance = win ? v == MM_WIN - len : v == -(MM_WIN - len);
        if (!at_distance) {
            print_error("%s: engine claims %s, the exhaustive search finds it sooner (%d)\n",
                        fen, score_to_text(info.score, sc, sizeof sc), v);
            fail();
        }
        exact++;
    }
    searcher_free(s);
    print_message("claimed forced results: %d, all exist, %d at exactly the shortest distance\n",
                  claims, exact);
}

/* ---- (f) the end of the game: the search judges it as play does (game_end) ---- */

/* Every capture of the white king leaves one piece each, with no capture pending: at
 * depth 1 these children are horizon leaves.  The rules score them, not the evaluation:
 * a draw with kvm=draw, a win for the king with kvm=win (the search once gave +225 to both). */
static void test_one_each_at_the_horizon(void **state)
{
    (void)state;
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Position pos;
    parse_fen("W:WKd4:Bd6,f4", &pos);
    for (int kvm = KVM_DRAW; kvm <= KVM_WIN; kvm++) {
        Rules rules = rules_default(&turkish_variant);
        RULES_SET(turkish, rules, kvm, kvm);
        MoveList list;
        V->generate(&pos, &rules, &list);
        assert_int_equal(list.count, 4); /* d4xd7, d4xd8, d4xg4, d4xh4: no forced-move extension */
        Searcher *s = new_searcher(&rules, &w);
        SearchInfo info = search_depth(s, &pos, 1);
        assert_int_equal(info.depth, 1);
        assert_int_equal(info.score, kvm == KVM_WIN ? SCORE_WIN - 1 : 0);
        searcher_free(s);
        /* the test minimax reads the same rules */
        assert_int_equal(mm(&rules, &pos, 1, 0, -MM_INF, MM_INF), kvm == KVM_WIN ? MM_WIN - 1 : 0);
    }
}

/* d1-c1 blocks the black king in the corner on the ply that reaches the no-progress limit
 * (noprogress=1: every quiet move reaches it).  No legal move comes first in the rules:
 * the game is won, in play and in the search alike (the search once called it a draw). */
static void test_no_move_before_no_progress(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    RULES_SET(turkish, rules, noprogress_plies, 1);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Position pos;
    parse_fen("W:Wa2,a3,b1,d1:BKa1", &pos);
    Move block;
    char err[256], text[64];
    assert_true(move_from_text(V, &pos, &rules, "d1-c1", &block, err, sizeof err));

    Game game;
    game_init(&game, V, &rules, &pos);
    assert_true(game_play(&game, &block));
    int reason;
    assert_int_equal(game_result(&game, &reason), RESULT_WHITE_WINS);
    assert_int_equal(reason, REASON_NO_MOVES);

    Searcher *s = new_searcher(&rules, &w);
    for (int depth = 1; depth <= 3; depth++) {
        SearchInfo info = search_depth(s, &pos, depth);
        assert_int_equal(info.score, SCORE_WIN - 1);
        assert_string_equal(move_to_text(V, &info.pv[0], text, sizeof text), "d1-c1");
    }
    searcher_free(s);
}

/* Kd1-h1 locks the lone man on h2 (a win in 1).  Here the game's history (as search() takes
 * it) holds the locked position twice already, so the move also repeats it a third time:
 * no legal move still comes first, and the search plays the win (it once called it a draw). */
static void test_no_move_before_repetition(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    Position pos, locked;
    parse_fen("W:Wf2,g2,h3,Kd1:Bh2", &pos);
    parse_fen("B:Wf2,g2,h3,Kh1:Bh2", &locked);
    uint64_t history[4] = { 0x1111, position_key(&locked), 0x2222, position_key(&locked) };
    GameEnd rules_say = game_end(V, &locked, &rules, V->count(&locked, &rules, false) > 0,
                                (DrawCounts){ 5, 2, 0 });
    assert_int_equal(rules_say.result, RESULT_WHITE_WINS);
    assert_int_equal(rules_say.reason, REASON_NO_MOVES);
    Searcher *s = new_searcher(&rules, &w);
    SearchLimits limits = { .depth = 3 };
    SearchInfo info = search(s, &pos, history, 4, &limits, NULL, NULL);
    char text[64];
    assert_int_equal(info.score, SCORE_WIN - 1);
    assert_string_equal(move_to_text(V, &info.pv[0], text, sizeof text), "d1-h1");
    searcher_free(s);
}

/* ---- (g) the bench: one function, one table size, a pinned signature ---- */

/* PINNED_SIGNATURE and PINNED_SIGNATURE_INTERNATIONAL: tests/pinned_bench.h.  When the
 * search or the evaluation changes on purpose, update this number too, in the same commit
 * (and say so): any other change of it is a bug. */
#define PINNED_DEFAULT_BENCH_NODES 1979627ULL /* depth BENCH_DEPTH = 11 */

/* The search counts International's endgame draws (FMJD 6.4: a lone king against two kings,
 * 5 moves each) from the count the game has reached.  Black's king on 5 can only step along
 * the long diagonal into the capture of White's king on 46: with the count at 0 White wins in
 * 3 plies, but one ply before the limit every White move draws first.  The tree once started
 * every count at 0 and scored the drawn position as that win. */
static void test_international_endgame_count_in_tree(void **state)
{
    (void)state;
    const Variant *v = &international_variant;
    Rules rules = rules_default(v);
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, v->eval);
    Position pos;
    char err[256];
    /* White kings 46 and 50, Black's lone king 5: no capture for either side */
    assert_true(position_from_fen(&pos, v, "W:WK46,K50:BK5", err, sizeof err));
    assert_false(v->capture_pending(&pos));
    SearchLimits limits = { .depth = 4 };
    int scores[2];
    const int counts[2] = { 0, international_rules(&rules).endgame5_plies - 1 };
    for (int i = 0; i < 2; i++) {
        Searcher *s = searcher_new(v, &rules, &w, TT_MB);
        assert_non_null(s);
        s->root_endgame_plies = counts[i];
        scores[i] = search(s, &pos, NULL, 0, &limits, NULL, NULL).score;
        searcher_free(s);
    }
    assert_int_equal(scores[0], SCORE_WIN - 3);
    assert_int_equal(scores[1], 0);
}

/* Every move of a search's line is legal in the position the moves before it reach, at
 * depths where step 4c searches nodes a second time without their table move, at the same
 * ply and into the same line buffers.  Both games' bench positions, depth 10. */
static void test_pv_is_a_legal_line(void **state)
{
    (void)state;
    const Variant *variants[] = { &turkish_variant, &international_variant };
    for (int k = 0; k < 2; k++) {
        const Variant *v = variants[k];
        Rules rules = rules_default(v);
        WEIGHTS_SCOPED w = { 0 };
        assert_true(weights_default(&w, v->eval));
        Searcher *s = searcher_new(v, &rules, &w, TT_MB);
        assert_non_null(s);
        int checked = 0;
        for (int i = 0; i < v->bench_count; i++) {
            Position pos;
            char err[256];
            assert_true(position_from_fen(&pos, v, v->bench_fens[i], err, sizeof err));
            SearchLimits limits = { .depth = test_sanitized() ? 8 : 10 };
            searcher_clear(s);
            SearchInfo info = search(s, &pos, NULL, 0, &limits, NULL, NULL);
            for (int j = 0; j < info.pv_length; j++, checked++) {
                MoveList list;
                v->generate(&pos, &rules, &list);
                bool legal = false;
                for (int m = 0; m < list.count; m++)
                    legal |= move_same(&list.moves[m], &info.pv[j]);
                if (!legal)
                    fail_msg("%s bench position %d: move %d of the line is not legal", v->name, i, j + 1);
                v->make(&pos, &info.pv[j]);
            }
        }
        assert_true(checked > v->bench_count); /* lines, not just first moves */
        searcher_free(s);
    }
}

static void test_bench_signature_pinned(void **state)
{
    (void)state;
    char sig[64], err[512], out[8192];
    assert_true(bench_signature(&turkish_variant, sig, sizeof sig, err, sizeof err));
    assert_string_equal(sig, PINNED_SIGNATURE);
    assert_true(bench_signature(&international_variant, sig, sizeof sig, err, sizeof err));
    assert_string_equal(sig, PINNED_SIGNATURE_INTERNATIONAL);
    assert_int_equal(test_dama_run(out, sizeof out, "bench -v intl --depth %d", BENCH_SIGNATURE_DEPTH), 0);
    char want_intl[64];
    snprintf(want_intl, sizeof want_intl, "bench %s nodes ", strchr(PINNED_SIGNATURE_INTERNATIONAL, ':') + 2);
    assert_non_null(strstr(out, want_intl));
    /* `dama bench --depth 6` counts the same nodes as the signature */
    assert_int_equal(test_dama_run(out, sizeof out, "bench --depth %d", BENCH_SIGNATURE_DEPTH), 0);
    char want[64];
    snprintf(want, sizeof want, "bench %s nodes ", strchr(PINNED_SIGNATURE, ':') + 2);
    assert_non_null(strstr(out, want));
    if (test_sanitized())
        return; /* the default depth takes a minute under the sanitizers */
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    uint64_t nodes;
    double seconds;
    assert_true(bench_run(&turkish_variant, &w, BENCH_DEPTH, NULL, NULL, &nodes, &seconds, err, sizeof err));
    assert_int_equal(nodes, PINNED_DEFAULT_BENCH_NODES);
}

/* `dama bench --weights best`: the shipped pattern evaluation has its own pinned count in
 * both games (the search the commands that play use). */
static void test_bench_signature_best_pinned(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *signature;
    } cases[] = { { "turkish", PINNED_SIGNATURE_BEST }, { "international", PINNED_SIGNATURE_INTERNATIONAL_BEST } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[8192], want[64];
        assert_int_equal(test_dama_run(out, sizeof out, "bench -v %s --weights best --depth %d", cases[i].variant,
                                       BENCH_SIGNATURE_DEPTH), 0);
        snprintf(want, sizeof want, "bench %s nodes ", strchr(cases[i].signature, ':') + 2);
        assert_non_null(strstr(out, want));
    }
}

/* The shipped best weights of v (the pattern evaluation the commands that play use). */
static void best_weights(const Variant *v, Weights *w)
{
    const unsigned char *data;
    size_t len;
    char err[256];
    assert_true(shipped_weights(v->name, &data, &len));
    if (!weights_parse_variant(w, v, (const char *)data, len, "best", err, sizeof err))
        fail_msg("%s", err);
    assert_true(eval_spec_is_pattern(w->spec));
}

/* At every node of real search trees (the bench positions of both games; the hand-set
 * weights, the shipped pattern weights and random pattern weights) the incremental
 * evaluation the search carries from ply to ply equals evaluate() from scratch: the
 * search's check_eval compares them. */
static void test_search_incremental_eval_checked(void **state)
{
    (void)state;
    const Variant *variants[] = { &turkish_variant, &international_variant };
    uint64_t rng = 0x853C49E6748FEA9BULL;
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        const Variant *v = variants[k];
        Rules rules = rules_default(v);
        for (int kind = 0; kind < 3; kind++) { /* hand-set, best, best with random patterns */
            WEIGHTS_SCOPED w = { 0 };
            if (kind == 0)
                assert_true(weights_default(&w, v->eval));
            else
                best_weights(v, &w);
            if (kind == 2)
                eval_inc_random_patterns(&w, &rng, 1000);
            Searcher *s = searcher_new(v, &rules, &w, TT_MB);
            assert_non_null(s);
            s->check_eval = true;
            uint64_t nodes = 0;
            for (int i = 0; i < v->bench_count; i++) {
                Position pos;
                char err[256];
                assert_true(position_from_fen(&pos, v, v->bench_fens[i], err, sizeof err));
                searcher_clear(s);
                SearchLimits limits = { .depth = test_sanitized() ? 3 : 5 };
                nodes += search(s, &pos, NULL, 0, &limits, NULL, NULL).nodes;
            }
            assert_true(nodes > 1000);
            assert_int_equal(s->eval_checks, nodes);
            assert_int_equal(s->eval_mismatches, 0);
            searcher_free(s);
        }
    }
}

static void count_search(void *ctx, int index, const Position *pos, const SearchInfo *info)
{
    (void)index, (void)pos, (void)info;
    ++*(int *)ctx;
}

/* A bench position that does not read stops the bench, before any search. */
static void test_bench_bad_position_is_fatal(void **state)
{
    (void)state;
    static const char *const fens[] = { "start", "W:Wa2,z9:Bh7", "start" };
    int searched = 0;
    WEIGHTS_SCOPED w = { 0 };
    weights_default(&w, &turkish_eval_spec);
    uint64_t nodes;
    double seconds;
    char err[512] = "";
    assert_false(bench_run_set(&turkish_variant, fens, 3, &w, 2, count_search, &searched, &nodes, &seconds, err, sizeof err));
    assert_int_equal(searched, 0);
    assert_int_equal(nodes, 0);
    assert_non_null(strstr(err, "bench position 2 'W:Wa2,z9:Bh7'"));
}

/* ---- (h) analysing a finished game says so, in one line, without a search ---- */

static void test_analyze_finished_game(void **state)
{
    (void)state;
    static const struct {
        const char *args, *expect;
    } cases[] = {
        { "--fen W:Wa7:Bb7,c7,Ka8", "game over: black wins (no-moves)\n" }, /* a7 is blocked */
        { "--fen B:WKa1:Bh5", "game over: draw (one-each)\n" },
        { "--fen B:WKa1:Bh5 --rules kvm=win", "game over: white wins (one-each)\n" },
        { "--fen B:WKa1:Bh5 --depth 30", "game over: draw (one-each)\n" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[8192];
        assert_int_equal(test_dama_run(out, sizeof out, "analyze %s", cases[i].args), 0);
        assert_string_equal(out, cases[i].expect);
    }
}

/* ---- (i) the move list's room (MAX_MOVES) ---- */

/* Quiet moves counted square by square: men one step forward or sideways, kings any number
 * of empty squares along a rank or a file. */
static int quiet_moves_by_hand(const Position *p)
{
    int us = p->side, n = 0;
    Bitboard empty = ~position_occupied(p);
    for (Bitboard b = position_pieces(p, us); b;) {
        int sq = pop_lsb(&b);
        bool king = (p->kings[us] >> sq) & 1;
        for (int d = 0; d < 4; d++) {
            if (!king && d == (us == WHITE ? 1 : 0))
                continue;
            int f = square_file(sq) + DF[d], r = square_rank(sq) + DR[d];
            while (on_board(f, r) && (empty & square_bb(make_square(f, r)))) {
                n++;
                if (!king)
                    break;
                f += DF[d];
                r += DR[d];
            }
        }
    }
    return n;
}

/* Positions found by a search for many moves (hill climbing over legal piece placements).
 * The capture one has 486 distinct capture moves: the old limit of 256 dropped 230 of them
 * without a word.  The quiet one has 148 (the proved bound is 196, turkish_movegen.c). */
static void test_many_moves_all_listed(void **state)
{
    (void)state;
    Rules rules = rules_default(&turkish_variant);
    Position pos;
    parse_fen("W:WKa1,Ka2,Ka3,Kb3,Kf3,Kd5,Kc7,Ke7,Kg7,Kh7,Kh8:"
              "BKf1,b2,f2,c3,Kd3,Ke3,g3,Kh3,Kd4,Ka7,Kb7,d7,Kf7,Kc8,g8", &pos);
    MoveList list;
    V->generate(&pos, &rules, &list);
    int paths;
    assert_int_equal(distinct_captures(&pos, &paths), 486);
    assert_int_equal(list.count, 486);
    uint32_t listed_paths = 0;
    for (int i = 0; i < list.count; i++)
        listed_paths += list.npaths[i];
    assert_int_equal(listed_paths, paths);
    assert_int_equal(V->count(&pos, &rules, true), (uint64_t)paths);

    parse_fen("W:WKa1,Kc1,Kf1,Kb2,Kh2,Kd3,Ka4,Kg4,Ke5,Kb6,Kf6,Ka7,Kg7,Kc8,Kd8,Kh8:B", &pos);
    V->generate(&pos, &rules, &list);
    assert_int_equal(quiet_moves_by_hand(&pos), 148);
    assert_int_equal(list.count, 148);
    assert_int_equal(V->count(&pos, &rules, false), 148);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimax_alphabeta_exact),
        cmocka_unit_test(test_tactics_file),
        cmocka_unit_test(test_table_pages_faulted_when_made),
        cmocka_unit_test(test_node_limit_determinism),
        cmocka_unit_test(test_never_loses_to_random),
        cmocka_unit_test(test_engine_takes_maximum),
        cmocka_unit_test(test_win_scores_shortest),
        cmocka_unit_test(test_claimed_results_exist),
        cmocka_unit_test(test_one_each_at_the_horizon),
        cmocka_unit_test(test_no_move_before_no_progress),
        cmocka_unit_test(test_no_move_before_repetition),
        cmocka_unit_test(test_international_endgame_count_in_tree),
        cmocka_unit_test(test_pv_is_a_legal_line),
        cmocka_unit_test(test_bench_signature_pinned),
        cmocka_unit_test(test_bench_signature_best_pinned),
        cmocka_unit_test(test_search_incremental_eval_checked),
        cmocka_unit_test(test_bench_bad_position_is_fatal),
        cmocka_unit_test(test_analyze_finished_game),
        cmocka_unit_test(test_many_moves_all_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
