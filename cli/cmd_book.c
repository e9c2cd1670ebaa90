/* `dama book`: an opening book built from the database's games or grown by search, its
 * check, the balanced openings it holds, and the opening explorer (docs/book.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_build.h"
#include "book_expand.h"
#include "book_openings.h"
#include "commands.h"
#include "csv_writer.h"
#include "explorer.h"
#include "interrupt.h"
#include "position.h"
#include "store_open.h"
#include "variant.h"

#define BOOK_MIN_GAMES_DEFAULT 2
#define BOOK_MARGIN_DEFAULT 50
#define BOOK_MAX_PLY_DEFAULT 40
/* book expand's (docs/book.md, "dama book expand"). */
#define EXPAND_NODES_DEFAULT 200000
#define EXPAND_POSITIONS_DEFAULT 1000
#define EXPAND_MARGIN_DEFAULT 30
#define EXPAND_MAX_PLY_DEFAULT 30

typedef struct BookArgs {
    const char *db, *out, *fen, *rules, *weights;
    const Variant *variant;
    long min_games, margin, max_ply, ply, nodes, positions, full_plies;
    int threads; /* 0: the CPUs */
    bool has_ply, has_margin, has_max_ply, quiet, resume;
} BookArgs;

/* Options of every subcommand; each checks what it needs.  -1: go on; else an exit code. */
static int parse_args(int argc, char **argv, BookArgs *a)
{
    *a = (BookArgs){ .variant = &turkish_variant, .min_games = BOOK_MIN_GAMES_DEFAULT,
                     .margin = BOOK_MARGIN_DEFAULT, .max_ply = BOOK_MAX_PLY_DEFAULT,
                     .nodes = EXPAND_NODES_DEFAULT, .positions = EXPAND_POSITIONS_DEFAULT };
    const CliOption options[] = {
        TEXT_ARG("db", &a->db),
        TEXT_ARG("out", &a->out),
        LONG_ARG("min-games", &a->min_games, 1, 1000000000),
        { .name = "margin", .kind = ARG_LONG, .dest = &a->margin, .min = 0, .max = 100000, .seen = &a->has_margin },
        { .name = "max-ply", .kind = ARG_LONG, .dest = &a->max_ply, .min = 0, .max = 100000,
          .seen = &a->has_max_ply },
        { .name = "ply", .kind = ARG_LONG, .dest = &a->ply, .min = 0, .max = 100000, .seen = &a->has_ply },
        CALL_ARG("variant", &a->variant, cli_option_variant),
        TEXT_ARG("rules", &a->rules),
        TEXT_ARG("fen", &a->fen),
        LONG_ARG("nodes", &a->nodes, 1, 1000000000),
        LONG_ARG("positions", &a->positions, 1, BOOK_EXPAND_POSITIONS_MAX),
        LONG_ARG("full-plies", &a->full_plies, 0, 100),
        TEXT_ARG("weights", &a->weights),
        THREADS_ARG("threads", &a->threads),
        SET_ARG("quiet", &a->quiet),
        SET_ARG("resume", &a->resume),
        { 0 },
    };
    return cli_parse(argc, argv, "book", options, argc);
}

static int run_build(int argc, char **argv)
{
    BookArgs a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) return code;
    if (!a.db || !a.out) return cli_usage_error("book build needs --db FILE and --out BOOK (see 'dama book --help')");
    if (optind < argc) return cli_usage_error("unexpected argument '%s' (see 'dama book --help')", argv[optind]);
    double t0 = cli_now_seconds();
    BookBuildOptions opt = { a.variant, (int)a.min_games, (int)a.margin, (int)a.max_ply };
    Book book;
    BookBuildStats st;
    char err[6144]; /* "book build: DB: why" */
    if (!book_build_file(a.db, &opt, a.out, &book, &st, err, sizeof err))
        return cli_runtime_error("%s", err);
    double t = cli_now_seconds() - t0;
    printf("book build positions %d moves %d seen %lld distinct %lld unmatched %lld file %s time %.3f\n",
           book.npositions, book.nmoves, (long long)st.positions_seen, (long long)st.distinct,
           (long long)st.unmatched, a.out, t);
    book_free(&book);
    return EXIT_OK;
}

/* A book grown by search from the start position (book_expand.h). */
static int run_expand(int argc, char **argv)
{
    BookArgs a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) return code;
    if (!a.out) return cli_usage_error("book expand needs --out BOOK (see 'dama book --help')");
    if (optind < argc) return cli_usage_error("unexpected argument '%s' (see 'dama book --help')", argv[optind]);
    if (!a.has_margin) a.margin = EXPAND_MARGIN_DEFAULT;
    if (!a.has_max_ply) a.max_ply = EXPAND_MAX_PLY_DEFAULT;
    if (a.max_ply < 1) return cli_usage_error("book expand: --max-ply must be at least 1");
    if (a.rules || a.fen) /* the file records neither: a resume could not check them */
        return cli_usage_error("book expand grows from the start position under the official rules: no %s",
                               a.rules ? "--rules" : "--fen");
    WEIGHTS_SCOPED weights = { 0 };
    if (!cli_weights(&weights, a.variant, a.weights, "best")) return EXIT_USAGE;
    BookExpandOptions opt = {
        .variant = a.variant, .weights = &weights, .nodes = (uint64_t)a.nodes, .positions = (int)a.positions,
        .full_plies = (int)a.full_plies, .margin = (int)a.margin, .max_ply = (int)a.max_ply, .threads = a.threads,
        .out = a.out, .resume = a.resume, .progress = a.quiet ? NULL : stderr, .stop = interrupt_flag(),
    };
    BookExpandStats st;
    char err[6144];
    int result = book_expand(&opt, &st, err, sizeof err);
    if (result == BOOK_EXPAND_REFUSED) return cli_usage_error("book expand: %s", err);
    if (result == BOOK_EXPAND_FAILED) return cli_runtime_error("book expand: %s", err);
    printf("book expand positions %d moves %d resumed %d searched %" PRId64 "%s file %s time %.3f\n", st.expanded,
           st.moves, st.resumed, st.searched, st.exhausted ? " exhausted" : "", a.out, st.seconds);
    if (result == BOOK_EXPAND_INTERRUPTED) {
        fprintf(stderr, "dama: book expand interrupted; the book so far is in %s, the same command with --resume "
                        "continues it\n", a.out);
        return EXIT_INTERRUPTED;
    }
    return EXIT_OK;
}

/* Reads BOOK (the one argument left) into *b; an exit code on failure. */
static int read_book_arg(int argc, char **argv, const char *what, Book *b)
{
    if (optind + 1 != argc) return cli_usage_error("book %s needs one BOOK file (see 'dama book --help')", what);
    char err[1024];
    if (!book_read(b, argv[optind], interrupt_flag(), err, sizeof err))
        return cli_usage_error("%s", err);
    return -1;
}

static int run_check(int argc, char **argv)
{
    BookArgs a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) return code;
    Book b;
    if ((code = read_book_arg(argc, argv, "check", &b)) >= 0) return code;
    bool search = b.source == BOOK_SOURCE_SEARCH;
    printf("%s: book of %s, source %s, %d positions, %d moves, min-games %d, margin %d", argv[optind],
           b.variant->name, search ? "search" : "games", b.npositions, b.nmoves, b.min_games, b.margin);
    if (search)
        printf(", nodes %" PRIu64 ", full-plies %d, max-ply %d, weights %016" PRIx64, b.search.nodes,
               b.search.full_plies, b.search.max_ply, b.search.weights);
    putchar('\n');
    book_free(&b);
    return EXIT_OK;
}

/* The book's balanced positions at --ply (book_openings.h): an openings file. */
static int run_openings(int argc, char **argv)
{
    BookArgs a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) return code;
    if (!a.has_ply) return cli_usage_error("book openings needs --ply K (see 'dama book --help')");
    Book b;
    if ((code = read_book_arg(argc, argv, "openings", &b)) >= 0) return code;
    int n = book_balanced_write(&b, (int)a.ply, (int)a.margin, stdout);
    book_free(&b);
    if (n < 0) return cli_runtime_error("out of memory");
    fprintf(stderr, "book openings: %d positions at ply %ld within %ld\n", n, a.ply, a.margin);
    return EXIT_OK;
}

static int run_explore(int argc, char **argv)
{
    BookArgs a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0) return code;
    if (!a.db || !a.fen) return cli_usage_error("book explore needs --db FILE and --fen FEN (see 'dama book --help')");
    if (optind < argc) return cli_usage_error("unexpected argument '%s' (see 'dama book --help')", argv[optind]);
    char err[1024];
    Rules rules = rules_default(a.variant);
    if (a.rules && !rules_parse(a.variant, &rules, a.rules, err, sizeof err))
        return cli_usage_error("--rules: %s", err);
    Position pos;
    if (!position_from_fen(&pos, a.variant, a.fen, err, sizeof err)) return cli_usage_error("--fen: %s", err);
    Store *store = cli_open_store_readonly(a.db);
    if (!store) return EXIT_RUNTIME;
    Explorer e;
    bool ok = explorer_query(store, a.variant, &rules, &pos, &e, err, sizeof err);
    store_close(store);
    if (!ok) return cli_runtime_error("book explore: %s: %s", a.db, err);
    CsvWriter w;
    if (!csv_writer_open(&w, a.out, err, sizeof err)) {
        explorer_free(&e);
        return cli_runtime_error("%s", err);
    }
    static const char *const header[] = { "move", "games", "white_wins", "draws", "black_wins", "stm_score",
                                          "mean_score", "scored_games" };
    csv_header(&w, header, 8);
    for (int i = 0; i < e.nmoves; i++) {
        const MoveStats *m = &e.moves[i];
        csv_text(&w, m->text);
        csv_int(&w, m->games);
        csv_int(&w, explorer_white_wins(&pos, m));
        csv_int(&w, m->draws);
        csv_int(&w, explorer_black_wins(&pos, m));
        csv_real(&w, (m->wins + m->draws * 0.5) / m->games);
        if (m->nscores) csv_int(&w, m->score);
        else csv_empty(&w);
        csv_int(&w, m->nscores);
        csv_end_row(&w);
    }
    explorer_free(&e);
    return csv_writer_commit(&w, err, sizeof err) ? EXIT_OK : cli_runtime_error("%s", err);
}

static int run_book(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("book needs a subcommand: build, expand, check, openings or explore (see 'dama book "
                               "--help')");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) return cli_print_help("book");
    if (strcmp(argv[1], "build") == 0) return run_build(argc - 1, argv + 1);
    if (strcmp(argv[1], "expand") == 0) return run_expand(argc - 1, argv + 1);
    if (strcmp(argv[1], "check") == 0) return run_check(argc - 1, argv + 1);
    if (strcmp(argv[1], "openings") == 0) return run_openings(argc - 1, argv + 1);
    if (strcmp(argv[1], "explore") == 0) return run_explore(argc - 1, argv + 1);
    return cli_usage_error("unknown book subcommand '%s' (see 'dama book --help')", argv[1]);
}

const Command cmd_book = {
    "book", "an opening book from the database's games or by search, and the opening explorer",
    run_book,
};
