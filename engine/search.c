/* Iterative deepening, alpha-beta with principal variation search, a transposition table,
 * killer, counter-move and history move ordering, pruning near the horizon, and a
 * quiescence that never stops while a capture is pending (in draughts a capture is forced,
 * so "standing pat" there would be illegal); and Lazy SMP: helper threads searching the same
 * root into the same table, whose entries they fill for the main thread. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bitboard.h"
#include "evaluate.h"
#include "game.h"
#include "move.h"
#include "position.h"
#include "search.h"
#include "table_memory.h"
#include "time_manager.h"
#include "variant.h"

enum { BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/* Steps 4b and 7a: the depths near the horizon that are pruned, and the margin a ply. */
#define FUTILITY_DEPTH 3
#define FUTILITY_MARGIN 40
/* Step 8: the bound of a history value. */
#define HISTORY_MAX (1 << 14)
/* Step 4c: the depth from which the table's move is tested for singularity, and the margin
 * a ply (hundredths of a man) the other moves must stay below its score. */
#define SINGULAR_DEPTH 6
#define SINGULAR_MARGIN 2

/* A table entry is two words that threads write and read without a lock: the data and the
 * key XOR the data.  Two threads writing one entry at once may leave one's key word with the
 * other's data word, and then their XOR matches neither key: a torn entry is never trusted.
 * Relaxed atomics are plain loads and stores on common machines, and no data race in C11. */
struct TTEntry {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;  /* a TTData packed by tt_pack */
};
typedef struct TTData {
    int16_t score;       /* wins stored as distance from this node, not from the root */
    int8_t depth;
    uint8_t bound;
    uint8_t from, to;    /* best move, matched back by (from, to, captured hash) */
    uint16_t captured;   /* 16-bit hash of the captured set */
} TTData;

static uint64_t tt_pack(const TTData *d)
{
    return (uint64_t)(uint16_t)d->score | (uint64_t)(uint8_t)d->depth << 16 | (uint64_t)d->bound << 24
         | (uint64_t)d->from << 32 | (uint64_t)d->to << 40 | (uint64_t)d->captured << 48;
}

/* The entry's data when it holds key (false: another position's, or torn). */
static bool tt_probe(TTEntry *e, uint64_t key, TTData *out)
{
    uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
    uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
    if ((check ^ data) != key)
        return false;
    *out = (TTData){ .score = (int16_t)(uint16_t)data, .depth = (int8_t)(uint8_t)(data >> 16),
                     .bound = (uint8_t)(data >> 24), .from = (uint8_t)(data >> 32),
                     .to = (uint8_t)(data >> 40), .captured = (uint16_t)(data >> 48) };
    return true;
}

static void tt_store(TTEntry *e, uint64_t key, const TTData *d)
{
    uint64_t data = tt_pack(d);
    atomic_store_explicit(&e->check, key ^ data, memory_order_relaxed);
    atomic_store_explicit(&e->data, data, memory_order_relaxed);
}

/* A node's moves and their ordering keys (about 40 KB: heap, not stack, for 128 plies). */
struct PlyMoves {
    MoveList list;
    int32_t keys[MAX_MOVES];
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint16_t captured_hash(Bitboard b) { return (uint16_t)((b * 0x9E3779B97F4A7C15ULL) >> 48); }

Searcher *searcher_new(const Variant *v, const Rules *rules, const Weights *w, size_t tt_megabytes)
{
    Searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t entries = 1;
    while (entries * 2 * sizeof(TTEntry) <= tt_megabytes * 1024 * 1024)
        entries *= 2;
    s->tt = table_memory_new(entries * sizeof(TTEntry));
    s->ply_moves = calloc(MAX_PLY, sizeof(PlyMoves));
    s->eval_inc = calloc(MAX_PLY, sizeof(EvalInc));
    if (!s->tt || !s->ply_moves || !s->eval_inc) {
        searcher_free(s);
        return NULL;
    }
    s->tt_mask = entries - 1;
    s->owns_tt = true;
    s->variant = v;
    s->rules = *rules;
    s->weights = w;
    s->threads = 1;
    return s;
}

void searcher_free(Searcher *s)
{
    if (s) {
        searcher_set_threads(s, 1);
        if (s->owns_tt)
            free(s->tt);
        free(s->ply_moves);
        free(s->eval_inc);
        free(s);
    }
}

/* The ordering tables: what a search learns besides the table. */
static void clear_ordering(Searcher *s)
{
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, sizeof s->history);
    memset(s->counter_moves, 0, sizeof s->counter_moves);
}

void searcher_clear(Searcher *s)
{
    memset(s->tt, 0, (s->tt_mask + 1) * sizeof(TTEntry));
    clear_ordering(s);
    for (int i = 0; i < s->threads - 1; i++)
        clear_ordering(s->helpers[i]);
}

/* A helper: its own stacks and ordering tables, s's table. */
static Searcher *helper_new(Searcher *s)
{
    Searcher *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->threads = 1; /* before searcher_free may see it */
    h->ply_moves = calloc(MAX_PLY, sizeof(PlyMoves));
    h->eval_inc = calloc(MAX_PLY, sizeof(EvalInc));
    if (!h->ply_moves || !h->eval_inc) {
        searcher_free(h);
        return NULL;
    }
    h->tt = s->tt;
    h->tt_mask = s->tt_mask;
    h->is_helper = true;
    h->stop_request = &s->helpers_stop;
    return h;
}

bool searcher_set_threads(Searcher *s, int threads)
{
    if (threads < 1 || threads > SEARCH_THREADS_MAX)
        return false;
    if (threads == s->threads)
        return true;
    Searcher **helpers = NULL;
    if (threads > 1) {
        helpers = calloc((size_t)threads - 1, sizeof *helpers);
        if (!helpers)
            return false;
    }
    int keep = (threads < s->threads ? threads : s->threads) - 1;
    for (int i = 0; i < keep; i++)
        helpers[i] = s->helpers[i];
    for (int i = keep; i < threads - 1; i++) {
        helpers[i] = helper_new(s);
        if (!helpers[i]) {
            for (int j = keep; j < i; j++)
                searcher_free(helpers[j]);
            free(helpers);
            return false;
        }
    }
    for (int i = keep; i < s->threads - 1; i++)
        searcher_free(s->helpers[i]);
    free(s->helpers);
    s->helpers = helpers;
    s->threads = threads;
    return true;
}

char *score_to_text(int score, char *buf, size_t len)
{
    if (score > SCORE_WIN_BOUND)
        snprintf(buf, len, "win%d", SCORE_WIN - score);
    else if (score < -SCORE_WIN_BOUND)
        snprintf(buf, len, "loss%d", SCORE_WIN + score);
    else
        snprintf(buf, len, "%d", score);
    return buf;
}

/* Win scores in the table (forced and the database's) count from the node, so they stay
 * right at any ply. */
static int score_to_tt(int score, int ply)
{
    return score > SCORE_EGDB_BOUND ? score + ply : score < -SCORE_EGDB_BOUND ? score - ply : score;
}
static int score_from_tt(int score, int ply)
{
    return score > SCORE_EGDB_BOUND ? score - ply : score < -SCORE_EGDB_BOUND ? score + ply : score;
}

/* The static evaluation at a leaf (from the incremental state of its ply), with the
 * self-play noise if any. */
static int leaf_eval(const Searcher *s, const Position *pos, int ply, uint64_t key)
{
    int score = evaluate_inc(&s->eval_inc[ply], pos, s->weights);
    if (s->noise > 0) {
        uint64_t h = (key ^ s->noise_seed) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
        score += (int)(h % (uint64_t)(2 * s->noise + 1)) - s->noise;
    }
    return score;
}

/* The nodes of s and of its helpers so far (their counts of at most 1023 nodes ago). */
static uint64_t nodes_of_all_threads(const Searcher *s)
{
    uint64_t total = s->nodes;
    for (int i = 0; i < s->threads - 1; i++)
        total += atomic_load_explicit(&s->helpers[i]->published_nodes, memory_order_relaxed);
    return total;
}

static bool out_of_budget(Searcher *s)
{
    if (s->is_helper && (s->nodes & 1023) == 0)
        atomic_store_explicit(&s->published_nodes, s->nodes, memory_order_relaxed);
    if (s->stop_request && (s->nodes & (STOP_POLL_NODES - 1)) == 0
        && atomic_load_explicit(s->stop_request, memory_order_relaxed))
        return true;
    if (!s->may_stop)
        return false;
    if (s->limits.nodes && s->threads == 1 && s->nodes >= s->limits.nodes)
        return true;
    if (s->limits.nodes && s->threads > 1 && (s->nodes & 1023) == 0 && nodes_of_all_threads(s) >= s->limits.nodes)
        return true;
    if (s->limits.movetime_ms && (s->nodes & 1023) == 0
        && (now_seconds() - s->start_time) * 1000.0 >= s->limits.movetime_ms) {
        s->out_of_time = true;
        return true;
    }
    return false;
}

/* The endgame database's word on a node, as a score and the bound it is (false: none).
 * A draw is exact: the rules' move-count draws, which the database leaves out, only add
 * draws.  A win is a lower bound (a loss an upper one): the winning side can do no worse
 * than a draw, and wins when the counters let it.  So a win counts as one only while the
 * counters are far from their limits, which is taken to mean that twice the plies counted
 * so far would not end the game yet (game_end, the rules' own judge); later it is a lower
 * bound of 0.  A win scores SCORE_EGDB_WIN less the ply (a nearer one is better) plus the
 * evaluation, bounded, so that among won positions the search still heads for material
 * and the catch (a real forced win scores above all of them). */
#define EGDB_EVAL_SPAN 1000
static bool egdb_score(Searcher *s, const Position *pos, int ply, int since_irreversible, int endgame_plies,
                       int *score, int *bound)
{
    if (popcount(position_occupied(pos)) > s->egdb.max_pieces)
        return false;
    s->egdb_probes++;
    int value = s->egdb.probe(s->egdb.ctx, pos);
    if (value != SEARCH_PROBE_WIN && value != SEARCH_PROBE_LOSS && value != SEARCH_PROBE_DRAW)
        return false;
    s->egdb_hits++;
    *bound = value == SEARCH_PROBE_DRAW ? BOUND_EXACT : value == SEARCH_PROBE_WIN ? BOUND_LOWER : BOUND_UPPER;
    *score = 0;
    if (value == SEARCH_PROBE_DRAW)
        return true;
    DrawCounts doubled = { 2 * since_irreversible, 0, 2 * endgame_plies };
    if (game_end(s->variant, pos, &s->rules, true, doubled).result != RESULT_NONE)
        return true; /* near a counter's limit: only "no worse than a draw" */
    int eval = evaluate_inc(&s->eval_inc[ply], pos, s->weights);
    eval = eval > EGDB_EVAL_SPAN ? EGDB_EVAL_SPAN : eval < -EGDB_EVAL_SPAN ? -EGDB_EVAL_SPAN : eval;
    *score = (value == SEARCH_PROBE_WIN ? SCORE_EGDB_WIN - ply : -(SCORE_EGDB_WIN - ply)) + eval;
    return true;
}

static int clamp_score(int score, int floor, int ceiling)
{
    return score < floor ? floor : score > ceiling ? ceiling : score;
}

/* Move ordering in named stages, best first.  A move's key is its stage above everything
 * else, then an order within the stage; only the QUIET stage is ever reduced. */
enum OrderStage { STAGE_QUIET, STAGE_KILLER_2, STAGE_KILLER_1, STAGE_CAPTURE, STAGE_TT_MOVE };
#define STAGE_SHIFT 27 /* within-stage orders stay below 1 << 27 (history < 1 << 25) */

static int32_t order_key(int stage, int32_t within) { return ((int32_t)stage << STAGE_SHIFT) + within; }
static int stage_of(int32_t key) { return key >> STAGE_SHIFT; }

/* Writes the moves' keys; returns the index of the first move with the highest key, the
 * one pick_move would bring to the front first. */
static int score_moves(const Searcher *s, const Position *pos, const MoveList *list,
                       const TTData *tt, int ply, int32_t *keys)
{
    int first = 0;
    int them = !pos->side;
    uint16_t prev = ply > 0 ? s->path_moves[ply - 1] : 0;
    uint16_t counter = prev ? s->counter_moves[prev >> 8][prev & 255] : 0;
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        int32_t k;
        if (tt && m->from == tt->from && m->to == tt->to && captured_hash(m->captured) == tt->captured)
            k = order_key(STAGE_TT_MOVE, 0);
        else if (m->captured) /* kings first, then promotions */
            k = order_key(STAGE_CAPTURE, popcount(m->captured & pos->kings[them]) * 16 + m->promotes);
        else if (move_same(m, &s->killers[ply][0]))
            k = order_key(STAGE_KILLER_1, 0);
        else if (move_same(m, &s->killers[ply][1]))
            k = order_key(STAGE_KILLER_2, 0);
        else if (counter && !m->captured && (m->from << 8 | m->to) == counter)
            k = order_key(STAGE_QUIET, 1 << 26); /* the counter move (step 7c) */
        else /* promotions first, then by history (step 8) */
            k = order_key(STAGE_QUIET, (m->promotes << 25) + HISTORY_MAX + s->history[m->from][m->to]);
        keys[i] = k;
        if (k > keys[first])
            first = i;
    }
    return first;
}

/* Exchanges moves i and best and their keys. */
static void swap_moves(MoveList *list, int32_t *keys, int i, int best)
{
    if (best != i) {
        Move m = list->moves[i];
        list->moves[i] = list->moves[best];
        list->moves[best] = m;
        int32_t k = keys[i];
        keys[i] = keys[best];
        keys[best] = k;
    }
}

/* Brings the best remaining move to index i (selection sort, lazily): the first of the
 * highest key, found as the highest key (a loop with no branch, which the compiler
 * vectorizes), then its first place. */
static void pick_move(MoveList *list, int32_t *keys, int i)
{
    int32_t top = keys[i];
    for (int j = i + 1; j < list->count; j++)
        top = keys[j] > top ? keys[j] : top;
    int best = i;
    while (keys[best] != top)
        best++;
    swap_moves(list, keys, i, best);
}

/* Whether the side not to move could capture if it were its turn: the side to move is
 * threatened, and a static evaluation would miss the loss. */
static bool threatened(const Variant *v, const Position *pos)
{
    Position other = *pos;
    other.side = !pos->side;
    return v->capture_pending(&other);
}

/* History with gravity: a bonus (or a malus when negative) pulls toward +-HISTORY_MAX. */
static void history_update(int32_t *h, int bonus)
{
    *h += bonus - *h * abs(bonus) / HISTORY_MAX;
}

static int alphabeta(Searcher *s, const Position *pos, int depth, int ply, int alpha, int beta,
                     int since_irreversible, int endgame_plies)
{
    const Variant *v = s->variant;
    bool pv_node = beta - alpha > 1;
    s->pv_length[ply] = 0;

    /* Step 1. Budget: once out of nodes or time, unwind (the iteration is discarded). */
    if (s->stopped || (ply > 0 && out_of_budget(s))) {
        s->stopped = true;
        return 0;
    }
    s->nodes++;
    if (s->check_eval) {
        s->eval_checks++;
        s->eval_mismatches += evaluate_inc(&s->eval_inc[ply], pos, s->weights) != evaluate(pos, s->weights);
    }

    /* Step 2. The end of the game, decided as in play (game_end): no legal move, one piece
     * each, repetition, no progress.  Not at the root, which is asked for a move.  A pending
     * capture is a legal move; otherwise one quiet move is enough, and is looked for, not
     * counted (at most nodes no move is generated: the leaves, the table's cuts). */
    uint64_t key = s->keys[s->game_keys + ply];
    bool capture = v->capture_pending(pos);
    if (ply > 0) {
        bool can_move = capture
                     || (v->has_quiet_move ? v->has_quiet_move(pos) : v->count(pos, &s->rules, false) > 0);
        /* a repetition inside the tree counts twice (count_repetitions) */
        int repetitions = count_repetitions(s->keys, s->game_keys + ply, since_irreversible, s->game_keys);
        DrawCounts counts = { since_irreversible, repetitions, endgame_plies };
        GameEnd end = game_end(v, pos, &s->rules, can_move, counts);
        if (end.result != RESULT_NONE)
            return result_for_side(end.result, pos->side) * (SCORE_WIN - ply);
    }

    /* Step 2b. The endgame database, as strong engines use theirs: an exact value, or a
     * bound outside the window, ends the node; a bound inside it (along the principal
     * variation) is searched on and bounds the result.  Not at the root, which must choose
     * a move; a pending capture is no obstacle (the tables hold such positions). */
    int egdb_floor = -SCORE_INF, egdb_ceiling = SCORE_INF;
    if (ply > 0 && s->egdb.probe) {
        int egdb, bound;
        if (egdb_score(s, pos, ply, since_irreversible, endgame_plies, &egdb, &bound)) {
            if (bound == BOUND_EXACT || (bound == BOUND_LOWER && egdb >= beta)
                || (bound == BOUND_UPPER && egdb <= alpha))
                return egdb;
            *(bound == BOUND_LOWER ? &egdb_floor : &egdb_ceiling) = egdb;
        }
    }

    /* Step 3. Horizon: a quiet position is evaluated; a pending capture is searched on. */
    if ((depth <= 0 && !capture) || ply >= MAX_PLY - 1)
        return clamp_score(leaf_eval(s, pos, ply, key), egdb_floor, egdb_ceiling);

    /* Step 4. Transposition table. */
    TTEntry *tte = &s->tt[key & s->tt_mask];
    TTData tt_data;
    const TTData *tt_move = NULL;
    const bool excluding = s->excluded[ply].on; /* step 4c's search of this node */
    int tts = 0;
    if (tt_probe(tte, key, &tt_data)) {
        tt_move = &tt_data;
        tts = score_from_tt(tt_data.score, ply);
        if (!pv_node && ply > 0 && !excluding && tt_data.depth >= depth
            && (tt_data.bound == BOUND_EXACT || (tt_data.bound == BOUND_LOWER && tts >= beta)
                || (tt_data.bound == BOUND_UPPER && tts <= alpha)))
            return tts;
    }

    /* Step 4b. Reverse futility (~+28 Elo International with step 7a's pruning, at 20 000
     * nodes a move; ~+31 Turkish with steps 7a and 8): near the horizon, off the principal
     * variation, a quiet position whose evaluation stands 0.4 man a ply above beta fails
     * high without a search, unless the other side threatens a capture (the evaluation
     * would miss that loss).  At 100 ms a move steps 4b, 7a and 8 together: Turkish +23.6
     * [+2.6, +44.8] (280 games), International -2.2 [-25.1, +20.8] (160 games) and
     * 0.0 [-16.5, +16.5] (310 more), against the build without them (docs/experiments.md). */
    if (!pv_node && ply > 0 && !excluding && depth <= FUTILITY_DEPTH && !capture && beta < SCORE_WIN_BOUND
        && beta > -SCORE_WIN_BOUND) {
        int eval = leaf_eval(s, pos, ply, key);
        if (eval - FUTILITY_MARGIN * depth >= beta && !threatened(v, pos))
            return eval;
    }

    /* Step 4c. Singular extension (+26 [+13, +39] Elo International at 100 ms a move, 400
     * games; +51 at 200 000 nodes, +23 Turkish at 200 000 nodes; docs/experiments.md): from
     * depth 6, off the root, when the table's move proved at least its score a few plies
     * shallower, the node is searched again at half the depth without that move, against
     * its score less 0.02 man a ply.  If every other move stays below, the table's move is
     * the only good one ("singular") and is searched a ply deeper, as a forced move is
     * (step 6).  The tree's plies stay below twice the iteration's depth. */
    bool singular = false;
    if (!excluding && ply > 0 && depth >= SINGULAR_DEPTH && tt_move && tt_data.depth >= depth - 3
        && (tt_data.bound & BOUND_LOWER) && tts < SCORE_WIN_BOUND && tts > -SCORE_WIN_BOUND
        && ply < 2 * s->iteration_depth) {
        int singular_beta = tts - SINGULAR_MARGIN * depth;
        s->excluded[ply].on = true;
        s->excluded[ply].from = tt_data.from;
        s->excluded[ply].to = tt_data.to;
        s->excluded[ply].captured = tt_data.captured;
        int others = alphabeta(s, pos, (depth - 1) / 2, ply, singular_beta - 1, singular_beta, since_irreversible,
                               endgame_plies);
        s->excluded[ply].on = false;
        s->pv_length[ply] = 0; /* that search's line is not this node's */
        if (s->stopped)
            return 0;
        singular = others < singular_beta;
    }

    /* Step 5. Moves (there is one: the root is searched only when it has one, and step 2
     * ended every other node without). */
    MoveList *list = &s->ply_moves[ply].list;
    int32_t *keys = s->ply_moves[ply].keys;
    if (v->generate_known)
        v->generate_known(pos, &s->rules, capture, list);
    else
        v->generate(pos, &s->rules, list);

    /* Step 6. A forced move costs no depth: forced lines are read to their end. */
    if (list->count == 1 && depth > 0)
        depth++;

    /* the first pick is known from the scoring: a cut on the first move (most nodes that
     * generate) scans the list once, not twice */
    int first = score_moves(s, pos, list, tt_move, ply, keys);
    /* The endgame count runs on while the variant's endgame class stays (as in game.c). */
    int endgame_class = v->endgame_class ? v->endgame_class(pos) : 0;

    /* Step 7. Principal variation search with late move reductions. */
    int best = -SCORE_INF, alpha0 = alpha;
    Move best_move = list->moves[0];
    int picked = 0; /* moves at the front already in order */
    for (int i = 0; i < list->count; i++) {
        if (i == 0)
            swap_moves(list, keys, 0, first);
        else if (i >= picked)
            pick_move(list, keys, i);
        const Move *m = &list->moves[i];
        if (excluding && m->from == s->excluded[ply].from && m->to == s->excluded[ply].to
            && captured_hash(m->captured) == s->excluded[ply].captured)
            continue;
        /* A node that did not cut on its first move will likely search them all: the next
         * move is picked now and its child's table entry fetched while this one is searched
         * (the same tree, 1.05x faster over six paired timings, 0.96-1.11x: experiments.md). */
        if (i >= 1 && i + 1 < list->count) {
            pick_move(list, keys, i + 1);
            picked = i + 2;
            __builtin_prefetch(&s->tt[key_after_move(pos, key, &list->moves[i + 1]) & s->tt_mask]);
        }
        /* Step 7a. Late move pruning (~+28 Elo International with step 4b): near the
         * horizon, off the principal variation, the quiet moves ordered after the first
         * 2 + 3 * depth are not searched, once a move that does not lose is in hand. */
        if (!pv_node && depth <= FUTILITY_DEPTH && !capture && i >= 2 + 3 * depth
            && stage_of(keys[i]) == STAGE_QUIET && !m->promotes && best > -SCORE_WIN_BOUND)
            continue;
        Position child = *pos;
        uint64_t child_key = key_after_move(pos, key, m);
        __builtin_prefetch(&s->tt[child_key & s->tt_mask]); /* the child probes it soon */
        s->keys[s->game_keys + ply + 1] = child_key;
        s->path_moves[ply] = (uint16_t)(m->from << 8 | m->to);
        int child_since = move_irreversible(v, pos, m) ? 0 : since_irreversible + 1;
        v->make(&child, m);
        eval_inc_child(&s->eval_inc[ply + 1], &s->eval_inc[ply], pos, &child, s->weights);
        int child_endgame = v->endgame_class && v->endgame_class(&child) == endgame_class ? endgame_plies + 1 : 0;

        int score;
        if (i == 0) {
            int extension = singular && list->count > 1 && stage_of(keys[0]) == STAGE_TT_MOVE;
            score = -alphabeta(s, &child, depth - 1 + extension, ply + 1, -beta, -alpha, child_since, child_endgame);
        } else {
            /* Step 7b. Late quiet moves are searched shallower first, as Scan does: from
             * depth 2, the second move on away from the principal variation and the fourth
             * on along it; two plies less from the fifth move on off it.  Not once a win is
             * in hand: a reduced move could hide a faster one.  (Against depth >= 3, the
             * fourth move on, two plies from the ninth: +19 [-4, +42] Elo Turkish, +34
             * [+8, +59] International at 20 000 nodes a move; docs/experiments.md.) */
            int reduction = 0;
            if (depth >= 2 && i >= (pv_node ? 3 : 1) && stage_of(keys[i]) == STAGE_QUIET && !m->promotes
                && alpha < SCORE_WIN_BOUND)
                reduction = !pv_node && i >= 4 ? 2 : 1;
            /* and by the move's history (step 8): one ply less for a move that often
             * proves best, one more for one that more often failed, off the PV from depth 3 */
            if (reduction) {
                int32_t h = s->history[m->from][m->to];
                if (h > HISTORY_MAX / 2)
                    reduction--;
                else if (h < 0 && !pv_node && depth >= 3)
                    reduction++;
            }
            score = -alphabeta(s, &child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, child_since, child_endgame);
            if (score > alpha && reduction)
                score = -alphabeta(s, &child, depth - 1, ply + 1, -alpha - 1, -alpha, child_since, child_endgame);
            if (score > alpha && score < beta)
                score = -alphabeta(s, &child, depth - 1, ply + 1, -beta, -alpha, child_since, child_endgame);
        }
        if (s->stopped)
            return 0;
        if (ply == 0)
            s->root_moves_done++;
        if (score > best) {
            best = score;
            best_move = *m;
            if (ply == 0)
                s->root_score = score;
            if (score > alpha) {
                alpha = score;
                /* the PV: this move, then the child's line */
                s->pv_table[ply][0] = *m;
                int n = s->pv_length[ply + 1];
                memcpy(&s->pv_table[ply][1], s->pv_table[ply + 1], (size_t)n * sizeof(Move));
                s->pv_length[ply] = n + 1;
            }
        }
        if (alpha >= beta) {
            /* Step 7c. A quiet move that refutes: remember it for the siblings (killer), and
             * as the answer to the move before it (counter move, ordered after the killers). */
            if (!m->captured) {
                if (!move_same(m, &s->killers[ply][0])) {
                    s->killers[ply][1] = s->killers[ply][0];
                    s->killers[ply][0] = *m;
                }
                if (ply > 0) {
                    uint16_t prev = s->path_moves[ply - 1];
                    s->counter_moves[prev >> 8][prev & 255] = (uint16_t)(m->from << 8 | m->to);
                }
            }
            break;
        }
    }
    /* Step 8. History with a malus, as Scan keeps it: the quiet move that proved best gains,
     * the quiet moves searched before it lose (with counter moves and the history's part in
     * step 7b: ~+12 Elo International at 20 000 nodes a move, not significant alone). */
    if (best > alpha0 && !best_move.captured && list->count > 1) {
        int bonus = depth * depth > 400 ? 400 : depth * depth;
        for (int i = 0; i < list->count; i++) {
            const Move *m = &list->moves[i];
            if (move_same(m, &best_move)) {
                history_update(&s->history[m->from][m->to], bonus);
                break;
            }
            if (!m->captured)
                history_update(&s->history[m->from][m->to], -bonus);
        }
    }

    /* Step 4c's search of the node without its table move is no result for the table. */
    if (excluding)
        return best == -SCORE_INF ? alpha : best;

    /* Step 9. Remember the result, within the database's bound if any. */
    int bound = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    if (best < egdb_floor || best > egdb_ceiling) {
        bound = best < egdb_floor ? BOUND_LOWER : BOUND_UPPER;
        best = clamp_score(best, egdb_floor, egdb_ceiling);
    }
    tt_store(tte, key, &(TTData){ .score = (int16_t)score_to_tt(best, ply),
                                  .depth = (int8_t)(depth < 0 ? 0 : depth > 127 ? 127 : depth),
                                  .bound = (uint8_t)bound, .from = best_move.from, .to = best_move.to,
                                  .captured = captured_hash(best_move.captured) });
    return best;
}

/* One iteration at the root.  From depth 4 on, as Scan does, a window of 0.1 man around the
 * last iteration's score first, widened (doubled) on the side that failed until it holds
 * the score; the full window after half a man, or when the score is a forced result.
 * (+24 [+3, +46] Elo Turkish, +26 [+1, +50] International at 20 000 nodes a move;
 * docs/experiments.md.) */
#define ASPIRATION_WINDOW 10
static int root_search(Searcher *s, const Position *pos, int depth, int last_score, int nhistory)
{
    if (depth >= 4 && last_score > -SCORE_EGDB_BOUND && last_score < SCORE_EGDB_BOUND) {
        for (int below = ASPIRATION_WINDOW, above = ASPIRATION_WINDOW; below < 500 && above < 500;) {
            int alpha = last_score - below, beta = last_score + above;
            s->root_moves_done = 0;
            int score = alphabeta(s, pos, depth, 0, alpha, beta, nhistory, s->root_endgame_plies);
            if (s->stopped || (score > alpha && score < beta))
                return score;
            if (score <= alpha)
                below *= 2;
            else
                above *= 2;
        }
        s->root_moves_done = 0;
    }
    return alphabeta(s, pos, depth, 0, -SCORE_INF, SCORE_INF, nhistory, s->root_endgame_plies);
}

/* A search's start, for the main thread and each helper alike. */
static void search_begin(Searcher *s, const Position *pos, const uint64_t *history, int nhistory,
                         const SearchLimits *limits)
{
    s->limits = *limits;
    s->nodes = 0;
    atomic_store_explicit(&s->published_nodes, 0, memory_order_relaxed);
    s->egdb_probes = s->egdb_hits = 0;
    s->stopped = false;
    s->start_time = now_seconds();
    int keep = nhistory < 256 ? nhistory : 256;
    if (keep)
        memcpy(s->keys, history + (nhistory - keep), (size_t)keep * sizeof(uint64_t));
    s->game_keys = keep;
    s->keys[keep] = position_key(pos);
    memset(s->killers, 0, sizeof s->killers);
    eval_inc_init(&s->eval_inc[0], pos, s->weights);
}

/* A helper thread's search: its own iterative deepening from first_depth until its owner
 * stops it, leaving in the shared table what it finds.  The threads differ by timing: each
 * meets the others' entries at other moments, so each orders and cuts differently, and
 * together they cover more of the tree.  (A helper kept one ply ahead of the main thread,
 * or one from depth 2, did no better on the Turkish bench positions: docs/experiments.md.)
 * With more helpers every second one starts at depth 2, for some diversity. */
typedef struct HelperRun {
    Searcher *s;
    Position pos;
    int nhistory;
    int first_depth;
    bool started;
    pthread_t thread;
} HelperRun;

static void *helper_search(void *arg)
{
    HelperRun *run = arg;
    Searcher *h = run->s;
    int score = 0;
    for (int depth = run->first_depth; depth <= SEARCH_DEPTH_MAX; depth++) {
        h->root_moves_done = 0;
        h->iteration_depth = depth;
        int iteration = root_search(h, &run->pos, depth, score, run->nhistory);
        if (h->stopped)
            break;
        score = iteration;
    }
    atomic_store_explicit(&h->published_nodes, h->nodes, memory_order_relaxed);
    return NULL;
}

/* Starts s's helpers on pos (their settings copied from s: a caller may have changed them
 * since the last search). */
static void helpers_start(Searcher *s, HelperRun *runs, const Position *pos, const uint64_t *history,
                          int nhistory)
{
    atomic_store(&s->helpers_stop, false);
    for (int i = 0; i < s->threads - 1; i++) {
        Searcher *h = s->helpers[i];
        h->variant = s->variant;
        h->rules = s->rules;
        h->weights = s->weights;
        h->tt = s->tt;
        h->tt_mask = s->tt_mask;
        h->egdb = s->egdb;
        h->noise = s->noise;
        h->noise_seed = s->noise_seed;
        h->root_endgame_plies = s->root_endgame_plies;
        search_begin(h, pos, history, nhistory, &(SearchLimits){ 0 });
        runs[i] = (HelperRun){ .s = h, .pos = *pos, .nhistory = nhistory, .first_depth = 1 + i % 2 };
        runs[i].started = pthread_create(&runs[i].thread, NULL, helper_search, &runs[i]) == 0;
    }
}

/* Stops and joins s's helpers; adds their database counts to s's. */
static void helpers_join(Searcher *s, HelperRun *runs)
{
    atomic_store(&s->helpers_stop, true);
    for (int i = 0; i < s->threads - 1; i++) {
        if (runs[i].started)
            pthread_join(runs[i].thread, NULL);
        s->egdb_probes += s->helpers[i]->egdb_probes;
        s->egdb_hits += s->helpers[i]->egdb_hits;
    }
}

SearchInfo search(Searcher *s, const Position *pos, const uint64_t *history, int nhistory,
                  const SearchLimits *limits, SearchReport report, void *ctx)
{
    SearchInfo result = { 0 };
    search_begin(s, pos, history, nhistory, limits);
    MoveList list;
    s->variant->generate(pos, &s->rules, &list);
    if (list.count == 0) {
        result.score = -SCORE_WIN;
        return result;
    }
    HelperRun runs[SEARCH_THREADS_MAX - 1];
    if (s->threads > 1)
        helpers_start(s, runs, pos, history, nhistory);
    int max_depth = limits->depth > 0 && limits->depth < SEARCH_DEPTH_MAX ? limits->depth : SEARCH_DEPTH_MAX;
    s->out_of_time = false;
    uint64_t nodes_before = 0, iteration_nodes[2] = { 0, 0 }; /* the two before the last */
    double iteration_start = s->start_time;
    double best_move_changes = 0; /* halves each iteration, +1 when the best move changed */
    for (int depth = 1; depth <= max_depth; depth++) {
        s->may_stop = depth > 1; /* the first iteration always completes */
        s->root_moves_done = 0;
        s->iteration_depth = depth;
        int score = root_search(s, pos, depth, result.score, nhistory);
        if (s->stopped) {
            result.interrupted = s->stop_request && atomic_load(s->stop_request);
            /* Cut by time after the previous best move was searched again: every root move
             * searched so far was searched to this depth, and the best of them is the
             * better answer (root_score and the PV come from this iteration). */
            if (s->out_of_time && !result.interrupted && s->root_moves_done > 0 && s->pv_length[0] > 0) {
                result.score = s->root_score;
                result.pv_length = s->pv_length[0];
                memcpy(result.pv, s->pv_table[0], (size_t)result.pv_length * sizeof(Move));
                result.partial = true;
            }
            break;
        }
        int score_drop = depth > 1 ? result.score - score : 0;
        best_move_changes /= 2;
        if (depth > 1 && s->pv_length[0] > 0 && !move_same(&s->pv_table[0][0], &result.pv[0]))
            best_move_changes += 1;
        result.depth = depth;
        result.score = score;
        result.nodes = s->threads > 1 ? nodes_of_all_threads(s) : s->nodes;
        result.egdb_probes = s->egdb_probes;
        result.egdb_hits = s->egdb_hits;
        result.seconds = now_seconds() - s->start_time;
        result.pv_length = s->pv_length[0];
        memcpy(result.pv, s->pv_table[0], (size_t)result.pv_length * sizeof(Move));
        if (result.pv_length == 0) { /* every move failed low at once: keep the first */
            result.pv[0] = list.moves[0];
            result.pv_length = 1;
        }
        if (report)
            report(ctx, &result);
        /* A forced result does not end the iterations: a deeper one may find it faster. */
        if (s->stopped)
            break;
        if (limits->soft_ms) {
            /* The next iteration takes about this one's time times the growth per iteration,
             * measured over the last two (odd and even depths grow differently), or over
             * one at first; 3 before that. */
            double now = now_seconds(), took = now - iteration_start;
            uint64_t this_iteration = s->nodes - nodes_before;
            double growth = iteration_nodes[0] ? sqrt((double)this_iteration / (double)iteration_nodes[0])
                          : iteration_nodes[1] ? (double)this_iteration / (double)iteration_nodes[1] : 3.0;
            growth = growth < 1.5 ? 1.5 : growth > 8.0 ? 8.0 : growth;
            /* Step 10. The target moves with the search's stability (time_target): even
             * at a 3+0.03 clock, -0.9 [-16.8, +15.0] Elo Turkish over 400 games against
             * the fixed target (docs/experiments.md); kept as the design, which
             * spends a long clock where the search is unsettled. */
            TimeBudget budget = { .soft_ms = limits->soft_ms, .hard_ms = limits->movetime_ms };
            int64_t target = time_target(&budget, best_move_changes, score_drop);
            if ((now - s->start_time + took * growth) * 1000.0 > (double)target)
                break;
            iteration_nodes[0] = iteration_nodes[1];
            iteration_nodes[1] = this_iteration;
            nodes_before = s->nodes;
            iteration_start = now;
        }
    }
    if (s->threads > 1)
        helpers_join(s, runs);
    result.nodes = s->threads > 1 ? nodes_of_all_threads(s) : s->nodes;
    result.egdb_probes = s->egdb_probes;
    result.egdb_hits = s->egdb_hits;
    result.seconds = now_seconds() - s->start_time;
    return result;
}
