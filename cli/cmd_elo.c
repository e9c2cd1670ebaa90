/* `dama elo`: the Elo of game pairs from their pentanomials, one match's or several pooled.
 * A question asked in chunks (other seeds, sessions or machines: a 1 s match takes hours)
 * gets one answer by adding the chunks' pairs: the pentanomials sum, and the interval is
 * that of all the pairs (tuner/sprt.c), as if one match had played them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "match_elo.h"
#include "option_table.h"
#include "sprt.h"

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

static int run_elo(int argc, char **argv)
{
    const CliOption options[] = { { 0 } };
    int code = cli_parse(argc, argv, "elo", options, argc);
    if (code >= 0)
        return code;
    if (optind == argc)
        return cli_usage_error("elo needs at least one PENTA (see 'dama elo --help')");
    int64_t penta[PENTA_N] = { 0 };
    for (int i = optind; i < argc; i++)
        if (!add_penta(argv[i], penta))
            return EXIT_USAGE;
    EloEstimate e = elo_from_penta(penta);
    printf("pairs %" PRId64 " penta [%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "]\n",
           e.units, penta[0], penta[1], penta[2], penta[3], penta[4]);
    /* A pair scoring k of its 4 half-points adds k / 4 to the points per game. */
    double points = (double)(penta[1] + 2 * penta[2] + 3 * penta[3] + 4 * penta[4]);
    char line[160];
    match_elo_line(&e, e.units ? points / (4.0 * (double)e.units) : 0.5, line, sizeof line);
    printf("%s\n", line);
    return EXIT_OK;
}

const Command cmd_elo = {
    "elo", "the Elo of game pairs from their pentanomials, pooled over several matches",
    run_elo,
};
