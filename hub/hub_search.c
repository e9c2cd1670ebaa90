/* The Hub engine's search (hub_state.h): go starts it on its own thread (or answers from
 * the book), info lines after each iteration, done with the best move; stop, ponder-hit and
 * the hold that makes analysis, an infinite level and an unanswered ponder wait for stop. */
#include <stdio.h>
#include <time.h>

#include "hub_state.h"
#include "hub_text.h"

double hub_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pv_text(const Variant *v, const SearchInfo *info, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < info->pv_length && n + HUB_MOVE_MAX + 1 < len; i++) {
        char m[HUB_MOVE_MAX];
        n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", hub_move_to_text(v, &info->pv[i], m, sizeof m));
    }
}

static void report_info(void *ctx, const SearchInfo *info)
{
    Hub *h = ctx;
    char score[32], pv[MAX_PLY * (HUB_MOVE_MAX + 1)];
    hub_score_to_text(info->score, score, sizeof score);
    pv_text(h->variant, info, pv, sizeof pv);
    HubWriter w = { 0 };
    hub_writer_start(&w, "info");
    hub_writer_argf(&w, "depth", "%d", info->depth);
    hub_writer_arg(&w, "score", score);
    hub_writer_argf(&w, "nodes", "%llu", (unsigned long long)info->nodes);
    hub_writer_argf(&w, "time", "%.3f", info->seconds);
    hub_writer_argf(&w, "nps", "%.2f", info->seconds > 0 ? (double)info->nodes / info->seconds / 1e6 : 0.0);
    hub_writer_arg(&w, "pv", pv);
    hub_send_line(h, &w);
    hub_writer_free(&w);
}

static void *search_thread(void *arg)
{
    Hub *h = arg;
    Game *g = h->game;
    h->searcher->root_endgame_plies = g->endgame_plies;
    const uint64_t *history = &g->keys[g->ply - g->since_capture];
    SearchInfo info = search(h->searcher, &g->pos, history, g->since_capture, &h->limits, report_info, h);

    /* Analysis, an infinite level and an unanswered ponder answer only when told to stop. */
    pthread_mutex_lock(&h->lock);
    while (h->hold && !atomic_load(&h->stop))
        pthread_cond_wait(&h->released, &h->lock);
    pthread_mutex_unlock(&h->lock);
    atomic_store(&h->finishing, true);

    Move best;
    if (info.pv_length > 0)
        best = info.pv[0];
    else { /* stopped within the first iteration: any legal move is better than none */
        MoveList list;
        h->variant->generate(&g->pos, &h->rules, &list);
        best = list.moves[0];
    }
    char move[HUB_MOVE_MAX];
    HubWriter w = { 0 };
    hub_writer_start(&w, "done");
    hub_writer_arg(&w, "move", hub_move_to_text(h->variant, &best, move, sizeof move));
    if (info.pv_length > 1)
        hub_writer_arg(&w, "ponder", hub_move_to_text(h->variant, &info.pv[1], move, sizeof move));
    hub_send_line(h, &w);
    hub_writer_free(&w);
    return NULL;
}

/* Joins a search that has ended (or is printing done); true when none runs any more. */
bool hub_search_over(Hub *h)
{
    if (h->searching && atomic_load(&h->finishing)) {
        pthread_join(h->thread, NULL);
        h->searching = false;
    }
    return !h->searching;
}

void hub_stop_search(Hub *h)
{
    if (!h->searching)
        return;
    pthread_mutex_lock(&h->lock);
    atomic_store(&h->stop, true);
    pthread_cond_broadcast(&h->released);
    pthread_mutex_unlock(&h->lock);
    h->deadline = 0;
}

void hub_cmd_go(Hub *h, const HubLine *line)
{
    if (!hub_engine_ready(h))
        return;
    if (!h->have_pos) {
        hub_send_error(h, "go: no position (the last pos was refused)");
        return;
    }
    MoveList list;
    h->variant->generate(&h->game->pos, &h->rules, &list);
    if (list.count == 0) {
        hub_send_error(h, "go: the side to move has no legal move: the game is over");
        return;
    }
    int mode = hub_line_has(line, "analyze") ? GO_ANALYZE : hub_line_has(line, "ponder") ? GO_PONDER : GO_THINK;
    Move book_move;
    if (mode == GO_THINK && book_choose(&h->book, &h->game->pos, &h->rules, BOOK_BEST, 0, &book_move)) {
        char move[HUB_MOVE_MAX];
        HubWriter w = { 0 };
        hub_writer_start(&w, "done");
        hub_writer_arg(&w, "move", hub_move_to_text(h->variant, &book_move, move, sizeof move));
        hub_send_line(h, &w);
        hub_writer_free(&w);
        return;
    }
    const HubLevel *l = &h->level;
    SearchLimits limits = { .depth = l->depth, .nodes = l->nodes };
    TimeBudget budget = hub_level_budget(l);
    h->ponder_budget = 0;
    if (mode == GO_THINK && !l->infinite) {
        limits.movetime_ms = (int)budget.hard_ms;
        limits.soft_ms = (int)budget.soft_ms;
    } else if (mode == GO_PONDER && !l->infinite) { /* counted from ponder-hit */
        h->ponder_budget = (double)(budget.soft_ms > 0 ? budget.soft_ms : budget.hard_ms) / 1000.0;
    }
    if (mode == GO_ANALYZE)
        limits = (SearchLimits){ 0 };
    h->limits = limits;
    h->mode = mode;
    h->hold = mode != GO_THINK || l->infinite;
    h->deadline = 0;
    atomic_store(&h->stop, false);
    atomic_store(&h->finishing, false);
    if (pthread_create(&h->thread, NULL, search_thread, h) != 0) {
        hub_send_error(h, "go: cannot start the search thread");
        return;
    }
    h->searching = true;
}

void hub_cmd_ponder_hit(Hub *h)
{
    if (!h->searching || h->mode != GO_PONDER)
        return;
    h->mode = GO_THINK;
    pthread_mutex_lock(&h->lock);
    h->hold = h->level.infinite;
    pthread_cond_broadcast(&h->released);
    pthread_mutex_unlock(&h->lock);
    if (h->ponder_budget > 0)
        h->deadline = hub_now_seconds() + h->ponder_budget;
}
