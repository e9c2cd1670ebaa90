/* `dama hub`: the options of the Hub protocol engine (hub/hub_engine.h), checked before any
 * GUI speaks, then the engine's session on stdin and stdout. */
#include <stdio.h>
#include <string.h>

#include "book_file.h"
#include "commands.h"
#include "hub_engine.h"
#include "hub_line.h"
#include "interrupt.h"
#include "weights_store.h"
#include "variant.h"
#include "weights.h"

/* Reads hub's options into p.  -1: go on; else an exit code. */
static int parse_args(int argc, char **argv, HubParams *p)
{
    enum { OPT_HASH = OPT_FIRST_FREE, OPT_WEIGHTS, OPT_BOOK, OPT_EGDB };
    static const struct option longopts[] = {
        { "variant", required_argument, 0, OPT_VARIANT },
        { "rules", required_argument, 0, OPT_RULES },
        { "hash", required_argument, 0, OPT_HASH },
        { "weights", required_argument, 0, OPT_WEIGHTS },
        { "book", required_argument, 0, OPT_BOOK },
        { "egdb", required_argument, 0, OPT_EGDB },
        { "help", no_argument, 0, OPT_HELP },
        { 0, 0, 0, 0 },
    };
    int o, code = -1;
    long n;
    while (code < 0 && (o = cli_getopt(argc, argv, longopts)) != -1) {
        switch (o) {
        case OPT_HELP: code = cli_print_help("hub"); break;
        case OPT_VARIANT:
            if (!(p->variant = cli_variant(optarg)))
                code = EXIT_USAGE;
            break;
        case OPT_HASH:
            if (!cli_long("--hash", optarg, 1, HUB_HASH_MAX, &n))
                code = EXIT_USAGE;
            p->hash_mb = n;
            break;
        case OPT_EGDB:
            if (strlen(optarg) >= sizeof p->egdb)
                code = cli_usage_error("--egdb: too long");
            else
                snprintf(p->egdb, sizeof p->egdb, "%s", optarg);
            break;
        case OPT_WEIGHTS:
        case OPT_BOOK:
        case OPT_RULES: {
            char *dst = o == OPT_WEIGHTS ? p->weights : o == OPT_BOOK ? p->book : p->rules;
            size_t size = o == OPT_WEIGHTS ? sizeof p->weights
                          : o == OPT_BOOK  ? sizeof p->book : sizeof p->rules;
            if (strlen(optarg) >= size)
                code = cli_usage_error("%s: too long", o == OPT_WEIGHTS ? "--weights" : o == OPT_BOOK ? "--book" : "--rules");
            else
                snprintf(dst, size, "%s", optarg);
            break;
        }
        default: code = EXIT_USAGE; break;
        }
    }
    if (code < 0 && optind != argc)
        code = cli_usage_error("unexpected argument '%s' (see 'dama hub --help')", argv[optind]);
    return code;
}

/* Checks the command line's values now, so a mistake shows before any GUI: the rules,
 * the weights and the book load.  -1: go on; else an exit code. */
static int check_params(const HubParams *p)
{
    int code = -1;
    char err[600];
    Rules rules = rules_default(p->variant);
    Weights w;
    /* the names match and the engine itself take (best, default, material, a file) */
    if (p->rules[0] && !rules_parse(p->variant, &rules, p->rules, err, sizeof err))
        code = cli_usage_error("--rules: %s", err);
    else if (p->weights[0]
             && !weights_by_name(&w, p->variant, p->weights, err, sizeof err))
        code = cli_usage_error("%s", err);
    else if (p->weights[0])
        weights_free(&w);
    Book book;
    if (code < 0 && p->book[0]) {
        if (!book_read(&book, p->book, interrupt_flag(), err, sizeof err))
            code = cli_usage_error("%s", err);
        else if (book.variant != p->variant)
            code = cli_usage_error("--book: %s is a book of %s, not %s", p->book, book.variant->name,
                                   p->variant->name);
        book_free(&book); /* read again by init, as a set-param book is */
    }
    return code;
}

static int run_hub(int argc, char **argv)
{
    HubParams params = { .variant = &turkish_variant, .hash_mb = HUB_HASH_DEFAULT };
    HubParams *p = &params;
    int code = parse_args(argc, argv, p);
    if (code < 0)
        code = check_params(p);
    if (code >= 0)
        return code;
    switch (hub_engine_run(p)) {
    case HUB_END_LINE_TOO_LONG:
        return cli_usage_error("standard input: a line longer than the %d KiB limit of a Hub line",
                               HUB_LINE_MAX / 1024);
    case HUB_END_NO_MEMORY: return cli_runtime_error("out of memory");
    default: return EXIT_OK;
    }
}

const Command cmd_hub = {
    "hub", "an engine for Hub and other GUIs speaking the Hub protocol (version 2)",
    "usage: dama hub [--variant NAME] [--hash MB] [--rules OPTIONS]\n"
    "                [--weights FILE|best|default|material] [--book BOOK]\n"
    "                [--egdb DIR]\n"
    "\n"
    "Plays through the Hub protocol, version 2 (the Hub GUI, Scan's protocol), for\n"
    "every game: commands on stdin, one a line, answers on stdout.  The options\n"
    "give the parameters' defaults (variant turkish, hash 64).  A line is a command\n"
    "then name=value arguments (a value with spaces or '=' in double quotes) or bare\n"
    "flags.  Unknown commands and arguments are ignored; a line that cannot be read,\n"
    "or a value that is wrong, gets 'error message=\"...\"' and the engine goes on.\n"
    "A line longer than 64 KiB is no Hub line: the engine says so and ends (exit 2).\n"
    "\n"
    "Commands:\n"
    "  hub                 answers 'id name=dama version=...', one 'param' line a\n"
    "                      parameter, then 'wait'\n"
    "  set-param name=N value=V   sets a parameter (used from the next init, pos or\n"
    "                             go)\n"
    "  init                builds the engine (weights, hash table), answers 'ready';\n"
    "                      a parameter it cannot use (a weights file that does not\n"
    "                      read) gets an error line, and the defaults stand in for\n"
    "                      them\n"
    "  new-game            clears the hash table; the position is the start\n"
    "  pos start | pos pos=POSITION [moves=\"M1 M2 ...\"]\n"
    "                      the position, and the moves played from it: the game's\n"
    "                      history, so repetitions and the draw counters see them\n"
    "  level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite\n"
    "                      the limit of the next searches (seconds may be fractions;\n"
    "                      each level line replaces the last one; before any:\n"
    "                      move-time=1)\n"
    "  go think            searches and answers 'done move=M [ponder=M]'\n"
    "  go ponder           the same, the opponent's expected move already played: the\n"
    "                      clock starts at 'ponder-hit' (done only after it, or after\n"
    "                      stop)\n"
    "  go analyze          searches until 'stop', whatever the level\n"
    "  stop                ends the search soon: done comes with the best move so far\n"
    "  ping                answers 'pong', even during a search\n"
    "  quit                ends the engine; so does the end of input, at once\n"
    "During a search the engine prints 'info depth=D score=S nodes=N time=T nps=M\n"
    "pv=\"...\"' after each completed iteration: score in men from the side to move, on\n"
    "Scan's scale: an evaluation within +-89.99 (-0.01), a forced win in n plies 100\n"
    "- n/100 (99.95: a win in 5 plies), a loss the same negative; time in seconds,\n"
    "nps in millions of nodes a second.\n"
    "\n"
    "Parameters:\n"
    "  variant  {HUB_GAMES};\n"
    "           another name is an error, and until a variant dama plays is set,\n"
    "           init, pos and go answer with an error rather than play another game\n"
    "  hash     the hash table in MB (1-4096), kept for the whole session\n"
    "  threads  1: the search runs on one thread\n"
    "  weights  a weights file of the variant (see 'dama weights'), or best, default\n"
    "           or material; empty: best, the shipped pattern weights built in\n"
    "  rules    the variant's rule options, as --rules (empty: the official rules)\n"
    "  book     an opening book ('dama book build'; empty: none): go plays the\n"
    "           book's best move at once while the position is in it (go ponder\n"
    "           and go analyze search)\n"
    "  egdb     an endgame database directory ('dama egdb build'; empty: none): the\n"
    "           search probes it; a missing or damaged one is reported on stderr\n"
    "           and not used\n"
    "\n"
    "Positions: the side to move (W or B), then one character a square: w, b a man,\n"
    "W, B a king, e empty.  International: squares 1 to 50, e.g. the start\n"
    "  Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n"
    "Turkish (dama's extension): 64 squares row by row from the top as White sees the\n"
    "board: a8, b8, ..., h8, a7, ..., h1.  'pos start' (or pos=start) is the\n"
    "variant's start.  Moves: quiet 32-28 (Turkish d3-d4); a capture names from, to\n"
    "and every captured square, no landing square between: 28x19x23 (Turkish\n"
    "d3xd7xd4xd6).  Captured squares are read in any order and written in ascending\n"
    "order (Turkish a1, b1, ..., h8); a capture with fewer of them (even just 28x19)\n"
    "is read when only one legal move fits.\n"
    "\n"
    "Time (engine/time_manager.c, the one time manager): move-time=S searches S\n"
    "seconds less a margin (5 %, at most 0.02 s), all of it: an iteration cut by the\n"
    "time still counts once it has searched the previous best move.  With a clock,\n"
    "(time - reserve) / moves left + 0.8 inc is the target (moves left: moves=, or 30\n"
    "when not given; reserve 0.02 s + 5 % of the clock, at most 0.12 s); no\n"
    "iteration is started that is predicted (from the growth of the last two) to end\n"
    "after the target; the hard limit, checked inside the search, is 3 times the\n"
    "target and never more than half of the clock (all of it, less the reserve, when\n"
    "moves=1), so the engine does not lose on time.  depth and nodes are exact and\n"
    "combine with the clock (the first limit reached stops the search).  When\n"
    "pondering, the target counts from ponder-hit.\n",
    run_hub,
};
