/* A game a person plays in the terminal; see terminal_game.h.  Lines are read from
 * standard input, so a pipe drives it as well as a keyboard: no escape codes, each line
 * read echoed after the prompt when the input is no terminal (so the output is a
 * transcript), the end of input ends the session. */
#include "terminal_game.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "egdb_search.h"
#include "human_game.h"
#include "weights_store.h"
#include "terminal_board.h"
#include "terminal_input.h"
#include "terminal_report.h"
#include "variant.h"

/* What the session shows: the board's orientation and pieces, and how much is printed. */
typedef struct Session {
    HumanGame game;
    const TerminalGameOptions *opt;
    bool flipped;               /* black at the bottom */
    bool tty;                   /* standard input is a terminal: a prompt, no echo */
    int shown;                  /* plies already reported */
} Session;

enum LineOutcome { LINE_GO_ON, LINE_LEAVE };

static void draw(const Session *s) { terminal_board_draw(&s->game, s->flipped, s->opt->ascii); }

/* One line a person typed: a command or a move. */
static int handle_line(Session *s, char *line, int64_t now)
{
    HumanGame *g = &s->game;
    if (!terminal_line_trim(&line, !s->tty))
        return LINE_GO_ON;
    char word[16];
    terminal_first_word(line, word, sizeof word);
    if (strcmp(word, "help") == 0 || strcmp(word, "?") == 0) {
        terminal_report_help(g->variant);
    } else if (strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0) {
        printf("left: the game is unfinished and not saved\n");
        return LINE_LEAVE;
    } else if (strcmp(word, "moves") == 0) {
        char legal[16384];
        int n = human_game_legal_text(g, legal, sizeof legal);
        printf("%d legal move%s: %s\n", n, n == 1 ? "" : "s", legal);
    } else if (strcmp(word, "board") == 0) {
        draw(s);
    } else if (strcmp(word, "flip") == 0) {
        s->flipped = !s->flipped;
        draw(s);
    } else if (strcmp(word, "pdn") == 0) {
        terminal_report_pdn(g);
    } else if (strcmp(word, "resign") == 0) {
        int side = human_game_position(g)->side;
        if (g->human_side != HUMAN_BOTH)
            side = g->human_side;
        human_game_resign(g, side);
    } else {
        MoveCheck check;
        bool played = human_game_try(g, line, now, &check);
        terminal_report_plies(g, &s->shown);
        if (!played)
            terminal_report_refusal(g, &check);
    }
    return LINE_GO_ON;
}

/* Saves the finished game into store: an enum TerminalGameEnd. */
static int save_game(Session *s, Store *store, const Weights *weights, char *err, size_t errlen)
{
    int64_t weights_id = s->game.human_side == HUMAN_BOTH ? 0
                         : weights_store_save(store, weights, 0, 0, s->opt->weights_name);
    if (weights_id < 0) {
        snprintf(err, errlen, "%s: %s", s->opt->db, store_error(store));
        return TERMINAL_GAME_FAILED;
    }
    int64_t run = 0, game_id = 0;
    char why[512];
    if (!human_game_save(&s->game, store, weights_id, &run, &game_id, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", s->opt->db, why);
        return TERMINAL_GAME_FAILED;
    }
    printf("saved as game %lld (run %lld) in %s\n", (long long)game_id, (long long)run, s->opt->db);
    return TERMINAL_GAME_ENDED;
}

/* Reads and handles the person's lines until the game ends (TERMINAL_GAME_ENDED with
 * *over set), the person leaves, the input ends or fails, or stop is set. */
static int play_lines(Session *s, LineReader *in, const atomic_bool *stop, int *drawn_at, bool *over,
                      char *err, size_t errlen)
{
    HumanGame *g = &s->game;
    for (;;) {
        int64_t now = terminal_now_ms();
        human_game_tick(g, now);
        terminal_report_plies(g, &s->shown);
        if (atomic_load(stop))
            break;
        if (human_game_over(g)) {
            *over = true;
            return TERMINAL_GAME_ENDED;
        }
        if (human_game_engine_to_move(g)) {
            if (!human_game_engine_move(g, terminal_now_ms(), NULL)) {
                snprintf(err, errlen, "out of memory");
                return TERMINAL_GAME_FAILED;
            }
            terminal_report_plies(g, &s->shown);
            continue;
        }
        if (*drawn_at != human_game_plies(g))
            draw(s);
        *drawn_at = human_game_plies(g);
        terminal_report_prompt(g, now);
        char *line;
        int status = terminal_read_line(in, g, stop, &line);
        if (status == LINE_INTERRUPTED)
            break;
        if (status == LINE_TOO_LONG) {
            snprintf(err, errlen, "standard input: a line longer than the %d KiB limit of a move or command",
                     LINE_READER_MAX / 1024);
            return TERMINAL_GAME_BAD_INPUT;
        }
        if (status == LINE_TIMEOUT) {
            putchar('\n');
            continue;
        }
        if (status == LINE_END || handle_line(s, line, terminal_now_ms()) == LINE_LEAVE) {
            if (status == LINE_END)
                printf("\nend of input: the game is unfinished and not saved\n");
            return TERMINAL_GAME_ENDED;
        }
    }
    snprintf(err, errlen, "interrupted: the game is unfinished and not saved");
    return TERMINAL_GAME_INTERRUPTED;
}

/* The session: until the game ends, the person leaves or the input ends. */
static int play_session(Session *s, Store *store, const Weights *weights, const atomic_bool *stop,
                        char *err, size_t errlen)
{
    HumanGame *g = &s->game;
    LineReader in;
    line_reader_init(&in, STDIN_FILENO);
    int drawn_at = -1; /* the board is drawn again once a ply has been played */
    bool over = false;
    int end = play_lines(s, &in, stop, &drawn_at, &over, err, errlen);
    line_reader_free(&in);
    if (!over)
        return end;
    if (drawn_at != human_game_plies(g))
        draw(s);
    char text[96];
    printf("game over: %s\n", game_end_text((GameEnd){ g->result, g->reason }, text, sizeof text));
    return store ? save_game(s, store, weights, err, errlen) : TERMINAL_GAME_ENDED;
}

static void greet(const TerminalGameOptions *opt, const Variant *v)
{
    if (opt->human == HUMAN_BOTH)
        printf("dama play: %s draughts, two people at one board", v->name);
    else
        printf("dama play: %s draughts, you play %s against dama (weights %s)", v->name,
               human_side_name(opt->human), opt->weights_name);
    if (opt->turn_seconds)
        printf(", %ld s a turn", opt->turn_seconds);
    printf(".\nType a move or 'help'.\n");
}

int terminal_game_run(const TerminalGameOptions *opt, const Variant *v, const Rules *rules,
                      const Position *start, const Weights *weights, Store *store,
                      const atomic_bool *stop, char *err, size_t errlen)
{
    Session s = { .opt = opt, .flipped = opt->human == BLACK, .tty = isatty(STDIN_FILENO) };
    if (!human_game_start(&s.game, v, rules, start, opt->human, opt->level,
                          (int64_t)opt->turn_seconds * 1000, weights, terminal_now_ms())) {
        snprintf(err, errlen, "out of memory");
        return TERMINAL_GAME_FAILED;
    }
    greet(opt, v);
    /* Ctrl-C stops dama's search too: no move waits for a search of hours. */
    if (s.game.searcher) {
        s.game.searcher->stop_request = stop;
        egdb_search_attach(s.game.searcher, opt->egdb);
    }
    int end = play_session(&s, store, weights, stop, err, errlen);
    human_game_free(&s.game);
    return end;
}
