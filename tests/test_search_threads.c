/* The search on several threads (Lazy SMP, searcher_set_threads): no timing is asserted and
 * no two-thread result is expected to repeat, only what must hold on any schedule:
 *   - a legal best move and a score near the one-thread score on every bench position of
 *     both games, with the helper threads' nodes counted;
 *   - forced wins (their lengths proved exhaustively in test_search.c) scored exactly and
 *     first seen at the iteration that sees them with one thread, or before it (the helper's
 *     deeper entries may show the main thread the win sooner: it did in about one run in
 *     four);
 *   - node limits and the stop request end the search; threads back to 1 is the
 *     deterministic search again (the bench signature's node count). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "move.h"
#include "pinned_bench.h"
#include "position.h"
#include "search.h"
#include "test_util.h"
#include "variant.h"
#include "weights.h"

#define TT_MB 16
/* Off every forced result, two threads may differ from one by what their shared table held
 * when: a bound far above any difference of order (three men) only catches nonsense. */
#define SCORE_SLACK 300

static void read_fen(const Variant *v, const char *fen, Position *pos)
{
    char err[256];
    if (!position_from_fen(pos, v, fen, err, sizeof err))
        fail_msg("bad FEN %s: %s", fen, err);
}

static bool is_legal(const Variant *v, const Rules *rules, const Position *pos, const Move *m)
{
    MoveList list;
    v->generate(pos, rules, &list);
    for (int i = 0; i < list.count; i++)
        if (move_same(&list.moves[i], m))
            return true;
    return false;
}

/* v's hand-set weights (those of the pinned bench signatures). */
static Weights default_weights(const Variant *v)
{
    Weights w = { 0 };
    assert_true(weights_default(&w, v->eval));
    return w;
}

static Searcher *searcher_with_threads(const Variant *v, const Rules *rules, const Weights *w, int threads)
{
    Searcher *s = searcher_new(v, rules, w, TT_MB);
    assert_non_null(s);
    assert_true(searcher_set_threads(s, threads));
    return s;
}

static SearchInfo search_to(Searcher *s, const Position *pos, int depth)
{
    SearchLimits limits = { .depth = depth };
    searcher_clear(s);
    return search(s, pos, NULL, 0, &limits, NULL, NULL);
}

static void bench_positions_on_two_threads(const Variant *v)
{
    Rules rules = rules_default(v);
    WEIGHTS_SCOPED w = default_weights(v);
    Searcher *one = searcher_with_threads(v, &rules, &w, 1), *two = searcher_with_threads(v, &rules, &w, 2);
    int depth = test_sanitized() ? 5 : 8;
    uint64_t all_nodes = 0, main_nodes = 0;
    for (int i = 0; i < v->bench_count; i++) {
        Position pos;
        read_fen(v, v->bench_fens[i], &pos);
        SearchInfo alone = search_to(one, &pos, depth), both = search_to(two, &pos, depth);
        const char *fen = v->bench_fens[i];
        if (both.depth != depth || both.pv_length < 1 || !is_legal(v, &rules, &pos, &both.pv[0]))
            fail_msg("%s %s: depth %d, %d PV moves, or an illegal best move", v->name, fen, both.depth,
                     both.pv_length);
        bool forced_alone = alone.score > SCORE_EGDB_BOUND || alone.score < -SCORE_EGDB_BOUND;
        bool forced_both = both.score > SCORE_EGDB_BOUND || both.score < -SCORE_EGDB_BOUND;
        if (forced_alone ? both.score != alone.score
                         : forced_both || abs(both.score - alone.score) > SCORE_SLACK)
            fail_msg("%s %s: two threads score %d, one %d", v->name, fen, both.score, alone.score);
        all_nodes += both.nodes;
        main_nodes += two->nodes;
    }
    /* the helper ran: at least its first 4096 nodes before any stop request is read */
    if (all_nodes <= main_nodes)
        fail_msg("%s: the helper thread searched no node (%llu in all, %llu by the main thread)", v->name,
                 (unsigned long long)all_nodes, (unsigned long long)main_nodes);
    searcher_free(one);
    searcher_free(two);
}

static void test_bench_positions_turkish(void **state)
{
    (void)state;
    bench_positions_on_two_threads(&turkish_variant);
}

static void test_bench_positions_international(void **state)
{
    (void)state;
    bench_positions_on_two_threads(&international_variant);
}

/* The first iteration that reported a forced win (0: none). */
static void note_first_win(void *ctx, const SearchInfo *info)
{
    int *first = ctx;
    if (!*first && info->score > SCORE_WIN_BOUND)
        *first = info->depth;
}

static void test_forced_wins_same_depth(void **state)
{
    (void)state;
    /* test_win_scores_shortest proves each length by exhaustive search */
    static const struct { const char *fen; int plies; } wins[] = {
        { "W:Wf2,g2,h3,Kd1:Bh2", 1 },
        { "W:Wb2,c2,b3,c3,Ke1:Ba2,a3", 1 },
        { "W:Wf3,d5,Ke6,Kd8:Bf2,b7", 5 },
        { "W:We3,a4:Bd5", 7 },
        { "B:Wa3:Ba5,c6,g6", 7 },
        { "W:Wa2,g2,a3:Bc3", 9 },
    };
    const Variant *v = &turkish_variant;
    Rules rules = rules_default(v);
    WEIGHTS_SCOPED w = default_weights(v);
    Searcher *one = searcher_with_threads(v, &rules, &w, 1), *two = searcher_with_threads(v, &rules, &w, 2);
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++) {
        Position pos;
        read_fen(v, wins[i].fen, &pos);
        SearchLimits limits = { .depth = wins[i].plies + 3 };
        int first_one = 0, first_two = 0;
        searcher_clear(one);
        search(one, &pos, NULL, 0, &limits, note_first_win, &first_one);
        searcher_clear(two);
        SearchInfo info = search(two, &pos, NULL, 0, &limits, note_first_win, &first_two);
        if (info.score != SCORE_WIN - wins[i].plies || first_two < 1 || first_two > first_one)
            fail_msg("%s: two threads score %d (win in %d is %d), first at depth %d (one thread: %d)",
                     wins[i].fen, info.score, wins[i].plies, SCORE_WIN - wins[i].plies, first_two, first_one);
        assert_true(is_legal(v, &rules, &pos, &info.pv[0]));
    }
    searcher_free(one);
    searcher_free(two);
}

/* A node limit counts every thread's nodes: the search ends past it with a legal move. */
static void test_node_limit_counts_all_threads(void **state)
{
    (void)state;
    const Variant *v = &turkish_variant;
    Rules rules = rules_default(v);
    WEIGHTS_SCOPED w = default_weights(v);
    Searcher *s = searcher_with_threads(v, &rules, &w, 2);
    Position pos;
    v->start(&pos);
    SearchLimits limits = { .nodes = 200000 };
    SearchInfo info = search(s, &pos, NULL, 0, &limits, NULL, NULL);
    assert_true(info.nodes >= limits.nodes);
    assert_true(info.depth >= 1 && is_legal(v, &rules, &pos, &info.pv[0]));
    searcher_free(s);
}

typedef struct StopLater {
    atomic_bool *flag;
} StopLater;

static void *stop_after_a_while(void *arg)
{
    StopLater *later = arg;
    nanosleep(&(struct timespec){ .tv_nsec = 200 * 1000 * 1000 }, NULL);
    atomic_store(later->flag, true);
    return NULL;
}

/* The stop request (Ctrl-C, Hub's stop) ends an unlimited two-thread search: search()
 * returns, helpers joined, with the last completed iteration's move.  (A hang fails the
 * test by its timeout, not by a clock here.) */
static void test_stop_request_ends_the_search(void **state)
{
    (void)state;
    const Variant *v = &international_variant;
    Rules rules = rules_default(v);
    WEIGHTS_SCOPED w = default_weights(v);
    Searcher *s = searcher_with_threads(v, &rules, &w, 2);
    atomic_bool stop = false;
    s->stop_request = &stop;
    Position pos;
    v->start(&pos);
    pthread_t stopper;
    StopLater later = { &stop };
    assert_int_equal(pthread_create(&stopper, NULL, stop_after_a_while, &later), 0);
    SearchInfo info = search(s, &pos, NULL, 0, &(SearchLimits){ 0 }, NULL, NULL);
    pthread_join(stopper, NULL);
    assert_true(info.interrupted);
    assert_true(info.pv_length >= 1 && is_legal(v, &rules, &pos, &info.pv[0]));
    searcher_free(s);
}

/* Two threads, then one again: the one-thread search is the deterministic one, node for
 * node (the pinned bench signature of depth 6), though the helpers have come and gone. */
static void test_back_to_one_thread_is_deterministic(void **state)
{
    (void)state;
    const Variant *v = &turkish_variant;
    Rules rules = rules_default(v);
    WEIGHTS_SCOPED w = default_weights(v);
    Searcher *s = searcher_new(v, &rules, &w, BENCH_HASH_MB);
    assert_non_null(s);
    assert_true(searcher_set_threads(s, 2));
    assert_false(searcher_set_threads(s, 0));
    assert_false(searcher_set_threads(s, SEARCH_THREADS_MAX + 1));
    assert_int_equal(s->threads, 2);
    Position pos;
    read_fen(v, v->bench_fens[0], &pos);
    search_to(s, &pos, 6);
    assert_true(searcher_set_threads(s, 1));
    uint64_t nodes = 0;
    for (int i = 0; i < v->bench_count; i++) {
        read_fen(v, v->bench_fens[i], &pos);
        nodes += search_to(s, &pos, BENCH_SIGNATURE_DEPTH).nodes;
    }
    char text[64];
    snprintf(text, sizeof text, "bench depth %d: %llu", BENCH_SIGNATURE_DEPTH, (unsigned long long)nodes);
    assert_string_equal(text, PINNED_SIGNATURE);
    searcher_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_positions_turkish),
        cmocka_unit_test(test_bench_positions_international),
        cmocka_unit_test(test_forced_wins_same_depth),
        cmocka_unit_test(test_node_limit_counts_all_threads),
        cmocka_unit_test(test_stop_request_ends_the_search),
        cmocka_unit_test(test_back_to_one_thread_is_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
