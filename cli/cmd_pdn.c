/* `dama pdn export` and `dama pdn import`: games as PDN 3.0 files, both variants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "interrupt.h"
#include "pdn_export.h"
#include "pdn_import_files.h"
#include "store_open.h"
#include "variant.h"
#include "version.h"

enum { OPT_P_DB = OPT_FIRST_FREE, OPT_P_RUN, OPT_P_GAME, OPT_P_OUT };

static int parse_id(const char *option, const char *arg, int64_t *out)
{
    uint64_t u;
    if (!cli_u64(option, arg, &u))
        return EXIT_USAGE;
    if (u == 0 || u > INT64_MAX)
        return cli_usage_error("bad value '%s' for %s: expected a positive number", arg, option);
    *out = (int64_t)u;
    return EXIT_OK;
}

/* argv[0] is "export". */
static int run_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "db", required_argument, 0, OPT_P_DB },
        { "run", required_argument, 0, OPT_P_RUN },
        { "game", required_argument, 0, OPT_P_GAME },
        { "out", required_argument, 0, OPT_P_OUT },
        { "variant", required_argument, 0, OPT_VARIANT },
        { "rules", required_argument, 0, OPT_RULES },
        { "help", no_argument, 0, OPT_HELP },
        { 0, 0, 0, 0 },
    };
    const char *db_path = "dama.db", *out = NULL;
    int64_t run_id = 0, game_id = 0;
    EngineContext ec;
    engine_context_init(&ec);
    int o, r;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        switch (o) {
        case OPT_HELP: return cli_print_help("pdn");
        case OPT_P_DB: db_path = optarg; break;
        case OPT_P_OUT: out = optarg; break;
        case OPT_P_RUN: if ((r = parse_id("--run", optarg, &run_id))) return r; break;
        case OPT_P_GAME: if ((r = parse_id("--game", optarg, &game_id))) return r; break;
        default:
            if (engine_context_option(&ec, o, optarg) != 1)
                return EXIT_USAGE;
        }
    }
    if (optind < argc)
        return cli_usage_error("unexpected argument '%s' (see 'dama pdn --help')", argv[optind]);
    if (run_id > 0 && game_id > 0)
        return cli_usage_error("pdn export takes --run or --game, not both");
    if (ec.fen)
        return cli_usage_error("pdn export takes no --fen: each game has its own start");
    struct stat st;
    if (out && stat(out, &st) == 0 && S_ISDIR(st.st_mode))
        return cli_usage_error("--out %s is a directory: pdn export writes one file", out);
    if (!engine_context_finish(&ec))
        return EXIT_USAGE;
    Store *store = cli_open_store_readonly(db_path);
    if (!store)
        return EXIT_RUNTIME;
    PdnExport job = { .store = store, .db_path = db_path, .variant = ec.variant, .rules = &ec.rules,
                      .run_id = run_id, .game_id = game_id, .out = out,
                      .stop = interrupt_flag() };
    int64_t n;
    char err[1024];
    int code = pdn_export_run(&job, &n, err, sizeof err);
    store_close(store);
    if (code)
        fprintf(stderr, "dama: %s\n", err);
    else if (out && strcmp(out, "-") != 0)
        printf("pdn export games %lld file %s\n", (long long)n, out);
    return code;
}

/* argv[0] is "import". */
static int run_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "db", required_argument, 0, OPT_P_DB },
        { "variant", required_argument, 0, OPT_VARIANT },
        { "rules", required_argument, 0, OPT_RULES },
        { "help", no_argument, 0, OPT_HELP },
        { 0, 0, 0, 0 },
    };
    const char *db_path = "dama.db";
    EngineContext ec;
    engine_context_init(&ec);
    int o;
    while ((o = cli_getopt(argc, argv, longopts)) != -1) {
        switch (o) {
        case OPT_HELP: return cli_print_help("pdn");
        case OPT_P_DB: db_path = optarg; break;
        default:
            if (engine_context_option(&ec, o, optarg) != 1)
                return EXIT_USAGE;
        }
    }
    if (optind >= argc)
        return cli_usage_error("pdn import needs one or more PDN files (see 'dama pdn --help')");
    if (ec.fen)
        return cli_usage_error("pdn import takes no --fen: each game has its own start");
    if (!engine_context_finish(&ec))
        return EXIT_USAGE;
    Store *store = cli_open_store(db_path);
    if (!store)
        return EXIT_RUNTIME;
    PdnImportConfig cfg = { .variant = ec.variant, .rules = ec.rules, .errors = stderr,
                            .stop = interrupt_flag(), .engine_version = dama_engine_version() };
    char err[1024];
    int code = pdn_import_files(store, db_path, &cfg, argv + optind, argc - optind, stdout, err, sizeof err);
    if (code && err[0])
        fprintf(stderr, "dama: %s\n", err);
    store_close(store);
    return code;
}

static int run_pdn(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("pdn needs export or import (see 'dama pdn --help')");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_print_help("pdn");
    if (strcmp(argv[1], "export") == 0)
        return run_export(argc - 1, argv + 1);
    if (strcmp(argv[1], "import") == 0)
        return run_import(argc - 1, argv + 1);
    return cli_usage_error("unknown pdn subcommand '%s' (export or import; see 'dama pdn --help')", argv[1]);
}

const Command cmd_pdn = {
    "pdn", "export games to PDN files, import PDN games into the database",
    "usage: dama pdn export [--variant NAME] [--db FILE] [--run R | --game ID]\n"
    "                       [--out FILE.pdn]\n"
    "       dama pdn import [--variant NAME] [--db FILE] [--rules OPTIONS]\n"
    "                       FILE.pdn...\n"
    "\n"
    "PDN 3.0 (Portable Draughts Notation), every game dama plays.\n"
    "\n"
    "export writes the variant's games (every game, run R's, or game ID) in run, game\n"
    "index order to FILE (stdout without --out), written under a temporary name and\n"
    "renamed when complete; the database is opened read-only.  Each game has the tags\n"
    "  Event Site Date Round White Black  ('?' when unknown; dama's games: \"dama\n"
    "                       KIND run R\", the run's host, the game's day (UTC), game\n"
    "                       index + 1, the sides' names)\n"
    "  Result               2-0 (White wins), 0-2, 1-1 (a draw), * (unfinished)\n"
    "  GameType             {GAMETYPES}\n"
    "  FEN                  the start when it is not the initial position (openings)\n"
    "  DamaRun DamaGameIndex DamaSeed DamaWhiteWeights DamaBlackWeights DamaReason\n"
    "                       the run, the game's index and seed, the weights (id and\n"
    "                       hash of their text), and why the game ended (no-moves,\n"
    "                       move-cap, ...)\n"
    "then the move text: move numbers, moves in the short form (32-28, 26x37, d3-d4,\n"
    "d3xf5), the landing squares only where the short form names two moves\n"
    "(47x38x24x13x36), and the result.  An imported game is written with the tags,\n"
    "comments {...}, variations (...), NAGs $n and !? marks it was read with.\n"
    "\n"
    "import reads every game of the files as PDN 3.0's reading grammar has it: tags,\n"
    "move numbers (12. 12... 12. ...), comments, variations, NAGs, marks (!? and\n"
    "(!?)), setups (/FEN \"...\"/), results (2-0 0-2 1-1 *, 1-0 0-1 1/2-1/2 0-0), moves\n"
    "split by blanks (1- 6), ':' captures, leading zeros.  Each move is checked\n"
    "against the rules; a bad game is reported as FILE:LINE: game N, move M: why (or\n"
    "FILE:LINE: game N: what: why for a bad FEN, a GameType of the other variant, a\n"
    "result that contradicts the final position, a tag, comment or variation not\n"
    "closed) and skipped; the good games of a file are stored in one transaction,\n"
    "whole, into one run of kind 'import' (tune, export and the statistics treat them\n"
    "like other games).  A game without a result ('*' or none) is stored unfinished:\n"
    "analyze --game and export read it, tune and the statistics do not.  A file is\n"
    "read game by game: a game longer than 1 MiB ends it (exit 2, nothing of the file\n"
    "stored).  A game already in the database (the same variant, start, moves, Event,\n"
    "Site, Date, Round, White, Black, DamaRun and DamaGameIndex, or the game its\n"
    "DamaRun and DamaGameIndex name with the same moves) is not imported again.\n"
    "Prints one line per file: pdn import FILE games N imported I already D bad B.\n"
    "Exit code 2 when a game was bad or a file could not be read (the good games are\n"
    "imported all the same).\n"
    "\n"
    "  -v, --variant NAME  {GAMES}\n"
    "  --db FILE      the database (default dama.db; import creates it when missing)\n"
    "  --run R        export: run R's games only\n"
    "  --game ID      export: game ID only\n"
    "  --out FILE     export: the PDN file (default stdout)\n"
    "  --rules OPTIONS  the rule options the games were played with (see 'dama perft\n"
    "                   --help')\n",
    run_pdn,
};
