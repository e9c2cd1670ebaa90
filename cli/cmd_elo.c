/* `dama elo`: the Elo of game pairs from their pentanomials, one match's or several pooled.
 * A question asked in chunks (other seeds, sessions or machines: a 1 s match takes hours)
 * gets one answer by adding the chunks' pairs: the pentanomials sum, and the interval is
 * that of all the pairs (tuner/sprt.c), as if one match had played them.  With --db, the
 * standing of the match runs a database file holds, running or stopped. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "match_elo.h"
#include "match_standing.h"
#include "option_table.h"
#include "sprt.h"
#include "store_open.h"

/* More pairs than any match plays; keeps every sum far from overflow. */
#define PAIRS_MAX 1000000000000LL

/* "P0,P1,P2,P3,P4" into penta (added to it); false after saying what is wrong. */
static bool add_penta(const char *text, int64_t penta[PENTA_N])
{
    int64_t count[PENTA_N];
    const char *p = text;
    for (int k = 0; k < PENTA_N; k++) {
        char *end;
        errno = 0;
        long long n = *p >= '0' && *p <= '9' ? strtoll(p, &end, 10) : -1;
        if (n < 0 || errno || n > PAIRS_MAX || (k < PENTA_N - 1 ? *end != ',' : *end != '\0')) {
            cli_usage_error("bad pentanomial '%s': expected five counts of pairs, "
                            "LL,LD,DD+WL,WD,WW (e.g. 0,24,143,30,3), each 0 .. %lld",
                            text, PAIRS_MAX);
            return false;
        }
        count[k] = n;
        p = end + 1;
    }
    for (int k = 0; k < PENTA_N; k++)
        penta[k] += count[k];
    return true;
}

/* The Elo line of the pairs in penta, as `dama match` prints it. */
static void print_elo_line(const int64_t penta[PENTA_N])
{
    EloEstimate e = elo_from_penta(penta);
    /* A pair scoring k of its 4 half-points adds k / 4 to the points per game. */
    double points = (double)(penta[1] + 2 * penta[2] + 3 * penta[3] + 4 * penta[4]);
    char line[160];
    match_elo_line(&e, e.units ? points / (4.0 * (double)e.units) : 0.5, line, sizeof line);
    printf("%s\n", line);
}

/* One match run: a line of what it is, then the two result lines `dama match` prints. */
static int print_standing(void *ctx, const MatchStanding *m)
{
    (void)ctx;
    printf("run %" PRId64 " (%s, %s): %" PRId64, m->run_id, m->variant, m->status, m->stored);
    if (m->planned > 0)
        printf(" of %" PRId64, m->planned);
    printf(" games stored; %s\n", m->final ? "the match's own count" : "the whole pairs so far");
    printf("match games %" PRId64 " wins %" PRId64 " draws %" PRId64 " losses %" PRId64
           " penta [%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "] (A's view)\n",
           m->games, m->wins, m->draws, m->losses, m->penta[0], m->penta[1], m->penta[2],
           m->penta[3], m->penta[4]);
    print_elo_line(m->penta);
    return 0;
}

static int standings(const char *path, int64_t run_id)
{
    Store *store = cli_open_store_readonly(path);
    if (!store)
        return EXIT_RUNTIME;
    int n = match_standings(store, run_id, print_standing, NULL);
    int code = EXIT_OK;
    if (n < 0)
        code = cli_runtime_error("%s: %s", path, store_error(store)[0] ? store_error(store) : "out of memory");
    else if (n == 0 && run_id > 0)
        code = cli_usage_error("%s: run %" PRId64 " is no match run", path, run_id);
    else if (n == 0)
        code = cli_usage_error("%s: no match run in the file", path);
    store_close(store);
    return code;
}

static int run_elo(int argc, char **argv)
{
    const char *db = NULL;
    int64_t run_id = 0;
    const CliOption options[] = { TEXT_ARG("db", &db), ID_ARG("run", &run_id), { 0 } };
    int code = cli_parse(argc, argv, "elo", options, argc);
    if (code >= 0)
        return code;
    if (db) {
        if (optind < argc)
            return cli_usage_error("elo: --db reads the pairs from the file; pool its runs' "
                                   "pentanomials with PENTA arguments in a separate call");
        return standings(db, run_id);
    }
    if (run_id)
        return cli_usage_error("elo: --run needs --db");
    if (optind == argc)
        return cli_usage_error("elo needs at least one PENTA, or --db FILE (see 'dama elo --help')");
    int64_t penta[PENTA_N] = { 0 };
    for (int i = optind; i < argc; i++)
        if (!add_penta(argv[i], penta))
            return EXIT_USAGE;
    printf("pairs %" PRId64 " penta [%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "]\n",
           penta[0] + penta[1] + penta[2] + penta[3] + penta[4], penta[0], penta[1], penta[2], penta[3],
           penta[4]);
    print_elo_line(penta);
    return EXIT_OK;
}

const Command cmd_elo = {
    "elo", "the Elo of game pairs from their pentanomials, pooled; or where a stored match stands",
    run_elo,
};
