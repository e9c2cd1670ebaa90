/* Errors, numbers and the shared engine options of the command line. */
#include <errno.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "game_moves.h"
#include "notation.h"
#include "position.h"
#include "search.h"
#include "variant.h"

static void vreport(const char *fmt, va_list ap)
{
    fputs("dama: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int cli_runtime_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    return EXIT_RUNTIME;
}

bool cli_long(const char *option, const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max) {
        cli_usage_error("bad value '%s' for %s: expected a whole number from %ld to %ld", text,
                        option, min, max);
        return false;
    }
    *out = v;
    return true;
}

/* OpenMP's count is the process's CPU affinity mask (taskset), not every CPU online. */
int cli_cpu_count(void)
{
    int n = omp_get_num_procs();
    return n > 0 ? n : 1;
}

bool cli_threads(const char *text, int *out)
{
    long n;
    if (!cli_long("--threads", text, 1, 1024, &n))
        return false;
    int cpus = cli_cpu_count();
    if (n > cpus) {
        fprintf(stderr, "dama: --threads %ld: using %d, the number of CPUs (more threads only slow "
                "the work down)\n", n, cpus);
        n = cpus;
    }
    *out = (int)n;
    return true;
}

bool cli_option_search_limit(const CliOption *option, const char *value)
{
    SearchLimits *limits = option->dest;
    char dashed[16];
    snprintf(dashed, sizeof dashed, "--%s", option->name);
    long n;
    if (strcmp(option->name, "nodes") == 0)
        return cli_u64(dashed, value, &limits->nodes);
    bool depth = strcmp(option->name, "depth") == 0;
    if (!cli_long(dashed, value, 1, depth ? SEARCH_DEPTH_MAX : 86400000L, &n))
        return false;
    *(depth ? &limits->depth : &limits->movetime_ms) = (int)n;
    return true;
}

bool cli_u64(const char *option, const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-') {
        cli_usage_error("bad value '%s' for %s: expected a non-negative whole number", text, option);
        return false;
    }
    *out = v;
    return true;
}

const Variant *cli_variant_any(const char *name)
{
    const Variant *v = variant_by_name(name);
    if (v)
        return v;
    /* "turkish or tr, international or intl": the registry's games and their aliases */
    char known[512] = "";
    size_t used = 0;
    for (int i = 0; variant_at(i) && used < sizeof known; i++) {
        const Variant *g = variant_at(i);
        int n = snprintf(known + used, sizeof known - used, "%s%s%s%s", i ? ", " : "", g->name,
                         g->aliases ? " or " : "", g->aliases ? g->aliases : "");
        used += n > 0 ? (size_t)n : 0;
    }
    cli_usage_error("unknown variant '%s' (this build knows: %s)", name, known);
    return NULL;
}

const Variant *cli_variant(const char *name)
{
    const Variant *v = cli_variant_any(name);
    if (v && !v->eval) {
        cli_usage_error("variant '%s' has no evaluation yet: only 'dama perft' and 'dama moves' "
                        "accept it", v->name);
        return NULL;
    }
    return v;
}

bool cli_option_variant(const CliOption *option, const char *value)
{
    return (*(const Variant **)option->dest = cli_variant(value)) != NULL;
}

void engine_context_init(EngineContext *ctx)
{
    ctx->variant = &turkish_variant;
    ctx->rules = rules_default(ctx->variant);
    ctx->nrules_text = 0;
    ctx->fen = NULL;
    ctx->moves_text = NULL;
    ctx->rules_only = false;
}

bool engine_context_variant(const CliOption *option, const char *value)
{
    EngineContext *ctx = option->dest;
    ctx->variant = ctx->rules_only ? cli_variant_any(value) : cli_variant(value);
    return ctx->variant != NULL;
}

bool cli_add_rules(const char **texts, int *count, const char *value)
{
    /* Rule options belong to the variant, which may come later on the command line. */
    if (*count == MAX_RULES_OPTIONS)
        return cli_usage_error("too many --rules options (at most %d): join them with commas",
                               MAX_RULES_OPTIONS), false;
    texts[(*count)++] = value;
    return true;
}

bool engine_context_rules(const CliOption *option, const char *value)
{
    EngineContext *ctx = option->dest;
    return cli_add_rules(ctx->rules_text, &ctx->nrules_text, value);
}

bool cli_apply_rules(const Variant *v, Rules *rules, const char *const *texts, int count)
{
    char err[512];
    *rules = rules_default(v);
    for (int i = 0; i < count; i++)
        if (!rules_parse(v, rules, texts[i], err, sizeof err))
            return cli_usage_error("%s", err), false;
    return true;
}

int engine_context_option(EngineContext *ctx, int opt, const char *arg)
{
    switch (opt) {
    case OPT_VARIANT:
        ctx->variant = ctx->rules_only ? cli_variant_any(arg) : cli_variant(arg);
        return ctx->variant ? 1 : -1;
    case OPT_RULES:
        /* Rule options belong to the variant, which may come later on the command line. */
        if (ctx->nrules_text == MAX_RULES_OPTIONS) {
            cli_usage_error("too many --rules options (at most %d): join them with commas",
                            MAX_RULES_OPTIONS);
            return -1;
        }
        ctx->rules_text[ctx->nrules_text++] = arg;
        return 1;
    case OPT_FEN:
        ctx->fen = arg;
        return 1;
    case OPT_MOVES:
        ctx->moves_text = arg;
        return 1;
    default:
        return 0;
    }
}

bool engine_context_finish(EngineContext *ctx)
{
    char err[512];
    if (!cli_apply_rules(ctx->variant, &ctx->rules, ctx->rules_text, ctx->nrules_text))
        return false;
    if (!ctx->fen) {
        ctx->variant->start(&ctx->pos);
    } else if (!position_from_fen(&ctx->pos, ctx->variant, ctx->fen, err, sizeof err)) {
        cli_usage_error("%s", err);
        return false;
    }
    game_init(&ctx->game, ctx->variant, &ctx->rules, &ctx->pos);
    if (ctx->moves_text && !game_play_text(&ctx->game, ctx->moves_text, err, sizeof err)) {
        cli_usage_error("--moves: %s", err);
        return false;
    }
    ctx->pos = ctx->game.pos;
    return true;
}

/* True when longopts has --variant: then -v is its short form. */
static bool takes_variant(const struct option *longopts)
{
    for (const struct option *o = longopts; o->name; o++)
        if (strcmp(o->name, "variant") == 0)
            return true;
    return false;
}

static const char *command_name;            /* set by main: "pdn" for `dama pdn export` */
static const struct option *last_options;  /* the table of the last cli_getopt call */

void cli_set_command(const char *name) { command_name = name; }

const struct option *cli_getopt_options(void) { return last_options; }

/* "selfplay", or "pdn export" for a subcommand (argv[0] is then the subcommand). */
static void command_words(char **argv, char *buf, size_t len)
{
    if (command_name && strcmp(command_name, argv[0]) != 0)
        snprintf(buf, len, "%s %s", command_name, argv[0]);
    else
        snprintf(buf, len, "%s", argv[0]);
}

/* The option of longopts named exactly by the first len characters of name; NULL if none. */
static const struct option *option_named(const struct option *longopts, const char *name, size_t len)
{
    for (const struct option *o = longopts; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

/* "dama CMD: unknown option --WORD", with the options WORD begins (getopt_long would have
 * taken the one of them as an abbreviation) or else a pointer to the help. */
static void unknown_long_option(char **argv, const struct option *longopts, const char *name,
                                size_t len)
{
    char cmd[64], hint[256];
    command_words(argv, cmd, sizeof cmd);
    int count = 0, k = 0;
    for (const struct option *o = longopts; o->name; o++)
        count += strncmp(o->name, name, len) == 0;
    size_t n = 0;
    for (const struct option *o = longopts; o->name; o++)
        if (strncmp(o->name, name, len) == 0 && n < sizeof hint) {
            const char *sep = k == 0 ? "did you mean " : k == count - 1 ? " or " : ", ";
            n += (size_t)snprintf(hint + n, sizeof hint - n, "%s--%s", sep, o->name);
            k++;
        }
    if (count == 0)
        snprintf(hint, sizeof hint, "see 'dama %s --help'", cmd);
    else if (n < sizeof hint)
        snprintf(hint + n, sizeof hint - n, "?");
    fprintf(stderr, "dama %s: unknown option --%.*s (%s)\n", cmd, (int)len, name, hint);
}

int cli_getopt(int argc, char **argv, const struct option *longopts)
{
    last_options = longopts;
    opterr = 0;
    /* ':' first: a missing value is ':', told apart from an unknown option ('?') */
    int opt = getopt_long(argc, argv, takes_variant(longopts) ? ":v:" : ":", longopts, NULL);
    if (opt == -1)
        return -1;
    /* The word that held the option: the one before a value given as the next word. */
    const char *word = optind >= 2 && optarg && optarg == argv[optind - 1] && opt != ':' && opt != '?'
                           ? argv[optind - 2] : argv[optind - 1];
    char cmd[64];
    command_words(argv, cmd, sizeof cmd);
    if (strncmp(word, "--", 2) == 0) {
        /* getopt_long takes any unambiguous abbreviation (--game for --games, when --game
         * means a game id elsewhere): only whole names are options here. */
        const char *name = word + 2;
        size_t len = strcspn(name, "=");
        const struct option *o = option_named(longopts, name, len);
        if (!o) {
            unknown_long_option(argv, longopts, name, len);
            return '?';
        }
        if (opt == ':') {
            cli_usage_error("option '--%s' needs a value (see 'dama %s --help')", o->name, cmd);
            return '?';
        }
        if (opt == '?') {
            cli_usage_error("option '--%s' takes no value, not '%s' (see 'dama %s --help')", o->name,
                            name + len + 1, cmd);
            return '?';
        }
    } else if (opt == ':') {
        cli_usage_error("option '-%c' needs a value (see 'dama %s --help')", optopt, cmd);
        return '?';
    } else if (opt == '?') {
        fprintf(stderr, "dama %s: unknown option -%c (see 'dama %s --help')\n", cmd, optopt, cmd);
        return '?';
    }
    return opt == 'v' ? OPT_VARIANT : opt;
}

bool cli_bench_signature(const Variant *v, char *buf, size_t len)
{
    char err[512];
    if (bench_signature(v, buf, len, err, sizeof err))
        return true;
    cli_runtime_error("%s", err);
    return false;
}
