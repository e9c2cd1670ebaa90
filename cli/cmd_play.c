/* `dama play`: a person against the engine (or two people) in the terminal, the board drawn
 * after every move.  Lines are read from standard input, so a pipe drives it as well as a
 * keyboard: no escape codes, each line read echoed after the prompt when the input is no
 * terminal (so the output is a transcript), the end of input ends the session. */
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bitboard.h"
#include "commands.h"
#include "egdb_option.h"
#include "egdb_search.h"
#include "human_game.h"
#include "line_reader.h"
#include "pipeline.h"
#include "position.h"
#include "text_input.h"
#include "variant.h"

enum { OPT_PLAY_COLOR = OPT_FIRST_FREE, OPT_DEPTH, OPT_NODES, OPT_MOVETIME, OPT_WEIGHTS, OPT_PLAY_TURN_SECONDS,
       OPT_PLAY_DB, OPT_PLAY_ASCII, OPT_PLAY_EGDB };

/* The engine's level when none is given: about half a second, the same moves every time. */
#define PLAY_DEFAULT_NODES 400000

typedef struct PlayOptions {
    int human;                  /* WHITE, BLACK or HUMAN_BOTH */
    SearchLimits level;
    const char *weights_name;
    long turn_seconds;          /* 0: no clock */
    const char *db;
    bool ascii;
    const char *egdb;           /* --egdb: endgame databases dama's search probes */
} PlayOptions;

/* What the session shows: the board's orientation and pieces, and how much is printed. */
typedef struct Session {
    HumanGame game;
    const PlayOptions *opt;
    bool flipped;               /* black at the bottom */
    bool tty;                   /* standard input is a terminal: a prompt, no echo */
    int shown;                  /* plies already reported */
} Session;

static int64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A piece's glyph: white ○ (king ◎), black ● (king ◉); w W b B with --ascii. */
static const char *piece_glyph(const Position *pos, int sq, bool ascii)
{
    Bitboard b = (Bitboard)1 << sq;
    if (pos->men[WHITE] & b) return ascii ? "w" : "\u25cb";
    if (pos->kings[WHITE] & b) return ascii ? "W" : "\u25ce";
    if (pos->men[BLACK] & b) return ascii ? "b" : "\u25cf";
    if (pos->kings[BLACK] & b) return ascii ? "B" : "\u25c9";
    return NULL;
}

/* Coordinates: Turkish files a-h under the board and ranks beside it; International the
 * first and last square number of each row beside it. */
static void print_files(const Variant *v, bool flipped)
{
    if (v->numbered)
        return;
    int size = human_board_size(v);
    fputs("    ", stdout);
    for (int c = 0; c < size; c++)
        printf(" %c ", 'a' + (flipped ? size - 1 - c : c));
    putchar('\n');
}

static void row_label(const Variant *v, int row, bool last, bool flipped, char *buf, size_t len)
{
    int size = human_board_size(v);
    if (!v->numbered) {
        snprintf(buf, len, "%d", size - row);
        return;
    }
    /* The row's dark squares in reading order from the side it is read from. */
    char name[8] = "";
    for (int i = 0; i < size; i++) {
        int col = (last != flipped) ? size - 1 - i : i;
        int sq = human_board_square(v, row, col);
        if (sq >= 0) {
            v->square_name(sq, name);
            break;
        }
    }
    snprintf(buf, len, "%s", name);
}

static void draw_board(const Session *s)
{
    const HumanGame *g = &s->game;
    const Variant *v = g->variant;
    const Position *pos = human_game_position(g);
    int size = human_board_size(v), plies = human_game_plies(g);
    const Move *last = plies > 0 ? &g->plies[plies - 1].move : NULL;
    putchar('\n');
    print_files(v, s->flipped);
    for (int r = 0; r < size; r++) {
        int row = s->flipped ? size - 1 - r : r;
        char left[8], right[8];
        row_label(v, row, false, s->flipped, left, sizeof left);
        row_label(v, row, true, s->flipped, right, sizeof right);
        printf("%3s ", left);
        for (int c = 0; c < size; c++) {
            int col = s->flipped ? size - 1 - c : c;
            int sq = human_board_square(v, row, col);
            const char *glyph = sq < 0 ? " " : piece_glyph(pos, sq, s->opt->ascii);
            if (!glyph)
                glyph = s->opt->ascii ? "." : "\u00b7";
            bool marked = last && sq >= 0 && (sq == last->from || sq == last->to);
            printf("%c%s%c", marked ? '[' : ' ', glyph, marked ? ']' : ' ');
        }
        printf(" %s\n", right);
    }
    print_files(v, s->flipped);
    if (last)
        printf("last move: %s\n", g->plies[plies - 1].text);
}

static const char *side_label(const HumanGame *g, int side)
{
    if (g->human_side == HUMAN_BOTH || g->human_side == side)
        return side == WHITE ? "white" : "black";
    return side == WHITE ? "white (dama)" : "black (dama)";
}

/* Prints the plies played since the last report: who played what, the engine's evaluation
 * and line. */
static void report_plies(Session *s)
{
    HumanGame *g = &s->game;
    for (; s->shown < human_game_plies(g); s->shown++) {
        const HumanPly *p = &g->plies[s->shown];
        int side = g->positions[s->shown].side;
        if (p->by == MOVER_CLOCK) {
            printf("%s's time ran out: %s was played for %s (a second time-out in a row loses)\n",
                   human_side_name(side), p->text, human_side_name(side));
            continue;
        }
        if (p->by == MOVER_HUMAN || g->last_search_ply != s->shown + 1) {
            printf("%s plays %s\n", side_label(g, side), p->text);
            continue;
        }
        const EngineReply *r = &g->last_search;
        printf("%s plays %s   eval %s%s for %s, depth %d, %llu nodes\n  pv", side_label(g, side), r->text,
               r->eval > 0 && isdigit((unsigned char)r->eval_text[0]) ? "+" : "", r->eval_text,
               human_side_name(side), r->depth, (unsigned long long)r->nodes);
        for (int i = 0; i < r->pv_length; i++)
            printf(" %s", r->pv[i]);
        putchar('\n');
    }
}

static void print_help(const Variant *v)
{
    printf("Type a move, or a command:\n"
           "  %s        a move: from and to, '-' for a quiet move, 'x' for a capture; a\n"
           "               capture may list its landing squares (%s) or give from and to only\n"
           "  moves        the legal moves\n"
           "  board        the board again       flip   turn the board around\n"
           "  pdn          the game so far as PDN\n"
           "  resign       give up the game      quit   leave (an unfinished game is not saved)\n"
           "  help         this text\n",
           v->numbered ? "32-28" : "c3-c4", v->numbered ? "26x37x48" : "d3xd5xf5");
}

static void print_pdn(const HumanGame *g)
{
    char *text, err[256];
    if (human_game_pdn(g, &text, err, sizeof err)) {
        fputs(text, stdout);
        free(text);
    } else {
        printf("no PDN: %s\n", err);
    }
}

static void print_refusal(const HumanGame *g, const MoveCheck *check)
{
    printf("refused: %s\n", check->reason);
    if (check->refusal == REFUSAL_NONE || !check->movable)
        return;
    printf("  pieces that may move:");
    for (Bitboard b = check->movable; b; b &= b - 1) {
        char name[8];
        printf(" %s", g->variant->square_name(__builtin_ctzll(b), name));
    }
    putchar('\n');
}

/* Lower-cased first word of line into word (for the commands). */
static void first_word(const char *line, char *word, size_t len)
{
    size_t n = 0;
    while (*line && !isspace((unsigned char)*line) && n + 1 < len)
        word[n++] = (char)tolower((unsigned char)*line++);
    word[n] = '\0';
}

enum LineOutcome { LINE_GO_ON, LINE_LEAVE };

/* One line a person typed: a command or a move. */
static int handle_line(Session *s, char *line, int64_t now)
{
    HumanGame *g = &s->game;
    while (isspace((unsigned char)*line))
        line++;
    size_t len = strlen(line);
    while (len && isspace((unsigned char)line[len - 1]))
        line[--len] = '\0';
    if (!s->tty) { /* the transcript shows what was read, control bytes as \xNN */
        char shown[256];
        printf("%s\n", text_quote(shown, sizeof shown, line, len, 200));
    }
    if (!len)
        return LINE_GO_ON;
    char word[16];
    first_word(line, word, sizeof word);
    if (strcmp(word, "help") == 0 || strcmp(word, "?") == 0) {
        print_help(g->variant);
    } else if (strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0) {
        printf("left: the game is unfinished and not saved\n");
        return LINE_LEAVE;
    } else if (strcmp(word, "moves") == 0) {
        char legal[16384];
        int n = human_game_legal_text(g, legal, sizeof legal);
        printf("%d legal move%s: %s\n", n, n == 1 ? "" : "s", legal);
    } else if (strcmp(word, "board") == 0) {
        draw_board(s);
    } else if (strcmp(word, "flip") == 0) {
        s->flipped = !s->flipped;
        draw_board(s);
    } else if (strcmp(word, "pdn") == 0) {
        print_pdn(g);
    } else if (strcmp(word, "resign") == 0) {
        int side = human_game_position(g)->side;
        if (g->human_side != HUMAN_BOTH)
            side = g->human_side;
        human_game_resign(g, side);
    } else {
        MoveCheck check;
        bool played = human_game_try(g, line, now, &check);
        report_plies(s);
        if (!played)
            print_refusal(g, &check);
    }
    return LINE_GO_ON;
}

static void prompt(const Session *s, int64_t now)
{
    const HumanGame *g = &s->game;
    int side = human_game_position(g)->side;
    if (g->clock.turn_ms > 0)
        printf("%s to move, %lld s left> ", human_side_name(side),
               (long long)((human_game_time_left(g, now) + 999) / 1000));
    else
        printf("%s to move> ", human_side_name(side));
    fflush(stdout);
}

enum { LINE_INTERRUPTED = -1 };

/* The next line, in slices so that Ctrl-C is seen at once: LINE_TIMEOUT when the turn's
 * time runs out first, LINE_INTERRUPTED on Ctrl-C or SIGTERM. */
static int read_line(LineReader *in, const HumanGame *g, const atomic_bool *stop, char **line)
{
    for (;;) {
        if (atomic_load(stop))
            return LINE_INTERRUPTED;
        int wait = 200;
        if (g->clock.turn_ms > 0) {
            int64_t left = human_game_time_left(g, monotonic_ms());
            if (left <= 0)
                return LINE_TIMEOUT;
            if (left < wait)
                wait = (int)left;
        }
        int status = line_reader_next(in, wait, line);
        if (status != LINE_TIMEOUT)
            return status;
    }
}

/* Saves the finished game into --db: an exit code. */
static int save_game(Session *s, Store *store, const Weights *weights)
{
    int64_t weights_id = s->game.human_side == HUMAN_BOTH ? 0
                         : pipeline_store_weights(store, weights, 0, 0, s->opt->weights_name);
    if (weights_id < 0)
        return cli_runtime_error("%s: %s", s->opt->db, store_error(store));
    int64_t run = 0, game_id = 0;
    char err[512];
    if (!human_game_save(&s->game, store, weights_id, &run, &game_id, err, sizeof err))
        return cli_runtime_error("%s: %s", s->opt->db, err);
    printf("saved as game %lld (run %lld) in %s\n", (long long)game_id, (long long)run, s->opt->db);
    return EXIT_OK;
}

/* The session: until the game ends, the person leaves or the input ends. */
static int play_session(Session *s, Store *store, const Weights *weights, const atomic_bool *stop)
{
    HumanGame *g = &s->game;
    LineReader in;
    line_reader_init(&in, STDIN_FILENO);
    int drawn_at = -1; /* the board is drawn again once a ply has been played */
    int code = EXIT_OK;
    for (;;) {
        int64_t now = monotonic_ms();
        human_game_tick(g, now);
        report_plies(s);
        if (atomic_load(stop))
            break;
        if (human_game_over(g))
            break;
        if (human_game_engine_to_move(g)) {
            if (!human_game_engine_move(g, monotonic_ms(), NULL)) {
                line_reader_free(&in);
                return cli_runtime_error("out of memory");
            }
            report_plies(s);
            continue;
        }
        if (drawn_at != human_game_plies(g))
            draw_board(s);
        drawn_at = human_game_plies(g);
        prompt(s, now);
        char *line;
        int status = read_line(&in, g, stop, &line);
        if (status == LINE_INTERRUPTED)
            break;
        if (status == LINE_TOO_LONG) {
            line_reader_free(&in);
            return cli_usage_error("standard input: a line longer than the %d KiB limit of a move or command",
                                   LINE_READER_MAX / 1024);
        }
        if (status == LINE_TIMEOUT) {
            putchar('\n');
            continue;
        }
        if (status == LINE_END || handle_line(s, line, monotonic_ms()) == LINE_LEAVE) {
            if (status == LINE_END)
                printf("\nend of input: the game is unfinished and not saved\n");
            line_reader_free(&in);
            return EXIT_OK;
        }
    }
    line_reader_free(&in);
    if (atomic_load(stop)) {
        fflush(stdout);
        fprintf(stderr, "dama: interrupted: the game is unfinished and not saved\n");
        return EXIT_INTERRUPTED;
    }
    if (drawn_at != human_game_plies(g))
        draw_board(s);
    char end[96];
    printf("game over: %s\n", game_end_text((GameEnd){ g->result, g->reason }, end, sizeof end));
    if (store)
        code = save_game(s, store, weights);
    return code;
}

static int play_option(PlayOptions *po, int o, const char *arg)
{
    long n;
    switch (o) {
    case OPT_PLAY_COLOR:
        if (strcmp(arg, "white") == 0) po->human = WHITE;
        else if (strcmp(arg, "black") == 0) po->human = BLACK;
        else if (strcmp(arg, "both") == 0) po->human = HUMAN_BOTH;
        else return cli_usage_error("bad value '%s' for --color: expected white, black or both", arg), -1;
        return 1;
    case OPT_DEPTH: return cli_search_limit(&po->level, "--depth", arg) ? 1 : -1;
    case OPT_NODES:
        if (!cli_search_limit(&po->level, "--nodes", arg)) return -1;
        if (po->level.nodes == 0)
            return cli_usage_error("bad value '%s' for --nodes: expected a positive number", arg), -1;
        return 1;
    case OPT_MOVETIME: return cli_search_limit(&po->level, "--movetime", arg) ? 1 : -1;
    case OPT_PLAY_TURN_SECONDS:
        if (!cli_long("--turn-seconds", arg, 1, 86400L, &n)) return -1;
        po->turn_seconds = n;
        return 1;
    case OPT_WEIGHTS: po->weights_name = arg; return 1;
    case OPT_PLAY_DB: po->db = arg; return 1;
    case OPT_PLAY_ASCII: po->ascii = true; return 1;
    case OPT_PLAY_EGDB: po->egdb = arg; return 1;
    default: return 0;
    }
}

static int run_play(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "variant", required_argument, 0, OPT_VARIANT },
        { "rules", required_argument, 0, OPT_RULES },
        { "fen", required_argument, 0, OPT_FEN },
        { "help", no_argument, 0, OPT_HELP },
        { "color", required_argument, 0, OPT_PLAY_COLOR },
        { "depth", required_argument, 0, OPT_DEPTH },
        { "nodes", required_argument, 0, OPT_NODES },
        { "movetime", required_argument, 0, OPT_MOVETIME },
        { "weights", required_argument, 0, OPT_WEIGHTS },
        { "turn-seconds", required_argument, 0, OPT_PLAY_TURN_SECONDS },
        { "db", required_argument, 0, OPT_PLAY_DB },
        { "ascii", no_argument, 0, OPT_PLAY_ASCII },
        { "egdb", required_argument, 0, OPT_PLAY_EGDB },
        { 0, 0, 0, 0 },
    };
    EngineContext ctx;
    engine_context_init(&ctx);
    PlayOptions po = { .human = WHITE, .weights_name = "best" };
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        if (o == OPT_HELP)
            return cli_print_help("play");
        if (o == '?')
            return EXIT_USAGE;
        int used = play_option(&po, o, optarg);
        if (used < 0 || (used == 0 && engine_context_option(&ctx, o, optarg) <= 0))
            return EXIT_USAGE;
    }
    if (optind != argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama play --help')", argv[optind]);
    if (!engine_context_finish(&ctx))
        return EXIT_USAGE;
    if (!po.level.depth && !po.level.nodes && !po.level.movetime_ms)
        po.level.nodes = PLAY_DEFAULT_NODES;

    Weights weights;
    char err[512];
    pipeline_interrupt_flag(); /* from the reading of --weights on, Ctrl-C or SIGTERM: exit 130 */
    if (!pipeline_weights_by_name(&weights, ctx.variant, po.weights_name, err, sizeof err))
        return cli_usage_error("%s", err);
    Store *store = NULL;
    if (po.db && !(store = pipeline_open_store(po.db))) {
        weights_free(&weights);
        return EXIT_RUNTIME;
    }
    Session s = { .opt = &po, .flipped = po.human == BLACK, .tty = isatty(STDIN_FILENO) };
    if (!human_game_start(&s.game, ctx.variant, &ctx.rules, &ctx.pos, po.human, po.level,
                          (int64_t)po.turn_seconds * 1000, &weights, monotonic_ms())) {
        store_close(store);
        weights_free(&weights);
        return cli_runtime_error("out of memory");
    }
    if (po.human == HUMAN_BOTH)
        printf("dama play: %s draughts, two people at one board", ctx.variant->name);
    else
        printf("dama play: %s draughts, you play %s against dama (weights %s)", ctx.variant->name,
               human_side_name(po.human), po.weights_name);
    if (po.turn_seconds)
        printf(", %ld s a turn", po.turn_seconds);
    printf(".\nType a move or 'help'.\n");
    /* Ctrl-C stops dama's search too: no move waits for a search of hours. */
    const atomic_bool *stop = pipeline_interrupt_flag();
    if (s.game.searcher)
        s.game.searcher->stop_request = stop;
    Egdb *egdb = po.egdb && s.game.searcher ? cli_egdb_open(po.egdb, ctx.variant, &ctx.rules) : NULL;
    if (egdb)
        egdb_search_attach(s.game.searcher, egdb);
    int code = play_session(&s, store, &weights, stop);
    egdb_close(egdb);
    human_game_free(&s.game);
    store_close(store);
    weights_free(&weights);
    fflush(stdout);
    return code;
}

const Command cmd_play = {
    "play", "play a game against dama (or two people) in the terminal",
    "usage: dama play [--variant NAME] [--color white|black|both] [--fen FEN]\n"
    "                 [--rules OPTIONS] [--depth D | --nodes N | --movetime MS]\n"
    "                 [--weights FILE] [--turn-seconds S] [--db FILE] [--ascii]\n"
    "                 [--egdb DIR]\n"
    "\n"
    "Plays a game in the terminal: the board is drawn (white pieces \u25cb, kings \u25ce; black\n"
    "\u25cf, kings \u25c9; the last move's squares in [brackets]) and moves are typed one a\n"
    "line, in long form (d3xd5xf5) or short (d3xf5, in International 26x37).  An\n"
    "illegal move is refused with the reason and the pieces that may move.  dama\n"
    "answers with its move, its evaluation (hundredths of a man, or winN/lossN for a\n"
    "result forced in N plies), the depth, the nodes and its principal variation.\n"
    "Commands: help, moves (the legal moves), board, flip, pdn (the game so far),\n"
    "resign, quit.\n"
    "\n"
    "Standard input may be a pipe: then each line read is echoed after the prompt,\n"
    "and the end of input ends the session (an unfinished game is not saved).  No\n"
    "escape codes.\n"
    "\n"
    "  -v, --variant NAME  turkish (default) or international (short tr, intl)\n"
    "  --color SIDE     the side you play: white (default), black, or both (two\n"
    "                   people)\n"
    "  --fen FEN        start position (default: start)\n"
    "  --rules OPTIONS  the variant's rule options (see 'dama perft --help')\n"
    "  --depth D, --nodes N, --movetime MS\n"
    "                   dama's level (default --nodes 400000, about half a second)\n"
    "  --weights FILE   dama's evaluation: a file, 'best' (default: the shipped\n"
    "                   weights), 'default' or 'material'\n"
    "  --turn-seconds S thinking time a turn: when yours runs out, a move is played\n"
    "                   for you (dama's choice at a small search); a second time-out\n"
    "                   in a row loses the game on time\n"
    "  --db FILE        save the finished game into this database (a run of kind\n"
    "                   'play')\n"
    "  --ascii          pieces as w W b B and empty squares as '.'\n"
    "  --egdb DIR       endgame databases ('dama egdb build') dama's search probes; a\n"
    "                   missing or damaged one is reported and not used\n"
    "\n"
    "Exit codes: 0 the session ended (game over, quit or end of input), 1 the game\n"
    "could not be saved, 2 bad usage, 130 interrupted (Ctrl-C or SIGTERM, even while\n"
    "dama thinks; the game is not saved).\n",
    run_play,
};
