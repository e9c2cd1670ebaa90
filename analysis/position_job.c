/* One position analysed (position_job.h). */
#include "position_job.h"
#include "book_file.h"
#include "notation.h"
#include "variant.h"

/* The book's moves for the position, best first, and its best as bestmove: -1 when the
 * position is not in the book (then it is searched), 2 when the book cannot be used, else
 * 0. */
static int book_answer(const PositionJob *job, FILE *out, char *err, size_t errlen)
{
    Book b;
    char text[128];
    const Position *pos = &job->game->pos;
    if (!book_read(&b, job->book_path, job->stop, err, errlen))
        return 2;
    if (b.variant != job->variant) {
        snprintf(err, errlen, "%s is a book of %s, not %s", job->book_path, b.variant->name,
                 job->variant->name);
        book_free(&b);
        return 2;
    }
    Move best;
    int code = -1;
    if (book_choose(&b, pos, &job->rules, BOOK_BEST, 0, &best)) {
        const BookPosition *p = book_find(&b, pos);
        for (int i = p->first; i < p->first + p->nmoves; i++)
            fprintf(out, "book %s games %d score %d\n", b.moves[i].text, b.moves[i].games, b.moves[i].score);
        fprintf(out, "bestmove %s\n", move_to_text(job->variant, &best, text, sizeof text));
        code = 0;
    }
    book_free(&b);
    return code;
}

int position_job_run(const PositionJob *job, FILE *out, char *err, size_t errlen)
{
    const Game *g = job->game;
    /* A finished game has no move to look for: say how it ended (a position given alone
     * has no history, so no-progress and repetition cannot apply). */
    GameEnd end;
    end.result = game_result(g, &end.reason);
    if (end.result != RESULT_NONE) {
        char text[64];
        fprintf(out, "game over: %s\n", game_end_text(end, text, sizeof text));
        return 0;
    }
    int code = job->book_path ? book_answer(job, out, err, errlen) : -1;
    if (code >= 0)
        return code;

    Searcher *s = searcher_new(job->variant, &job->rules, job->weights, (size_t)job->hash_mb);
    if (!s) {
        snprintf(err, errlen, "out of memory for a %ld MB hash table", job->hash_mb);
        return 1;
    }
    int threads = job->threads < 1 ? 1 : job->threads > SEARCH_THREADS_MAX ? SEARCH_THREADS_MAX : job->threads;
    if (!searcher_set_threads(s, threads)) {
        snprintf(err, errlen, "out of memory for %d search threads", threads);
        searcher_free(s);
        return 1;
    }
    s->stop_request = job->stop;
    egdb_search_attach(s, job->egdb);
    /* The search sees the game's repetitions and draw counters. */
    s->root_endgame_plies = g->endgame_plies;
    SearchInfo info = search(s, &g->pos, &g->keys[g->ply - g->since_capture], g->since_capture,
                             &job->limits, job->report, job->report_ctx);
    char text[128];
    if (job->egdb)
        fprintf(out, "info egdb probes %llu hits %llu\n", (unsigned long long)info.egdb_probes,
                (unsigned long long)info.egdb_hits);
    /* Interrupted: the last completed iteration's move is still the answer. */
    if (info.pv_length > 0)
        fprintf(out, "bestmove %s\n", move_to_text(job->variant, &info.pv[0], text, sizeof text));
    else
        fprintf(out, "bestmove none\n");
    searcher_free(s);
    return info.interrupted ? 130 : 0;
}
