/* Help text with the games of the registry written in: a command's help names the games
 * and their rule options through placeholders, so that a new game needs no help edited. */
#ifndef DAMA_HELP_TEXT_H
#define DAMA_HELP_TEXT_H

#include <stdio.h>

/* The placeholders, expanded from the registry (engine/games/registry.c):
 *   {GAMES}       turkish (default) or international (short tr, intl)
 *   {GAME_NAMES}  turkish|international
 *   {RULES}       Turkish: promotion=man|stop|king, ...; International: majority=on|off, ...
 *   {HUB_GAMES}   turkish, international (also called normal or standard)
 *   {GAMETYPES}   30 Turkish, 20 International (each game's PDN GameType)
 *   {TITLES}      Turkish and International draughts
 * and fixed values written in: {BENCH_DEPTH}, {BENCH_HASH_MB}, {BENCH_SIGNATURE_DEPTH},
 * {ANNOTATE_DEPTH}, {DYGRAPHS_DIR}.  A line that is {RUN_OPTIONS} or {OUTSIDE_ENGINES}
 * alone is the shared text of cli/help/run_options.txt or outside_engines.txt.
 * A line that holds one is wrapped at 80 columns, its continuation lines indented to the
 * line's description column (after the option and two blanks), or not at all in prose. */
#define HELP_COLUMNS 80

/* Writes help to out with the placeholders expanded. */
void help_text_print(const char *help, FILE *out);
/* The text of cli/help/NAME.txt, built into the binary (help_files.c); NULL if none. */
const char *help_file(const char *name);

#endif
