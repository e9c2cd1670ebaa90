/* `--egdb DIR`, as analyze, hub, play, serve, selfplay, match and train read it: the
 * endgame databases of the variant in DIR for the search (and the adjudication of games). */
#ifndef DAMA_EGDB_OPTION_H
#define DAMA_EGDB_OPTION_H

#include "egdb_probe.h"

#define EGDB_OPTION_HELP \
    "  --egdb DIR         endgame databases ('dama egdb build'): the search probes\n" \
    "                     them; a missing or damaged one is reported and not used\n"

/* The databases of v under rules in dir, or NULL (and a line on stderr naming dir) when dir
 * holds none of v's; a damaged class file is reported by name when first needed and never
 * used (egdb_probe.h).  Never fatal: the command goes on without. */
Egdb *cli_egdb_open(const char *dir, const Variant *v, const Rules *rules);
/* For the commands that serve every variant (hub, serve): the databases of each variant
 * variant_at(i) < n under its default rules into by_variant[i] (NULL where dir has none of
 * that variant's), with the line on stderr only when dir holds none of any.  A game played
 * under other rules does not use them (egdb_search_attach). */
void cli_egdb_open_each(const char *dir, Egdb **by_variant, int n);

#endif
