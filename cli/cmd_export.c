/* `dama export`: tables and statistics of the database as CSV files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "export_job.h"
#include "interrupt.h"
#include "store_open.h"
#include "variant.h"

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --k: a number above 0 (at most 10) into the double option->dest. */
static bool k_option(const CliOption *option, const char *value)
{
    char *end;
    errno = 0;
    double k = strtod(value, &end);
    if (errno || end == value || *end || !(k > 0) || k > 10)
        return cli_usage_error("bad value '%s' for --k: expected a number above 0", value), false;
    *(double *)option->dest = k;
    return true;
}

static int run_export(int argc, char **argv)
{
    const char *db_path = "dama.db", *out = NULL;
    ExportOptions eo = { .variant = &turkish_variant, .k = EXPORT_DEFAULT_K, .bucket = EXPORT_DEFAULT_BUCKET, .warnings = stderr };
    const CliOption options[] = {
        TEXT_ARG("db", &db_path),
        ID_ARG("run", &eo.run_id),
        TEXT_ARG("out", &out),
        CALL_ARG("k", &eo.k, k_option),
        INT_ARG("bucket", &eo.bucket, 1, 10000),
        SET_ARG("include-unfinished", &eo.include_unfinished),
        CALL_ARG("variant", &eo.variant, cli_option_variant),
        { 0 },
    };
    int code = cli_parse(argc, argv, "export", options, 1);
    if (code >= 0)
        return code;
    const char *what = optind < argc ? argv[optind] : NULL;
    if (what && strcmp(what, "all") != 0 && !export_known(what)) {
        char list[256] = "";
        for (int i = 0; export_names[i]; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", export_names[i]);
        return cli_usage_error("unknown export '%s' (one of: %s, all)", what, list);
    }
    if (!out)
        return cli_usage_error("export needs --out FILE.csv (or --out DIR/ for every table, one file each)");
    size_t outlen = strlen(out);
    bool dir = (outlen > 0 && out[outlen - 1] == '/') || is_directory(out);
    if (!dir && (!what || strcmp(what, "all") == 0))
        return cli_usage_error("name what to export (see 'dama export --help'), or give --out DIR/ "
                               "for all of it");

    /* Read-only: a database is never created, migrated or changed by exporting it. */
    Store *store = cli_open_store_readonly(db_path);
    if (!store)
        return EXIT_RUNTIME;
    eo.stop = interrupt_flag_unblocked(); /* Ctrl-C and SIGTERM stop it between rows */
    char err[1024];
    code = export_job_run(store, db_path, what, &eo, out, dir, stdout, err, sizeof err);
    if (code)
        fprintf(stderr, "dama: %s\n", err);
    store_close(store);
    return code;
}

const Command cmd_export = {
    "export", "write tables and statistics of the database to CSV files",
    "usage: dama export [--variant NAME] [--db FILE] [--run R] WHAT --out FILE.csv\n"
    "       dama export [--variant NAME] [--db FILE] [--run R] [WHAT | all]\n"
    "                   --out DIR/\n"
    "\n"
    "Streams rows from one read snapshot of the database (self-play may keep writing;\n"
    "with DIR/ every file comes from the same snapshot, so they agree) into a CSV\n"
    "file: a header line, then one row per record; RFC 4180 quoting, UTF-8, '\\n'\n"
    "line ends.  docs/csv.md describes every column.  Each file is written to a\n"
    "temporary name and renamed when complete.  With a directory (an\n"
    "existing one, or a name ending in '/'), every WHAT goes to DIR/WHAT.csv.  The\n"
    "database is opened read-only (a read-only file or directory is fine) and never\n"
    "created.  Prints one line per file: export WHAT rows N file PATH time S rows/s\n"
    "R.  Statistics (summary, openings, calibration) count the games of runs that\n"
    "ended 'done'; --include-unfinished adds running, interrupted, failed and stale\n"
    "runs (as does naming one with --run).\n"
    "\n"
    "WHAT:\n"
    "  runs         every pipeline run: kind, status, times, params\n"
    "  games        one row per game: result, reason, plies, mars, opening, moves\n"
    "  positions    game_id, ply, fen, the four bitboards (signed 64-bit with the\n"
    "               bitboard's bits, as stored; a1 = bit 0, h8 = bit 63 = negative),\n"
    "               side, score, capture_pending, the game's result (white, black,\n"
    "               draw) and stm_result, stm_points from the side to move\n"
    "  summary      by run: games, W/D/L and score by colour, mars wins, draws by\n"
    "               reason, min/max/mean/stddev of the game length in plies\n"
    "  openings     by opening: games, W/D/L, white score, mean length\n"
    "  calibration  stored search scores in buckets: positions, mean score, expected\n"
    "               score 1 / (1 + exp(-K * score)) (the tuner's logistic) against\n"
    "               the observed score; forced wins and losses are left out\n"
    "  tuning       one row per tuning epoch (train and validation loss) with its\n"
    "               tuning run\n"
    "  tune_runs    one row per tuning run: K, losses, positions, parent and result\n"
    "               weights\n"
    "  matches      Elo with its interval, LLR with its bounds, verdict, W/D/L,\n"
    "               generations, and the training decision (promoted or rejected)\n"
    "               when there was one\n"
    "  weights      one row per stored weight set, one column per weight name\n"
    "  analyses     results of batch analyses (dama analyze --db)\n"
    "\n"
    "  -v, --variant NAME  {GAMES}: only that game's rows; a database may hold several\n"
    "  --db FILE      the database (default dama.db); it must exist\n"
    "  --run R        only run R's rows (weights: the sets run R used or produced)\n"
    "  --out PATH     FILE.csv, or DIR/ for one file per WHAT\n"
    "  --k K          calibration: logistic scale per hundredth of a man (default\n"
    "                 0.0055)\n"
    "  --bucket W     calibration: bucket width in hundredths of a man (default 50)\n"
    "  --include-unfinished  statistics count runs that did not end 'done' too\n",
    run_export,
};
