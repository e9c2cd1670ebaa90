/* `dama pdn export` and `dama pdn import`: games as PDN 3.0 files, both variants. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "csv_writer.h"
#include "interrupt.h"
#include "pdn_import.h"
#include "pdn_write.h"
#include "position.h"
#include "store_open.h"
#include "variant.h"
#include "version.h"

enum { OPT_P_DB = OPT_FIRST_FREE, OPT_P_RUN, OPT_P_GAME, OPT_P_OUT };

/* The tags dama writes for a game it played (an imported game keeps the tags it had). */
typedef struct MadeTags {
    StorePdnTag tags[12];
    char text[12][128]; /* a side's name: up to 100 bytes and " (A)" */
    int n;
} MadeTags;

static void made_tag(MadeTags *t, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void made_tag(MadeTags *t, const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->text[t->n], sizeof t->text[t->n], fmt, ap);
    va_end(ap);
    t->tags[t->n] = (StorePdnTag){ (char *)name, t->text[t->n] };
    t->n++;
}

static void make_tags(MadeTags *t, const StoredGame *g, const StoredPdn *p)
{
    const GameRecord *r = &g->rec;
    time_t when = (time_t)g->created_at;
    struct tm tm;
    t->n = 0;
    made_tag(t, "Event", "dama %s run %lld", p->run_kind, (long long)r->run_id);
    made_tag(t, "Site", "%s", p->run_host ? p->run_host : "?");
    if (gmtime_r(&when, &tm))
        made_tag(t, "Date", "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    if (r->has_index)
        made_tag(t, "Round", "%d", r->game_index + 1);
    /* The players' names stored with the game (a match's sides) come first; in a game a
     * person played (dama play, dama serve) the side without weights is theirs. */
    bool play = strcmp(p->run_kind, "play") == 0;
    const char *stored[2] = { NULL, NULL };
    for (int i = 0; i < p->ntags; i++)
        for (int side = 0; side < 2; side++)
            if (!stored[side] && strcasecmp(p->tags[i].name, side ? "Black" : "White") == 0)
                stored[side] = p->tags[i].value;
    made_tag(t, "White", "%s", stored[0] ? stored[0] : play && r->white_weights_id <= 0 ? "human" : "dama");
    made_tag(t, "Black", "%s", stored[1] ? stored[1] : play && r->black_weights_id <= 0 ? "human" : "dama");
    made_tag(t, "DamaRun", "%lld", (long long)r->run_id);
    if (r->has_index)
        made_tag(t, "DamaGameIndex", "%d", r->game_index);
    made_tag(t, "DamaSeed", "%llu", (unsigned long long)r->seed);
    if (r->white_weights_id > 0)
        made_tag(t, "DamaWhiteWeights", "%lld %s", (long long)r->white_weights_id, p->white_weights_hash);
    if (r->black_weights_id > 0)
        made_tag(t, "DamaBlackWeights", "%lld %s", (long long)r->black_weights_id, p->black_weights_hash);
    if (r->reason)
        made_tag(t, "DamaReason", "%s", r->reason);
}

/* One game as PDN into f: 0, or an exit code after the message. */
static int export_game(Store *store, const char *db_path, const Variant *v, const Rules *rules,
                       int64_t id, FILE *f)
{
    StoredGame g;
    StoredPdn p;
    if (!store_game_read(store, id, &g))
        return cli_runtime_error("%s: %s", db_path, store_error(store));
    if (!store_pdn_read(store, id, &p)) {
        store_game_free(&g);
        return cli_runtime_error("%s: %s", db_path, store_error(store));
    }
    Position start;
    char why[256];
    int code = EXIT_OK;
    if (p.opening_fen) {
        if (!position_from_fen(&start, v, p.opening_fen, why, sizeof why))
            code = cli_runtime_error("%s: game %lld: its opening: %s", db_path, (long long)id, why);
    } else if (g.rec.npositions > 0) {
        start = g.positions[0].pos;
    } else {
        v->start(&start);
    }
    Position initial;
    v->start(&initial);
    MadeTags made;
    if (!p.imported)
        make_tags(&made, &g, &p);
    PdnGameOut out = {
        .variant = v, .rules = rules, .start = &start, .setup = !position_equal(&start, &initial),
        .moves = g.rec.moves, .result = g.rec.result,
        .tags = p.imported ? p.tags : made.tags, .ntags = p.imported ? p.ntags : made.n,
        .notes = p.notes, .nnotes = p.nnotes,
    };
    if (code == EXIT_OK && !pdn_write_game(f, &out, why, sizeof why))
        code = cli_runtime_error("%s: game %lld: %s", db_path, (long long)id, why);
    store_pdn_free(&p);
    store_game_free(&g);
    return code;
}

/* The games to export, checked against the variant: an exit code. */
static int export_ids(Store *store, const char *db_path, const Variant *v, int64_t run_id, int64_t game_id,
                      int64_t **ids, int64_t *n)
{
    *ids = NULL;
    *n = 0;
    char variant[32] = "";
    if (game_id > 0) {
        int found = store_has_id(store, "games", game_id);
        if (found < 0)
            return cli_runtime_error("%s: %s", db_path, store_error(store));
        if (!found)
            return cli_usage_error("no game %lld in %s", (long long)game_id, db_path);
        StoredGame g;
        if (!store_game_read(store, game_id, &g))
            return cli_runtime_error("%s: %s", db_path, store_error(store));
        snprintf(variant, sizeof variant, "%s", g.rec.variant);
        store_game_free(&g);
        if (strcmp(variant, v->name) != 0)
            return cli_usage_error("%s: game %lld is a %s game, not %s (give --variant %s)", db_path,
                                   (long long)game_id, variant, v->name, variant);
        if (!(*ids = malloc(sizeof **ids)))
            return cli_runtime_error("out of memory");
        (*ids)[0] = game_id;
        *n = 1;
        return EXIT_OK;
    }
    if (run_id > 0) {
        int found = store_run_info(store, run_id, NULL, 0, NULL, 0, NULL, variant, sizeof variant);
        if (found < 0)
            return cli_runtime_error("%s: %s", db_path, store_error(store));
        if (!found)
            return cli_usage_error("no run %lld in %s", (long long)run_id, db_path);
        if (strcmp(variant, v->name) != 0)
            return cli_usage_error("%s: run %lld plays %s, not %s (give --variant %s)", db_path,
                                   (long long)run_id, variant, v->name, variant);
    }
    if ((*n = store_pdn_game_ids(store, v->name, run_id, ids)) < 0)
        return cli_runtime_error("%s: %s", db_path, store_error(store));
    return EXIT_OK;
}

/* Every game into a memory stream first, so a failure leaves no half-written file. */
static int export_all(Store *store, const char *db_path, const Variant *v, const Rules *rules,
                      const int64_t *ids, int64_t n, const char *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return cli_runtime_error("out of memory");
    int code = EXIT_OK;
    const atomic_bool *stop = pipeline_interrupt_flag();
    for (int64_t i = 0; i < n && code == EXIT_OK; i++) {
        code = export_game(store, db_path, v, rules, ids[i], f);
        if (code == EXIT_OK && atomic_load(stop))
            code = EXIT_INTERRUPTED;
    }
    if (fclose(f) != 0 && code == EXIT_OK)
        code = cli_runtime_error("out of memory");
    CsvWriter w;
    char err[512];
    if (code == EXIT_OK) {
        if (!csv_writer_open(&w, out, err, sizeof err)) {
            code = cli_runtime_error("%s", err);
        } else {
            csv_raw(&w, text, len);
            if (atomic_load(stop)) {
                csv_writer_abort(&w);
                code = EXIT_INTERRUPTED;
            } else if (!csv_writer_commit(&w, err, sizeof err)) {
                code = cli_runtime_error("%s", err);
            }
        }
    }
    free(text);
    if (code == EXIT_INTERRUPTED)
        fprintf(stderr, "dama: interrupted: %s not written\n", out ? out : "the PDN");
    if (code == EXIT_OK && out && strcmp(out, "-") != 0)
        printf("pdn export games %lld file %s\n", (long long)n, out);
    return code;
}

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
    Store *store = pipeline_open_store_readonly(db_path);
    if (!store)
        return EXIT_RUNTIME;
    int code = EXIT_OK;
    if (!store_snapshot_begin(store))
        code = cli_runtime_error("%s: %s", db_path, store_error(store));
    int64_t *ids = NULL, n = 0;
    if (code == EXIT_OK)
        code = export_ids(store, db_path, ec.variant, run_id, game_id, &ids, &n);
    if (code == EXIT_OK)
        code = export_all(store, db_path, ec.variant, &ec.rules, ids, n, out);
    free(ids);
    store_snapshot_end(store);
    store_close(store);
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
    char params[512], rules[256];
    ec.variant->rules_describe(&ec.rules, rules, sizeof rules);
    int used = snprintf(params, sizeof params, "pdn import rules=%s files=", rules);
    for (int i = optind; i < argc && used >= 0 && (size_t)used < sizeof params; i++)
        used += snprintf(params + used, sizeof params - (size_t)used, "%s%s", i > optind ? "," : "", argv[i]);
    Store *store = pipeline_open_store(db_path);
    if (!store)
        return EXIT_RUNTIME;
    const atomic_bool *stop = pipeline_interrupt_flag();
    PdnImportConfig cfg = { .variant = ec.variant, .rules = ec.rules, .errors = stderr, .stop = stop,
                            .params = params, .engine_version = dama_engine_version() };
    int64_t run_id = 0;
    int code = EXIT_OK;
    bool bad = false;
    for (int i = optind; i < argc && code == EXIT_OK; i++) {
        if (atomic_load(stop)) { /* the files done so far stay imported */
            fprintf(stderr, "dama: interrupted before %s\n", argv[i]);
            code = EXIT_INTERRUPTED;
            break;
        }
        PdnImportCounts c = { 0 };
        char err[512];
        int rc = pdn_import_file(store, &cfg, argv[i], &run_id, &c, err, sizeof err);
        if (rc == 2) {
            fprintf(stderr, "%s\n", err);
            bad = true;
            continue;
        }
        if (rc == 130) { /* the files done so far stay imported, this one is not */
            fprintf(stderr, "dama: interrupted: %s not imported\n", argv[i]);
            code = EXIT_INTERRUPTED;
            break;
        }
        if (rc) {
            code = cli_runtime_error("%s: %s", db_path, err);
            break;
        }
        bad |= c.bad > 0;
        printf("pdn import %s games %d imported %d already %d bad %d\n", argv[i], c.games, c.imported,
               c.duplicates, c.bad);
        fflush(stdout);
    }
    const char *status = code == EXIT_OK ? "done" : code == EXIT_INTERRUPTED ? "interrupted" : "failed";
    if (run_id > 0 && !store_run_end(store, run_id, status) && code == EXIT_OK)
        code = cli_runtime_error("%s: %s", db_path, store_error(store));
    store_close(store);
    return code == EXIT_OK && bad ? EXIT_USAGE : code;
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
    "PDN 3.0 (Portable Draughts Notation), both variants.\n"
    "\n"
    "export writes the variant's games (every game, run R's, or game ID) in run, game\n"
    "index order to FILE (stdout without --out), written under a temporary name and\n"
    "renamed when complete; the database is opened read-only.  Each game has the tags\n"
    "  Event Site Date Round White Black  ('?' when unknown; dama's games: \"dama\n"
    "                       KIND run R\", the run's host, the game's day (UTC), game\n"
    "                       index + 1, the sides' names)\n"
    "  Result               2-0 (White wins), 0-2, 1-1 (a draw), * (unfinished)\n"
    "  GameType             30 Turkish, 20 International\n"
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
