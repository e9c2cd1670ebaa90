/* The opening book and explorer (dama book, book/): a book built from a small deterministic
 * self-play database, its counts checked against SQL written here independently, the
 * margin and the minimum of games, the file's round trip and its refusal of damaged files,
 * the hub playing the book move, the explorer's CSV; a book grown by search (book expand):
 * its scores against searches run here, its full plies, its bytes on one and two threads
 * and across a resume, the version-2 file's checks, the hub playing from it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "book_expand.h"
#include "book_file.h"
#include "book_openings.h"
#include "game.h"
#include "hub_text.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "test_util.h"
#include "test_tmpdir.h"
#include "http_client.h"
#include "serve_process.h"
#include "variant.h"
#include "weights_store.h"

static char dir[64], db[128], start_db[128];

static int setup(void **state)
{
    (void)state;
    if (test_tmpdir_make(dir, sizeof dir, "book") != 0) return -1;
    snprintf(db, sizeof db, "%s/games.db", dir);
    snprintf(start_db, sizeof start_db, "%s/start.db", dir);
    char out[4096];
    /* The brief's database, and one whose games all begin at the start position. */
    if (test_dama_run(out, sizeof out, "selfplay --games 40 --nodes 500 --threads 2 --db %s", db) != 0
        || test_dama_run(out, sizeof out, "selfplay --games 20 --nodes 300 --threads 2 --random-plies 0 --db %s",
                         start_db) != 0) {
        fprintf(stderr, "%s", out);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return test_tmpdir_remove(dir);
}

/* Builds BOOK (a name in dir) from the database with the options; reads it back. */
static void build(const char *database, const char *name, const char *options, Book *b, char *path, size_t len)
{
    char out[4096], err[512];
    snprintf(path, len, "%s/%s", dir, name);
    int rc = test_dama_run(out, sizeof out, "book build --db %s --out %s %s", database, path, options);
    if (rc != 0) fail_msg("book build: %s", out);
    assert_non_null(strstr(out, "book build positions"));
    if (!book_read(b, path, NULL, err, sizeof err)) fail_msg("%s", err);
}

/* ---- SQL written here, not through store/ ---- */

static sqlite3 *open_db(const char *path)
{
    sqlite3 *h;
    assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    return h;
}

static int64_t query_int(sqlite3 *h, const char *sql, const Position *pos, const Position *next)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK) fail_msg("%s: %s", sql, sqlite3_errmsg(h));
    const Position *p[2] = { pos, next };
    for (int k = 0; k < 2 && p[k]; k++) {
        sqlite3_bind_int64(st, 5 * k + 1, (int64_t)p[k]->men[WHITE]);
        sqlite3_bind_int64(st, 5 * k + 2, (int64_t)p[k]->kings[WHITE]);
        sqlite3_bind_int64(st, 5 * k + 3, (int64_t)p[k]->men[BLACK]);
        sqlite3_bind_int64(st, 5 * k + 4, (int64_t)p[k]->kings[BLACK]);
        sqlite3_bind_int64(st, 5 * k + 5, p[k]->side);
    }
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

#define EDGES "FROM positions p JOIN positions n ON n.game_id = p.game_id AND n.ply = p.ply + 1 " \
              "JOIN games g ON g.id = p.game_id "
#define AT_POS "p.white_men = ?1 AND p.white_kings = ?2 AND p.black_men = ?3 AND p.black_kings = ?4 AND p.side = ?5"
#define AT_NEXT "n.white_men = ?6 AND n.white_kings = ?7 AND n.black_men = ?8 AND n.black_kings = ?9 AND n.side = ?10"

/* Every position's and move's games and results in the book are what SQL counts, and the
 * book holds exactly the (position, move) pairs SQL finds with enough games and a score. */
static void test_counts_match_sql(void **state)
{
    (void)state;
    Book b;
    char path[256];
    build(db, "all.book", "--min-games 2 --margin 100000 --max-ply 0", &b, path, sizeof path);
    assert_true(b.npositions > 10);
    sqlite3 *h = open_db(db);
    int64_t pairs = query_int(h, "SELECT count(*) FROM (SELECT 1 " EDGES "GROUP BY p.white_men, p.white_kings,"
                              " p.black_men, p.black_kings, p.side, n.white_men, n.white_kings, n.black_men,"
                              " n.black_kings, n.side HAVING count(DISTINCT p.game_id) >= 2 AND count(n.score) > 0)",
                              NULL, NULL);
    assert_int_equal(b.nmoves, pairs);
    int64_t positions = query_int(h, "SELECT count(*) FROM (SELECT DISTINCT a, b, c, d, s FROM (SELECT p.white_men a,"
                                  " p.white_kings b, p.black_men c, p.black_kings d, p.side s " EDGES "GROUP BY"
                                  " a, b, c, d, s, n.white_men, n.white_kings, n.black_men, n.black_kings, n.side"
                                  " HAVING count(DISTINCT p.game_id) >= 2 AND count(n.score) > 0))", NULL, NULL);
    assert_int_equal(b.npositions, positions);
    for (int i = 0; i < b.npositions; i++) {
        const BookPosition *p = &b.positions[i];
        assert_int_equal(p->games, query_int(h, "SELECT count(DISTINCT p.game_id) " EDGES "WHERE " AT_POS, &p->pos, NULL));
        assert_int_equal(p->ply, query_int(h, "SELECT min(p.ply) " EDGES "WHERE " AT_POS, &p->pos, NULL));
        for (int j = p->first; j < p->first + p->nmoves; j++) {
            const MoveStats *m = &b.moves[j];
            Position next = p->pos;
            b.variant->make(&next, &m->move);
            assert_int_equal(m->games, query_int(h, "SELECT count(DISTINCT p.game_id) " EDGES "WHERE " AT_POS
                                                 " AND " AT_NEXT, &p->pos, &next));
            const char *mover = p->pos.side == WHITE ? "white" : "black";
            const char *other = p->pos.side == WHITE ? "black" : "white";
            char sql[1024];
            snprintf(sql, sizeof sql, "SELECT count(DISTINCT p.game_id) " EDGES "WHERE " AT_POS " AND " AT_NEXT
                     " AND g.result = '%s'", mover);
            assert_int_equal(m->wins, query_int(h, sql, &p->pos, &next));
            snprintf(sql, sizeof sql, "SELECT count(DISTINCT p.game_id) " EDGES "WHERE " AT_POS " AND " AT_NEXT
                     " AND g.result = '%s'", other);
            assert_int_equal(m->losses, query_int(h, sql, &p->pos, &next));
            /* A game counts once, with its first pass (a king ending can pass a position
             * twice in one game); scores beyond the forced-result bound count as it. */
            char mean_sql[2048];
            snprintf(mean_sql, sizeof mean_sql,
                     "SELECT CAST(round(-2.0 * avg(max(-%d, min(%d, n.score)))) AS INTEGER) " EDGES "WHERE " AT_POS
                     " AND " AT_NEXT " AND p.ply = (SELECT min(p2.ply) FROM positions p2 JOIN positions n2"
                     " ON n2.game_id = p2.game_id AND n2.ply = p2.ply + 1 WHERE p2.game_id = p.game_id"
                     " AND p2.white_men = ?1 AND p2.white_kings = ?2 AND p2.black_men = ?3"
                     " AND p2.black_kings = ?4 AND p2.side = ?5 AND n2.white_men = ?6 AND n2.white_kings = ?7"
                     " AND n2.black_men = ?8 AND n2.black_kings = ?9 AND n2.side = ?10)",
                     SCORE_WIN_BOUND, SCORE_WIN_BOUND);
            int64_t mean_x2 = query_int(h, mean_sql, &p->pos, &next);
            assert_true(llabs(2 * (int64_t)m->score - mean_x2) <= 1);
        }
    }
    sqlite3_close(h);
    book_free(&b);
}

/* A narrower book is the wide one filtered by hand: moves within the margin of their
 * position's best, with at least min-games games. */
static void test_margin_and_min_games(void **state)
{
    (void)state;
    Book all, narrow, many, zero;
    char p1[256], p2[256], p3[256], p4[256];
    /* The games from the start position branch more than those of random openings. */
    build(start_db, "all.book", "--min-games 2 --margin 100000", &all, p1, sizeof p1);
    build(start_db, "narrow.book", "--min-games 2 --margin 2", &narrow, p2, sizeof p2);
    build(start_db, "many.book", "--min-games 3 --margin 100000", &many, p3, sizeof p3);
    build(start_db, "zero.book", "--min-games 2 --margin 0", &zero, p4, sizeof p4); /* the bound is kept */
    int dropped_by_margin = 0, dropped_by_games = 0, kept_narrow = 0, kept_many = 0;
    for (int i = 0; i < all.npositions; i++) {
        const BookPosition *p = &all.positions[i];
        const BookPosition *q = book_find(&narrow, &p->pos), *r = book_find(&many, &p->pos);
        int best = all.moves[p->first].score;
        assert_non_null(q); /* the best move is always within the margin */
        const BookPosition *z = book_find(&zero, &p->pos);
        assert_non_null(z);
        int ties = 0;
        for (int j = p->first; j < p->first + p->nmoves; j++) ties += all.moves[j].score == best;
        assert_int_equal(z->nmoves, ties);
        int nq = 0, nr = 0;
        for (int j = p->first; j < p->first + p->nmoves; j++) {
            const MoveStats *m = &all.moves[j];
            assert_true(m->score <= best);
            bool in_margin = m->score >= best - 2;
            bool in_narrow = false, in_many = false;
            for (int k = q->first; k < q->first + q->nmoves; k++) in_narrow |= move_same(&narrow.moves[k].move, &m->move);
            for (int k = r ? r->first : 0; r && k < r->first + r->nmoves; k++) in_many |= move_same(&many.moves[k].move, &m->move);
            assert_int_equal(in_narrow, in_margin);
            nq += in_margin;
            dropped_by_margin += !in_margin;
            kept_narrow += in_margin;
            if (m->games >= 3) {
                nr++;
                kept_many++;
            } else {
                dropped_by_games++;
            }
            /* min-games 3 keeps every move of 3 games or more (the margin is wide) */
            assert_int_equal(in_many, m->games >= 3);
        }
        assert_int_equal(q->nmoves, nq);
        assert_int_equal(r ? r->nmoves : 0, nr);
    }
    /* Both filters did something in this database: the test would see them fail. */
    assert_true(dropped_by_margin > 0 && dropped_by_games > 0 && kept_many > 0 && kept_narrow > 0);
    for (int i = 0; i < many.nmoves; i++) assert_true(many.moves[i].games >= 3);
    book_free(&all);
    book_free(&narrow);
    book_free(&many);
    book_free(&zero);
}

/* The same database gives the same bytes; a book read and written again is the same file. */
static void test_deterministic_round_trip(void **state)
{
    (void)state;
    Book a, b;
    char p1[256], p2[256];
    build(db, "a.book", "--min-games 2 --margin 30", &a, p1, sizeof p1);
    build(db, "b.book", "--min-games 2 --margin 30", &b, p2, sizeof p2);
    char *ta = test_read_file(p1), *tb = test_read_file(p2);
    assert_non_null(ta);
    assert_non_null(tb);
    assert_string_equal(ta, tb);
    char *again;
    size_t len;
    assert_true(book_format(&a, &again, &len));
    assert_int_equal(len, strlen(ta));
    assert_memory_equal(again, ta, len);
    assert_non_null(strstr(ta, "dama-book 1\nvariant turkish\nmin-games 2\nmargin 30\n"));
    free(again);
    free(ta);
    free(tb);
    book_free(&a);
    book_free(&b);
}

/* Writes text to dir/name; returns the path in path. */
static void write_file(const char *name, const char *text, size_t len, char *path, size_t plen)
{
    snprintf(path, plen, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

/* `dama book check FILE` exits 2 naming FILE and saying why (the why in expect). */
static void assert_refused(const char *path, const char *expect)
{
    char out[4096];
    assert_int_equal(test_dama_run(out, sizeof out, "book check %s", path), 2);
    if (!strstr(out, path) || !strstr(out, expect)) fail_msg("'%s' does not name %s with '%s'", out, path, expect);
}

static void test_damaged_files_refused(void **state)
{
    (void)state;
    Book b;
    char good[256], path[256];
    build(db, "good.book", "--min-games 2 --margin 30", &b, good, sizeof good);
    char *text = test_read_file(good);
    size_t len = strlen(text);
    char out[4096];
    assert_int_equal(test_dama_run(out, sizeof out, "book check %s", good), 0);

    write_file("cut.book", text, len / 2, path, sizeof path); /* cut mid-body */
    assert_refused(path, "checksum mismatch");
    write_file("head.book", text, 40, path, sizeof path);     /* cut in the header */
    assert_refused(path, "expected");
    char *flipped = strdup(text);
    flipped[len - 3] = flipped[len - 3] == '1' ? '2' : '1';   /* a changed score */
    write_file("flip.book", flipped, len, path, sizeof path);
    assert_refused(path, "checksum mismatch");
    char *edited = strdup(text), *at = strstr(edited, "\nmargin 30\n");
    assert_non_null(at);
    memcpy(at, "\nmargin 90\n", 11);                        /* the header is checked too */
    write_file("margin.book", edited, len, path, sizeof path);
    assert_refused(path, "checksum mismatch");
    free(edited);
    at = strstr(text, "\npositions ");                      /* more than the file can hold */
    edited = malloc(len + 32);
    /* len / 2 lines fit in no file of len bytes: refused before any allocation */
    int n = snprintf(edited, len + 32, "%.*s\npositions %zu%s", (int)(at - text), text, len / 2, strchr(at + 1, '\n'));
    write_file("count.book", edited, (size_t)n, path, sizeof path);
    assert_refused(path, "positions: not a whole number from 0 to");
    free(edited);
    write_file("empty.book", "", 0, path, sizeof path);
    assert_refused(path, "not a dama opening book");
    write_file("other.book", "W:Wa2:Bh7\n", 10, path, sizeof path);
    assert_refused(path, "not a dama opening book");
    free(flipped);

    /* A body with a right checksum but a wrong key or an illegal move: refused at its line. */
    char err[512];
    Book bad;
    b.positions[0].key ^= 1;
    char *t;
    assert_true(book_format(&b, &t, &len));
    assert_false(book_parse(&bad, "x.book", t, len, err, sizeof err));
    assert_non_null(strstr(err, "x.book:8: the key"));
    free(t);
    b.positions[0].key ^= 1;
    if (b.npositions > 1) {
        MoveStats keep = b.moves[0];
        b.moves[0] = b.moves[b.positions[1].first];
        assert_true(book_format(&b, &t, &len));
        Book maybe;
        if (!book_parse(&maybe, "y.book", t, len, err, sizeof err))
            assert_non_null(strstr(err, "y.book:9: "));
        else
            book_free(&maybe); /* the same move can be legal in both */
        free(t);
        b.moves[0] = keep;
    }
    /* The hub refuses it too, by name, and goes on. */
    snprintf(path, sizeof path, "%s/cut.book", dir);
    assert_int_equal(test_dama_run(out, sizeof out, "hub --book %s < /dev/null", path), 2);
    assert_non_null(strstr(out, path));
    free(text);
    book_free(&b);
}

/* Runs `dama hub` with BOOK on the start position; the move of its done line into move,
 * and into *searched (may be NULL) whether it searched (an info line). */
static void hub_move_searched(const char *book, char *move, size_t len, bool *searched)
{
    char in[256], out[4096];
    snprintf(in, sizeof in, "%s/hub.in", dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fprintf(f, "hub\nset-param name=book value=%s\ninit\nlevel depth=3\ngo think\n", book);
    fclose(f);
    assert_int_equal(test_dama_run(out, sizeof out, "hub < %s", in), 0);
    const char *done = strstr(out, "done move=");
    if (!done) fail_msg("no done line: %s", out);
    sscanf(done, "done move=%63s", move);
    (void)len;
    if (searched) *searched = strstr(out, "info depth=") != NULL;
}

static void hub_move(const char *book, char *move, size_t len)
{
    hub_move_searched(book, move, len, NULL);
}

/* The hub plays the book's best move at the start position; two books with different best
 * moves there make it play two different moves. */
static void test_hub_plays_book_move(void **state)
{
    (void)state;
    Book wide, narrow;
    char p1[256], p2[256], move[64], expect[HUB_MOVE_MAX];
    build(start_db, "wide.book", "--min-games 2 --margin 1000", &wide, p1, sizeof p1);
    build(start_db, "one.book", "--min-games 5 --margin 1000", &narrow, p2, sizeof p2);
    Position start;
    wide.variant->start(&start);
    const BookPosition *w = book_find(&wide, &start), *n = book_find(&narrow, &start);
    assert_non_null(w);
    assert_non_null(n);
    assert_false(move_same(&wide.moves[w->first].move, &narrow.moves[n->first].move));
    hub_move(p1, move, sizeof move);
    assert_string_equal(move, hub_move_to_text(wide.variant, &wide.moves[w->first].move, expect, sizeof expect));
    hub_move(p2, move, sizeof move);
    assert_string_equal(move, hub_move_to_text(narrow.variant, &narrow.moves[n->first].move, expect, sizeof expect));
    /* analyze --book: the book's moves and its best, without a search; a position out of
     * the book is searched. */
    static char out[1 << 14];
    char line[128];
    assert_int_equal(test_dama_run(out, sizeof out, "analyze --book %s --depth 3", p1), 0);
    snprintf(line, sizeof line, "bestmove %s\n", wide.moves[w->first].text);
    assert_non_null(strstr(out, line));
    assert_null(strstr(out, "info depth"));
    int listed = 0;
    for (const char *q = out; (q = strstr(q, "book ")); q++) listed++;
    assert_int_equal(listed, w->nmoves);
    assert_int_equal(test_dama_run(out, sizeof out, "analyze --book %s --depth 3 --moves a3-a4", p1), 0);
    assert_null(strstr(out, "book "));
    assert_non_null(strstr(out, "info depth"));
    /* A weighted choice draws a listed move, the same one for the same seed. */
    Rules rules = wide.variant->rules_default();
    Move m1, m2;
    assert_true(book_choose(&wide, &start, &rules, BOOK_WEIGHTED, 7, &m1));
    assert_true(book_choose(&wide, &start, &rules, BOOK_WEIGHTED, 7, &m2));
    assert_true(move_same(&m1, &m2));
    book_free(&wide);
    book_free(&narrow);
}

/* The explorer's CSV for the start position: one row per move SQL finds, same games. */
static void test_explore_csv(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(test_dama_run(out, sizeof out, "book explore --db %s --fen start", start_db), 0);
    const char *header = "move,games,white_wins,draws,black_wins,stm_score,mean_score,scored_games\n";
    assert_true(strncmp(out, header, strlen(header)) == 0);
    sqlite3 *h = open_db(start_db);
    Position start;
    turkish_variant.start(&start);
    int64_t moves = query_int(h, "SELECT count(*) FROM (SELECT DISTINCT n.white_men, n.black_men " EDGES "WHERE "
                              AT_POS ")", &start, NULL);
    int rows = 0, total = 0;
    for (const char *line = strchr(out, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        char text[64];
        int games, ww, d, bw;
        assert_int_equal(sscanf(line, "%63[^,],%d,%d,%d,%d", text, &games, &ww, &d, &bw), 5);
        assert_int_equal(ww + d + bw, games);
        Move m;
        char err[256];
        Rules rules = turkish_variant.rules_default();
        assert_true(move_from_text(&turkish_variant, &start, &rules, text, &m, err, sizeof err));
        Position next = start;
        turkish_variant.make(&next, &m);
        assert_int_equal(games, query_int(h, "SELECT count(DISTINCT p.game_id) " EDGES "WHERE " AT_POS " AND " AT_NEXT,
                                          &start, &next));
        rows++;
        total += games;
    }
    assert_int_equal(rows, moves);
    assert_int_equal(total, 20);
    sqlite3_close(h);
    assert_int_equal(test_dama_run(out, sizeof out, "book explore --db %s --fen W:Wz9", start_db), 2);
}

/* move_stats_collect by hand: a game passing twice counts once, a next position no move
 * reaches is left out, a found win counts as the forced-result bound in the mean. */
static void test_move_stats(void **state)
{
    (void)state;
    const Variant *v = &turkish_variant;
    Rules rules = v->rules_default();
    Position start, a, b;
    v->start(&start);
    MoveList list;
    v->generate(&start, &rules, &list);
    a = start;
    v->make(&a, &list.moves[0]);
    b = start;
    v->make(&b, &list.moves[1]);
    MoveSample s[] = {
        { a, 1, RESULT_WHITE_WINS, 10, true },
        { a, 1, RESULT_WHITE_WINS, 10, true },   /* game 1 again */
        { a, 2, RESULT_BLACK_WINS, 31, true },
        { b, 3, RESULT_DRAW, -SCORE_WIN + 5, true }, /* Black (to move at b) is mated */
        { b, 4, RESULT_DRAW, 0, false },
        { start, 5, RESULT_DRAW, 0, true },      /* no move leads back to the start */
    };
    MoveStats out[8];
    int unmatched;
    int n = move_stats_collect(v, &rules, &start, s, 6, out, 8, &unmatched);
    assert_int_equal(n, 2);
    assert_int_equal(unmatched, 1);
    assert_true(move_same(&out[0].move, &list.moves[0]) || move_same(&out[0].move, &list.moves[1]));
    const MoveStats *ma = move_same(&out[0].move, &list.moves[0]) ? &out[0] : &out[1];
    const MoveStats *mb = ma == &out[0] ? &out[1] : &out[0];
    assert_int_equal(ma->games, 2);
    assert_int_equal(ma->wins, 1);
    assert_int_equal(ma->losses, 1);
    assert_int_equal(ma->nscores, 2);
    assert_int_equal(ma->score, -21);                 /* -(10 + 31) / 2 = -20.5, away from zero */
    assert_int_equal(mb->games, 2);
    assert_int_equal(mb->draws, 2);
    assert_int_equal(mb->nscores, 1);
    assert_int_equal(mb->score, SCORE_WIN_BOUND);
}

/* The page's route gives what the CSV gives: the same moves, games and results. */
static void test_explorer_route(void **state)
{
    (void)state;
    char srv_dir[96], csv[1 << 14];
    snprintf(srv_dir, sizeof srv_dir, "%s/srv", dir);
    assert_int_equal(mkdir(srv_dir, 0755), 0);
    assert_int_equal(serve_make_folders(srv_dir, "explorer"), 0);
    const char *extra[] = { "--db", start_db, NULL }; /* the last --db is the one served */
    int port;
    pid_t pid = serve_start(srv_dir, extra, &port);
    assert_true(pid > 0);
    json_t *j = serve_api(port, "GET", "/api/explorer?fen=start&variant=turkish", NULL, 200);
    assert_int_equal(test_dama_run(csv, sizeof csv, "book explore --db %s --fen start", start_db), 0);
    assert_int_equal(json_integer_value(json_object_get(j, "games")), 20);
    json_t *moves = json_object_get(j, "moves");
    const char *line = strchr(csv, '\n') + 1;
    size_t i;
    json_t *m;
    json_array_foreach(moves, i, m) {
        char row[256];
        snprintf(row, sizeof row, "%s,%lld,%lld,%lld,%lld,", json_string_value(json_object_get(m, "move")),
                 json_integer_value(json_object_get(m, "games")), json_integer_value(json_object_get(m, "white_wins")),
                 json_integer_value(json_object_get(m, "draws")), json_integer_value(json_object_get(m, "black_wins")));
        if (strncmp(line, row, strlen(row)) != 0) fail_msg("JSON row %s, CSV row %.80s", row, line);
        line = strchr(line, '\n') + 1;
    }
    assert_true(json_array_size(moves) > 1);
    assert_string_equal(line, "");
    json_decref(j);
    json_decref(serve_api(port, "GET", "/api/explorer?fen=W:Wz9", NULL, 400));
    serve_kill(pid);
}

/* Self-play from the book's balanced positions at --book-ply: every game starts at one of
 * them, and a book with none there is refused by name. */
static void test_openings_from_book(void **state)
{
    (void)state;
    Book b;
    char path[256], out[4096], games_db[128];
    build(db, "open.book", "--min-games 2 --margin 40", &b, path, sizeof path);
    Position *balanced;
    int n = book_balanced(&b, 1, b.margin, &balanced);
    assert_true(n >= 2);
    snprintf(games_db, sizeof games_db, "%s/from-book.db", dir);
    int rc = test_dama_run(out, sizeof out, "selfplay --games 8 --nodes 200 --threads 2 --openings-book %s --book-ply 1 --db %s",
                           path, games_db);
    if (rc != 0) fail_msg("%s", out);
    sqlite3 *h = open_db(games_db);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT white_men, white_kings, black_men, black_kings, side FROM positions"
                                        " WHERE ply = 0", -1, &st, NULL), SQLITE_OK);
    int games = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        Position p = { { (uint64_t)sqlite3_column_int64(st, 0), (uint64_t)sqlite3_column_int64(st, 2) },
                       { (uint64_t)sqlite3_column_int64(st, 1), (uint64_t)sqlite3_column_int64(st, 3) },
                       sqlite3_column_int(st, 4) };
        bool found = false;
        for (int i = 0; i < n; i++) found |= position_equal(&p, &balanced[i]);
        assert_true(found);
        const BookPosition *bp = book_find(&b, &p);
        assert_non_null(bp);
        assert_int_equal(bp->ply, 1);
        assert_true(abs(b.moves[bp->first].score) <= b.margin);
        games++;
    }
    assert_int_equal(games, 8);
    sqlite3_finalize(st);
    sqlite3_close(h);
    free(balanced);
    rc = test_dama_run(out, sizeof out, "selfplay --games 2 --nodes 200 --openings-book %s --book-ply 999 --db %s", path,
                       games_db);
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, path));
    assert_non_null(strstr(out, "no position at ply 999"));
    book_free(&b);
}

/* ---- book expand ---- */

/* Runs `book expand --out dir/NAME OPTIONS --quiet` (no --resume: the file must be new
 * unless the options say it); reads the book back when b is not NULL. */
static void expand(const char *name, const char *options, Book *b, char *path, size_t len)
{
    char out[4096], err[512];
    snprintf(path, len, "%s/%s", dir, name);
    int rc = test_dama_run(out, sizeof out, "book expand --out %s %s --quiet", path, options);
    if (rc != 0) fail_msg("book expand %s: exit %d: %s", options, rc, out);
    assert_non_null(strstr(out, "book expand positions"));
    if (b && !book_read(b, path, NULL, err, sizeof err)) fail_msg("%s", err);
}

/* The score a fresh search of pos gives at nodes, with the weights and the table book
 * expand uses: what the book must hold for a leaf. */
static int fresh_search(const Variant *v, const Weights *w, const Position *pos, uint64_t nodes)
{
    Rules rules = v->rules_default();
    Searcher *s = searcher_new(v, &rules, w, BOOK_EXPAND_HASH_MB);
    assert_non_null(s);
    searcher_clear(s);
    SearchLimits limits = { .nodes = nodes };
    SearchInfo info = search(s, pos, NULL, 0, &limits, NULL, NULL);
    searcher_free(s);
    return info.score;
}

/* The legal moves of pos under the official rules. */
static int legal_moves(const Variant *v, const Position *pos)
{
    MoveList *list = malloc(sizeof *list);
    assert_non_null(list);
    Rules rules = v->rules_default();
    v->generate(pos, &rules, list);
    int n = list->count;
    free(list);
    return n;
}

/* A tiny expansion: the root lists every legal move of the start position, best first;
 * a move to a leaf scores minus a fresh search of the leaf, a move to an expanded position
 * minus that position's best move (negamax); every expanded position lists all its moves;
 * the first position expanded after the root is a best move's (it gives up nothing). */
static void check_tiny(const Variant *v, const char *name, int start_moves)
{
    Book b;
    char path[256], options[256];
    snprintf(options, sizeof options, "-v %s --nodes 2000 --positions 5 --full-plies 1", v->name);
    expand(name, options, &b, path, sizeof path);
    assert_ptr_equal(b.variant, v);
    assert_int_equal(b.source, BOOK_SOURCE_SEARCH);
    assert_int_equal(b.npositions, 5);
    assert_int_equal(b.search.nodes, 2000);
    assert_int_equal(b.search.full_plies, 1);
    assert_int_equal(b.margin, 30);
    assert_int_equal(b.search.max_ply, 30);
    Position start;
    v->start(&start);
    const BookPosition *root = book_find(&b, &start);
    assert_non_null(root);
    assert_int_equal(root->ply, 0);
    assert_int_equal(root->nmoves, start_moves);
    assert_int_equal(legal_moves(v, &start), start_moves);
    WEIGHTS_SCOPED w = { 0 };
    char err[512];
    if (!weights_by_name(&w, v, "best", err, sizeof err)) fail_msg("%s", err);
    int leaves = 0, fresh[MAX_MOVES], best_fresh = -SCORE_INF;
    for (int j = root->first; j < root->first + root->nmoves; j++) {
        const MoveStats *m = &b.moves[j];
        assert_int_equal(m->games, 0);
        assert_int_equal(m->nscores, 1);
        if (j > root->first) assert_true(m->score <= b.moves[j - 1].score);
        Position next = start;
        v->make(&next, &m->move);
        fresh[j - root->first] = -fresh_search(v, &w, &next, 2000);
        if (fresh[j - root->first] > best_fresh) best_fresh = fresh[j - root->first];
        const BookPosition *child = book_find(&b, &next);
        if (child) {
            assert_int_equal(child->ply, 1);
            assert_int_equal(m->score, -b.moves[child->first].score);
        } else {
            assert_int_equal(m->score, fresh[j - root->first]);
            leaves++;
        }
    }
    assert_true(leaves < start_moves); /* the other expansions may go deeper than ply 1 */
    /* Right after the root, every child was a leaf: a best of them went next. */
    bool best_expanded = false;
    for (int j = root->first; j < root->first + root->nmoves; j++) {
        Position next = start;
        v->make(&next, &b.moves[j].move);
        best_expanded |= fresh[j - root->first] == best_fresh && book_find(&b, &next);
    }
    assert_true(best_expanded);
    for (int i = 0; i < b.npositions; i++) {
        const BookPosition *p = &b.positions[i];
        assert_int_equal(p->games, 0);
        assert_int_equal(p->nmoves, legal_moves(v, &p->pos));
    }
    char out[4096];
    assert_int_equal(test_dama_run(out, sizeof out, "book check %s", path), 0);
    assert_non_null(strstr(out, "source search, 5 positions"));
    book_free(&b);
}

static void test_expand_tiny_international(void **state)
{
    (void)state;
    check_tiny(&international_variant, "tiny-intl.book", 9); /* perft(1) of the start: 9 */
}

static void test_expand_tiny_turkish(void **state)
{
    (void)state;
    check_tiny(&turkish_variant, "tiny-tr.book", 8); /* the eight men of the third rank step forward */
}

/* --full-plies 2: every position at ply 1 is expanded before anything else, so 10 positions
 * are the root and its nine children; the openings at ply 1 come from them. */
static void test_expand_full_plies(void **state)
{
    (void)state;
    Book b;
    char path[256], out[8192];
    expand("full.book", "-v international --nodes 1000 --positions 10 --full-plies 2", &b, path, sizeof path);
    assert_int_equal(b.npositions, 10);
    Position start;
    b.variant->start(&start);
    const BookPosition *root = book_find(&b, &start);
    assert_non_null(root);
    for (int j = root->first; j < root->first + root->nmoves; j++) {
        Position next = start;
        b.variant->make(&next, &b.moves[j].move);
        const BookPosition *child = book_find(&b, &next);
        assert_non_null(child);
        assert_int_equal(child->ply, 1);
    }
    /* The balanced ones among them are openings: book openings and selfplay read them. */
    Position *balanced;
    int n = book_balanced(&b, 1, b.margin, &balanced);
    assert_true(n >= 1);
    assert_int_equal(test_dama_run(out, sizeof out, "book openings %s --ply 1 --margin 30", path), 0);
    int lines = 0;
    for (const char *q = out; (q = strstr(q, " games 0 score ")); q++) lines++;
    assert_int_equal(lines, n);
    char games_db[128];
    snprintf(games_db, sizeof games_db, "%s/from-search-book.db", dir);
    int rc = test_dama_run(out, sizeof out, "selfplay -v international --games 2 --nodes 100 --threads 2 "
                           "--openings-book %s --book-ply 1 --db %s", path, games_db);
    if (rc != 0) fail_msg("%s", out);
    free(balanced);
    book_free(&b);
}

static void test_expand_threads_same_bytes(void **state)
{
    (void)state;
    char p1[256], p2[256];
    expand("t1.book", "-v international --nodes 2000 --positions 25 --full-plies 1 --threads 1", NULL, p1, sizeof p1);
    expand("t2.book", "-v international --nodes 2000 --positions 25 --full-plies 1 --threads 2", NULL, p2, sizeof p2);
    char *a = test_read_file(p1), *b = test_read_file(p2);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\npositions 25\n"));
    free(a);
    free(b);
}

/* 6 positions, then resumed to 12, is byte for byte 12 at once; a resume with other
 * options, an existing file without --resume, a games book: refused. */
static void test_expand_resume_same_bytes(void **state)
{
    (void)state;
    const char *opts = "-v turkish --nodes 1500 --margin 40 --max-ply 20";
    char once[256], resumed[256], options[256], out[4096];
    snprintf(options, sizeof options, "%s --positions 12", opts);
    expand("once.book", options, NULL, once, sizeof once);
    snprintf(options, sizeof options, "%s --positions 6", opts);
    expand("resumed.book", options, NULL, resumed, sizeof resumed);
    char *six = test_read_file(resumed);
    assert_non_null(strstr(six, "\npositions 6\n"));
    snprintf(options, sizeof options, "%s --positions 12 --resume", opts);
    expand("resumed.book", options, NULL, resumed, sizeof resumed);
    char *a = test_read_file(once), *b = test_read_file(resumed);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "\npositions 12\n"));
    /* Resumed again at the same count, nothing changes. */
    assert_int_equal(test_dama_run(out, sizeof out, "book expand --out %s %s --positions 12 --resume --quiet",
                                   resumed, opts), 0);
    assert_non_null(strstr(out, "resumed 12 searched 0 "));
    free(b);
    b = test_read_file(resumed);
    assert_string_equal(a, b);
    assert_int_equal(test_dama_run(out, sizeof out, "book expand --out %s %s --positions 12 --quiet", resumed, opts), 2);
    assert_non_null(strstr(out, "--resume"));
    assert_int_equal(test_dama_run(out, sizeof out, "book expand --out %s -v turkish --nodes 1500 --margin 41 "
                                   "--max-ply 20 --positions 13 --resume --quiet", resumed), 2);
    assert_non_null(strstr(out, "built with --margin 40, not 41"));
    assert_int_equal(test_dama_run(out, sizeof out, "book expand --out %s -v international --nodes 1500 --margin 40 "
                                   "--max-ply 20 --positions 13 --resume --quiet", resumed), 2);
    assert_non_null(strstr(out, "a book of turkish, not international"));
    assert_int_equal(test_dama_run(out, sizeof out, "book expand --out %s %s --weights material --positions 13 "
                                   "--resume --quiet", resumed, opts), 2);
    assert_non_null(strstr(out, "built with --weights"));
    assert_int_equal(test_dama_run(out, sizeof out, "book expand --out %s/rules.book --rules kvm=win --quiet", dir), 2);
    assert_non_null(strstr(out, "no --rules"));
    free(b);
    b = test_read_file(resumed);
    assert_string_equal(a, b); /* a refused resume leaves the file alone */
    Book games;
    char gpath[256];
    build(db, "games-resume.book", "--min-games 2", &games, gpath, sizeof gpath);
    book_free(&games);
    assert_int_equal(test_dama_run(out, sizeof out, "book expand --out %s --resume --quiet", gpath), 2);
    assert_non_null(strstr(out, "a book from games"));
    free(six);
    free(a);
    free(b);
}

/* The checksum line made right for the text around it (so that the body's checks run). */
static void fix_checksum(char *text)
{
    char *line = strstr(text, "\nchecksum ");
    assert_non_null(line);
    char *end = strchr(line + 1, '\n');
    size_t header_len = (size_t)(line + 1 - text);
    char digits[17];
    snprintf(digits, sizeof digits, "%016llx",
             (unsigned long long)book_checksum(text, header_len, end + 1, strlen(end + 1)));
    memcpy(line + 10, digits, 16);
}

/* A copy of text with the first occurrence of from replaced by to (malloc'd). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) fail_msg("'%s' not in the book", from);
    size_t n = strlen(text) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* text with from replaced by to and its checksum made right, written to name: refused with
 * expect (so the body's own checks are what refuse it). */
static void assert_edit_refused(const char *text, const char *from, const char *to, const char *name,
                                const char *expect)
{
    char path[256];
    char *edited = replaced(text, from, to);
    fix_checksum(edited);
    write_file(name, edited, strlen(edited), path, sizeof path);
    assert_refused(path, expect);
    free(edited);
}

/* A search book round trips byte for byte; a damaged one is refused at its line. */
static void test_search_book_round_trip_and_damage(void **state)
{
    (void)state;
    Book b;
    char path[256], bad[256];
    expand("trip.book", "-v turkish --nodes 1000 --positions 4", &b, path, sizeof path);
    char *text = test_read_file(path);
    char *again;
    size_t len;
    assert_true(book_format(&b, &again, &len));
    assert_int_equal(len, strlen(text));
    assert_memory_equal(again, text, len);
    free(again);
    assert_non_null(strstr(text, "dama-book 2\nvariant turkish\nsource search\nmin-games 0\nmargin 30\n"
                                 "nodes 1000\nfull-plies 0\nmax-ply 30\nweights "));
    /* The P line of the first position (line 13) with games 3. */
    char *p = strstr(text, "\nP "), *fen = strchr(p + 21, ' '); /* "P KEY PLY" then " GAMES FEN" */
    assert_non_null(fen);
    char from[64], *edited;
    snprintf(from, sizeof from, "%.*s 0 ", (int)(fen - p), p);
    char to[64];
    snprintf(to, sizeof to, "%.*s 3 ", (int)(fen - p), p);
    assert_edit_refused(text, from, to, "games.book", "games.book:13: games: '3' in a search book");
    /* An M line (line 14) with a game. */
    char *m = strstr(text, "\nM "), *counts = strchr(m + 3, ' ');
    snprintf(from, sizeof from, "%.*s 0 0 0 0 1 ", (int)(counts - m), m);
    snprintf(to, sizeof to, "%.*s 1 1 0 0 1 ", (int)(counts - m), m);
    assert_edit_refused(text, from, to, "move-games.book", "move-games.book:14: games, wins, draws and losses are 0 in a search book");
    /* nscores 0 */
    snprintf(to, sizeof to, "%.*s 0 0 0 0 0 ", (int)(counts - m), m);
    assert_edit_refused(text, from, to, "nscores.book", "nscores.book:14: nscores is 1 in a search book");
    /* The source line missing, unknown, and a version this build does not know. */
    assert_edit_refused(text, "source search\n", "", "no-source.book", "no-source.book:3: expected 'source VALUE'");
    assert_edit_refused(text, "source search\n", "source oracle\n", "oracle.book", "oracle.book:3: unknown source 'oracle'");
    assert_edit_refused(text, "dama-book 2\n", "dama-book 3\n", "v3.book", "v3.book:1: book format '3'");
    /* A version-1 header on a search body: games 0 is refused there. */
    edited = replaced(text, "dama-book 2\nvariant turkish\nsource search\nmin-games 0\nmargin 30\nnodes 1000\n"
                            "full-plies 0\nmax-ply 30\n", "dama-book 1\nvariant turkish\nmin-games 0\nmargin 30\n");
    char *w = strstr(edited, "weights "), *wend = strchr(w, '\n');
    memmove(w, wend + 1, strlen(wend + 1) + 1);
    fix_checksum(edited);
    write_file("v1.book", edited, strlen(edited), bad, sizeof bad);
    assert_refused(bad, "v1.book:8: games: not a positive number: '0'");
    free(edited);
    /* A move missing (the counts and the checksum made right): a search book lists all. */
    char *second = strstr(m + 1, "\n");
    char moves_from[32], moves_to[32];
    snprintf(moves_from, sizeof moves_from, "\nmoves %d\n", b.nmoves);
    snprintf(moves_to, sizeof moves_to, "\nmoves %d\n", b.nmoves - 1);
    size_t cut = (size_t)(second - m);
    char *dropped = malloc(strlen(text) + 1);
    snprintf(dropped, strlen(text) + 1, "%.*s%s", (int)(m - text), text, m + cut);
    edited = replaced(dropped, moves_from, moves_to);
    fix_checksum(edited);
    write_file("missing.book", edited, strlen(edited), bad, sizeof bad);
    assert_refused(bad, "legal moves (a search book lists them all)");
    free(edited);
    free(dropped);
    /* Two moves swapped: out of order (by score, or by text between equal scores). */
    const BookPosition *root = &b.positions[0];
    assert_true(root->nmoves >= 2);
    {
        char l1[128], l2[128], both[256], swapped[256];
        snprintf(l1, sizeof l1, "M %s 0 0 0 0 1 %d\n", b.moves[root->first].text, b.moves[root->first].score);
        snprintf(l2, sizeof l2, "M %s 0 0 0 0 1 %d\n", b.moves[root->first + 1].text, b.moves[root->first + 1].score);
        snprintf(both, sizeof both, "%s%s", l1, l2);
        snprintf(swapped, sizeof swapped, "%s%s", l2, l1);
        assert_edit_refused(text, both, swapped, "order.book", "order.book:15: moves out of order");
    }
    free(text);
    book_free(&b);
}

/* The hub plays a search book's first move at the start, without a search; a book edited
 * to put another move first makes it play that one.  A weighted choice stays within the
 * book's margin of the best. */
static void test_hub_plays_search_book_move(void **state)
{
    (void)state;
    Book b;
    char path[256], move[64], expect[HUB_MOVE_MAX];
    expand("hub-search.book", "-v turkish --nodes 1000 --positions 3", &b, path, sizeof path);
    Position start;
    b.variant->start(&start);
    const BookPosition *root = book_find(&b, &start);
    assert_non_null(root);
    bool searched;
    hub_move_searched(path, move, sizeof move, &searched);
    assert_false(searched);
    assert_string_equal(move, hub_move_to_text(b.variant, &b.moves[root->first].move, expect, sizeof expect));
    /* The root's moves written again with the last, scored one above the best, first. */
    char *text = test_read_file(path);
    const MoveStats *first = &b.moves[root->first], *last = &b.moves[root->first + root->nmoves - 1];
    char key[32];
    snprintf(key, sizeof key, "\nP %016llx ", (unsigned long long)root->key);
    char *at = strstr(text, key);
    assert_non_null(at);
    char *block = strchr(at + 1, '\n') + 1, *after = strstr(block, "\nP ");
    after = after ? after + 1 : text + strlen(text);
    size_t cap = strlen(text) + 64, n = 0;
    char *edited = malloc(cap);
    n += (size_t)snprintf(edited + n, cap - n, "%.*s", (int)(block - text), text);
    n += (size_t)snprintf(edited + n, cap - n, "M %s 0 0 0 0 1 %d\n", last->text, first->score + 1);
    for (int j = root->first; j < root->first + root->nmoves - 1; j++)
        n += (size_t)snprintf(edited + n, cap - n, "M %s 0 0 0 0 1 %d\n", b.moves[j].text, b.moves[j].score);
    snprintf(edited + n, cap - n, "%s", after);
    fix_checksum(edited);
    char other[256];
    write_file("hub-other.book", edited, strlen(edited), other, sizeof other);
    Book o;
    char err[512];
    if (!book_read(&o, other, NULL, err, sizeof err)) fail_msg("%s", err);
    const BookPosition *oroot = book_find(&o, &start);
    assert_true(move_same(&o.moves[oroot->first].move, &last->move));
    hub_move_searched(other, move, sizeof move, &searched);
    assert_false(searched);
    assert_string_equal(move, hub_move_to_text(b.variant, &last->move, expect, sizeof expect));
    book_free(&o);
    free(edited);
    free(text);
    /* analyze --book: the book's moves with games 0, the best first. */
    static char out[1 << 14];
    char line[128];
    assert_int_equal(test_dama_run(out, sizeof out, "analyze --book %s --depth 3", path), 0);
    snprintf(line, sizeof line, "bestmove %s\n", first->text);
    assert_non_null(strstr(out, line));
    snprintf(line, sizeof line, "book %s games 0 score %d\n", first->text, first->score);
    assert_non_null(strstr(out, line));
    assert_null(strstr(out, "info depth"));
    Rules rules = b.variant->rules_default();
    for (uint64_t seed = 0; seed < 40; seed++) {
        Move m1, m2;
        assert_true(book_choose(&b, &start, &rules, BOOK_WEIGHTED, seed, &m1));
        assert_true(book_choose(&b, &start, &rules, BOOK_WEIGHTED, seed, &m2));
        assert_true(move_same(&m1, &m2));
        int j = root->first;
        while (!move_same(&b.moves[j].move, &m1)) j++;
        assert_true(j < root->first + root->nmoves);
        assert_true(b.moves[j].score >= first->score - b.margin);
    }
    book_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_move_stats),
        cmocka_unit_test(test_counts_match_sql),
        cmocka_unit_test(test_margin_and_min_games),
        cmocka_unit_test(test_deterministic_round_trip),
        cmocka_unit_test(test_damaged_files_refused),
        cmocka_unit_test(test_hub_plays_book_move),
        cmocka_unit_test(test_explore_csv),
        cmocka_unit_test(test_explorer_route),
        cmocka_unit_test(test_openings_from_book),
        cmocka_unit_test(test_expand_tiny_international),
        cmocka_unit_test(test_expand_tiny_turkish),
        cmocka_unit_test(test_expand_full_plies),
        cmocka_unit_test(test_expand_threads_same_bytes),
        cmocka_unit_test(test_expand_resume_same_bytes),
        cmocka_unit_test(test_search_book_round_trip_and_damage),
        cmocka_unit_test(test_hub_plays_search_book_move),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
