/* Samples of the games leaving a position, grouped by move (move_stats.h). */
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "move_stats.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "variant.h"

static int compare_ids(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int move_stats_distinct_games(int64_t *ids, int n)
{
    qsort(ids, (size_t)n, sizeof *ids, compare_ids);
    int distinct = 0;
    for (int i = 0; i < n; i++)
        distinct += i == 0 || ids[i] != ids[i - 1];
    return distinct;
}

/* A sample with the index of its move, for sorting. */
typedef struct Tagged {
    int move;
    int64_t game_id;
    const MoveSample *sample;
} Tagged;

static int compare_tagged(const void *a, const void *b)
{
    const Tagged *x = a, *y = b;
    if (x->move != y->move) return (x->move > y->move) - (x->move < y->move);
    if (x->game_id != y->game_id) return (x->game_id > y->game_id) - (x->game_id < y->game_id);
    /* The caller's order among one game's passes (qsort is not stable): the first counts. */
    return (x->sample > y->sample) - (x->sample < y->sample);
}

static int compare_stats(const void *a, const void *b)
{
    const MoveStats *x = a, *y = b;
    if (x->games != y->games) return y->games - x->games;
    int sx = x->nscores ? x->score : -SCORE_INF, sy = y->nscores ? y->score : -SCORE_INF;
    if (sx != sy) return sy - sx;
    return strcmp(x->text, y->text);
}

static int clamp_score(int score)
{
    return score > SCORE_WIN_BOUND ? SCORE_WIN_BOUND : score < -SCORE_WIN_BOUND ? -SCORE_WIN_BOUND : score;
}

/* Rounds sum / n to the nearest whole number, halves away from zero. */
static int rounded_mean(int64_t sum, int n)
{
    return (int)(sum >= 0 ? (sum + n / 2) / n : -((-sum + n / 2) / n));
}

int move_stats_collect(const Variant *v, const Rules *rules, const Position *pos, MoveSample *samples,
                       int n, MoveStats *out, int max, int *unmatched)
{
    if (unmatched) *unmatched = 0;
    if (n <= 0 || max <= 0)
        return 0;
    MoveList *list = malloc(sizeof *list);
    Position *children = list ? malloc(sizeof *children * MAX_MOVES) : NULL;
    Tagged *tagged = children ? malloc(sizeof *tagged * (size_t)n) : NULL;
    if (!tagged) {
        free(children);
        free(list);
        return -1;
    }
    v->generate(pos, rules, list);
    for (int i = 0; i < list->count; i++) {
        children[i] = *pos;
        v->make(&children[i], &list->moves[i]);
    }
    int ntagged = 0;
    for (int i = 0; i < n; i++) {
        int m = 0;
        while (m < list->count && !position_equal(&children[m], &samples[i].next))
            m++;
        if (m == list->count) {
            if (unmatched) (*unmatched)++;
            continue;
        }
        tagged[ntagged++] = (Tagged){ m, samples[i].game_id, &samples[i] };
    }
    qsort(tagged, (size_t)ntagged, sizeof *tagged, compare_tagged);

    int count = 0;
    for (int i = 0; i < ntagged && count < max;) {
        int j = i;
        MoveStats st = { .move = list->moves[tagged[i].move] };
        int64_t sum = 0;
        for (; j < ntagged && tagged[j].move == tagged[i].move; j++) {
            if (j > i && tagged[j].game_id == tagged[j - 1].game_id)
                continue; /* the same game passing twice counts once */
            const MoveSample *s = tagged[j].sample;
            int mover = pos->side;
            st.games++;
            if (s->result == RESULT_DRAW)
                st.draws++;
            else if ((s->result == RESULT_WHITE_WINS) == (mover == WHITE))
                st.wins++;
            else
                st.losses++;
            if (s->has_score) {
                sum -= clamp_score(s->score); /* the next position's score is the opponent's */
                st.nscores++;
            }
        }
        if (st.nscores)
            st.score = rounded_mean(sum, st.nscores);
        move_to_text_in(v, pos, rules, &st.move, st.text, sizeof st.text);
        out[count++] = st;
        i = j;
    }
    qsort(out, (size_t)count, sizeof *out, compare_stats);
    free(tagged);
    free(children);
    free(list);
    return count;
}
